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
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.testsupport.SiteConfJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One bucket's 671 deletes in a level-0 file with the puts of 299 other buckets, on a real store, with
 * {@code min.tombstones=500} in ozone-site.xml. The range plan's estimate leaves the bucket far below the threshold,
 * its head is below {@code dead.head.min.keys} and the file set of all buckets is below the ratio; the round counts
 * the bucket, compacts it as a counted range, and a count after finds no tombstone left. Every live key is intact.
 */
class CountedRoundTest {
  private static final String KEYS = "keyTable";
  private static final int BUCKETS = 300;
  private static final int HOT = 150;
  private static final int HOT_KEYS = 1_000;
  private static final int DELETED = 671;

  @TempDir
  Path dir;

  @Test
  void aBucketTheEstimateMissesIsCountedAndCompacted() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      // one level-0 file: a new key of every bucket, and the hot bucket's deletes
      s.oneBucketsDeletesAmongEveryBucketsPuts(BUCKETS, HOT, HOT_KEYS, 40, DELETED);
      String digest = s.digest();
      String hot = "/v/" + OmTestStore.bucketName(HOT) + "/";
      long skipsBefore = s.skipsForSeek(KEYS, hot);

      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"), Map.of(
          "ozone.om.range.compaction.min.tombstones", "500",
          "ozone.om.range.compaction.memtable.flush", "false")).load());
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      RangeCompactor compactor = new RangeCompactor(store, System::nanoTime, new RoundListener() { });
      RoundResult r = compactor.run(RoundSettings.of(c, c.plannerSettings()), () -> false);
      String round = String.join("\n", r.describe());

      RangeAssessment alone = r.plan().notPlanned().stream()
          .filter(a -> a.range().kind() == KeyRange.Kind.BUCKET && a.range().label().equals(hot)).findFirst()
          .orElseThrow();
      assertEquals(Verdict.BELOW_THRESHOLD, alone.verdict(), round);
      assertTrue(alone.stats().tombstones() < DELETED / 2.0, "the estimate the count corrects: " + alone.describe());
      assertEquals(0, r.plannedHeads(), "the head is below dead.head.min.keys: " + round);
      assertEquals(1, r.compacted().size(), round);
      assertTrue(r.summary().startsWith("compacted 1 of 1 planned (0 dead heads, 1 range)"), round);
      RangeAssessment before = r.compacted().get(0).before();
      assertEquals(KeyRange.Kind.COUNTED, before.range().kind(), round);
      assertEquals(hot, before.range().label(), round);
      assertEquals(DELETED, Math.round(before.stats().tombstones()), round);
      assertEquals(DELETED, r.compacted().get(0).tombstonesRemoved(), round);

      KeyRange bucket = store.bucketRanges(Set.of(KEYS)).get(KEYS).stream().filter(b -> b.label().equals(hot))
          .findFirst().orElseThrow();
      List<RangeCount> after = store.countRanges(KEYS, List.of(bucket), store.liveFiles(Set.of(KEYS)));
      assertEquals(0, after.get(0).tombstones(), "RocksDB's files hold no tombstone of the bucket: " + after);
      assertTrue(skipsBefore >= DELETED, "a listing stepped over the deletes before: " + skipsBefore);
      assertTrue(s.skipsForSeek(KEYS, hot) <= 1, "a listing of the bucket skips nothing now");
      assertEquals(digest, s.digest(), "every live key and value as before");
    }
  }

  /**
   * Counting reads files for compactions to come, so a round whose range pass used up {@code bytes.per.run} counts
   * nothing: the store above with one more bucket whose 30k deletes sit in a level-0 file of their own, which the
   * range plan compacts first. With no byte limit the round goes on to count and compact the hot bucket; with
   * {@code bytes.per.run=1} the first compaction spends it, and no bucket is counted.
   */
  @ParameterizedTest(name = "bytes.per.run={0}: counted {1}")
  @CsvSource({"0, true", "1, false"})
  void aRoundWhoseBytesAreSpentCountsNothing(String bytesPerRun, boolean counts) throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.oneBucketsDeletesAmongEveryBucketsPuts(BUCKETS, HOT, HOT_KEYS, 40, DELETED);
      s.addBucket("v", 1, "z", 9_999, BucketLayout.OBJECT_STORE); // sorts after every b%04d bucket
      s.putKeys("v", "z", 0, 50_000);
      s.deleteKeys("v", "z", 20_000, 50_000); // its first key live: no dead head, 30k tombstones
      s.flush();
      String digest = s.digest();

      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"), Map.of(
          "ozone.om.range.compaction.min.tombstones", "500",
          "ozone.om.range.compaction.bytes.per.run", bytesPerRun,
          "ozone.om.range.compaction.memtable.flush", "false")).load());
      List<List<RangeCount>> heard = new ArrayList<>();
      RangeCompactor compactor = new RangeCompactor(new OmCompactionStore(s.metadata()), System::nanoTime,
          new RoundListener() {
            @Override
            public void counted(List<RangeCount> countsMade, CompactionPlan plan) {
              heard.add(countsMade);
            }
          });
      RoundResult r = compactor.run(RoundSettings.of(c, c.plannerSettings()), () -> false);
      String round = String.join("\n", r.describe());

      assertEquals(KeyRange.Kind.BUCKET, r.compacted().get(0).before().range().kind(), round);
      assertEquals("/v/z/", r.compacted().get(0).before().range().label(), round);
      if (counts) {
        assertEquals(1, heard.size(), round);
        assertTrue(heard.get(0).stream().anyMatch(n -> n.tombstones() == DELETED), "the hot bucket counted: " + round);
        assertEquals(2, r.compacted().size(), round);
        assertEquals(KeyRange.Kind.COUNTED, r.compacted().get(1).before().range().kind(), round);
      } else {
        assertEquals(0, heard.size(), "no bucket counted once the bytes are spent, yet "
            + heard.stream().mapToInt(List::size).sum() + " were: " + round);
        assertEquals(1, r.compacted().size(), round);
      }
      assertEquals(digest, s.digest(), "every live key and value as before");
    }
  }
}
