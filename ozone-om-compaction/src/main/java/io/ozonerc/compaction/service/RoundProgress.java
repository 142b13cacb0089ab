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

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.util.List;
import java.util.Map;

/**
 * What the passes of a round ({@link RangeCompactor}: heads, ranges, counted buckets) did so far; {@code stop} is
 * null while it runs on. {@code readings}: every probed head, left at its probed count or, when the round compacted
 * it, at the count after.
 */
record RoundProgress(List<Compacted> done, List<RangeAssessment> skipped, int left, Stop stop,
    List<HeadPace.Reading> readings) {
  static final RoundProgress NONE = new RoundProgress(List.of(), List.of(), 0, null, List.of());

  RoundResult result(CompactionPlan plan, HeadPlan headPlan, List<MemtableFacts> flushed, long ms) {
    return new RoundResult(stop == null ? Outcome.COMPLETED : stop.outcome(), stop == null ? "" : stop.detail(),
        plan, headPlan, flushed, done, skipped, left, ms, readings);
  }

  /** The head readings a pass leaves: its own when it ran heads, else those of the pass before it. */
  static List<HeadPace.Reading> readingsOf(Map<KeyRange, HeadPace.Reading> readings, RoundProgress before) {
    return readings == null ? before.readings() : List.copyOf(readings.values());
  }
}
