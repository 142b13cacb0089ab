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

package io.ozonerc.bench.workload;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A policy that runs one round every {@code interval} (fixed delay) on a single daemon thread, as an Ozone
 * {@code BackgroundService} with one worker would. Subclasses say what a round does and time each compaction through
 * {@link #timed}.
 */
abstract class PeriodicPolicy implements Policy {

  private final Duration interval;
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong compactionNanos = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private ScheduledExecutorService executor;

  PeriodicPolicy(Duration interval) {
    this.interval = interval;
  }

  /** One round against the store. */
  abstract void round(BenchStore store) throws Exception;

  interface Compaction {
    void run() throws Exception;
  }

  /** Runs one manual compaction and counts it. */
  final void timed(Compaction c) throws Exception {
    long t0 = System.nanoTime();
    try {
      c.run();
    } finally {
      compactionNanos.addAndGet(System.nanoTime() - t0);
      compactions.incrementAndGet();
    }
  }

  @Override
  public void start(BenchStore store) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "bench-policy-" + name());
      t.setDaemon(true);
      return t;
    });
    long ms = Math.max(1, interval.toMillis());
    executor.scheduleWithFixedDelay(() -> {
      try {
        round(store);
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, ms, ms, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (executor != null) {
      executor.shutdown();
      if (!executor.awaitTermination(10, TimeUnit.MINUTES)) {
        throw new IllegalStateException(name() + ": a round did not finish within 10 minutes of shutdown");
      }
    }
  }

  @Override
  public long compactions() {
    return compactions.get();
  }

  @Override
  public long compactionNanos() {
    return compactionNanos.get();
  }

  @Override
  public Throwable failure() {
    return failure.get();
  }
}
