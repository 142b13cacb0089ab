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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Guards the planner's cost in steps ({@link PlanWork}: key comparisons and files or buckets visited), never in
 * time: a plan over B buckets and F files must stay near O((B + F) log(B + F)), and a stop condition must end
 * planning early with a plan that says it is partial.
 */
class PlannerComplexityTest {

  /**
   * Levels 1..6 partition the key space into disjoint files (counts growing ~10x per level), 8 level-0 files each
   * span almost every bucket, and every 50th bucket holds tombstones.
   */
  static List<SstFile> lsm(int fileCount, int bucketCount) {
    List<SstFile> out = new ArrayList<>();
    int[] perLevel = new int[7];
    perLevel[0] = 8;
    int rest = fileCount - perLevel[0];
    int[] weights = {0, 1, 2, 5, 20, 120, 852}; // per mille, deepest largest
    int sum = 0;
    for (int l = 1; l <= 5; l++) {
      perLevel[l] = Math.max(1, rest * weights[l] / 1000);
      sum += perLevel[l];
    }
    perLevel[6] = rest - sum;
    long keys = (long) bucketCount * 100;
    long seq = 1;
    for (int l = 6; l >= 1; l--) {
      long per = keys / perLevel[l];
      for (int i = 0; i < perLevel[l]; i++) {
        long lo = i * per;
        long hi = (i + 1) * per - 1;
        boolean churned = (lo / 100) % 50 == 0;
        out.add(file(l, lo, hi, 10_000, l < 6 && churned ? 8_000 : 0, seq++));
      }
    }
    for (int i = 0; i < perLevel[0]; i++) {
      out.add(file(0, i, keys - 1 - i, 40_000, 30_000, seq++));
    }
    return out;
  }

  private static SstFile file(int level, long lo, long hi, long entries, long deletions, long seq) {
    return new SstFile("keyTable", "/" + seq + ".sst", level, key(lo), key(hi), entries, deletions, entries * 50,
        seq, false);
  }

  private static byte[] key(long k) {
    return Keys.utf8(String.format("/v/b%07d/k%03d", k / 100, k % 100));
  }

  static Map<String, List<KeyRange>> buckets(int n) {
    List<KeyRange> out = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      out.add(KeyRange.bucket("keyTable", String.format("/v/b%07d/", b)));
    }
    return Map.of("keyTable", out);
  }

  private static long steps(int files, int bucketCount) {
    PlanWork work = PlanWork.unbounded();
    CompactionPlan plan = RangePlanner.plan(lsm(files, bucketCount), buckets(bucketCount), List.of(),
        PlannerSettings.defaults(), work);
    assertTrue(plan.complete());
    assertTrue(plan.planned().size() + plan.notPlanned().size() >= bucketCount, "every bucket is assessed");
    System.out.printf("%d files x %d buckets: %d steps%n", files, bucketCount, work.steps());
    return work.steps();
  }

  /**
   * A plan keeps one estimate per stretch of file bounds for the whole buckets lying in it
   * ({@link TableFacts#wholeBucketStretch}); each must equal what the files give for that bucket alone, and most
   * buckets of this shape must be served from a kept estimate (or the shortcut does nothing).
   */
  @Test
  void aKeptStretchEstimateIsWhatTheFilesGiveForEachBucket() {
    List<SstFile> files = lsm(150, 2_000);
    List<KeyRange> buckets = buckets(2_000).get("keyTable");
    TableFacts shared = TableFacts.of(files, buckets);
    int kept = 0;
    for (KeyRange b : buckets) {
      boolean wasKept = shared.wholeBucketStretch(b.begin(), b.end()) >= 0
          && shared.stretchEstimate(shared.wholeBucketStretch(b.begin(), b.end())) != null;
      kept += wasKept ? 1 : 0;
      RangeStats alone = RangeStats.estimateFromFiles(TableFacts.of(files, buckets), b.begin(), b.end());
      assertEquals(alone, RangeStats.estimate(shared, b.begin(), b.end()), b.label());
    }
    assertTrue(kept > buckets.size() / 2, "buckets served from a kept estimate: " + kept);
  }

  @Test
  void aLargeOmIsPlannedInNearLinearSteps() {
    int files = 10_000;
    int bucketCount = 100_000;
    long steps = steps(files, bucketCount);
    // n log2 n with n = B + F = 110,000 is ~1.8M; per range the planner searches ~7 levels twice, shares the 8
    // straddling level-0 files and sizes its compaction, so allow 60 n log n. A planner scanning every file per
    // bucket would take B x F = 1e9 steps.
    double n = files + bucketCount;
    long bound = (long) (60 * n * (Math.log(n) / Math.log(2)));
    assertTrue(steps <= bound, "plan of " + files + " files x " + bucketCount + " buckets took " + steps
        + " steps, bound " + bound);
  }

  @Test
  void tenTimesTheBucketsCostsAboutTenTimesTheSteps() {
    long small = steps(1_000, 10_000);
    long large = steps(1_000, 100_000);
    // Linear is 10x; the log factor adds a little. Quadratic in buckets would be 100x.
    assertTrue(large <= 15 * small, "10x buckets: " + small + " -> " + large + " steps");
    long moreFiles = steps(10_000, 10_000);
    assertTrue(moreFiles <= 15 * small, "10x files: " + small + " -> " + moreFiles + " steps");
  }

  @Test
  void aStopConditionEndsPlanningWithAPartialPlan() {
    List<SstFile> files = lsm(1_000, 10_000);
    int[] asked = new int[1];
    PlanWork work = PlanWork.until(() -> ++asked[0] > 100);
    CompactionPlan plan = RangePlanner.plan(files, buckets(10_000), List.of(), PlannerSettings.defaults(), work);
    assertFalse(plan.complete());
    assertTrue(work.stopped());
    assertEquals(101, asked[0], "asked once per range until it said stop, then no more");
    int assessed = plan.planned().size() + plan.notPlanned().size();
    assertTrue(assessed <= 100, "only ranges before the stop are assessed: " + assessed);
    assertEquals("(planning stopped early: later ranges were not assessed)",
        plan.describe().get(plan.describe().size() - 1));
  }
}
