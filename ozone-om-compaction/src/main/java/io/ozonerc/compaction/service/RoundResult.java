package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.RangeAssessment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one round saw and did.
 *
 * @param outcome    how the round ended
 * @param detail     the reason in words (pressure signal, error message), empty when completed
 * @param plan       the plan the round made, null when it ended before planning
 * @param compacted  ranges compacted, in order, with their facts before and after
 * @param stale      planned ranges that no longer qualified when re-checked
 * @param left       planned ranges not attempted because the round stopped (pressure, time, shutdown)
 * @param durationMs wall time of the round
 */
public record RoundResult(Outcome outcome, String detail, CompactionPlan plan, List<Compacted> compacted,
    int stale, int left, long durationMs) {

  /** How a round ended. */
  public enum Outcome {
    COMPLETED, PRESSURE, TIME_BUDGET, SHUTDOWN, BACKING_OFF, LEADER_SKIPPED, STORE_UNAVAILABLE, FAILED;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** One range compaction: the re-check right before it, the facts right after it, and its duration. */
  public record Compacted(RangeAssessment before, RangeAssessment after, long timeMs) {
    public long tombstonesRemoved() {
      return Math.max(0, Math.round(before.stats().tombstones() - after.stats().tombstones()));
    }
  }

  static RoundResult early(Outcome outcome, String detail, long durationMs) {
    return new RoundResult(outcome, detail, null, List.of(), 0, 0, durationMs);
  }

  /** Human summary, one line per compaction. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "round %s%s: planned=%d compacted=%d stale=%d left=%d in %d ms",
        outcome, detail.isEmpty() ? "" : " (" + detail + ")", plan == null ? 0 : plan.planned().size(),
        compacted.size(), stale, left, durationMs));
    for (Compacted c : compacted) {
      lines.add(String.format(Locale.ROOT, "  compacted %s %s: tombstones %d -> %d, %d bytes, bottommost=%s, %d ms",
          c.before().range(), c.before().range().label(), Math.round(c.before().stats().tombstones()),
          Math.round(c.after().stats().tombstones()), c.before().stats().fileBytes(),
          c.before().forceBottommost() ? "force" : "skip", c.timeMs()));
    }
    return lines;
  }
}
