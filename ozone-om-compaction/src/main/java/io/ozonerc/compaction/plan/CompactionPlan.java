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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A round's decisions.
 *
 * @param planned          ranges to compact, best first, already within the round's budget
 * @param notPlanned       every other range holding data, with the reason (below threshold, busy, budget, ...)
 * @param worstRatioByTable highest tombstone ratio of any assessed range, per table (0 for a table with no data)
 * @param complete         false when planning was stopped early (round deadline, shutdown): the plan ranks only
 *                         the ranges assessed before the stop
 */
public record CompactionPlan(List<RangeAssessment> planned, List<RangeAssessment> notPlanned,
    Map<String, Double> worstRatioByTable, boolean complete) {

  public CompactionPlan(List<RangeAssessment> planned, List<RangeAssessment> notPlanned,
      Map<String, Double> worstRatioByTable) {
    this(planned, notPlanned, worstRatioByTable, true);
  }

  /**
   * This plan followed by {@code later}, made in the same round after it (the counted buckets after the ranges):
   * its planned ranges after these, its other ranges after these.
   */
  public CompactionPlan then(CompactionPlan later) {
    List<RangeAssessment> p = new ArrayList<>(planned);
    p.addAll(later.planned());
    List<RangeAssessment> n = new ArrayList<>(notPlanned);
    n.addAll(later.notPlanned());
    return new CompactionPlan(List.copyOf(p), List.copyOf(n), worstRatioByTable, complete);
  }

  /**
   * This plan without its ranges below the thresholds: nearly all of a plan's ranges (some 200,000 on an OM with
   * 100,000 buckets), and none of the verdicts a round's summary or metrics count.
   */
  public CompactionPlan withoutBelowThreshold() {
    List<RangeAssessment> kept = new ArrayList<>();
    for (RangeAssessment a : notPlanned) {
      if (a.verdict() != Verdict.BELOW_THRESHOLD) {
        kept.add(a);
      }
    }
    return new CompactionPlan(planned, List.copyOf(kept), worstRatioByTable, complete);
  }

  public long plannedBytes() {
    return planned.stream().mapToLong(a -> a.stats().fileBytes()).sum();
  }

  /** Human form: planned ranges numbered in order, then the rest; used by fixtures, logs and the CLI. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    int n = 1;
    for (RangeAssessment a : planned) {
      lines.add(n++ + ". " + a.describe());
    }
    for (RangeAssessment a : notPlanned) {
      lines.add("-  " + a.describe());
    }
    if (!complete) {
      lines.add("(planning stopped early: later ranges were not assessed)");
    }
    return lines;
  }
}
