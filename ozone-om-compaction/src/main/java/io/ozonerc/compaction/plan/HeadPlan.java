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

import java.util.List;
import java.util.Map;

/**
 * The dead heads one pass probed and what {@link HeadPlanner#plan} made of them.
 *
 * @param plan   the heads with dead entries, ranked: {@code planned} to compact in this order, {@code notPlanned}
 *               with the reason (below {@code dead.head.min.keys}, waits for level 0, busy, over budget)
 * @param probed every probe's finding, heads without dead entries included
 */
public record HeadPlan(CompactionPlan plan, List<HeadFacts> probed) {

  /** No probes: dead-head probes are off. */
  public static final HeadPlan NONE = new HeadPlan(new CompactionPlan(List.of(), List.of(), Map.of()), List.of());

  /** The probe behind a decision of {@link #plan}: the one over the head's probed range; null when there is none. */
  public HeadFacts probeOf(RangeAssessment head) {
    for (HeadFacts h : probed) {
      if (h.range().equals(head.probed())) {
        return h;
      }
    }
    return null;
  }

  /** Bucket heads probed; the table heads (one per watched table) are not counted. */
  public long bucketsProbed() {
    return probed.stream().filter(h -> !h.isTableHead()).count();
  }
}
