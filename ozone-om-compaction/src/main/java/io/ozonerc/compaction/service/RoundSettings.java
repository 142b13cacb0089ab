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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.PlannerSettings;
import java.time.Duration;
import java.util.Set;

/**
 * The frozen inputs of one round.
 *
 * @param tables              tables to plan over
 * @param planner             thresholds (ranges and dead heads) and budget for the planner
 * @param flushMemtables      flush tables whose memtable deletes qualify before planning
 * @param timeBudgetNanos     no new range compaction starts once this much time has passed; 0 for no limit
 * @param pendingBytesLimit   stop at this many estimated pending compaction bytes in any column family
 * @param level0FilesLimit    stop at this many level-0 files in any column family
 */
public record RoundSettings(Set<String> tables, PlannerSettings planner, boolean flushMemtables,
    long timeBudgetNanos, long pendingBytesLimit, long level0FilesLimit) {

  /** The service's round: everything from the configuration, with the planner settings for this OM's role. */
  public static RoundSettings of(RangeCompactionConfig config, PlannerSettings planner) {
    return new RoundSettings(config.tableSet(), planner, config.isMemtableFlush(), nanos(config.getTimeout()),
        config.getPressurePendingCompactionBytes(), config.getPressureLevel0Files());
  }

  /**
   * A round on a DB no OM holds (the CLI): no time budget and no pressure limits, since no foreground writes
   * wait on it, and no memtable flush, since the tool reports the memtables as it found them. RocksDB's own
   * stop signals (delayed or stopped writes) still end the round. Dead heads are probed, planned and compacted
   * as in the service's round.
   */
  public static RoundSettings offline(Set<String> tables, PlannerSettings planner) {
    return new RoundSettings(tables, planner, false, 0, Long.MAX_VALUE, Long.MAX_VALUE);
  }

  /** A duration in nanoseconds, saturated at {@code Long.MAX_VALUE} (~292 years) instead of overflowing. */
  static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
