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
 * The thresholds a plan is made with, for ranges and for dead heads alike; a frozen copy of the service
 * configuration for one round ({@code RangeCompactionConfig#plannerSettings()}).
 *
 * @param minTombstones        a range qualifies with at least this many estimated tombstones (0: no minimum)
 * @param tombstoneRatio       ... and at least this share of its entries being tombstones, in (0, 1]
 * @param maxCompactionEntries a range whose overlapping files hold more entries is split at file boundaries
 * @param rangesPerRun         at most this many compactions per round
 * @param maxBytesPerRun       sum of overlapping file bytes one round may rewrite; 0 means no limit
 * @param bottommost           how bottommost files of a range are treated
 * @param deadHeadMinKeys      a dead head (table, bucket or directory) is compacted from this many dead entries;
 *                             0 turns dead heads off
 */
public record PlannerSettings(long minTombstones, double tombstoneRatio, long maxCompactionEntries,
    int rangesPerRun, long maxBytesPerRun, BottommostMode bottommost, long deadHeadMinKeys) {

  /** The configuration's default for {@code bytes.per.run}: 4 GB. */
  public static final long DEFAULT_BYTES_PER_RUN = 4L << 30;

  public PlannerSettings {
    if (minTombstones < 0 || maxCompactionEntries <= 0 || rangesPerRun < 0 || maxBytesPerRun < 0
        || deadHeadMinKeys < 0 || bottommost == null || !(tombstoneRatio > 0 && tombstoneRatio <= 1)) {
      throw new IllegalArgumentException("invalid planner settings " + minTombstones + " " + tombstoneRatio + " "
          + maxCompactionEntries + " " + rangesPerRun + " " + maxBytesPerRun + " " + bottommost + " "
          + deadHeadMinKeys);
    }
  }

  /**
   * The configuration's defaults (a test holds them equal): 10k tombstones, 30%, 1M entries per compaction, 20
   * compactions and 4 GB per round, bottommost auto, dead heads from 2,000 entries.
   */
  public static PlannerSettings defaults() {
    return new PlannerSettings(10_000, 0.3, 1_000_000, 20, DEFAULT_BYTES_PER_RUN, BottommostMode.AUTO, 2_000);
  }

  /** The same thresholds with another budget per round (the leader policy's reduced rounds). */
  public PlannerSettings withBudget(int ranges, long bytes) {
    return new PlannerSettings(minTombstones, tombstoneRatio, maxCompactionEntries, ranges, bytes, bottommost,
        deadHeadMinKeys);
  }

  /** The same thresholds with dead heads at another minimum (0: off). */
  public PlannerSettings withDeadHeadMinKeys(long minKeys) {
    return new PlannerSettings(minTombstones, tombstoneRatio, maxCompactionEntries, rangesPerRun, maxBytesPerRun,
        bottommost, minKeys);
  }
}
