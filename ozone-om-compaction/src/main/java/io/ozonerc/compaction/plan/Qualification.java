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

/**
 * One key range against the thresholds: the test every planner's assessment rests on. Its estimated tombstones
 * must reach {@code min.tombstones} and their share of its entries {@code tombstone.ratio} (TiKV's and
 * HDDS-12682's test); {@code bottommost.mode} decides whether its compaction also rewrites the bottom level; a range
 * that qualifies is costed ({@link CompactionCost}) and is {@link Verdict#BUSY} when a file it would take is being
 * compacted. {@link RangePlanner} judges each of its ranges so; {@link HeadPlanner} and {@link CountPlanner} start
 * from it and judge a head by its probe, a bucket by its count.
 *
 * <p>Pure: no clock, no I/O, no RocksDB.
 */
final class Qualification {
  private Qualification() { }

  /** Assesses {@code range} of an indexed table: the test, the bottommost decision, the cost and the words. */
  static RangeAssessment assess(KeyRange range, TableFacts t, PlannerSettings s) {
    return explain(inPlan(range, t, s), t);
  }

  /**
   * {@link #assess} as a plan makes it: a range below the thresholds is left unexplained (no cost, no words), since
   * nearly every range of a plan is one, and a report asks for few of them ({@link #explain}).
   */
  static RangeAssessment inPlan(KeyRange range, TableFacts t, PlannerSettings s) {
    RangeStats est = RangeStats.estimate(t, range.begin(), range.end());
    boolean force = switch (s.bottommost()) {
    case FORCE -> true;
    case SKIP -> false;
    // Tombstones in the deepest level are dropped only by a bottommost rewrite; elsewhere the merge drops them.
    case AUTO -> est.deepestLevel() > 0 && est.tombstones() > 0 && est.bottomTombstones() * 2 >= est.tombstones();
    };
    long tombstones = Math.round(est.tombstones());
    if (est.deepestLevel() < 0 || tombstones < s.minTombstones() || est.tombstoneRatio() < s.tombstoneRatio()) {
      // Nearly every range of a plan ends here: its cost and words are worked out only when a report asks.
      return RangeAssessment.unexplained(range, est, force, s);
    }
    RangeStats st = est.withCost(CompactionCost.estimate(t, range.begin(), range.end(), force));
    Verdict v = st.busy() ? Verdict.BUSY : Verdict.PLANNED;
    return new RangeAssessment(range, st, v, why(st, s, st.busy() ? "an overlapping file is being compacted; " : ""),
        force);
  }

  /**
   * The cost and the words of an assessment {@link #inPlan} left unexplained, worked out from {@code index}, the
   * facts of its table; any other assessment as it is.
   */
  static RangeAssessment explain(RangeAssessment a, TableFacts index) {
    if (a.explained()) {
      return a;
    }
    KeyRange r = a.range();
    RangeStats st = a.stats().withCost(CompactionCost.estimate(index, r.begin(), r.end(), a.forceBottommost()));
    return a.explainedAs(st, why(st, a.thresholds(), ""));
  }

  /** The numbers a verdict rests on, in words. */
  private static String why(RangeStats st, PlannerSettings s, String lead) {
    long tombstones = Math.round(st.tombstones());
    // Built by hand: String.format costs more than the rest of an assessment.
    String numbers = lead + "tombstones " + tombstones + (tombstones >= s.minTombstones() ? " >= " : " < ")
        + s.minTombstones() + ", ratio " + twoDecimals(st.tombstoneRatio())
        + (st.tombstoneRatio() >= s.tombstoneRatio() ? " >= " : " < ") + twoDecimals(s.tombstoneRatio());
    if (st.fileEntries() > s.maxCompactionEntries()) {
      numbers += "; file entries " + st.fileEntries() + " > max.compaction.entries, not splittable at a file boundary";
    }
    return numbers;
  }

  /** A ratio in [0, 1] with two decimals, as {@code %.2f} prints it (but for ties lost in binary). */
  static String twoDecimals(double x) {
    long hundredths = Math.round(x * 100);
    return (hundredths / 100) + "." + (hundredths % 100 < 10 ? "0" : "") + (hundredths % 100);
  }
}
