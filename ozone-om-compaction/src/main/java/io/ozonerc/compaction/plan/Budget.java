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
 * A round's budget: at most {@code ranges.per.run} compactions and {@code bytes.per.run} file bytes (0: no byte
 * limit) in the whole round, whatever their kind. The round's first compaction always fits the byte limit, so a
 * range larger than the limit is not starved.
 *
 * <p>One per round ({@link #of}): the round makes it and hands it to each of its planners in turn, and each takes
 * from it what it plans, best candidate first ({@link #take}). What a plan took is the round's until its pass has
 * run: a compaction that ran stays charged, at the bytes its re-check found ({@link #ran}); one that did not run
 * (skipped on re-check, or left by a stop) is given back ({@link #giveBack}). So a later plan of the same round
 * gets what the compactions before it left, whatever the plans before it had taken.
 *
 * <p>Not thread-safe: a round is run by one thread.
 */
public final class Budget {
  private final PlannerSettings settings;
  private int taken;  // compactions the round ran, or planned and not yet ran
  private long bytes; // their file bytes: as re-checked for those that ran, as planned for the others

  /** A round that has already taken {@code taken} compactions of {@code bytes} file bytes. */
  Budget(PlannerSettings settings, int taken, long bytes) {
    if (taken < 0 || bytes < 0) {
      throw new IllegalArgumentException("negative spending " + taken + " " + bytes);
    }
    this.settings = settings;
    this.taken = taken;
    this.bytes = bytes;
  }

  /** The whole budget of a round with {@code settings}: nothing taken yet. */
  public static Budget of(PlannerSettings settings) {
    return new Budget(settings, 0, 0);
  }

  /** Takes {@code a} and returns null when it fits; otherwise returns it as {@link Verdict#OVER_BUDGET}. */
  RangeAssessment take(RangeAssessment a) {
    long cost = a.stats().fileBytes();
    if (taken >= settings.rangesPerRun()) {
      return a.with(Verdict.OVER_BUDGET, "ranges.per.run=" + settings.rangesPerRun() + " reached");
    }
    if (taken > 0 && settings.maxBytesPerRun() > 0 && bytes + cost > settings.maxBytesPerRun()) {
      return a.with(Verdict.OVER_BUDGET, "bytes " + bytes + "+" + cost + " > bytes.per.run="
          + settings.maxBytesPerRun());
    }
    taken++;
    bytes += cost;
    return null;
  }

  /**
   * A compaction a plan took ({@code planned}) ran after its re-check found it at {@code fresh}: it stays taken,
   * charged from now on at the file bytes it was compacted at.
   */
  public void ran(RangeAssessment planned, RangeAssessment fresh) {
    bytes += fresh.stats().fileBytes() - planned.stats().fileBytes();
  }

  /** A compaction a plan took ({@code planned}) did not run: what it took is the round's again. */
  public void giveBack(RangeAssessment planned) {
    if (taken == 0) {
      throw new IllegalStateException("nothing taken to give back: " + planned.range());
    }
    taken--;
    bytes -= planned.stats().fileBytes();
  }

  /**
   * Whether no further compaction fits: {@code ranges.per.run} reached, or {@code bytes.per.run} used up after the
   * round's first compaction (every compaction rewrites files of some bytes, so none would fit; {@link #take} would
   * find each over budget).
   */
  public boolean exhausted() {
    return taken >= settings.rangesPerRun()
        || (taken > 0 && settings.maxBytesPerRun() > 0 && bytes >= settings.maxBytesPerRun());
  }
}
