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
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import java.util.List;

/** What a caller hears while a round runs (the service turns it into metrics and history). No-ops by default. */
public interface RoundListener {
  default void flushed(MemtableFacts memtable) { }

  default void planned(CompactionPlan plan) { }

  /** What each head of a pass was found to be, by a seek or from a skip hint. */
  default void headsProbed(List<HeadFacts> probed) { }

  /** The dead heads a pass probed: those planned, and those left with the reason ({@code notPlanned}). */
  default void headsPlanned(CompactionPlan plan) { }

  /** The buckets a round counted after its range plan, and what their counts decided. */
  default void counted(List<RangeCount> counts, CompactionPlan plan) { }

  default void compacted(Compacted compaction) { }

  default void skipped(RangeAssessment recheck) { }
}
