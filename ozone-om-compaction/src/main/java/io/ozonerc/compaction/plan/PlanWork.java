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

import java.util.function.BooleanSupplier;

/**
 * The work of one plan: counts the steps of its range queries (key comparisons and files or buckets visited), and
 * carries the caller's stop condition, checked between ranges, so planning counts against a round's time budget.
 *
 * <p>The step count is the planner's cost in a unit tests can bound without timing anything: a plan of B buckets
 * over F files costs O((B + F) x levels x log(B + F)) steps plus the level-0 files each range meets. Not
 * thread-safe: one plan, one thread.
 */
public final class PlanWork {
  private final BooleanSupplier stop;
  private long steps;
  private boolean stopped;

  private PlanWork(BooleanSupplier stop) {
    this.stop = stop;
  }

  /** Plans to the end. */
  public static PlanWork unbounded() {
    return new PlanWork(NEVER);
  }

  /** Never stops (a class, not a lambda: see RangePlanner's BEST_FIRST). */
  private static final BooleanSupplier NEVER = new BooleanSupplier() {
    @Override
    public boolean getAsBoolean() {
      return false;
    }
  };

  /**
   * Stops planning once {@code stop} returns true (e.g. the round's deadline passed, or shutdown); the plan then
   * holds what was assessed so far and says it is partial ({@link CompactionPlan#complete()}).
   */
  public static PlanWork until(BooleanSupplier stop) {
    return new PlanWork(stop);
  }

  /** Steps counted so far. */
  public long steps() {
    return steps;
  }

  /** Whether the stop condition was seen true. */
  public boolean stopped() {
    return stopped;
  }

  void step() {
    steps++;
  }

  /** Asks the stop condition (once true, stays true). */
  boolean shouldStop() {
    if (!stopped && stop.getAsBoolean()) {
      stopped = true;
    }
    return stopped;
  }
}
