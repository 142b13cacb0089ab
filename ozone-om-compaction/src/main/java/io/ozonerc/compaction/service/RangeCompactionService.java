package io.ozonerc.compaction.service;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.service.RangeCompactor.RoundSettings;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The round itself is {@link RangeCompactor}'s, the same one the operator CLI runs: check write pressure, flush
 * memtables whose deletes qualify, snapshot, plan, and for each planned range re-check, compact, verify (finishing
 * a pass that left its tombstones at the bottom) until done, out of time ({@code .timeout}), under write pressure
 * or asked to stop. This class schedules it: interval, head checks, back-off, leader policy, shutdown, metrics and
 * history. {@link #reconfigure} swaps the configuration at run time; each round or head check takes one snapshot
 * of it and freezes it into {@link RoundSettings}.
 *
 * <h2>Not stalling writes</h2>
 * Compactions are non-exclusive, use one subcompaction and may not push RocksDB into a write stall (see
 * {@link io.ozonerc.compaction.rocks.RocksFacts#compact}); ranges are capped in entries, so one call is bounded.
 * Between calls the round yields to pressure: pending compaction bytes or level-0 files at their limits, a non-zero
 * delayed write rate, or stopped writes. A round stopped for pressure backs off: the next rounds are skipped for
 * interval x 2^(n-1) after n consecutive pressure stops, capped at {@code .backoff.max}.
 *
 * <h2>Threads and lifecycle</h2>
 * Ozone's {@link BackgroundService} wakes a single thread every {@value #TICK_MS} ms (or every interval, if
 * shorter); {@link #due} decides whether that wake runs a full round ({@code .interval} after the last one ended),
 * a head check between rounds ({@code .head.check.interval}), or nothing. {@link #runRoundNow()} runs a round on
 * the caller's thread (tests, tools); a lock keeps rounds and head checks from overlapping. {@link #shutdown()} raises a flag every round checks between compactions and waits up
 * to {@code .timeout} for the running round to end. A {@code compactRange} already inside RocksDB cannot be
 * cancelled from Java 7.7.3 (no {@code DisableManualCompaction}); if one outlives the wait it is left to finish,
 * and Ozone's store close cancels it ({@code RocksDatabase.close} calls {@code cancelAllBackgroundWork(true)}).
 * A compaction installs its output atomically when it completes, so an interrupted one loses nothing.
 *
 * <p>The store is looked up through {@link CompactionStore} on every call; while it is closed or being replaced
 * (checkpoint install), rounds end as {@code store-unavailable} and the next round tries again.
 */
public class RangeCompactionService extends BackgroundService {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactionService.class);
  public static final String SERVICE_NAME = "RangeCompactionService";

  private volatile RangeCompactionConfig config;
  private final BooleanSupplier isLeader;
  private final LongSupplier nanoClock;
  private final LongSupplier epochMillisClock;
  private final RangeCompactionMetrics metrics = new RangeCompactionMetrics();
  private final CompactionRecorder recorder = new CompactionRecorder(metrics);
  private final RangeCompactor compactor;
  private final ReentrantLock roundLock = new ReentrantLock();

  private volatile boolean stopping;
  private volatile RoundResult lastRound;
  private volatile RoundResult lastHeadCheck;
  /** End of the last head check (only the service thread touches it), or null before the first. */
  private volatile Long lastHeadCheckEndNanos;
  private int consecutivePressureStops; // guarded by roundLock
  private long backoffStartNanos;       // guarded by roundLock: when the current back-off began
  private long backoffNanos;            // guarded by roundLock: its length; 0 when none
  /** End of the last scheduled round that ran (only the service thread touches it), or null before the first. */
  private volatile Long lastScheduledEndNanos;
  /** Wait before the next head check, paced by {@link HeadPace} after every pass over heads. */
  private volatile long headWaitNanos;
  private Map<KeyRange, Long> headsLeft = Map.of(); // guarded by roundLock: what the last pass left each head at
  private Long headsReadAtNanos;                    // guarded by roundLock: when that pass began
  /** The executor's tick: rounds start on a tick once {@code .interval} has passed, so a new interval applies. */
  static final long TICK_MS = 1000;

  /**
   * A service as the OM runs it, with the system clocks. An OM creates it through
   * {@code io.ozonerc.compaction.om.OmAttachment#createIfEnabled}, which also builds the store.
   *
   * @param isLeader  whether this OM is the Ratis leader now (for {@code .leader.policy}); false when not HA
   * @param nanoClock monotonic clock for the time budget and back-off
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
    this.config = config;
    this.isLeader = isLeader;
    this.nanoClock = nanoClock;
    this.epochMillisClock = epochMillisClock;
    this.compactor = new RangeCompactor(store, nanoClock, recorder);
    setHeadWait(RangeCompactor.nanos(config.getHeadCheckInterval()));
  }

  private void setHeadWait(long nanos) {
    headWaitNanos = nanos;
    metrics.headCheckWaitMs.set(TimeUnit.NANOSECONDS.toMillis(nanos));
  }

  @Override
  public synchronized void start() {
    stopping = false;
    metrics.register();
    LOG.info("Starting with {}", config);
    super.start();
  }

  /**
   * Stops after the running compaction (waiting at most {@code .timeout}); returns without waiting longer.
   * Planned ranges not reached are counted as skipped for shutdown.
   */
  @Override
  public void shutdown() {
    stopping = true;
    boolean idle = false;
    try {
      idle = roundLock.tryLock(config.getTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (idle) {
        roundLock.unlock();
      }
    }
    if (idle) {
      super.shutdown();
    } else {
      LOG.warn("Compaction of {} still running after {}; leaving it to RocksDB (the store close cancels it)",
          compactor.current(), config.getTimeout());
      getExecutorService().shutdownNow();
    }
    metrics.unregister();
  }

  /**
   * Replaces the configuration; the next round uses it (a running round finishes with the one it started with).
   * A new interval counts from the end of the last round; {@code .service.enabled=false} pauses scheduled rounds.
   * The executor ticks every min(1 s, interval at construction), so a shorter interval set later is rounded up
   * to that tick.
   */
  public void reconfigure(RangeCompactionConfig newConfig) {
    newConfig.tableSet(); // validated before anything changes
    setServiceTimeoutInNanos(RangeCompactor.nanos(newConfig.getTimeout()));
    config = newConfig;
    setHeadWait(RangeCompactor.nanos(newConfig.getHeadCheckInterval())); // the pace starts over
    LOG.info("Reconfigured: {}", newConfig);
  }

  /**
   * A wake of the service's thread when something is due ({@link #due}): a full round, or a head check between
   * rounds. A tick skipped for back-off does not count as a round, so the back-off alone decides when the next
   * one runs.
   */
  @Override
  public BackgroundTaskQueue getTasks() {
    BackgroundTaskQueue queue = new BackgroundTaskQueue();
    RangeCompactionConfig c = config;
    if (!stopping && c.isEnabled()
        && due(nanoClock.getAsLong(), lastScheduledEndNanos, lastHeadCheckEndNanos, c, headWaitNanos)
        != Due.NOTHING) {
      queue.add(() -> {
        tick();
        return EmptyTaskResult.newResult();
      });
    }
    return queue;
  }

  /** What a wake of the service's thread should do. */
  enum Due { ROUND, HEAD_CHECK, NOTHING }

  /**
   * What is due at {@code now}: a full round when none has run or {@code interval} has passed since the last one
   * ended; else a head check when head checks are on and the paced wait ({@link HeadPace}, kept within
   * {@code head.check.min.interval} and {@code head.check.max.interval}) has passed since the last round or
   * check ended; else nothing. The executor wakes every {@value #TICK_MS} ms (or every interval, if shorter), so
   * a shorter wait is rounded up to that tick.
   *
   * @param lastRoundEnd end of the last scheduled full round, or null before the first
   * @param lastCheckEnd end of the last head check, or null before the first
   * @param headWait     the paced wait before the next head check
   */
  static Due due(long now, Long lastRoundEnd, Long lastCheckEnd, RangeCompactionConfig c, long headWait) {
    if (lastRoundEnd == null || now - lastRoundEnd >= RangeCompactor.nanos(c.getInterval())) {
      return Due.ROUND;
    }
    if (c.getDeadHeadMinKeys() <= 0 || c.getHeadCheckInterval().isZero()) {
      return Due.NOTHING;
    }
    long wait = Math.max(RangeCompactor.nanos(c.getHeadCheckMinInterval()),
        Math.min(RangeCompactor.nanos(c.getHeadCheckMaxInterval()), headWait));
    long last = lastCheckEnd == null ? lastRoundEnd : Math.max(lastRoundEnd, lastCheckEnd);
    return now - last >= wait ? Due.HEAD_CHECK : Due.NOTHING;
  }

  /**
   * Paces head checks from what a pass over heads saw ({@link HeadPace}): the next wait shrinks while a head grows
   * toward {@code dead.head.min.keys} and doubles while none grows. Requires roundLock.
   *
   * @param passStart when the pass began
   */
  private void paceHeadChecks(long passStart, RoundResult r, RangeCompactionConfig c) {
    if (r == null || r.heads().isEmpty() || c.getDeadHeadMinKeys() <= 0 || c.getHeadCheckInterval().isZero()) {
      return;
    }
    long elapsed = headsReadAtNanos == null ? 0 : passStart - headsReadAtNanos;
    HeadPace.Bounds bounds = new HeadPace.Bounds(c.getDeadHeadMinKeys(),
        RangeCompactor.nanos(c.getHeadCheckMinInterval()), RangeCompactor.nanos(c.getHeadCheckMaxInterval()));
    setHeadWait(HeadPace.nextWait(headsLeft, elapsed, r.heads(), headWaitNanos, bounds));
    Map<KeyRange, Long> left = new HashMap<>();
    r.heads().forEach(h -> left.put(h.range(), h.left()));
    headsLeft = left;
    headsReadAtNanos = passStart;
  }

  /** What one wake of the service's thread did; {@code result} is null when nothing was due. */
  record Tick(Due due, RoundResult result) {
    boolean fullRound() {
      return due == Due.ROUND;
    }
  }

  /**
   * One wake of the service's thread ({@link #due}): a full round, or a head check
   * ({@link RangeCompactor#checkHeads}: table heads and the bucket heads found dead before, re-probed, and those
   * that qualify compacted, best first), or nothing. A queue's head regrows within seconds of its compaction, far
   * sooner than the default 10-minute interval; a check costs one seek per head. Back-off, leader policy and
   * shutdown hold head checks as they hold rounds.
   */
  Tick tick() {
    roundLock.lock();
    try {
      long now = nanoClock.getAsLong();
      RangeCompactionConfig c = config;
      Due d = due(now, lastScheduledEndNanos, lastHeadCheckEndNanos, c, headWaitNanos);
      RoundResult r = null;
      if (d == Due.ROUND) {
        r = runRound(false);
        if (r.outcome() != Outcome.BACKING_OFF) {
          lastScheduledEndNanos = nanoClock.getAsLong();
        }
      } else if (d == Due.HEAD_CHECK) {
        r = headCheckLocked(now);
        lastHeadCheckEndNanos = nanoClock.getAsLong();
      }
      paceHeadChecks(now, r, c);
      return new Tick(d, r);
    } finally {
      roundLock.unlock();
    }
  }

  /** A head check between rounds. Requires roundLock. */
  private RoundResult headCheckLocked(long start) {
    RoundResult r;
    RangeCompactionConfig config = this.config; // one snapshot per check
    PlannerSettings settings = settingsForRole(config, isLeader.getAsBoolean());
    if (stopping) {
      r = RoundResult.early(Outcome.SHUTDOWN, "service stopping", 0);
    } else if (start - backoffStartNanos < backoffNanos) { // overflow-safe nanoTime compare
      r = RoundResult.early(Outcome.BACKING_OFF, "backing off after write pressure", 0);
    } else if (settings == null) {
      r = RoundResult.early(Outcome.LEADER_SKIPPED, "leader.policy=skip and this OM is the leader", 0);
    } else {
      try {
        r = compactor.checkHeads(RoundSettings.of(config, settings), () -> stopping);
      } catch (StoreUnavailableException e) {
        metrics.roundsFailed.incr();
        r = RoundResult.early(Outcome.STORE_UNAVAILABLE, e.getMessage(), elapsedMs(start));
      } catch (IOException | RuntimeException e) {
        metrics.roundsFailed.incr();
        LOG.warn("Head check failed", e);
        r = RoundResult.early(Outcome.FAILED, String.valueOf(e), elapsedMs(start));
      }
      if (r.outcome() == Outcome.PRESSURE) {
        backOffLocked(start);
      }
    }
    lastHeadCheck = r;
    log("head check", r);
    return r;
  }

  /** The last head check between rounds, or null. */
  public RoundResult getLastHeadCheck() {
    return lastHeadCheck;
  }

  /** Runs one round now on the calling thread (waiting for a running one), ignoring back-off. */
  public RoundResult runRoundNow() {
    return runRound(true);
  }

  public RangeCompactionMetrics getMetrics() {
    return metrics;
  }

  public RoundResult getLastRound() {
    return lastRound;
  }

  /** The most recent compactions (at most {@value CompactionRecorder#HISTORY}), oldest first. */
  public List<Compacted> recentCompactions() {
    return recorder.recent();
  }

  public RangeCompactionConfig getConfig() {
    return config;
  }

  /** True once {@link #shutdown()} was called. */
  public boolean isStopping() {
    return stopping;
  }

  /** The range being compacted now, or null. */
  public KeyRange inFlight() {
    return compactor.current();
  }

  private RoundResult runRound(boolean ignoreBackoff) {
    roundLock.lock();
    try {
      long start = nanoClock.getAsLong();
      RoundResult r;
      if (stopping) {
        r = RoundResult.early(Outcome.SHUTDOWN, "service stopping", 0);
      } else if (!ignoreBackoff && start - backoffStartNanos < backoffNanos) { // overflow-safe nanoTime compare
        r = RoundResult.early(Outcome.BACKING_OFF, "backing off after write pressure", 0);
      } else {
        metrics.backoffActive.set(0);
        metrics.roundsRun.incr();
        r = roundLocked(start);
        metrics.lastRoundDurationMs.set(r.durationMs());
        metrics.lastRoundEndTimeMs.set(epochMillisClock.getAsLong());
      }
      lastRound = r;
      log("round", r);
      return r;
    } finally {
      roundLock.unlock();
    }
  }

  /** One round through the compactor, then back-off and the counts of ranges it left. Requires roundLock. */
  private RoundResult roundLocked(long start) {
    RangeCompactionConfig config = this.config; // one snapshot per round
    PlannerSettings settings = settingsForRole(config, isLeader.getAsBoolean());
    if (settings == null) {
      return RoundResult.early(Outcome.LEADER_SKIPPED, "leader.policy=skip and this OM is the leader", 0);
    }
    RoundResult r;
    try {
      r = compactor.run(RoundSettings.of(config, settings), () -> stopping);
    } catch (StoreUnavailableException e) {
      metrics.roundsFailed.incr();
      return RoundResult.early(Outcome.STORE_UNAVAILABLE, e.getMessage(), elapsedMs(start));
    } catch (IOException | RuntimeException e) {
      metrics.roundsFailed.incr();
      LOG.warn("Round failed", e);
      return RoundResult.early(Outcome.FAILED, String.valueOf(e), elapsedMs(start));
    }
    switch (r.outcome()) {
      case PRESSURE -> {
        metrics.rangesSkippedPressure.incr(r.left());
        backOffLocked(start);
      }
      case TIME_BUDGET -> metrics.rangesSkippedBudget.incr(r.left());
      case SHUTDOWN -> metrics.rangesSkippedShutdown.incr(r.left());
      default -> {
        consecutivePressureStops = 0;
        backoffNanos = 0;
      }
    }
    return r;
  }

  /**
   * The planner settings for an OM's Ratis role, or null to skip the round: the configured ones, except for the
   * leader under {@code leader.policy=reduced} (a quarter of ranges and bytes, at least one of each unless the
   * configured value is 0, which keeps its meaning: plan only, or no byte limit) or
   * {@code skip}.
   */
  static PlannerSettings settingsForRole(RangeCompactionConfig config, boolean leader) {
    PlannerSettings s = config.plannerSettings();
    if (!leader) {
      return s;
    }
    return switch (config.leaderPolicy()) {
      case NORMAL -> s;
      case SKIP -> null;
      // A quarter of the budget: the leader serves client reads, followers catch up on compaction. A quarter of
      // 0 stays 0 (ranges: plan only; bytes: no limit), and a small positive budget stays positive.
      case REDUCED -> new PlannerSettings(s.minTombstones(), s.tombstoneRatio(), s.maxCompactionEntries(),
          quarter(s.rangesPerRun()), quarter(s.maxBytesPerRun()), s.bottommost());
    };
  }

  /** A quarter of {@code n}, at least 1 when {@code n} is positive; 0 for 0. */
  private static int quarter(int n) {
    return (int) quarter((long) n);
  }

  private static long quarter(long n) {
    return n <= 0 ? n : Math.max(1, n / 4);
  }

  /** Counts a pressure stop and pushes the next round back. Requires roundLock. */
  private void backOffLocked(long now) {
    metrics.roundsBackedOff.incr();
    metrics.backoffActive.set(1);
    consecutivePressureStops++;
    backoffStartNanos = now;
    backoffNanos = backoffDelayNanos(RangeCompactor.nanos(config.getInterval()),
        RangeCompactor.nanos(config.getBackoffMax()), consecutivePressureStops);
    LOG.debug("Write pressure, backing off for {} ms", TimeUnit.NANOSECONDS.toMillis(backoffNanos));
  }

  /**
   * Logs a round or head check ({@code what}): one INFO line when it wrote something (a compaction, a memtable
   * flush) or was stopped by write pressure (it starts a back-off) or an unavailable store; only DEBUG when it did
   * nothing, or was skipped (back-off, leader policy, shutdown). A failure is the WARN logged where it is caught.
   * Each compaction's own line is DEBUG. Requires roundLock (reads the back-off).
   */
  private void log(String what, RoundResult r) {
    boolean info = r.acted() || r.outcome() == Outcome.PRESSURE || r.outcome() == Outcome.STORE_UNAVAILABLE;
    if (info && LOG.isInfoEnabled()) {
      LOG.info("{}: {}{}", what, r.summary(), r.outcome() == Outcome.PRESSURE
          ? "; backing off " + RoundResult.duration(TimeUnit.NANOSECONDS.toMillis(backoffNanos)) : "");
    } else if (r.outcome() != Outcome.FAILED && LOG.isDebugEnabled()) {
      LOG.debug("{}: {}", what, r.summary());
    }
    if (LOG.isDebugEnabled()) {
      r.compacted().forEach(c -> LOG.debug("{}:   {}", what, c.describe()));
    }
  }

  /**
   * The back-off after {@code stops} consecutive pressure stops: {@code interval x 2^(stops-1)}, at most
   * {@code max}. Doubling stops at the cap, so no value of {@code stops} overflows.
   */
  static long backoffDelayNanos(long interval, long max, int stops) {
    long delay = Math.min(max, interval);
    for (int i = 1; i < stops && delay < max; i++) {
      delay = delay > max / 2 ? max : delay * 2;
    }
    return delay;
  }

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
  }
}
