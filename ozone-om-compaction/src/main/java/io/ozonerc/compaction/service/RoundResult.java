package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.Verdict;
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
 * @param skipped    planned ranges that no longer qualified (or were busy) when re-checked, with that re-check
 * @param left       planned ranges not attempted because the round stopped (pressure, time, shutdown)
 * @param durationMs wall time of the round
 * @param heads      the dead heads the round or check probed, with what each was left at (the service paces its
 *                   head checks from these, {@link io.ozonerc.compaction.plan.HeadPace}); empty when none were
 */
public record RoundResult(Outcome outcome, String detail, CompactionPlan plan, List<Compacted> compacted,
    List<RangeAssessment> skipped, int left, long durationMs, List<HeadPace.Reading> heads) {

  /** How a round ended. */
  public enum Outcome {
    COMPLETED, PRESSURE, TIME_BUDGET, SHUTDOWN, BACKING_OFF, LEADER_SKIPPED, STORE_UNAVAILABLE, FAILED;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * One range compaction: the re-check right before it, the facts right after it, and its duration.
   *
   * @param before    the range assessed on fresh facts right before the compaction
   * @param firstPass the range's facts after a first pass that removed too little and was followed by a second,
   *                  bottommost-forced pass ({@link io.ozonerc.compaction.plan.BottommostMode#needsSecondPass});
   *                  null when one pass did the job
   * @param after     the range assessed on fresh facts after the last pass
   * @param timeMs    time in {@code compactRange}, both passes
   * @param head      for a dead-head compaction, the dead entries a seek stepped over before and after it (exact
   *                  counts from the probe); null for a range compaction. {@code before} and {@code after} are
   *                  then the SST facts of the same dead span, so tombstones removed compares like with like.
   */
  public record Compacted(RangeAssessment before, RangeStats firstPass, RangeAssessment after, long timeMs,
      HeadDrop head) {
    /** A range compaction. */
    public Compacted(RangeAssessment before, RangeStats firstPass, RangeAssessment after, long timeMs) {
      this(before, firstPass, after, timeMs, null);
    }

    public boolean secondPass() {
      return firstPass != null;
    }

    /** Dead entries a seek at the head's start no longer steps over; 0 for a range compaction. */
    public long deadEntriesRemoved() {
      return head == null ? 0 : Math.max(0, head.deadBefore() - head.deadAfter());
    }

    public long tombstonesRemoved() {
      return Math.max(0, Math.round(before.stats().tombstones() - after.stats().tombstones()));
    }

    /** SST bytes handed to compactions: the range's files before, plus what the second pass found. */
    public long bytesCompacted() {
      return before.stats().fileBytes() + (firstPass == null ? 0 : firstPass.fileBytes());
    }

    public String table() {
      return before.range().table();
    }
  }

  /** A dead head measured by seeking: the entries stepped over before the first live key, before and after. */
  public record HeadDrop(long deadBefore, long deadAfter) { }

  static RoundResult early(Outcome outcome, String detail, long durationMs) {
    return new RoundResult(outcome, detail, null, List.of(), List.of(), 0, durationMs, List.of());
  }

  /** Planned ranges that no longer qualified when re-checked. */
  public int stale() {
    return skipped.size();
  }

  /** Ranges the plan left out because their last compaction removed nothing and their files are unchanged. */
  public long noProgress() {
    return plan == null ? 0 : plan.notPlanned().stream().filter(a -> a.verdict() == Verdict.NO_PROGRESS).count();
  }

  /** Human summary, one line per compaction. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    long noProgress = noProgress();
    lines.add(String.format(Locale.ROOT, "round %s%s: planned=%d compacted=%d stale=%d left=%d%s in %d ms",
        outcome, detail.isEmpty() ? "" : " (" + detail + ")", plan == null ? 0 : plan.planned().size(),
        compacted.size(), stale(), left, noProgress == 0 ? "" : " no-progress=" + noProgress, durationMs));
    for (Compacted c : compacted) {
      RangeStats first = c.secondPass() ? c.firstPass() : c.after().stats();
      lines.add(String.format(Locale.ROOT, "  compacted %s %s: tombstones %d -> %d%s, %d bytes, bottommost=%s, %d ms",
          c.before().range(), c.before().range().label(), Math.round(c.before().stats().tombstones()),
          Math.round(first.tombstones()), c.secondPass()
              ? ", second pass with bottommost=force -> " + Math.round(c.after().stats().tombstones()) : "",
          c.bytesCompacted(), c.before().forceBottommost() ? "force" : "skip", c.timeMs()));
      if (c.head() != null) {
        lines.add(String.format(Locale.ROOT, "    dead head: %d -> %d entries a seek steps over",
            c.head().deadBefore(), c.head().deadAfter()));
      }
    }
    return lines;
  }
}
