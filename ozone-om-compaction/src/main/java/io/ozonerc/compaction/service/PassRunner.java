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

import io.ozonerc.compaction.plan.Budget;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlanMemory;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the planned compactions of one pass of a round (dead heads, ranges or counted buckets) in plan order through
 * the one {@link CompactionExecutor}, with the round's stop checks asked before each, and tells the round's
 * listener of each compaction or skip. What to run is decided before: by the planners, in {@link RangeCompactor}.
 * A pass settles the round's budget: what ran stays taken, what was skipped or left by a stop is given back
 * ({@link Budget}). A head pass also keeps, per probed head, what the head was left at ({@link HeadPace.Reading}),
 * from which the service paces its next head checks.
 */
final class PassRunner {
  /**
   * What the passes of one round share.
   *
   * @param settings      the thresholds each compaction is re-checked by
   * @param sortedBuckets per table, its bucket ranges in key order (empty for a head check)
   * @param stops         asked before each compaction
   * @param budget        the round's one budget, which its plans took from
   */
  record Round(PlannerSettings settings, Map<String, List<KeyRange>> sortedBuckets, Stop.Check stops,
      Budget budget) {
    List<KeyRange> bucketsOf(String table) {
      return sortedBuckets.getOrDefault(table, List.of());
    }
  }

  private final CompactionExecutor executor;
  private final RoundListener listener;
  private final PlanMemory memory;

  PassRunner(CompactionExecutor executor, RoundListener listener, PlanMemory memory) {
    this.executor = executor;
    this.listener = listener;
    this.memory = memory;
  }

  /** Runs the planned dead heads in order; remembers the hot ones and paces from what each was left at. */
  RoundProgress heads(Round round, HeadPlan headPlan) throws IOException {
    memory.rememberHot(headPlan.probed(), round.settings().deadHeadMinKeys());
    Map<KeyRange, HeadPace.Reading> readings = new LinkedHashMap<>();
    headPlan.probed().forEach(h -> readings.put(h.range(),
        new HeadPace.Reading(h.range(), h.deadEntries(), h.deadEntries())));
    listener.headsProbed(headPlan.probed());
    listener.headsPlanned(headPlan.plan());
    headPlan.plan().notPlanned().forEach(a -> HeadPace.markHeld(readings, a));
    return run(round, headPlan.plan().planned(), RoundProgress.NONE, readings);
  }

  /** Runs planned ranges or counted buckets in order, after what {@code before} (an earlier pass) did. */
  RoundProgress ranges(Round round, List<RangeAssessment> planned, RoundProgress before) throws IOException {
    return run(round, planned, before, null);
  }

  /** {@code readings} is updated for heads; null for a range pass. */
  private RoundProgress run(Round round, List<RangeAssessment> planned, RoundProgress before,
      Map<KeyRange, HeadPace.Reading> readings) throws IOException {
    List<Compacted> done = new ArrayList<>(before.done());
    List<RangeAssessment> skipped = new ArrayList<>(before.skipped());
    for (int next = 0; next < planned.size(); next++) {
      Stop stop = round.stops().check();
      if (stop != null) {
        planned.subList(next, planned.size()).forEach(round.budget()::giveBack); // left: not run
        return new RoundProgress(done, skipped, planned.size() - next, stop,
            RoundProgress.readingsOf(readings, before));
      }
      RangeAssessment p = planned.get(next);
      CompactionExecutor.Ran ran = executor.run(p, round.bucketsOf(p.range().table()), round.settings(),
          round.stops());
      if (ran.skipped() != null) {
        round.budget().giveBack(p);
        skipped.add(ran.skipped());
        listener.skipped(ran.skipped());
        if (readings != null) {
          HeadPace.markHeld(readings, ran.skipped());
        }
        continue;
      }
      round.budget().ran(p, ran.compacted().before());
      done.add(ran.compacted());
      listener.compacted(ran.compacted());
      if (readings != null && ran.headBefore() != null) {
        KeyRange probed = p.probed();
        HeadPace.Reading seen = readings.get(probed);
        // Still dead after both passes: held until its files change. Left by a stop before its rewrite: not held,
        // so the next check comes soon.
        readings.put(probed, new HeadPace.Reading(probed,
            seen == null ? ran.headBefore().deadEntries() : seen.probed(), ran.headAfter().deadEntries(),
            ran.leftStuck()));
      }
      if (ran.stop() != null) {
        // This one was compacted; its bottommost rewrite is left to a later round.
        planned.subList(next + 1, planned.size()).forEach(round.budget()::giveBack);
        return new RoundProgress(done, skipped, planned.size() - next - 1, ran.stop(),
            RoundProgress.readingsOf(readings, before));
      }
    }
    return new RoundProgress(done, skipped, 0, null, RoundProgress.readingsOf(readings, before));
  }
}
