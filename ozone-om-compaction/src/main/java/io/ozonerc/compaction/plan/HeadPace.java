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
import java.util.Set;

/**
 * How long to wait before the next head check: shorter while a dead head grows toward the threshold, longer while
 * nothing grows. Pure: the service keeps the readings and the clock.
 *
 * <p>Each pass over dead heads leaves one {@link Reading} per probed head: the dead entries the probe counted, and
 * what was left when the pass ended (less when the pass compacted that head). Between two passes {@code dt} apart
 * a head that was left at {@code L} and is probed at {@code P} grows at {@code r = (P - L) / dt}; left at
 * {@code L'} now, it reaches the threshold {@code T} after {@code (T - L') / r}. The next wait is
 * <pre>
 *   wait = clamp(min(soonest (T - L') / r over growing heads, 2 x current wait), min, max)
 * </pre>
 * (the current wait, clamped, when no head was seen by the previous pass too), and {@code min} when a head was
 * left at or above {@code T} because the pass ran out of budget for it: the next check compacts it. A head the
 * pass left for a reason time alone does not change (it waits for RocksDB's own level-0 compaction, its files are
 * being compacted, or its last compaction made no progress) is {@code held}: it neither sets the minimum nor paces
 * the checks, so while only such heads are left the wait doubles and they are re-probed every {@code max} at most,
 * not every second. The doubling bound watches a slow grower a little more closely each time and lets a quiet store
 * back off: 5 s, 10 s, 20 s, then {@code max}.
 *
 * <p>With the defaults (T = 2,000 dead entries, min 1 s, first wait 5 s, max 30 s): a queue deleting 1,500 keys a
 * second grows its head by about 3,000 internal keys a second (a tombstone and the value it hides); probed 5 s
 * after its compaction at 15,000 and compacted back to 0, it is due again in 2,000 / 3,000 = 0.67 s, so the next
 * check comes after the 1 s minimum, and the reader meets about 3,000 dead keys at worst instead of 15,000. A
 * bucket whose head grew by 50 in 5 s (10 a second) would take 200 s to qualify: the next check comes in 10 s
 * (twice the current wait), then 20 s, then 30 s.
 */
public final class HeadPace {
  private HeadPace() { }

  /**
   * What one pass saw of one head.
   *
   * @param range  the probed range (a bucket prefix range, or a whole table)
   * @param probed dead entries the probe counted when the pass began
   * @param left   dead entries left when the pass ended: {@code probed}, or the count after its compaction
   * @param held   the pass left it for a reason time alone does not change (level-0 wait, busy files, no progress)
   */
  public record Reading(KeyRange range, long probed, long left, boolean held) {
    public Reading {
      if (probed < 0 || left < 0) {
        throw new IllegalArgumentException("negative dead entries for " + range);
      }
    }

    public Reading(KeyRange range, long probed, long left) {
      this(range, probed, left, false);
    }
  }

  /**
   * The bounds of the wait, in nanoseconds, and the threshold it paces toward.
   *
   * @param threshold dead entries that make a head worth compacting ({@code dead.head.min.keys})
   * @param minNanos  shortest wait ({@code head.check.min.interval})
   * @param maxNanos  longest wait ({@code head.check.max.interval})
   */
  public record Bounds(long threshold, long minNanos, long maxNanos) {
    public Bounds {
      if (threshold <= 0 || minNanos <= 0 || maxNanos < minNanos) {
        throw new IllegalArgumentException("need threshold > 0 and 0 < min <= max, got " + threshold + ", "
            + minNanos + ", " + maxNanos);
      }
    }
  }

  /**
   * The wait before the next head check.
   *
   * @param previous    what each head was left at by the previous pass, by probed range (empty before the first)
   * @param elapsed     nanoseconds between the previous pass and this one
   * @param now         this pass's readings
   * @param currentWait the wait that led to this pass
   */
  public static long nextWait(Map<KeyRange, Long> previous, long elapsed, List<Reading> now, long currentWait,
      Bounds b) {
    long wait = saturatedDouble(currentWait);
    boolean seenBefore = false;
    for (Reading r : now) {
      if (r.held()) {
        // Waits on RocksDB, not on time: no rate, but a held head seen before is something to compare with, so
        // while only held heads are left the wait doubles toward max instead of staying where it was.
        seenBefore |= previous.containsKey(r.range()) && elapsed > 0;
        continue;
      }
      if (r.left() >= b.threshold()) {
        return b.minNanos(); // qualifies still, and was not compacted: try again soon
      }
      Long before = previous.get(r.range());
      if (before == null || elapsed <= 0) {
        continue; // new to us: no rate yet
      }
      seenBefore = true;
      if (r.probed() > before) {
        // (T - L') / r = (T - L') x dt / (P - L), in double: dt can be hours and counts millions.
        double due = (double) (b.threshold() - r.left()) * elapsed / (r.probed() - before);
        wait = Math.min(wait, due >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) due);
      }
    }
    if (!seenBefore) {
      wait = currentWait; // nothing to compare with (the first pass): neither sooner nor later
    }
    return Math.max(b.minNanos(), Math.min(b.maxNanos(), wait));
  }

  private static long saturatedDouble(long n) {
    return n > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * n;
  }

  /** Verdicts that leave a qualifying head for a reason time alone does not change ({@link Reading#held}). */
  private static final Set<Verdict> HELD = Set.of(Verdict.WAITS_FOR_LEVEL0, Verdict.BUSY,
      Verdict.NO_PROGRESS, Verdict.SKIPPED_BY_READERS);

  /**
   * Marks the reading of the head {@code a} assessed (keyed by its probed range) as held when its verdict is one
   * time alone does not change.
   */
  public static void markHeld(Map<KeyRange, Reading> readings, RangeAssessment a) {
    if (HELD.contains(a.verdict())) {
      readings.computeIfPresent(a.probed(), (k, v) -> new Reading(k, v.probed(), v.left(), true));
    }
  }
}
