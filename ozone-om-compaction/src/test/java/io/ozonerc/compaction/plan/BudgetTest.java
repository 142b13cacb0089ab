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

package io.ozonerc.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Budget#exhausted} says what {@link Budget#take} would do with any further compaction: when it is true,
 * every candidate (each rewrites files of some bytes) comes back over budget, and when it is false, a candidate of
 * one byte fits. The round asks it before counting buckets, which reads their files. A pass settles what its plan
 * took: a compaction that ran stays charged, at its re-checked bytes, and one that did not run is given back.
 */
class BudgetTest {
  @ParameterizedTest(name = "ranges.per.run={0} bytes.per.run={1}, spent {2} compaction(s) {3} bytes: {4}")
  @CsvSource({
      // ranges.per.run, bytes.per.run, spent compactions, spent bytes, exhausted
      "20, 4096,  0,    0, false",
      "20, 4096,  0, 9999, false", // the round's first compaction always fits
      "20, 4096,  1, 4095, false",
      "20, 4096,  1, 4096, true",
      "20, 4096,  1, 9999, true",
      "20,    0,  5, 9999, false", // 0: no byte limit
      "20,    0, 20,    0, true",
      " 1, 4096,  1,    0, true",
      " 0, 4096,  0,    0, true",
  })
  void exhaustedIsWhatTakeWouldSay(int ranges, long bytes, int spentCompactions, long spentBytes, boolean exhausted) {
    PlannerSettings s = PlannerSettings.defaults().withBudget(ranges, bytes);
    Budget budget = new Budget(s, spentCompactions, spentBytes);
    assertEquals(exhausted, budget.exhausted());
    RangeStats oneByte = new RangeStats(10, 10, 0, 0, 10, 1, 1, 1, 1, false);
    RangeAssessment a = new RangeAssessment(KeyRange.bucket("keyTable", "/v/b/"), oneByte, Verdict.PLANNED, "", false);
    RangeAssessment taken = budget.take(a);
    assertEquals(exhausted, taken != null, "take: " + (taken == null ? "fits" : taken.why()));
  }

  @Test
  void aPassKeepsWhatRanAtItsRecheckedBytesAndGivesBackTheRest() {
    Budget budget = Budget.of(PlannerSettings.defaults().withBudget(2, 100));
    RangeAssessment a = ofBytes("/v/a/", 60);
    RangeAssessment b = ofBytes("/v/b/", 40);
    assertNull(budget.take(a));
    assertNull(budget.take(b));
    assertTrue(budget.exhausted(), "ranges.per.run=2 taken by the plan");
    budget.ran(a, ofBytes("/v/a/", 70)); // compacted at the 70 bytes its re-check found
    budget.giveBack(b);                  // skipped on re-check
    assertFalse(budget.exhausted());
    assertNotNull(budget.take(ofBytes("/v/c/", 31)), "70 + 31 > bytes.per.run=100");
    assertNull(budget.take(ofBytes("/v/c/", 30)));
  }

  private static RangeAssessment ofBytes(String bucket, long fileBytes) {
    RangeStats st = new RangeStats(10, 10, 0, 0, 10, fileBytes, 1, 1, 1, false);
    return new RangeAssessment(KeyRange.bucket("keyTable", bucket), st, Verdict.PLANNED, "", false);
  }
}
