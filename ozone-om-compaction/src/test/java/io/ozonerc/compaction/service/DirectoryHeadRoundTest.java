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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.testsupport.SiteConfJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A staging directory in an FSO bucket, its children created and then deleted oldest first, on a real store: a
 * {@code listStatus} of it seeks to {@code /volumeId/bucketId/parentId/} and steps over every deleted child. The
 * directory is not the bucket's first, so neither the table's head nor the bucket's shows it. The round finds it
 * as a directory, compacts its dead head, and a seek at the directory's start then steps over nothing.
 */
class DirectoryHeadRoundTest {
  private static final String FILES = "fileTable";

  @TempDir
  Path dir;

  @Test
  void aDrainedStagingDirectoryIsFoundAndItsHeadCompacted() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket("vol", 5, "fso", 7, BucketLayout.FILE_SYSTEM_OPTIMIZED);
      s.putFiles(5, 7, 100, 0, 2_000);  // a live directory first in the bucket
      s.putFiles(5, 7, 200, 0, 30_000); // the staging directory
      s.putFiles(5, 7, 300, 0, 2_000);
      s.flush();
      s.deleteFiles(5, 7, 200, 0, 20_000); // drained oldest first
      s.flush();
      String staging = "/5/7/200/";
      long before = s.skipsForSeek(FILES, staging);
      assertTrue(before >= 20_000, "a listStatus of the directory steps over its deleted children: " + before);
      assertTrue(s.skipsForSeek(FILES, "/5/7/") <= 1, "the bucket's own start is live");
      String digest = s.digest();

      // Dead heads only (the range test out of reach), as an operator would set it in ozone-site.xml.
      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"),
          Map.of("ozone.om.range.compaction.min.tombstones", "1000000000")).load());
      RangeCompactor compactor = new RangeCompactor(new OmCompactionStore(s.metadata()), System::nanoTime,
          new RoundListener() { });
      RoundResult r = compactor.run(RoundSettings.offline(Set.of(FILES), c.plannerSettings()), () -> false);
      String round = String.join("\n", r.describe());

      assertEquals(1, r.compacted().size(), round);
      Compacted done = r.compacted().get(0);
      assertNotNull(done.head(), round);
      assertEquals(KeyRange.Kind.DIRECTORY_HEAD, done.before().range().kind(), round);
      assertEquals(KeyRange.Kind.DIRECTORY, done.before().probed().kind(), round);
      assertEquals(staging, Keys.show(done.before().probed().begin()), round);
      assertEquals("/vol/fso/ 200/", done.before().probed().label(), "the bucket's name and the directory's id");
      assertTrue(done.head().deadAfter() <= 10, round);
      assertTrue(s.skipsForSeek(FILES, staging) <= 10, "RocksDB's skip ticker after the round");
      assertEquals(digest, s.digest(), "every live key and value as before");
    }
  }
}
