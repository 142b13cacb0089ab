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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.service.Schedule.Admission;
import io.ozonerc.compaction.service.Schedule.Due;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdds.utils.BackgroundService;
import org.apache.hadoop.hdds.utils.BackgroundTaskQueue;
import org.apache.hadoop.hdds.utils.BackgroundTaskResult.EmptyTaskResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the OM's tombstone-heavy bucket ranges in the background, without holding back foreground writes.
 *
 * <h2>A round</h2>
 * The round itself is {@link RangeCompactor}'s, the same one the operator CLI runs. When rounds and head checks
 * run, and why not, is {@link Schedule}'s (interval, head-check pace, back-off, leader policy, pause); this class
 * runs what it lets through and keeps lifecycle and the round lock; {@link CompactionRecorder} keeps the metrics,
 * history and log. Each round or head check runs with the configuration it began with.
 *
 * <h2>Not stalling writes</h2>
 * Each compaction is bounded and never pushes RocksDB into a write stall ({@link
 * io.ozonerc.compaction.rocks.RocksFacts#compact}); between compactions a round yields to write pressure, and a
 * round stopped for it backs off ({@link Schedule}).
 *
 * <h2>Pause</h2>
 * {@code .service.enabled=false} through {@link #reconfigure} pauses: the running round or head check ends before
 * its next compaction (or bottommost second pass) as {@code paused}, and no scheduled one starts until it is
 * enabled again, from the next tick on. When {@link #reconfigure} returns no compaction starts any more (the
 * {@link CompactionGate} in front of the store sees to that) and the one in flight has ended, unless it outlived
 * {@code .timeout}. {@link #runRoundNow()} still runs while paused.
 *
 * <h2>Threads and lifecycle</h2>
 * Ozone's {@link BackgroundService} wakes a single thread every {@value #TICK_MS} ms (or every interval, if
 * shorter) to run what is due ({@link #tick}); {@link #runRoundNow()} runs a round on the caller's thread (tests,
 * tools); a lock keeps them from overlapping. {@link #shutdown()} raises a flag every round checks between
 * compactions and waits up to {@code .timeout} for the running round to end. A {@code compactRange} inside RocksDB
 * cannot be cancelled from Java 7.7.3; if one outlives the wait it is left to finish, and Ozone's store close
 * cancels it ({@code RocksDatabase.close} calls {@code cancelAllBackgroundWork(true)}). A compaction installs its
 * output atomically when it completes, so an interrupted one loses nothing. The store is looked up on every call;
 * while it is closed or being replaced (checkpoint install), rounds end as {@code store-unavailable}.
 */
public class RangeCompactionService extends BackgroundService {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactionService.class);
  public static final String SERVICE_NAME = "RangeCompactionService";
  /** The executor's tick: rounds start on a tick once {@code .interval} has passed, so a new interval applies. */
  static final long TICK_MS = 1000;

  private final Schedule schedule;
  private final BooleanSupplier isLeader;
  private final LongSupplier nanoClock;
  private final LongSupplier epochMillisClock;
  private final RangeCompactionMetrics metrics = new RangeCompactionMetrics();
  private final CompactionRecorder recorder = new CompactionRecorder(metrics);
  private final CompactionGate gate;
  private final RangeCompactor compactor;
  private final ReentrantLock roundLock = new ReentrantLock();
  /** The pass running now, for the gate; null between passes. */
  private volatile Admission running;
  private volatile RoundResult lastRound;
  private volatile RoundResult lastHeadCheck;

  /**
   * A service as the OM runs it, with the system clocks. An OM creates it through
   * {@code io.ozonerc.compaction.om.OmAttachment#createIfEnabled}, which also builds the store.
   *
   * @param isLeader  whether this OM is the Ratis leader now (for {@code .leader.policy}); false when not HA
   * @param nanoClock monotonic clock for the schedule, the time budget and back-off
   */
  public RangeCompactionService(CompactionStore store, RangeCompactionConfig config, BooleanSupplier isLeader,
      LongSupplier nanoClock) {
    this(store, config, isLeader, nanoClock, System::currentTimeMillis);
  }

  /** @param epochMillisClock wall clock, only for the time stamp of the last round's end in the metrics */
  public RangeCompactionService(CompactionStore store, RangeCompactionConfig config, BooleanSupplier isLeader,
      LongSupplier nanoClock, LongSupplier epochMillisClock) {
    super(SERVICE_NAME, Math.min(TICK_MS, config.getInterval().toMillis()), TimeUnit.MILLISECONDS, 1,
        config.getTimeout().toMillis());
    this.schedule = new Schedule(Schedule.Settings.of(config));
    this.isLeader = isLeader;
    this.nanoClock = nanoClock;
    this.epochMillisClock = epochMillisClock;
    this.gate = new CompactionGate(store, () -> {
      Admission p = running;
      return p != null && p.paused();
    });
    this.compactor = new RangeCompactor(gate, nanoClock, recorder);
    showSchedule(nanoClock.getAsLong());
  }

  /** The schedule's gauges: back-off in force, and the paced wait before the next head check. */
  private void showSchedule(long now) {
    metrics.backoffActive.set(schedule.backingOff(now) ? 1 : 0);
    metrics.headCheckWaitMs.set(TimeUnit.NANOSECONDS.toMillis(schedule.headWaitNanos()));
  }

  @Override
  public synchronized void start() {
    schedule.stop(false);
    metrics.register();
    LOG.info("Starting with {}", getConfig());
    super.start();
  }

  /**
   * Stops after the running compaction (waiting at most {@code .timeout}); returns without waiting longer.
   * Planned ranges not reached are counted as skipped for shutdown.
   */
  @Override
  public void shutdown() {
    schedule.stop(true);
    boolean idle = false;
    try {
      idle = roundLock.tryLock(schedule.settings().timeoutNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (idle) {
      roundLock.unlock();
      super.shutdown();
    } else {
      LOG.warn("Compaction of {} still running after {}; leaving it to RocksDB (the store close cancels it)",
          compactor.current(), getConfig().getTimeout());
      getExecutorService().shutdownNow();
    }
    metrics.unregister();
  }

  /**
   * Replaces the configuration: a running round finishes with the one it began with, the next uses this one. A
   * new interval counts from the end of the last round; the head-check pace starts over. With
   * {@code .service.enabled=false} it pauses (see the class comment) and returns once no compaction is in flight,
   * or after {@code .timeout} with a warning if one still is; from then on none starts until enabled again. The
   * executor ticks every min(1 s, interval at construction), so a shorter interval set later is rounded up to
   * that tick.
   */
  public void reconfigure(RangeCompactionConfig newConfig) {
    newConfig.tableSet(); // validated before anything changes
    Schedule.Settings s = Schedule.Settings.of(newConfig);
    setServiceTimeoutInNanos(s.timeoutNanos());
    schedule.reconfigure(s);
    showSchedule(nanoClock.getAsLong());
    LOG.info("Reconfigured: {}", newConfig);
    try {
      if (!s.enabled() && !gate.drain(s.timeoutNanos())) {
        LOG.warn("Paused; compaction of {} still running after {}, left to finish (no other starts)",
            compactor.current(), newConfig.getTimeout());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn("Interrupted while waiting for the compaction in flight; paused (no other starts)");
    }
  }

  /** A wake of the service's thread when something is due and the service neither stops nor is paused. */
  @Override
  public BackgroundTaskQueue getTasks() {
    BackgroundTaskQueue queue = new BackgroundTaskQueue();
    if (schedule.wake(nanoClock.getAsLong())) {
      queue.add(() -> {
        tick();
        return EmptyTaskResult.newResult();
      });
    }
    return queue;
  }

  /** What one wake of the service's thread did; {@code result} is null when nothing was due. */
  record Tick(Due due, RoundResult result) {
    boolean fullRound() {
      return due == Due.ROUND;
    }
  }

  /**
   * One wake of the service's thread: what {@link Schedule} finds due, a full round or a head check between rounds
   * ({@link RangeCompactor#checkHeads}: a queue's head regrows within seconds, a check costs one seek per head), or
   * nothing. Back-off, leader policy, pause and shutdown hold head checks as they hold rounds.
   */
  Tick tick() {
    roundLock.lock();
    try {
      Admission p = schedule.scheduled(nanoClock.getAsLong(), isLeader);
      return p == null ? new Tick(Due.NOTHING, null) : new Tick(p.kind(), run(p));
    } finally {
      roundLock.unlock();
    }
  }

  /**
   * Runs one round now on the calling thread (waiting for a running one), ignoring back-off. It runs while the
   * service is paused (an operator or tool asked for it), but a pause during it stops it like any round. It does
   * not move the schedule: the next scheduled round is still due {@code .interval} after the last scheduled one.
   */
  public RoundResult runRoundNow() {
    roundLock.lock();
    try {
      return run(schedule.explicit(nanoClock.getAsLong(), isLeader));
    } finally {
      roundLock.unlock();
    }
  }

  /** The last head check between rounds, or null. */
  public RoundResult getLastHeadCheck() {
    return lastHeadCheck;
  }

  public RangeCompactionMetrics getMetrics() {
    return metrics;
  }

  /**
   * The last round as the service keeps it between rounds ({@link RoundResult#kept()}: the plan without its ranges
   * below the thresholds), or null before the first.
   */
  public RoundResult getLastRound() {
    return lastRound;
  }

  /** The most recent compactions (at most {@value CompactionRecorder#HISTORY}), oldest first. */
  public List<Compacted> recentCompactions() {
    return recorder.recent();
  }

  public RangeCompactionConfig getConfig() {
    return schedule.settings().config();
  }

  /** True once {@link #shutdown()} was called. */
  public boolean isStopping() {
    return schedule.stopping();
  }

  /** The range being compacted now, or null. */
  public KeyRange inFlight() {
    return compactor.current();
  }

  /** Runs a pass the schedule let through, or reports why not; then books it. Requires roundLock. */
  private RoundResult run(Admission p) {
    recorder.passStarted(p);
    RoundResult r = p.refusal() == null ? compact(p) : RoundResult.early(p.refusal(), p.why(), 0);
    long end = nanoClock.getAsLong();
    schedule.finish(p, r, end);
    recorder.passEnded(p, r, epochMillisClock.getAsLong(), schedule.backoffNanos());
    showSchedule(end);
    if (p.kind() == Due.ROUND) {
      lastRound = r.kept();
    } else {
      lastHeadCheck = r;
    }
    return r;
  }

  /**
   * The compactor's round or head check. A stop for a pause ends it as {@code paused}; so does a compaction the
   * gate refused, but then without the rest of the result (its compactions are in the metrics and history).
   */
  private RoundResult compact(Admission p) {
    running = p;
    try {
      return p.settle(p.kind() == Due.ROUND ? compactor.run(p.round(), p::stopRequested)
          : compactor.checkHeads(p.round(), p::stopRequested));
    } catch (CompactionGate.PausedException e) {
      return RoundResult.early(Outcome.PAUSED, e.getMessage(), elapsedMs(p.start()));
    } catch (StoreUnavailableException e) {
      metrics.roundsFailed.incr();
      return RoundResult.early(Outcome.STORE_UNAVAILABLE, e.getMessage(), elapsedMs(p.start()));
    } catch (IOException | RuntimeException e) {
      metrics.roundsFailed.incr();
      LOG.warn(p.kind() == Due.ROUND ? "Round failed" : "Head check failed", e);
      return RoundResult.early(Outcome.FAILED, String.valueOf(e), elapsedMs(p.start()));
    } finally {
      running = null;
    }
  }

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
  }
}
