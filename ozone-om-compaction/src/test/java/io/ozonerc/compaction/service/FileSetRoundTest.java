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

package io.ozonerc.compaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.testsupport.SiteConfJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * Many buckets, each with a few deletes at its start, all in files that span every bucket, on a real store: no
 * bucket passes {@code min.tombstones} alone and no head passes {@code dead.head.min.keys}, but one compaction of the
 * shared files removes every tombstone. The round plans that compaction as one file set and RocksDB's own counts
 * show the tombstones gone; every live key is still there.
 */
class FileSetRoundTest {
  private static final String KEYS = "keyTable";
  private static final int BUCKETS = 400;

  @TempDir
  Path dir;

  @Test
  void bucketsSharingTheirFilesAreCompactedTogether() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      for (int b = 0; b < BUCKETS; b++) {
        s.addBucket("v", 1, bucket(b), 10 + b, BucketLayout.OBJECT_STORE);
        s.putKeys("v", bucket(b), 0, 300);
      }
      s.flush(); // one level-0 file spanning every bucket
      for (int b = 0; b < BUCKETS; b++) {
        s.deleteKeys("v", bucket(b), 0, 150);
      }
      s.flush(); // and one holding every bucket's deletes
      long deletions = deletions(s);
      assertEquals(BUCKETS * 150L, deletions, "RocksDB counts every delete");
      String digest = s.digest();

      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"),
          Map.of("ozone.om.range.compaction.memtable.flush", "false")).load());
      RangeCompactor compactor = new RangeCompactor(new OmCompactionStore(s.metadata()), System::nanoTime,
          new RoundListener() { });
      RoundResult r = compactor.run(RoundSettings.of(c, c.plannerSettings()), () -> false);
      String round = String.join("\n", r.describe());

      long alone = r.plan().notPlanned().stream().filter(a -> a.range().kind() == KeyRange.Kind.BUCKET
          && a.verdict() == Verdict.BELOW_THRESHOLD && a.stats().tombstones() > 0).count();
      assertEquals(BUCKETS, alone, "every bucket fails the test alone: " + round);
      assertEquals(0, r.plannedHeads(), "no head passes dead.head.min.keys: " + round);
      assertEquals(1, r.compacted().size(), round);
      RangeAssessment set = r.compacted().get(0).before();
      assertEquals(KeyRange.Kind.FILE_SET, set.range().kind(), round);
      assertEquals("/v/" + bucket(0) + "/", Keys.show(set.range().begin()), round);
      assertEquals(0, deletions(s), "no tombstone left in the table's files");
      assertTrue(s.skipsForSeek(KEYS, "/v/" + bucket(BUCKETS / 2) + "/") <= 1, "a listing skips nothing");
      assertEquals(digest, s.digest(), "every live key and value as before");
    }
  }

  private static String bucket(int b) {
    return String.format("b%04d", b);
  }

  private static long deletions(OmTestStore s) throws IOException {
    long sum = 0;
    for (LiveFileMetaData f : s.filesOverlapping(KEYS, new byte[0], null)) {
      sum += f.numDeletions();
    }
    return sum;
  }
}
