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
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What one round (or head check) saw and did. Its counts add up: every planned head or range was compacted,
 * skipped on re-check, or {@code left} by the stop that ended the round ({@code planned() == compacted().size() +
 * skipped().size() + left}).
 *
 * @param outcome    how the round ended
 * @param detail     the reason in words (pressure signal, error message), empty when completed
 * @param plan       the range plan the round made, null when it ended before planning ranges or was a head check
 * @param headPlan   the dead heads it probed and planned, null when it ended before probing them
 * @param flushed    memtables flushed before planning because their deletes qualified
 * @param compacted  heads and ranges compacted, in order, with their facts before and after
 * @param skipped    planned heads and ranges that no longer qualified (or were busy, or must wait for level 0) when
 *                   re-checked, with that re-check
 * @param left       planned heads and ranges not attempted because the round stopped (pressure, time, shutdown)
 * @param durationMs wall time of the round
 * @param heads      the dead heads the round or check probed, with what each was left at (the service paces its
 *                   head checks from these, {@link io.ozonerc.compaction.plan.HeadPace}); empty when none were
 */
public record RoundResult(Outcome outcome, String detail, CompactionPlan plan, HeadPlan headPlan,
    List<MemtableFacts> flushed, List<Compacted> compacted, List<RangeAssessment> skipped, int left,
    long durationMs, List<HeadPace.Reading> heads) {

  /** How a round ended. */
  public enum Outcome {
    COMPLETED, PRESSURE, TIME_BUDGET, SHUTDOWN, PAUSED, BACKING_OFF, LEADER_SKIPPED, STORE_UNAVAILABLE, FAILED;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * One compaction, of a range or a dead head: the re-check right before it, the facts right after it, and its
   * duration.
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

    /** One line for the log's detail (DEBUG) and for tests. */
    public String describe() {
      String r = name(before.range());
      String passes = String.format(Locale.ROOT, "%d bytes, bottommost=%s%s, %d ms", bytesCompacted(),
          before.forceBottommost() ? "force" : "skip", secondPass() ? " then force (second pass)" : "", timeMs);
      if (head != null) {
        // A head is measured by seeking; its SST tombstones are no measure when part of it was in the memtable
        // (the compaction flushes it first, so the span's SST tombstones grow from 0).
        return String.format(Locale.ROOT, "compacted dead head %s: %d -> %d entries a seek steps over%s, %s", r,
            head.deadBefore(), head.deadAfter(), head.memtableBefore() == 0 ? ""
                : " (" + head.memtableBefore() + " of them in the memtable, flushed by the compaction first)",
            passes);
      }
      RangeStats first = secondPass() ? firstPass : after.stats();
      return String.format(Locale.ROOT, "compacted %s: tombstones %d -> %d%s, %s", r,
          Math.round(before.stats().tombstones()), Math.round(first.tombstones()), secondPass()
              ? ", second pass with bottommost=force -> " + Math.round(after.stats().tombstones()) : "", passes);
    }
  }

  /**
   * A dead head measured by seeking: the entries stepped over before the first live key, before and after, and
   * how many of those before were still in the memtable (the compaction flushed them).
   */
  public record HeadDrop(long deadBefore, long deadAfter, long memtableBefore) {
    public HeadDrop(long deadBefore, long deadAfter) {
      this(deadBefore, deadAfter, 0);
    }
  }

  /** A range as a log line names it: table, label and bounds. */
  static String name(KeyRange r) {
    return r.table() + " " + r.label() + " [" + Keys.show(r.begin()) + ", " + Keys.show(r.end()) + ")";
  }

  static RoundResult early(Outcome outcome, String detail, long durationMs) {
    return new RoundResult(outcome, detail, null, null, List.of(), List.of(), List.of(), 0, durationMs, List.of());
  }

  /**
   * This result as the service keeps it between rounds: its range plan {@link CompactionPlan#withoutBelowThreshold
   * without the ranges below the thresholds}, which nothing after the round reads; every count of
   * {@link #summary()} stays.
   */
  RoundResult kept() {
    return plan == null ? this : new RoundResult(outcome, detail, plan.withoutBelowThreshold(), headPlan, flushed,
        compacted, skipped, left, durationMs, heads);
  }

  /** Planned heads and ranges that no longer qualified (or were busy, or must wait for level 0) when re-checked. */
  public int stale() {
    return skipped.size();
  }

  /** Ranges the plan left out because their last compaction removed nothing and their files are unchanged. */
  public long noProgress() {
    return plan == null ? 0 : plan.notPlanned().stream().filter(a -> a.verdict() == Verdict.NO_PROGRESS).count();
  }

  /** Dead heads planned (within the budget), then compacted, skipped or left. */
  public int plannedHeads() {
    return headPlan == null ? 0 : headPlan.plan().planned().size();
  }

  /** Ranges planned (within the budget), then compacted, skipped or left. */
  public int plannedRanges() {
    return plan == null ? 0 : plan.planned().size();
  }

  /** Heads and ranges planned: {@link #plannedHeads()} + {@link #plannedRanges()}. */
  public int planned() {
    return plannedHeads() + plannedRanges();
  }

  public long headCompactions() {
    return compacted.stream().filter(c -> c.head() != null).count();
  }

  /** Heads and ranges that qualified but did not fit {@code ranges.per.run} or {@code bytes.per.run}. */
  public long overBudget() {
    return notPlanned().filter(a -> a.verdict() == Verdict.OVER_BUDGET).count();
  }

  /** Qualifying dead heads left to RocksDB's level-0 compaction, by the plan or on re-check. */
  public long headsWaitingForLevel0() {
    return Stream.concat(notPlanned(), skipped.stream()).filter(a -> a.range().kind().isHead()
        && a.verdict() == Verdict.WAITS_FOR_LEVEL0).count();
  }

  /** Qualifying dead heads left alone because listings skip them and their compaction is not cheap. */
  public long headsSkippedByReaders() {
    return Stream.concat(notPlanned(), skipped.stream()).filter(a -> a.verdict() == Verdict.SKIPPED_BY_READERS)
        .count();
  }

  private Stream<RangeAssessment> notPlanned() {
    return Stream.concat(headPlan == null ? Stream.empty() : headPlan.plan().notPlanned().stream(),
        plan == null ? Stream.empty() : plan.notPlanned().stream());
  }

  /** Whether the round wrote anything: a compaction or a memtable flush. */
  public boolean acted() {
    return !compacted.isEmpty() || !flushed.isEmpty();
  }

  /**
   * The round in one line: what it did (flushes, compactions by kind, bytes handed to them and time in them),
   * what that removed, and why anything planned was not done. Every number is a sum over this result, the same
   * sums the service adds to its metrics.
   */
  public String summary() {
    List<String> parts = new ArrayList<>();
    if (!flushed.isEmpty()) {
      parts.add("flushed " + String.join(", ", flushed.stream()
          .map(m -> m.table() + " (" + m.deletes() + " deletes in " + m.entries() + " memtable entries)").toList()));
    }
    long headsCompacted = headCompactions();
    long ranges = compacted.size() - headsCompacted;
    long bytes = compacted.stream().mapToLong(Compacted::bytesCompacted).sum();
    long ms = compacted.stream().mapToLong(Compacted::timeMs).sum();
    StringBuilder did = new StringBuilder(String.format(Locale.ROOT, "compacted %d of %d planned (%s, %s)",
        compacted.size(), planned(), count(headsCompacted, "dead head"), count(ranges, "range")));
    if (!compacted.isEmpty()) {
      did.append(' ').append(human(bytes)).append(" in ").append(duration(ms));
      List<String> removed = new ArrayList<>();
      if (headsCompacted > 0) {
        long deadBefore = compacted.stream().filter(c -> c.head() != null).mapToLong(c -> c.head().deadBefore()).sum();
        long deadAfter = compacted.stream().filter(c -> c.head() != null).mapToLong(c -> c.head().deadAfter()).sum();
        removed.add("dead head entries " + deadBefore + " -> " + deadAfter);
      }
      if (ranges > 0) {
        removed.add(compacted.stream().filter(c -> c.head() == null).mapToLong(Compacted::tombstonesRemoved).sum()
            + " tombstones removed");
      }
      did.append(": ").append(String.join(", ", removed));
    }
    String why = outcome + (detail.isEmpty() ? "" : " (" + detail + ")");
    if (plan == null && headPlan == null) {
      parts.add(outcome == Outcome.COMPLETED ? "nothing to plan (" + detail + ")" : "stopped before planning: " + why);
    } else {
      parts.add(did.toString());
      if (outcome != Outcome.COMPLETED) {
        parts.add("stopped: " + why + ", " + left + " left");
      }
    }
    long waits = skipped.stream().filter(a -> a.verdict() == Verdict.WAITS_FOR_LEVEL0
        || a.verdict() == Verdict.SKIPPED_BY_READERS).count();
    if (skipped.size() > waits) {
      parts.add((skipped.size() - waits) + " stale on re-check");
    }
    if (headsWaitingForLevel0() > 0) {
      parts.add(count(headsWaitingForLevel0(), "dead head") + " waiting for level 0");
    }
    if (headsSkippedByReaders() > 0) {
      parts.add(count(headsSkippedByReaders(), "dead head") + " that listings skip left for space");
    }
    if (overBudget() > 0) {
      parts.add(overBudget() + " over budget");
    }
    if (noProgress() > 0) {
      parts.add(noProgress() + " left out for no progress");
    }
    if (plan != null && !plan.complete()) {
      parts.add("planning stopped early");
    }
    parts.add("took " + duration(durationMs));
    return String.join("; ", parts);
  }

  /** The summary, then one line per compaction. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add(summary());
    for (Compacted c : compacted) {
      lines.add("  " + c.describe());
    }
    return lines;
  }

  private static String count(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** Bytes for people: {@code 412.3 MB}, {@code 64 KB}; binary units. */
  static String human(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
    return (bytes + 1023) / 1024 + " KB";
  }

  /** {@code 850 ms} below a second, {@code 1.8 s} below two minutes, then whole minutes, hours or days. */
  static String duration(long ms) {
    if (ms < 1000) {
      return ms + " ms";
    }
    if (ms < 120_000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
    if (ms < 2 * 3_600_000) {
      return ms / 60_000 + " min";
    }
    return ms < 2 * 86_400_000L ? ms / 3_600_000 + " h" : ms / 86_400_000L + " d";
  }
}
