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

import java.util.Locale;

/** What the planner decided for one range. Prints as the lower-case words used in fixtures and the CLI. */
public enum Verdict {
  /** Chosen for this round. */
  PLANNED,
  /** Too few tombstones, or too low a share of them. */
  BELOW_THRESHOLD,
  /** RocksDB is compacting an overlapping file now; next round will see the result. */
  BUSY,
  /** Its last compaction removed no tombstone and its files have not changed since (see {@link NoProgress}). */
  NO_PROGRESS,
  /** Qualified, but the round's range or byte budget was spent on higher-scoring ranges. */
  OVER_BUDGET,
  /** Qualified when planned, no longer qualified when re-checked just before compaction. */
  STALE,
  /**
   * A dead head, or a counted bucket, whose compaction would rewrite more than {@code max.compaction.entries}
   * because level-0 files that span other ranges pull in everything below them; left to RocksDB's own level-0
   * compaction, which takes that part anyway (see {@link HeadPlanner#assess}, {@link CountPlanner#assess}).
   */
  WAITS_FOR_LEVEL0,
  /**
   * A dead head that listings skip (the OM's skip hints span it), so it costs space, not reads; left alone until
   * its compaction would rewrite mostly its own dead entries (see {@link HeadPlanner#assess}).
   */
  SKIPPED_BY_READERS;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
