package io.ozonerc.compaction.plan;

/**
 * The thresholds a plan is made with; a frozen copy of the service configuration for one round.
 *
 * @param minTombstones        a range qualifies with at least this many estimated tombstones (0: no minimum)
 * @param tombstoneRatio       ... and at least this share of its entries being tombstones, in (0, 1]
 * @param maxCompactionEntries a range whose overlapping files hold more entries is split at file boundaries
 * @param rangesPerRun         at most this many compactions per round
 * @param maxBytesPerRun       sum of overlapping file bytes one round may rewrite; 0 means no limit
 * @param bottommost           how bottommost files of a range are treated
 */
public record PlannerSettings(long minTombstones, double tombstoneRatio, long maxCompactionEntries,
    int rangesPerRun, long maxBytesPerRun, BottommostMode bottommost) {

  public PlannerSettings {
    if (minTombstones < 0 || maxCompactionEntries <= 0 || rangesPerRun < 0 || maxBytesPerRun < 0
        || !(tombstoneRatio > 0 && tombstoneRatio <= 1)) {
      throw new IllegalArgumentException("invalid planner settings " + minTombstones + " " + tombstoneRatio + " "
          + maxCompactionEntries + " " + rangesPerRun + " " + maxBytesPerRun);
    }
  }

  /** The defaults: 10k tombstones, 30%, 1M entries per compaction, 20 ranges, no byte limit. */
  public static PlannerSettings defaults() {
    return new PlannerSettings(10_000, 0.3, 1_000_000, 20, 0, BottommostMode.AUTO);
  }
}
