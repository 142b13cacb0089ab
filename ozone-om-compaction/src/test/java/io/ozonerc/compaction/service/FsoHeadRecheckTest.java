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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.service.RoundResult.Compacted;
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

/**
 * A dead head in an FSO bucket, through a real round: the FSO tables key a bucket by ids ({@code /volId/bucketId/})
 * while its label is its name ({@code /vol/fso/}). The round must re-probe the range its probe read, before and
 * after the compaction, and the compaction must leave a seek at the bucket's start stepping over nothing. A
 * re-probe over any other range (the name, say) reads an empty range and calls the head stale.
 */
class FsoHeadRecheckTest {
  private static final String FILES = "fileTable";

  @TempDir
  Path dir;

  @Test
  void theRoundReprobesExactlyTheIdRangeItProbedAndTheHeadIsGone() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      // A live FSO bucket first, so the table's own head is live and the dead head is the second bucket's.
      s.addBucket("vol", 5, "a", 6, BucketLayout.FILE_SYSTEM_OPTIMIZED);
      s.addBucket("vol", 5, "fso", 7, BucketLayout.FILE_SYSTEM_OPTIMIZED);
      s.putFiles(5, 6, 6, 0, 1_000);
      s.putFiles(5, 7, 7, 0, 60_000); // files in the bucket's root directory
      s.flush();
      s.deleteFiles(5, 7, 7, 0, 20_000); // a staging directory drained oldest first
      s.flush();
      long skipsBefore = s.skipsForSeek(FILES, "/5/7/");
      assertTrue(skipsBefore >= 20_000, "a seek at the bucket's start steps over the deletes: " + skipsBefore);

      List<List<KeyRange>> probesAfterPlanning = new ArrayList<>();
      boolean[] planned = {false};
      CompactionStore recording = new ForwardingStore(new OmCompactionStore(s.metadata())) {
        @Override
        public List<HeadFacts> probeHeads(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
            throws IOException {
          if (planned[0]) {
            probesAfterPlanning.add(List.copyOf(ranges));
          }
          return super.probeHeads(table, ranges, tableFiles);
        }
      };
      RangeCompactor compactor = new RangeCompactor(recording, System::nanoTime, new RoundListener() {
        @Override
        public void headsPlanned(CompactionPlan plan) {
          planned[0] = true;
        }
      });
      // Dead heads only: the range test is out of reach.
      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"),
          Map.of("ozone.om.range.compaction.min.tombstones", "1000000000")).load());
      RoundResult r = compactor.run(RoundSettings.offline(Set.of(FILES), c.plannerSettings()),
          () -> false);

      assertEquals(1, r.compacted().size(), String.join("\n", r.describe()));
      Compacted done = r.compacted().get(0);
      assertNotNull(done.head(), "a head compaction: " + done.describe());
      assertEquals(KeyRange.Kind.BUCKET_HEAD, done.before().range().kind());
      KeyRange probed = done.before().probed();
      assertEquals(new KeyRange(FILES, KeyRange.Kind.BUCKET, "/vol/fso/", "/5/7/".getBytes(),
          "/5/70".getBytes()), probed, "the bucket's id range, labelled by its name");
      assertFalse(probesAfterPlanning.isEmpty(), "the executor probed again");
      for (List<KeyRange> call : probesAfterPlanning) {
        assertEquals(List.of(probed), call, "every re-probe reads the range the head was found in");
      }
      assertEquals(List.of(), r.skipped(), "the head was not stale on re-check");
      assertTrue(done.head().deadBefore() >= 20_000, done.describe());
      assertTrue(done.head().deadAfter() <= 10, done.describe());
      assertTrue(s.skipsForSeek(FILES, "/5/7/") <= 10, "RocksDB's skip ticker after the round");
    }
  }
}
