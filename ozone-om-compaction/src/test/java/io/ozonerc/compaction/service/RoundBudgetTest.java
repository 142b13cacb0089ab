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
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.testsupport.SiteConfJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ranges.per.run} and {@code bytes.per.run} hold for a whole round, across every kind of compaction: a round
 * whose dead heads spent the budget plans its ranges as over budget. On a real store with a queue's dead head and a
 * tombstone-heavy bucket, each qualifying in its own pass; settings from an ozone-site.xml.
 */
class RoundBudgetTest {
  @TempDir
  Path dir;

  @ParameterizedTest(name = "{0}={1}: {2} compaction(s)")
  @CsvSource({
      // key,                                   value, compactions, the range over budget
      "ozone.om.range.compaction.ranges.per.run, 20,   2,           false",
      "ozone.om.range.compaction.ranges.per.run, 1,    1,           true",
      "ozone.om.range.compaction.bytes.per.run,  1,    1,           true",
  })
  void oneBudgetPerRound(String key, String value, int compactions, boolean rangeOverBudget) throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket("v", 1, "q", 2, BucketLayout.OBJECT_STORE);
      s.addBucket("v", 1, "r", 3, BucketLayout.OBJECT_STORE);
      // Level-0 files of one bucket each: q's puts, then q's deletes, then r's puts and deletes.
      s.putKeys("v", "q", 0, 50_000);
      s.flush();
      s.deleteKeys("v", "q", 0, 5_000); // a dead head (the table's); 5k tombstones are below the range test
      s.flush();
      s.putKeys("v", "r", 0, 50_000);
      s.deleteKeys("v", "r", 20_000, 50_000); // its first key live: no head, but 30k tombstones
      s.flush();

      Map<String, String> site = new HashMap<>();
      site.put(key, value);
      site.put("ozone.om.range.compaction.memtable.flush", "false");
      RangeCompactionConfig c = RangeCompactionConfig.from(SiteConfJvm.withSite(dir.resolve("conf"), site).load());
      RangeCompactor compactor = new RangeCompactor(new OmCompactionStore(s.metadata()), System::nanoTime,
          new RoundListener() { });
      RoundResult r = compactor.run(RoundSettings.of(c, c.plannerSettings()), () -> false);

      String round = String.join("\n", r.describe()) + "\nheads probed: " + r.headPlan().probed()
          + "\nheads not planned: " + r.headPlan().plan().notPlanned().stream().map(a -> a.describe()).toList();
      assertEquals(compactions, r.compacted().size(), round);
      KeyRange first = r.compacted().get(0).before().range();
      assertTrue(first.kind().isHead() && Keys.show(first.end()).startsWith("/v/q/"), "heads go first: " + round);
      boolean over = r.plan().notPlanned().stream()
          .anyMatch(a -> a.verdict() == Verdict.OVER_BUDGET && a.range().label().startsWith("/v/r/"));
      assertEquals(rangeOverBudget, over, round);
      assertTrue(rangeOverBudget || r.compacted().get(1).before().range().label().startsWith("/v/r/"), round);
      assertEquals(List.of(), r.skipped(), round);
    }
  }
}
