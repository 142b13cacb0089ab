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
 * A round's budget as a plan spends it, best candidate first: at most {@code ranges.per.run} compactions and
 * {@code bytes.per.run} file bytes (0: no byte limit) in the whole round, whatever their kind. The round's first
 * compaction always fits the byte limit, so a range larger than the limit is not starved. A round compacts its
 * heads first and plans its ranges after, with what the heads already spent ({@link Spent}).
 */
public final class Budget {
  private final PlannerSettings settings;
  private int taken;
  private long bytes;

  Budget(PlannerSettings settings, Spent spent) {
    this.settings = settings;
    this.taken = spent.compactions();
    this.bytes = spent.bytes();
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
   * Whether {@code spent} leaves room for no further compaction: {@code ranges.per.run} reached, or
   * {@code bytes.per.run} used up after the round's first compaction (every compaction rewrites files of some bytes,
   * so none would fit; {@link #take} would find each over budget).
   */
  public static boolean exhausted(PlannerSettings settings, Spent spent) {
    return spent.compactions() >= settings.rangesPerRun() || (spent.compactions() > 0
        && settings.maxBytesPerRun() > 0 && spent.bytes() >= settings.maxBytesPerRun());
  }

  /**
   * What a round already spent of its budget before a plan: compactions started and the file bytes they were
   * planned at.
   */
  public record Spent(int compactions, long bytes) {
    /** Nothing spent: a round's first plan. */
    public static final Spent NONE = new Spent(0, 0);

    public Spent {
      if (compactions < 0 || bytes < 0) {
        throw new IllegalArgumentException("negative spending " + compactions + " " + bytes);
      }
    }
  }
}
