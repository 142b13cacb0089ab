/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.ozonerc.compaction.rocks;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * One bucket's deletes in a level-0 file with the puts of 300 other buckets, on a real store: the planner's
 * estimate gives the bucket a small share of the file's deletions, the count finds every one. Exact numbers:
 * each file's contents are known.
 */
class RangeCounterTest {
  private static final String KEYS = "keyTable";
  private static final int BUCKETS = 300;
  private static final int HOT = 150;
  private static final int HOT_KEYS = 1_000;
  private static final int DELETED = 671;
  private static final int COLD_KEYS = 40;

  @TempDir
  Path dir;

  @Test
  void aBucketsDeletesInASharedLevel0FileAreCountedExactly() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.oneBucketsDeletesAmongEveryBucketsPuts(BUCKETS, HOT, HOT_KEYS, COLD_KEYS, DELETED);
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      List<SstFile> files = store.liveFiles(Set.of(KEYS));
      List<KeyRange> buckets = store.bucketRanges(Set.of(KEYS)).get(KEYS);
      KeyRange hot = buckets.stream().filter(b -> b.label().equals("/v/" + OmTestStore.bucketName(HOT) + "/"))
          .findFirst().orElseThrow();
      long level0Deletions = s.filesOverlapping(KEYS, new byte[0], null).stream().filter(f -> f.level() == 0)
          .mapToLong(LiveFileMetaData::numDeletions).sum();
      assertEquals(DELETED, level0Deletions, "RocksDB's own count of the level-0 file's deletions");

      double estimate = RangePlanner.assess(hot, files, RangePlanner.sortedBuckets(buckets),
          PlannerSettings.defaults()).stats().tombstones();
      RangeCount counted = store.countRanges(KEYS, List.of(hot), files).get(0);

      assertTrue(estimate < DELETED / 2.0, "the estimate this count corrects: " + estimate);
      assertEquals(DELETED, counted.tombstones(), counted.toString());
      // its 1,000 puts below, one new put and 671 tombstones above
      assertEquals(HOT_KEYS + 1 + DELETED, counted.entries(), counted.toString());
      assertTrue(counted.filesRead() >= 1, counted.toString());

      // a straddling file RocksDB deleted since the file list was read (a compaction finished): not counted
      List<SstFile> withGone = new ArrayList<>(files);
      withGone.add(new SstFile(KEYS, "/999999.sst", 1, "/v/".getBytes(UTF_8),
          "/v/zzz".getBytes(UTF_8), 10, 5, 1000, 1, false));
      assertEquals(List.of(), store.countRanges(KEYS, List.of(hot), withGone));

      KeyRange cold = buckets.stream().filter(b -> b.label().equals("/v/" + OmTestStore.bucketName(HOT + 1) + "/"))
          .findFirst().orElseThrow();
      RangeCount c = store.countRanges(KEYS, List.of(cold), files).get(0);
      assertEquals(0, c.tombstones(), c.toString());
      assertEquals(COLD_KEYS + 1, c.entries(), c.toString());
    }
  }
}
