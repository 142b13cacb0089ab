package io.ozonerc.compaction.service;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.HeadPlanner;
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
import java.util.HashMap;
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
 * <h2>Dead heads first</h2>
 * Before the range plan, each round probes dead heads ({@link HeadPlanner}: every table's head, and the buckets
 * whose upper bound of dead entries reaches {@code dead.head.min.keys}) and compacts the qualifying ones, table
 * heads first: they are what every listing pays, and a probe is one seek. Each head is re-probed right before its
 * compaction (a reader or RocksDB may have moved on) and after it (verification: the dead head must be gone; if a
 * pass only moved files down, a bottommost-forced pass follows, as for ranges). Buckets whose head qualified are
 * remembered ({@value #HOT_HEADS} at most, most recent kept), so {@link #checkHeads} can re-probe just them between
 * rounds: a queue's head regrows within seconds of being compacted. The head decision (which ranges to probe, the
 * probes, the plan) is one method that the round, the head check and {@link #planRound} (the CLI's analysis and
 * dry run) share; compacting the planned heads is another.
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
 * <h2>Log</h2>
 * Per-range and per-head events are DEBUG here; the caller logs the round once ({@link RoundResult#summary}).
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
   * @param deadHeadMinKeys     dead entries that make a head worth compacting; 0 turns dead-head probes off
   */
  public record RoundSettings(Set<String> tables, PlannerSettings planner, boolean flushMemtables,
      long timeBudgetNanos, long pendingBytesLimit, long level0FilesLimit, long deadHeadMinKeys) {

    /** The service's round: everything from the configuration, with the planner settings for this OM's role. */
    public static RoundSettings of(RangeCompactionConfig config, PlannerSettings planner) {
      return new RoundSettings(config.tableSet(), planner, config.isMemtableFlush(), nanos(config.getTimeout()),
          config.getPressurePendingCompactionBytes(), config.getPressureLevel0Files(), config.getDeadHeadMinKeys());
    }

    /**
     * A round on a DB no OM holds (the CLI): no time budget and no pressure limits, since no foreground writes
     * wait on it, and no memtable flush, since the tool reports the memtables as it found them. RocksDB's own
     * stop signals (delayed or stopped writes) still end the round. Dead heads are probed, planned and compacted
     * as in the service's round.
     */
    public static RoundSettings offline(Set<String> tables, PlannerSettings planner, long deadHeadMinKeys) {
      return new RoundSettings(tables, planner, false, 0, Long.MAX_VALUE, Long.MAX_VALUE, deadHeadMinKeys);
    }
  }

  /**
   * What a round would decide on the store as it is, without writing ({@link #planRound}).
   *
   * @param heads  the dead heads it would probe, and their plan
   * @param ranges the range plan on the same facts
   * @param files  the live SST files both plans were made on
   */
  public record RoundPlan(HeadPlan heads, CompactionPlan ranges, List<SstFile> files) { }

  /** What a caller hears while a round runs (the service turns it into metrics and history). No-ops by default. */
  public interface Listener {
    default void flushed(MemtableFacts memtable) { }

    default void planned(CompactionPlan plan) { }

    /** What each head of a pass was found to be, by a seek or from a skip hint. */
    default void headsProbed(List<HeadFacts> probed) { }

    /** The dead heads a pass probed: those planned, and those left with the reason ({@code notPlanned}). */
    default void headsPlanned(CompactionPlan plan) { }

    default void compacted(Compacted compaction) { }

    default void skipped(RangeAssessment recheck) { }
  }

  private final CompactionStore store;
  private final LongSupplier nanoClock;
  private final Listener listener;
  private final Map<KeyRange, NoProgress> noProgress = new LinkedHashMap<>();
  /** Bucket ranges whose dead head qualified when probed, least recently qualified first. */
  private final Map<KeyRange, Long> hotHeads = new LinkedHashMap<>();
  /** Bucket heads remembered for {@link #checkHeads}: one seek each per check, 64 is ~3 ms. */
  static final int HOT_HEADS = 64;
  private long probeRotation;
  /** Heads still dead after a forced compaction (a snapshot holds them), with the files that left them. */
  private final Map<KeyRange, NoProgress> headNoProgress = new LinkedHashMap<>();
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
    List<MemtableFacts> flushed = s.flushMemtables() ? flushMemtablesThatQualify(s, stopRequested) : List.of();
    Map<String, List<KeyRange>> buckets = store.bucketRanges(s.tables());
    List<SstFile> files = store.liveFiles(s.tables());
    List<Compacted> done = new ArrayList<>();
    List<RangeAssessment> skipped = new ArrayList<>();
    List<HeadPace.Reading> readings = List.of();
    HeadPlan headPlan = HeadPlan.NONE;
    if (s.deadHeadMinKeys() > 0) {
      Map<String, List<KeyRange>> sortedBuckets = sortedBuckets(buckets);
      headPlan = planHeads(s, files, sortedBuckets, false);
      probeRotation++;
      HeadPass heads = compactHeads(s, headPlan, sortedBuckets, stopRequested, start);
      done.addAll(heads.done());
      skipped.addAll(heads.skipped());
      readings = heads.readings();
      if (heads.stop() != null) {
        return new RoundResult(heads.stop().outcome(), heads.stop().detail(), null, headPlan, flushed,
            List.copyOf(done), List.copyOf(skipped), heads.left(), elapsedMs(start), heads.readings());
      }
      if (!heads.done().isEmpty()) {
        files = store.liveFiles(s.tables());
      }
    }
    // Planning counts against the round's budget: on a huge store it stops early with what it assessed so far.
    PlanWork work = PlanWork.until(() -> stopRequested.getAsBoolean()
        || (s.timeBudgetNanos() > 0 && nanoClock.getAsLong() - start >= s.timeBudgetNanos()));
    CompactionPlan plan = planRanges(s, files, buckets, work);
    if (!plan.complete()) {
      LOG.debug("Planning stopped early after {} steps (time budget or shutdown); this round plans what it reached",
          work.steps());
    }
    listener.planned(plan);

    Outcome outcome = Outcome.COMPLETED;
    String detail = "";
    List<RangeAssessment> planned = plan.planned();
    int next = 0;
    for (; next < planned.size(); next++) {
      Stop stop = stopReason(s, start, stopRequested);
      if (stop != null) {
        outcome = stop.outcome();
        detail = stop.detail();
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
        LOG.debug("Skipping {} {}: {} on re-check: {}", range, range.label(), v, before.why());
        continue;
      }
      Verified v = compactAndVerify(before, tableBuckets, s, start, stopRequested);
      done.add(v.compacted());
      listener.compacted(v.compacted());
      if (v.stop() != null) {
        next++; // this one was compacted; its bottommost rewrite is left to a later round
        outcome = v.stop().outcome();
        detail = v.stop().detail();
        break;
      }
    }
    return new RoundResult(outcome, detail, plan, headPlan, flushed, List.copyOf(done), List.copyOf(skipped),
        planned.size() - next, elapsedMs(start), readings);
  }

  /**
   * What {@link #run} would decide now, without writing: the dead heads it would probe and their plan, and the
   * range plan, by the same code. Reads only: no flush, no compaction, nothing remembered for later rounds. For the
   * operator CLI's analysis and dry run. A round plans its ranges after compacting its heads, on facts read again;
   * here both plans are made on the same facts, so a range whose tombstones a planned head would take is planned
   * too (the round would find it stale on re-check, or not plan it).
   */
  public RoundPlan planRound(RoundSettings s) throws IOException {
    Map<String, List<KeyRange>> buckets = store.bucketRanges(s.tables());
    List<SstFile> files = store.liveFiles(s.tables());
    HeadPlan heads = s.deadHeadMinKeys() > 0 ? planHeads(s, files, sortedBuckets(buckets), false) : HeadPlan.NONE;
    return new RoundPlan(heads, planRanges(s, files, buckets, PlanWork.unbounded()), List.copyOf(files));
  }

  private CompactionPlan planRanges(RoundSettings s, List<SstFile> files, Map<String, List<KeyRange>> buckets,
      PlanWork work) {
    return RangePlanner.plan(files, buckets, unchangedNoProgress(files), s.planner(), work);
  }

  /**
   * Between rounds: re-probes every table head and the remembered hot bucket heads, and compacts those that
   * qualify, best first, within the round's budgets ({@code ranges.per.run}, {@code bytes.per.run}, time budget):
   * many hot queues must not be served one a check. Cheap when nothing qualifies (one seek per head, no bucket
   * table read, no range plan), so it can run every second. Same guarantees as a round: pressure checked before
   * every compaction, re-probe before and verification after.
   *
   * @return the check as a round: {@code headPlan} holds the heads it assessed, {@code plan} is null
   */
  public RoundResult checkHeads(RoundSettings s, BooleanSupplier stopRequested) throws IOException {
    long start = nanoClock.getAsLong();
    if (s.deadHeadMinKeys() <= 0) {
      return RoundResult.early(Outcome.COMPLETED, "dead-head probes off", 0);
    }
    String pressure = pressureReason(s);
    if (pressure != null) {
      return RoundResult.early(Outcome.PRESSURE, pressure, elapsedMs(start));
    }
    HeadPlan plan = planHeads(s, store.liveFiles(s.tables()), Map.of(), true);
    HeadPass heads = compactHeads(s, plan, Map.of(), stopRequested, start);
    Stop stop = heads.stop();
    return new RoundResult(stop == null ? Outcome.COMPLETED : stop.outcome(), stop == null ? "" : stop.detail(),
        null, plan, List.of(), heads.done(), heads.skipped(), heads.left(), elapsedMs(start), heads.readings());
  }

  /** Verdicts that leave a qualifying head for a reason time alone does not change ({@link HeadPace.Reading#held}). */
  private static final Set<Verdict> HELD = Set.of(Verdict.WAITS_FOR_LEVEL0, Verdict.BUSY, Verdict.NO_PROGRESS,
      Verdict.SKIPPED_BY_READERS);

  /**
   * What a pass over dead heads did; {@code stop} is null when it ran to its end. {@code readings}: every probed
   * head, left at its probed count or, when the pass compacted it, at the count after.
   */
  private record HeadPass(List<Compacted> done, List<RangeAssessment> skipped, int left, Stop stop,
      List<HeadPace.Reading> readings) { }

  /** Why a round stops before its next compaction. */
  private record Stop(Outcome outcome, String detail) { }

  /**
   * Probes dead heads and plans them ({@link HeadPlanner}); reads only. The one copy of the head decision: a round,
   * a head check and {@link #planRound} all call it.
   *
   * @param sortedBuckets per table, its bucket ranges in key order; empty for a head check
   * @param hotOnly       probe only table heads and remembered hot buckets (a head check), not every candidate
   */
  private HeadPlan planHeads(RoundSettings s, List<SstFile> files, Map<String, List<KeyRange>> sortedBuckets,
      boolean hotOnly) throws IOException {
    long minDead = s.deadHeadMinKeys();
    Map<String, List<SstFile>> filesByTable = byTable(files);
    Map<String, Long> memDeletes = new HashMap<>();
    if (!hotOnly) {
      store.memtables(s.tables()).forEach(m -> memDeletes.put(m.table(), m.deletes()));
    }
    List<HeadFacts> heads = new ArrayList<>();
    for (String table : s.tables()) {
      List<SstFile> tableFiles = filesByTable.getOrDefault(table, List.of());
      List<KeyRange> hot = hotHeads.keySet().stream().filter(r -> r.table().equals(table)).toList();
      List<KeyRange> probes;
      if (hotOnly) {
        probes = new ArrayList<>();
        probes.add(HeadFacts.tableRange(table));
        probes.addAll(hot);
      } else {
        probes = HeadPlanner.pickProbes(table, tableFiles, memDeletes.getOrDefault(table, 0L),
            sortedBuckets.getOrDefault(table, List.of()), hot, minDead, HeadPlanner.PROBES_PER_ROUND,
            probeRotation);
      }
      heads.addAll(store.probeHeads(table, probes, tableFiles));
    }
    return new HeadPlan(HeadPlanner.plan(heads, filesByTable, sortedBuckets, s.planner(), minDead),
        List.copyOf(heads));
  }

  /** Compacts the planned dead heads in order, each re-probed before and verified after; remembers hot heads. */
  private HeadPass compactHeads(RoundSettings s, HeadPlan headPlan, Map<String, List<KeyRange>> sortedBuckets,
      BooleanSupplier stopRequested, long start) throws IOException {
    long minDead = s.deadHeadMinKeys();
    rememberHot(headPlan.probed(), minDead);
    Map<KeyRange, HeadPace.Reading> readings = new LinkedHashMap<>();
    headPlan.probed().forEach(h -> readings.put(h.range(),
        new HeadPace.Reading(h.range(), h.deadEntries(), h.deadEntries())));
    CompactionPlan plan = headPlan.plan();
    listener.headsProbed(headPlan.probed());
    listener.headsPlanned(plan);
    plan.notPlanned().forEach(a -> markHeld(readings, a));
    List<Compacted> done = new ArrayList<>();
    List<RangeAssessment> skipped = new ArrayList<>();
    List<RangeAssessment> planned = plan.planned();
    // The plan already holds the round's budget for heads (ranges.per.run, bytes.per.run; HeadPlanner.plan).
    for (int next = 0; next < planned.size(); next++) {
      Stop stop = stopReason(s, start, stopRequested);
      if (stop != null) {
        return new HeadPass(done, skipped, planned.size() - next, stop, List.copyOf(readings.values()));
      }
      KeyRange head = planned.get(next).range();
      // Re-probe the range the head was found in: its table, or its bucket.
      KeyRange probed = headPlan.probeOf(planned.get(next)).range();
      List<KeyRange> tableBuckets = sortedBuckets.getOrDefault(head.table(), List.of());
      Probed first = reprobe(probed, tableBuckets, s, minDead);
      RangeAssessment before = first.assessment();
      NoProgress stuck = headNoProgress.get(probed);
      if (stuck != null && !stuck.unchangedIn(store.liveFiles(Set.of(probed.table())))) {
        headNoProgress.remove(probed);
        stuck = null;
      }
      if (before.verdict() != Verdict.PLANNED || stuck != null) {
        Verdict v = stuck != null ? Verdict.NO_PROGRESS
            : before.verdict() == Verdict.BELOW_THRESHOLD ? Verdict.STALE : before.verdict();
        RangeAssessment recheck = new RangeAssessment(before.range(), before.stats(), v, before.why(),
            before.forceBottommost());
        skipped.add(recheck);
        listener.skipped(recheck);
        markHeld(readings, recheck);
        LOG.debug("Skipping dead head {} {}: {} on re-check: {}", before.range(), probed.label(), v, before.why());
        continue;
      }
      long t0 = nanoClock.getAsLong();
      RangeStats firstPass = null;
      Stop secondPassStop = null;
      Probed last;
      current = before.range();
      try {
        store.compact(before.range(), before.forceBottommost());
        last = reprobe(probed, tableBuckets, s, minDead);
        // A pass that only moved files down leaves the head as it was: finish with a bottommost rewrite, a second
        // compaction that waits on the same checks as any.
        if (last.assessment().verdict() == Verdict.PLANNED && !before.forceBottommost()) {
          secondPassStop = stopReason(s, start, stopRequested);
          if (secondPassStop == null) {
            LOG.debug("Dead head {} {} still qualifies after a pass ({}); compacting it again with "
                + "bottommost=force", before.range(), probed.label(), last.assessment().why());
            firstPass = RangeStats.of(last.files(), tableBuckets, before.range().begin(), before.range().end());
            store.compact(last.assessment().range(), true);
            last = reprobe(probed, tableBuckets, s, minDead);
          } else {
            LOG.debug("Dead head {} {} still qualifies after a pass; its bottommost rewrite is left to a later check "
                + "({})", before.range(), probed.label(), secondPassStop.detail());
          }
        }
      } finally {
        current = null;
      }
      RangeAssessment after = last.assessment();
      if (after.verdict() == Verdict.PLANNED && secondPassStop == null) {
        // Still dead after a forced pass: a snapshot holds it, or writers outran us. Not again until files change.
        headNoProgress.put(probed, NoProgress.of(probed, store.liveFiles(Set.of(probed.table()))));
        if (headNoProgress.size() > HOT_HEADS) {
          headNoProgress.remove(headNoProgress.keySet().iterator().next());
        }
        LOG.debug("Dead head {} {} still qualifies after compaction ({}); left alone until its files change",
            after.range(), probed.label(), after.why());
      }
      // Reported over the span compacted (the head after may start elsewhere, or be a whole bucket with no dead
      // span), with the verdict of the fresh probe; the probe's dead counts go alongside.
      RangeAssessment sameSpan = new RangeAssessment(before.range(), RangeStats.of(last.files(), tableBuckets,
          before.range().begin(), before.range().end()), after.verdict(), after.why(), after.forceBottommost());
      Compacted c = new Compacted(before, firstPass, sameSpan,
          TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - t0),
          new RoundResult.HeadDrop(first.head().deadEntries(), last.head().deadEntries(), first.head().memDead()));
      done.add(c);
      listener.compacted(c);
      HeadPace.Reading seen = readings.get(probed);
      // Still dead after both passes: held until its files change. Left by a stop before its rewrite: not held,
      // so the next check comes soon.
      readings.put(probed, new HeadPace.Reading(probed, seen == null ? first.head().deadEntries() : seen.probed(),
          last.head().deadEntries(), after.verdict() == Verdict.PLANNED && secondPassStop == null));
      if (secondPassStop != null) {
        return new HeadPass(done, skipped, planned.size() - next - 1, secondPassStop,
            List.copyOf(readings.values()));
      }
    }
    return new HeadPass(done, skipped, 0, null, List.copyOf(readings.values()));
  }

  /** Marks the reading of the head {@code a} assessed as held when its verdict is one time alone does not change. */
  private static void markHeld(Map<KeyRange, HeadPace.Reading> readings, RangeAssessment a) {
    if (HELD.contains(a.verdict())) {
      KeyRange r = a.range();
      readings.replaceAll((k, v) -> k.table().equals(r.table()) && k.label().equals(r.label())
          ? new HeadPace.Reading(k, v.probed(), v.left(), true) : v);
    }
  }

  /** A fresh probe of one range: what the seek found, the table's files it was assessed on, the assessment. */
  private record Probed(HeadFacts head, List<SstFile> files, RangeAssessment assessment) { }

  private Probed reprobe(KeyRange probed, List<KeyRange> tableBuckets, RoundSettings s, long minDead)
      throws IOException {
    List<SstFile> tableFiles = store.liveFiles(Set.of(probed.table()));
    HeadFacts fresh = store.probeHeads(probed.table(), List.of(probed), tableFiles).get(0);
    return new Probed(fresh, tableFiles, HeadPlanner.assess(fresh, tableFiles, tableBuckets, s.planner(), minDead));
  }

  /** Remembers bucket heads that qualified, most recent last; the oldest go beyond {@value #HOT_HEADS}. */
  private void rememberHot(List<HeadFacts> heads, long minDead) {
    for (HeadFacts h : heads) {
      if (!h.isTableHead() && h.deadEntries() >= minDead) {
        hotHeads.remove(h.range());
        hotHeads.put(h.range(), h.deadEntries());
      }
    }
    while (hotHeads.size() > HOT_HEADS) {
      Iterator<KeyRange> oldest = hotHeads.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  private static Map<String, List<KeyRange>> sortedBuckets(Map<String, List<KeyRange>> buckets) {
    Map<String, List<KeyRange>> out = new HashMap<>();
    buckets.forEach((t, b) -> out.put(t, RangePlanner.sortedBuckets(b)));
    return out;
  }

  private static Map<String, List<SstFile>> byTable(List<SstFile> files) {
    Map<String, List<SstFile>> out = new HashMap<>();
    for (SstFile f : files) {
      out.computeIfAbsent(f.table(), t -> new ArrayList<>()).add(f);
    }
    return out;
  }

  /** Shutdown, time budget or write pressure, checked before each compaction; null to go on. */
  private Stop stopReason(RoundSettings s, long start, BooleanSupplier stopRequested) throws IOException {
    if (stopRequested.getAsBoolean()) {
      return new Stop(Outcome.SHUTDOWN, "service stopping");
    }
    if (s.timeBudgetNanos() > 0 && nanoClock.getAsLong() - start >= s.timeBudgetNanos()) {
      return new Stop(Outcome.TIME_BUDGET,
          "round time budget " + TimeUnit.NANOSECONDS.toMillis(s.timeBudgetNanos()) + " ms spent");
    }
    String pressure = pressureReason(s);
    return pressure == null ? null : new Stop(Outcome.PRESSURE, pressure);
  }

  /** A compaction done, and what stopped its bottommost rewrite (null: none was due, or it ran). */
  private record Verified(Compacted compacted, Stop stop) { }

  /**
   * Compacts one range, verifies on fresh facts, finishes with a bottommost rewrite when due, remembers. The
   * rewrite is a second compaction: it waits on the same checks as any (shutdown, time budget, write pressure).
   */
  private Verified compactAndVerify(RangeAssessment before, List<KeyRange> tableBuckets, RoundSettings s,
      long start, BooleanSupplier stopRequested) throws IOException {
    KeyRange range = before.range();
    Set<String> table = Set.of(range.table());
    long t0 = nanoClock.getAsLong();
    RangeStats firstPass = null;
    Stop stop = null;
    List<SstFile> files;
    current = range;
    try {
      store.compact(range, before.forceBottommost());
      files = store.liveFiles(table);
      RangeStats after = RangeStats.of(files, tableBuckets, range.begin(), range.end());
      if (s.planner().bottommost().needsSecondPass(before.stats(), before.forceBottommost(), after)) {
        stop = stopReason(s, start, stopRequested);
        if (stop != null) {
          LOG.debug("{} {}: tombstones {} -> {} without a bottommost rewrite; the rewrite is left to a later round "
              + "({})", range, range.label(), Math.round(before.stats().tombstones()), Math.round(after.tombstones()),
              stop.detail());
        } else {
          LOG.debug("{} {}: tombstones {} -> {} without a bottommost rewrite (levels L{} -> L{}); compacting it "
                  + "again with bottommost=force", range, range.label(), Math.round(before.stats().tombstones()),
              Math.round(after.tombstones()), before.stats().deepestLevel(), after.deepestLevel());
          firstPass = after;
          store.compact(range, true);
          files = store.liveFiles(table);
        }
      }
    } finally {
      current = null;
    }
    long ms = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - t0);
    Compacted c = new Compacted(before, firstPass, RangePlanner.assess(range, files, tableBuckets, s.planner()), ms);
    if (stop == null) {
      rememberProgress(c, files);
    } else {
      noProgress.remove(range); // not done yet: a later round plans it again, rewrite included
    }
    return new Verified(c, stop);
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
    LOG.debug("{} {}: compaction removed no tombstone ({} left); left out of plans until its files change", range,
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

  /**
   * Flushes each table whose memtable deletes pass the range test, so this round's facts include them.
   *
   * @return the memtables flushed, as they were before the flush
   */
  private List<MemtableFacts> flushMemtablesThatQualify(RoundSettings s, BooleanSupplier stopRequested)
      throws IOException {
    List<MemtableFacts> flushed = new ArrayList<>();
    for (MemtableFacts m : store.memtables(s.tables())) {
      if (m.shouldFlush(s.planner()) && !stopRequested.getAsBoolean()) {
        LOG.debug("Flushing {}: {} deletes in {} memtable entries", m.table(), m.deletes(), m.entries());
        store.flush(m.table());
        listener.flushed(m);
        flushed.add(m);
      }
    }
    return List.copyOf(flushed);
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
