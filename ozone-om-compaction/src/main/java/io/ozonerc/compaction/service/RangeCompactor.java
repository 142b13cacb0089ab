package io.ozonerc.compaction.service;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.NoProgress;
import io.ozonerc.compaction.plan.PlanWork;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does one round of range compactions; the one copy of it that the OM's service and the operator CLI both run.
 * As in Kafka's log cleaner, choosing, doing and scheduling are apart: {@link RangePlanner} chooses, this class
 * does, and {@link RangeCompactionService} schedules (interval, back-off, leader policy, shutdown, metrics).
 *
 * <h2>A round</h2>
 * Check write pressure; flush a table whose memtables hold enough deletes to qualify (SST facts cannot see them);
 * snapshot SST facts and bucket prefixes; plan, best first, within the budget. Then for each planned range: stop if
 * the caller asks (shutdown), the time budget is spent or RocksDB reports write pressure; re-assess the range on
 * fresh facts (an earlier compaction, or RocksDB's own, may have done the job or be working on its files); compact
 * it; read the facts again and verify what went.
 *
 * <h2>Verify, and finish what a pass left</h2>
 * A {@code compactRange} that returns has not necessarily removed anything: RocksDB moves a file down without
 * rewriting it when nothing below overlaps it, so a level-0 file holding a queue's puts and deletes lands in the
 * bottom level with every tombstone, and a merge from above leaves tombstones already at the bottom where they
 * are. When the facts after a pass show that (see {@link io.ozonerc.compaction.plan.BottommostMode#needsSecondPass})
 * the same range is compacted once more with a bottommost rewrite, in the same round, and the result says so.
 *
 * <h2>No progress</h2>
 * A range whose compaction removed no tombstone at all (bottom tombstones under {@code bottommost.mode=skip}, or
 * tombstones a snapshot still needs) is remembered with its files ({@link NoProgress}); while those files stay
 * the same the planner leaves it out, so the ranges behind it get their turn. The memory lives as long as this
 * object: the service keeps one compactor for its life, the CLI one per run.
 *
 * <p>Time is read only from the clock given. One round at a time: callers serialise {@link #run}.
 */
public final class RangeCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactor.class);
  /** Ranges remembered as no-progress at most; the oldest is forgotten first (it is only a hint). */
  static final int NO_PROGRESS_MEMORY = 1024;

  /**
   * The frozen inputs of one round.
   *
   * @param tables              tables to plan over
   * @param planner             thresholds and budget for the planner
   * @param flushMemtables      flush tables whose memtable deletes qualify before planning
   * @param timeBudgetNanos     no new range compaction starts once this much time has passed; 0 for no limit
   * @param pendingBytesLimit   stop at this many estimated pending compaction bytes in any column family
   * @param level0FilesLimit    stop at this many level-0 files in any column family
   */
  public record RoundSettings(Set<String> tables, PlannerSettings planner, boolean flushMemtables,
      long timeBudgetNanos, long pendingBytesLimit, long level0FilesLimit) {

    /** The service's round: everything from the configuration, with the planner settings for this OM's role. */
    public static RoundSettings of(RangeCompactionConfig config, PlannerSettings planner) {
      return new RoundSettings(config.tableSet(), planner, config.isMemtableFlush(), nanos(config.getTimeout()),
          config.getPressurePendingCompactionBytes(), config.getPressureLevel0Files());
    }

    /**
     * A round on a DB no OM holds (the CLI): no time budget and no pressure limits, since no foreground writes
     * wait on it, and no memtable flush, since the tool reports the memtables as it found them. RocksDB's own
     * stop signals (delayed or stopped writes) still end the round.
     */
    public static RoundSettings offline(Set<String> tables, PlannerSettings planner) {
      return new RoundSettings(tables, planner, false, 0, Long.MAX_VALUE, Long.MAX_VALUE);
    }
  }

  /** What a caller hears while a round runs (the service turns it into metrics and history). No-ops by default. */
  public interface Listener {
    default void flushed(MemtableFacts memtable) { }

    default void planned(CompactionPlan plan) { }

    default void compacted(Compacted compaction) { }

    default void skipped(RangeAssessment recheck) { }
  }

  private final CompactionStore store;
  private final LongSupplier nanoClock;
  private final Listener listener;
  private final Map<KeyRange, NoProgress> noProgress = new LinkedHashMap<>();
  private volatile KeyRange current;

  /**
   * @param nanoClock monotonic clock for the time budget and the durations reported
   * @param listener  told of flushes, the plan, and each compaction or skip as it happens
   */
  public RangeCompactor(CompactionStore store, LongSupplier nanoClock, Listener listener) {
    this.store = store;
    this.nanoClock = nanoClock;
    this.listener = listener;
  }

  /** The range being compacted now, or null. */
  public KeyRange current() {
    return current;
  }

  /**
   * Runs one round.
   *
   * @param stopRequested asked before each compaction; true ends the round as {@link Outcome#SHUTDOWN}
   * @throws IOException from the store (a {@link StoreUnavailableException} while it is closed or replaced)
   */
  public RoundResult run(RoundSettings s, BooleanSupplier stopRequested) throws IOException {
    long start = nanoClock.getAsLong();
    String pressure = pressureReason(s);
    if (pressure != null) {
      return RoundResult.early(Outcome.PRESSURE, pressure, elapsedMs(start));
    }
    if (s.flushMemtables()) {
      flushMemtablesThatQualify(s, stopRequested);
    }
    Map<String, List<KeyRange>> buckets = store.bucketRanges(s.tables());
    List<SstFile> files = store.liveFiles(s.tables());
    // Planning counts against the round's budget: on a huge store it stops early with what it assessed so far.
    PlanWork work = PlanWork.until(() -> stopRequested.getAsBoolean()
        || (s.timeBudgetNanos() > 0 && nanoClock.getAsLong() - start >= s.timeBudgetNanos()));
    CompactionPlan plan = RangePlanner.plan(files, buckets, unchangedNoProgress(files), s.planner(), work);
    if (!plan.complete()) {
      LOG.info("Planning stopped early after {} steps (time budget or shutdown); this round plans what it reached",
          work.steps());
    }
    listener.planned(plan);

    List<Compacted> done = new ArrayList<>();
    List<RangeAssessment> skipped = new ArrayList<>();
    Outcome outcome = Outcome.COMPLETED;
    String detail = "";
    List<RangeAssessment> planned = plan.planned();
    int next = 0;
    for (; next < planned.size(); next++) {
      if (stopRequested.getAsBoolean()) {
        outcome = Outcome.SHUTDOWN;
        detail = "service stopping";
        break;
      }
      if (s.timeBudgetNanos() > 0 && nanoClock.getAsLong() - start >= s.timeBudgetNanos()) {
        outcome = Outcome.TIME_BUDGET;
        detail = "round time budget " + TimeUnit.NANOSECONDS.toMillis(s.timeBudgetNanos()) + " ms spent";
        break;
      }
      pressure = pressureReason(s);
      if (pressure != null) {
        outcome = Outcome.PRESSURE;
        detail = pressure;
        break;
      }
      KeyRange range = planned.get(next).range();
      List<KeyRange> tableBuckets = RangePlanner.sortedBuckets(buckets.getOrDefault(range.table(), List.of()));
      RangeAssessment before = assess(range, tableBuckets, s.planner());
      if (before.verdict() != Verdict.PLANNED) {
        // Below threshold now means an earlier compaction (ours or RocksDB's) already took the tombstones.
        Verdict v = before.verdict() == Verdict.BELOW_THRESHOLD ? Verdict.STALE : before.verdict();
        RangeAssessment recheck = new RangeAssessment(range, before.stats(), v, before.why(),
            before.forceBottommost());
        skipped.add(recheck);
        listener.skipped(recheck);
        LOG.info("Skipping {} {}: {} on re-check: {}", range, range.label(), v, before.why());
        continue;
      }
      Compacted c = compactAndVerify(before, tableBuckets, s.planner(), stopRequested);
      done.add(c);
      listener.compacted(c);
    }
    return new RoundResult(outcome, detail, plan, List.copyOf(done), List.copyOf(skipped), planned.size() - next,
        elapsedMs(start));
  }

  /** Compacts one range, verifies on fresh facts, finishes with a bottommost rewrite when due, remembers. */
  private Compacted compactAndVerify(RangeAssessment before, List<KeyRange> tableBuckets, PlannerSettings s,
      BooleanSupplier stopRequested) throws IOException {
    KeyRange range = before.range();
    Set<String> table = Set.of(range.table());
    long t0 = nanoClock.getAsLong();
    RangeStats firstPass = null;
    List<SstFile> files;
    current = range;
    try {
      store.compact(range, before.forceBottommost());
      files = store.liveFiles(table);
      RangeStats after = RangeStats.of(files, tableBuckets, range.begin(), range.end());
      if (s.bottommost().needsSecondPass(before.stats(), before.forceBottommost(), after)
          && !stopRequested.getAsBoolean()) {
        LOG.info("{} {}: tombstones {} -> {} without a bottommost rewrite (levels L{} -> L{}); compacting it again "
                + "with bottommost=force", range, range.label(), Math.round(before.stats().tombstones()),
            Math.round(after.tombstones()), before.stats().deepestLevel(), after.deepestLevel());
        firstPass = after;
        store.compact(range, true);
        files = store.liveFiles(table);
      }
    } finally {
      current = null;
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - t0);
    Compacted c = new Compacted(before, firstPass, RangePlanner.assess(range, files, tableBuckets, s), ms);
    rememberProgress(c, files);
    return c;
  }

  private RangeAssessment assess(KeyRange range, List<KeyRange> tableBuckets, PlannerSettings s)
      throws IOException {
    return RangePlanner.assess(range, store.liveFiles(Set.of(range.table())), tableBuckets, s);
  }

  /** Remembers a range whose compaction removed nothing, with the files it left; forgets it otherwise. */
  private void rememberProgress(Compacted c, List<SstFile> filesAfter) {
    KeyRange range = c.before().range();
    noProgress.remove(range);
    if (c.tombstonesRemoved() > 0) {
      return;
    }
    LOG.info("{} {}: compaction removed no tombstone ({} left); left out of plans until its files change", range,
        range.label(), Math.round(c.after().stats().tombstones()));
    if (noProgress.size() >= NO_PROGRESS_MEMORY) {
      Iterator<KeyRange> oldest = noProgress.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
    noProgress.put(range, NoProgress.of(range, filesAfter));
  }

  /** Remembered ranges whose files are unchanged in {@code files}; the others are forgotten (eligible again). */
  private List<KeyRange> unchangedNoProgress(List<SstFile> files) {
    noProgress.values().removeIf(n -> !n.unchangedIn(files));
    return List.copyOf(noProgress.keySet());
  }

  /** Flushes each table whose memtable deletes pass the range test, so this round's facts include them. */
  private void flushMemtablesThatQualify(RoundSettings s, BooleanSupplier stopRequested) throws IOException {
    for (MemtableFacts m : store.memtables(s.tables())) {
      if (m.shouldFlush(s.planner()) && !stopRequested.getAsBoolean()) {
        LOG.info("Flushing {}: {} deletes in {} memtable entries", m.table(), m.deletes(), m.entries());
        store.flush(m.table());
        listener.flushed(m);
      }
    }
  }

  private String pressureReason(RoundSettings s) throws IOException {
    return store.writePressure().reasonToStop(s.pendingBytesLimit(), s.level0FilesLimit());
  }

  /** A duration in nanoseconds, saturated at {@code Long.MAX_VALUE} (~292 years) instead of overflowing. */
  static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
  }
}
