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

import io.ozonerc.compaction.plan.KeyRange;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The store as the service's compactor sees it, with a gate in front of {@link #compact}: the pause check and the
 * start of the compaction happen under one lock. A pause first makes {@code paused} true, then {@link #drain}s the
 * gate (takes the lock once); from then on no compaction starts, and when the drain succeeds the one that was in
 * flight has ended. Without the lock a round could pass its stop check just before the pause and start a
 * compaction just after it. Every other call goes straight through; memtable flushes are not gated (the compactor
 * asks its stop supplier before each one).
 */
final class CompactionGate extends ForwardingStore {
  /** A compaction reached the gate while paused and was not started. */
  static final class PausedException extends IOException {
    PausedException(KeyRange range) {
      super("compaction of " + RoundResult.name(range) + " not started");
    }
  }

  private final BooleanSupplier paused;
  private final ReentrantLock lock = new ReentrantLock();

  /** @param paused whether compactions may not start now; must be true before {@link #drain} is called */
  CompactionGate(CompactionStore store, BooleanSupplier paused) {
    super(store);
    this.paused = paused;
  }

  /**
   * Waits until no compaction is inside the store, at most {@code timeoutNanos}.
   *
   * @return false when one was still running at the end of the wait (it is left to finish; no other starts)
   */
  boolean drain(long timeoutNanos) throws InterruptedException {
    if (!lock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS)) {
      return false;
    }
    lock.unlock();
    return true;
  }

  /** @throws PausedException instead of starting the compaction while paused */
  @Override
  public void compact(KeyRange range, boolean forceBottommost) throws IOException {
    lock.lock();
    try {
      if (paused.getAsBoolean()) {
        throw new PausedException(range);
      }
      super.compact(range, forceBottommost);
    } finally {
      lock.unlock();
    }
  }
}
