package io.ozonerc.compaction.service;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.plan.WritePressure;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.hdds.utils.BackgroundService;
import org.apache.hadoop.hdds.utils.BackgroundTaskQueue;
import org.apache.hadoop.hdds.utils.BackgroundTaskResult.EmptyTaskResult;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts the OM's tombstone-heavy bucket ranges in the background, without holding back foreground writes.
 *
 * <h2>A round</h2>
 * A round has a fixed shape (TiKV's compaction runner, Kafka's cleaner thread): check write pressure; snapshot the
 * SST facts and bucket prefixes (first flushing a table whose memtable holds enough deletes to qualify, since SST
 * facts cannot see them); plan ({@link RangePlanner}, pure); then for each planned range, best first:
 * stop if shutdown was asked, the round's time budget ({@code .timeout}) is spent or RocksDB reports write
 * pressure; re-read the facts of that table and re-assess the range (a background compaction may have done the
 * job, or started on its files); compact it; read the facts again to count what went. Configuration is fixed for
 * the service's life; each round freezes it into {@link PlannerSettings}.
 *
 * <h2>Not stalling writes</h2>
 * Compactions are non-exclusive, use one subcompaction and may not push RocksDB into a write stall (see
 * {@link io.ozonerc.compaction.rocks.RocksFacts#compact}); ranges are capped in entries, so one call is bounded.
 * Between calls the round yields to pressure: pending compaction bytes or level-0 files at their limits, a non-zero
 * delayed write rate, or stopped writes. A round stopped for pressure backs off: the next rounds are skipped for
 * interval x 2^(n-1) after n consecutive pressure stops, capped at {@code .backoff.max}.
 *
 * <h2>Threads and lifecycle</h2>
 * Ozone's {@link BackgroundService} runs one round at a time on its single thread, every {@code .interval} after
 * the previous one ends. {@link #runRoundNow()} runs a round on the caller's thread (tests, tools); a lock keeps
 * rounds from overlapping. {@link #shutdown()} raises a flag every round checks between compactions and waits up
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

  private final CompactionStore store;
  private volatile RangeCompactionConfig config;
  private volatile Set<String> tables;
  private final BooleanSupplier isLeader;
  private final LongSupplier nanoClock;
  private final RangeCompactionMetrics metrics = new RangeCompactionMetrics();
  private final ReentrantLock roundLock = new ReentrantLock();

  private volatile boolean stopping;
  private volatile KeyRange inFlight;
  private volatile RoundResult lastRound;
  /** The last {@link #HISTORY} compactions, oldest first: what operators and tests ask "did it compact X?". */
  private final java.util.Deque<Compacted> history = new java.util.ArrayDeque<>();
  static final int HISTORY = 256;
  private int consecutivePressureStops; // guarded by roundLock
  private long backoffUntilNanos;       // guarded by roundLock
  /** End of the last scheduled round (only the service thread touches it), or null before the first one. */
  private volatile Long lastScheduledEndNanos;
  /** The executor's tick: rounds start on a tick once {@code .interval} has passed, so a new interval applies. */
  static final long TICK_MS = 1000;

  /**
   * The one way an OM should create the service: reads and validates the configuration (failing start-up with
   * the key and value on nonsense) and returns nothing when {@code ozone.om.range.compaction.service.enabled} is
   * false, so a disabled service has no thread and no metrics source.
   */
  public static Optional<RangeCompactionService> createIfEnabled(ConfigurationSource conf,
      Supplier<OMMetadataManager> metadata, BooleanSupplier isLeader) {
    RangeCompactionConfig config = RangeCompactionConfig.from(conf);
    if (!config.isEnabled()) {
      LOG.info("{} disabled ({}=false)", SERVICE_NAME, RangeCompactionConfig.ENABLED_KEY);
      return Optional.empty();
    }
    return Optional.of(new RangeCompactionService(new OmCompactionStore(metadata), config, isLeader,
        System::nanoTime));
  }

  /** The service for an OM's metadata store, as the OM would run it (not the Ratis leader). */
  public RangeCompactionService(OMMetadataManager metadata, RangeCompactionConfig config) {
    this(new OmCompactionStore(metadata), config, () -> false, System::nanoTime);
  }

  /**
   * @param isLeader  whether this OM is the Ratis leader now (for {@code .leader.policy}); false when not HA
   * @param nanoClock monotonic clock for the time budget and back-off
   */
  public RangeCompactionService(CompactionStore store, RangeCompactionConfig config, BooleanSupplier isLeader,
      LongSupplier nanoClock) {
    super(SERVICE_NAME, Math.min(TICK_MS, config.getInterval().toMillis()), TimeUnit.MILLISECONDS, 1,
        config.getTimeout().toMillis());
    this.store = store;
    this.config = config;
    this.tables = config.tableSet();
    this.isLeader = isLeader;
    this.nanoClock = nanoClock;
  }

  @Override
  public synchronized void start() {
    stopping = false;
    metrics.register();
    LOG.info("Starting {} with {}", SERVICE_NAME, config);
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
      LOG.warn("{}: compaction of {} still running after {}; leaving it to RocksDB (the store close cancels it)",
          SERVICE_NAME, inFlight, config.getTimeout());
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
    Set<String> newTables = newConfig.tableSet();
    setServiceTimeoutInNanos(newConfig.getTimeout().toNanos());
    tables = newTables;
    config = newConfig;
    LOG.info("{} reconfigured: {}", SERVICE_NAME, newConfig);
  }

  @Override
  public BackgroundTaskQueue getTasks() {
    BackgroundTaskQueue queue = new BackgroundTaskQueue();
    long now = nanoClock.getAsLong();
    if (!stopping && config.isEnabled()
        && (lastScheduledEndNanos == null || now - lastScheduledEndNanos >= config.getInterval().toNanos())) {
      queue.add(() -> {
        try {
          runRound(false);
        } finally {
          lastScheduledEndNanos = nanoClock.getAsLong();
        }
        return EmptyTaskResult.newResult();
      });
    }
    return queue;
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

  /** The most recent compactions (at most {@value #HISTORY}), oldest first. */
  public List<Compacted> recentCompactions() {
    synchronized (history) {
      return List.copyOf(history);
    }
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
    return inFlight;
  }

  private RoundResult runRound(boolean ignoreBackoff) {
    roundLock.lock();
    try {
      long start = nanoClock.getAsLong();
      RoundResult r;
      if (stopping) {
        r = RoundResult.early(Outcome.SHUTDOWN, "service stopping", 0);
      } else if (!ignoreBackoff && start < backoffUntilNanos) {
        r = RoundResult.early(Outcome.BACKING_OFF, "backing off after write pressure", 0);
      } else {
        metrics.roundsRun.incr();
        try {
          r = roundLocked(start);
        } catch (StoreUnavailableException e) {
          metrics.roundsFailed.incr();
          r = RoundResult.early(Outcome.STORE_UNAVAILABLE, e.getMessage(), elapsedMs(start));
          LOG.info("{}: store unavailable, round skipped: {}", SERVICE_NAME, e.getMessage());
        } catch (IOException | RuntimeException e) {
          metrics.roundsFailed.incr();
          r = RoundResult.early(Outcome.FAILED, String.valueOf(e), elapsedMs(start));
          LOG.warn("{}: round failed", SERVICE_NAME, e);
        }
        metrics.lastRoundDurationMs.set(r.durationMs());
      }
      lastRound = r;
      boolean idle = r.outcome() == Outcome.COMPLETED && r.compacted().isEmpty() && r.stale() == 0;
      if (idle) {
        LOG.debug("{}: {}", SERVICE_NAME, r.describe().get(0));
      } else if (r.outcome() != Outcome.BACKING_OFF && r.outcome() != Outcome.SHUTDOWN) {
        r.describe().forEach(line -> LOG.info("{}: {}", SERVICE_NAME, line));
      }
      return r;
    } finally {
      roundLock.unlock();
    }
  }

  /** One round. Requires roundLock. */
  private RoundResult roundLocked(long start) throws IOException {
    RangeCompactionConfig config = this.config; // one snapshot per round
    Set<String> tables = config.tableSet();
    PlannerSettings settings = settingsForRole();
    if (settings == null) {
      return RoundResult.early(Outcome.LEADER_SKIPPED, "leader.policy=skip and this OM is the leader", 0);
    }
    String pressure = pressureReason();
    if (pressure != null) {
      backOffLocked(start);
      return RoundResult.early(Outcome.PRESSURE, pressure, elapsedMs(start));
    }
    if (config.isMemtableFlush()) {
      flushMemtablesThatQualify(settings);
    }
    Map<String, List<KeyRange>> buckets = store.bucketRanges(tables);
    CompactionPlan plan = RangePlanner.plan(store.liveFiles(tables), buckets,
        inFlight == null ? List.of() : List.of(inFlight), settings);
    metrics.recordWorstRatios(plan.worstRatioByTable());
    metrics.rangesPlanned.incr(plan.planned().size());
    metrics.rangesSkippedBudget.incr(plan.notPlanned().stream()
        .filter(a -> a.verdict() == Verdict.OVER_BUDGET).count());

    List<Compacted> done = new ArrayList<>();
    int stale = 0;
    Outcome outcome = Outcome.COMPLETED;
    String detail = "";
    List<RangeAssessment> planned = plan.planned();
    int next = 0;
    for (; next < planned.size(); next++) {
      KeyRange range = planned.get(next).range();
      if (stopping) {
        outcome = Outcome.SHUTDOWN;
        detail = "service stopping";
        break;
      }
      if (nanoClock.getAsLong() - start >= config.getTimeout().toNanos()) {
        outcome = Outcome.TIME_BUDGET;
        detail = "round time budget " + config.getTimeout() + " spent";
        break;
      }
      pressure = pressureReason();
      if (pressure != null) {
        outcome = Outcome.PRESSURE;
        detail = pressure;
        break;
      }
      List<KeyRange> tableBuckets = RangePlanner.sortedBuckets(buckets.getOrDefault(range.table(), List.of()));
      RangeAssessment before =
          RangePlanner.assess(range, store.liveFiles(Set.of(range.table())), tableBuckets, settings);
      if (before.verdict() != Verdict.PLANNED) {
        stale++;
        metrics.rangesSkippedStale.incr();
        LOG.info("{}: skipping {} {}: re-check says {}", SERVICE_NAME, range, range.label(), before.why());
        continue;
      }
      long t0 = nanoClock.getAsLong();
      inFlight = range;
      try {
        store.compact(range, before.forceBottommost());
      } finally {
        inFlight = null;
      }
      long ms = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - t0);
      RangeAssessment after =
          RangePlanner.assess(range, store.liveFiles(Set.of(range.table())), tableBuckets, settings);
      Compacted c = new Compacted(before, after, ms);
      done.add(c);
      synchronized (history) {
        if (history.size() == HISTORY) {
          history.removeFirst();
        }
        history.addLast(c);
      }
      metrics.rangesCompacted.incr();
      metrics.compactionTimeMs.incr(ms);
      metrics.compactedBytes.incr(before.stats().fileBytes());
      metrics.tombstonesRemoved.incr(c.tombstonesRemoved());
    }
    int left = planned.size() - next;
    switch (outcome) {
      case PRESSURE -> {
        metrics.rangesSkippedPressure.incr(left);
        backOffLocked(start);
      }
      case TIME_BUDGET -> metrics.rangesSkippedBudget.incr(left);
      case SHUTDOWN -> metrics.rangesSkippedShutdown.incr(left);
      default -> consecutivePressureStops = 0;
    }
    return new RoundResult(outcome, detail, plan, List.copyOf(done), stale, left, elapsedMs(start));
  }

  /** Flushes each watched table whose memtable deletes pass the range test, so this round's facts include them. */
  private void flushMemtablesThatQualify(PlannerSettings settings) throws IOException {
    for (MemtableFacts m : store.memtables(tables)) {
      if (m.shouldFlush(settings) && !stopping) {
        LOG.info("{}: flushing {}: {} deletes in {} memtable entries", SERVICE_NAME, m.table(), m.deletes(),
            m.entries());
        store.flush(m.table());
        metrics.memtableFlushes.incr();
      }
    }
  }

  /** The planner settings for this OM's current Ratis role, or null to skip the round. */
  private PlannerSettings settingsForRole() {
    PlannerSettings s = config.plannerSettings();
    if (!isLeader.getAsBoolean()) {
      return s;
    }
    return switch (config.leaderPolicy()) {
      case NORMAL -> s;
      case SKIP -> null;
      // A quarter of the budget: the leader serves client reads, followers catch up on compaction.
      case REDUCED -> new PlannerSettings(s.minTombstones(), s.tombstoneRatio(), s.maxCompactionEntries(),
          Math.max(1, s.rangesPerRun() / 4), s.maxBytesPerRun() / 4, s.bottommost());
    };
  }

  private String pressureReason() throws IOException {
    WritePressure p = store.writePressure();
    return p.reasonToStop(config.getPressurePendingCompactionBytes(), config.getPressureLevel0Files());
  }

  /** Counts a pressure stop and pushes the next round back. Requires roundLock. */
  private void backOffLocked(long now) {
    metrics.roundsBackedOff.incr();
    consecutivePressureStops++;
    long cap = config.getBackoffMax().toNanos();
    long delay = Math.min(cap, config.getInterval().toNanos());
    for (int i = 1; i < consecutivePressureStops && delay < cap; i++) {
      delay = Math.min(cap, delay * 2); // interval x 2^(n-1), capped; cap < Long.MAX_VALUE / 2 in practice
    }
    backoffUntilNanos = now + delay;
    LOG.info("{}: write pressure, backing off for {} ms", SERVICE_NAME, TimeUnit.NANOSECONDS.toMillis(delay));
  }

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
  }
}
