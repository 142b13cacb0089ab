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

import io.ozonerc.compaction.plan.Budget;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.CountPlanner;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.HeadPlanner;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.PlanMemory;
import io.ozonerc.compaction.plan.PlanWork;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.service.PassRunner.Round;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does one round of compactions; the one copy of it that the OM's service and the operator CLI both run. As in
 * Kafka's log cleaner, choosing, doing and scheduling are apart: the planners ({@link HeadPlanner},
 * {@link RangePlanner}, {@link CountPlanner}) and {@link PlanMemory} choose, {@link CompactionExecutor} does one
 * compaction of any kind, {@link PassRunner} runs a pass's planned compactions through it, this class decides a
 * round's passes, and {@link RangeCompactionService} schedules rounds. The steps of {@link #run} (write pressure
 * and memtables, dead heads, ranges, counted buckets, each compaction through the executor under the same stop
 * checks) are described in the README's "How a round decides". A round makes one {@link Budget}: each of its
 * planners takes from it what it plans, and each pass keeps charged what ran and gives back the rest
 * ({@link PassRunner}), so a later plan gets what the compactions before it left. {@link #checkHeads} is the
 * dead-head pass alone over the table heads and the remembered hot heads; {@link #planRound} makes a round's two
 * plans without writing (the CLI's analysis and dry run). Per-compaction events are DEBUG; the caller logs the
 * round once ({@link RoundResult#summary}). Time is read only from the clock given. One round at a time: callers
 * serialise {@link #run}.
 */
public final class RangeCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactor.class);

  /**
   * What a round would decide on the store as it is, without writing ({@link #planRound}).
   *
   * @param heads  the dead heads it would probe, and their plan
   * @param ranges the range plan on the same facts
   * @param files  the live SST files both plans were made on
   */
  public record RoundPlan(HeadPlan heads, CompactionPlan ranges, List<SstFile> files) { }

  private final CompactionStore store;
  private final LongSupplier nanoClock;
  private final RoundListener listener;
  private final PlanMemory memory = new PlanMemory();
  private final CompactionExecutor executor;
  private final PassRunner passes;

  /**
   * @param nanoClock monotonic clock for the time budget and the durations reported
   * @param listener  told of flushes, the plan, and each compaction or skip as it happens
   */
  public RangeCompactor(CompactionStore store, LongSupplier nanoClock, RoundListener listener) {
    this.store = store;
    this.nanoClock = nanoClock;
    this.listener = listener;
    this.executor = new CompactionExecutor(store, nanoClock, memory);
    this.passes = new PassRunner(executor, listener, memory);
  }

  /** The range being compacted now, or null. */
  public KeyRange current() {
    return executor.current();
  }

  /**
   * Runs one round.
   *
   * @param stopRequested asked before each compaction; true ends the round as {@link Outcome#SHUTDOWN} (the service
   *                      reports the round as {@link Outcome#PAUSED} when a pause asked)
   * @throws IOException from the store (a {@link StoreUnavailableException} while it is closed or replaced)
   */
  public RoundResult run(RoundSettings s, BooleanSupplier stopRequested) throws IOException {
    long start = nanoClock.getAsLong();
    String pressure = pressureReason(s);
    if (pressure != null) {
      return RoundResult.early(Outcome.PRESSURE, pressure, elapsedMs(start));
    }
    memory.rotate(); // once a round: the rotating halves of its head probes and counts move on
    List<MemtableFacts> flushed = s.flushMemtables() ? flushMemtablesThatQualify(s, stopRequested) : List.of();
    Map<String, List<KeyRange>> buckets = store.bucketRanges(s.tables());
    Round round = new Round(s.planner(), RangePlanner.sortedBuckets(buckets),
        () -> stopReason(s, start, stopRequested), Budget.of(s.planner()));
    List<SstFile> files = store.liveFiles(s.tables());
    HeadPlan headPlan = HeadPlan.NONE;
    RoundProgress heads = RoundProgress.NONE;
    if (s.planner().deadHeadMinKeys() > 0) {
      headPlan = planHeads(s, files, round.sortedBuckets(), false, round.budget());
      heads = passes.heads(round, headPlan);
      if (heads.stop() != null) {
        return heads.result(null, headPlan, flushed, elapsedMs(start));
      }
      if (!heads.done().isEmpty()) {
        files = store.liveFiles(s.tables());
      }
    }
    // Planning counts against the round's budget: on a huge store it stops early with what it assessed so far.
    PlanWork work = PlanWork.until(() -> stopRequested.getAsBoolean()
        || (s.timeBudgetNanos() > 0 && nanoClock.getAsLong() - start >= s.timeBudgetNanos()));
    CompactionPlan plan = RangePlanner.plan(files, buckets, memory.unchangedRanges(files), s.planner(),
        round.budget(), work);
    if (!plan.complete()) {
      LOG.debug("Planning stopped early after {} steps (time budget or shutdown); this round plans what it reached",
          work.steps());
    }
    listener.planned(plan);
    RoundProgress ranges = passes.ranges(round, plan.planned(), heads);
    if (ranges.stop() != null) {
      return ranges.result(plan, headPlan, flushed, elapsedMs(start));
    }
    // Counting reads files for compactions to come: not when one could not start, nor when the budget is spent.
    // The round then ends as its range pass did (a stop seen only now is the next round's to meet first).
    if (round.stops().check() != null || round.budget().exhausted()) {
      return ranges.result(plan, headPlan, flushed, elapsedMs(start));
    }
    CompactionPlan counted = planCounted(s, plan, round);
    RoundProgress all = passes.ranges(round, counted.planned(), ranges);
    return all.result(plan.then(counted), headPlan, flushed, elapsedMs(start));
  }

  /** Counts the buckets the range plan may have misjudged ({@link CountPlanner}) and plans those that qualify. */
  private CompactionPlan planCounted(RoundSettings s, CompactionPlan rangePlan, Round round) throws IOException {
    List<SstFile> files = store.liveFiles(s.tables());
    Map<String, List<SstFile>> filesByTable = SstFile.byTable(files);
    List<KeyRange> stuck = memory.unchangedRanges(files);
    List<RangeCount> counts = new ArrayList<>();
    for (String table : s.tables()) {
      List<SstFile> tableFiles = filesByTable.getOrDefault(table, List.of());
      List<KeyRange> picks = CountPlanner.pick(table, tableFiles, round.bucketsOf(table), rangePlan, stuck,
          s.planner(), CountPlanner.COUNTS_PER_ROUND, memory.rotation());
      if (!picks.isEmpty()) {
        counts.addAll(store.countRanges(table, picks, tableFiles));
      }
    }
    CompactionPlan plan = CountPlanner.plan(counts, filesByTable, round.sortedBuckets(), s.planner(),
        round.budget());
    listener.counted(counts, plan);
    return plan;
  }

  /**
   * What {@link #run} would decide now, without writing: the dead heads it would probe and their plan, and the
   * range plan, by the same code. Reads only: no flush, no compaction, nothing remembered for later rounds. For the
   * operator CLI's analysis and dry run. A round plans its ranges after compacting its heads, on facts read again
   * and within what the heads left of the budget; here both plans are made on the same facts, each with the whole
   * budget, so a range whose tombstones a planned head would take is planned too (the round would find it stale
   * on re-check, or not plan it). The counted buckets of a round's last step are not included: counting reads the
   * files of the buckets the range plan left, after the ranges are compacted.
   */
  public RoundPlan planRound(RoundSettings s) throws IOException {
    Map<String, List<KeyRange>> buckets = store.bucketRanges(s.tables());
    List<SstFile> files = store.liveFiles(s.tables());
    Budget budget = Budget.of(s.planner());
    HeadPlan heads = s.planner().deadHeadMinKeys() > 0
        ? planHeads(s, files, RangePlanner.sortedBuckets(buckets), false, budget) : HeadPlan.NONE;
    heads.plan().planned().forEach(budget::giveBack); // none of them runs here: the ranges get the whole budget
    List<KeyRange> noProgress = memory.unchangedRanges(files);
    return new RoundPlan(heads, RangePlanner.plan(files, buckets, noProgress, s.planner(), budget,
        PlanWork.unbounded()), List.copyOf(files));
  }

  /**
   * Between rounds: re-probes every table head and the remembered hot bucket heads, and compacts those that
   * qualify, best first, within a round's budgets ({@code ranges.per.run}, {@code bytes.per.run}, time budget):
   * many hot queues must not be served one a check. Cheap when nothing qualifies (one seek per head, no bucket
   * table read, no range plan), so it can run every second. Same guarantees as a round: stop checks before every
   * compaction, re-probe before and verification after.
   *
   * @return the check as a round: {@code headPlan} holds the heads it assessed, {@code plan} is null
   */
  public RoundResult checkHeads(RoundSettings s, BooleanSupplier stopRequested) throws IOException {
    long start = nanoClock.getAsLong();
    if (s.planner().deadHeadMinKeys() <= 0) {
      return RoundResult.early(Outcome.COMPLETED, "dead-head probes off", 0);
    }
    String pressure = pressureReason(s);
    if (pressure != null) {
      return RoundResult.early(Outcome.PRESSURE, pressure, elapsedMs(start));
    }
    Round round = new Round(s.planner(), Map.of(), () -> stopReason(s, start, stopRequested),
        Budget.of(s.planner()));
    HeadPlan plan = planHeads(s, store.liveFiles(s.tables()), Map.of(), true, round.budget());
    RoundProgress heads = passes.heads(round, plan);
    return heads.result(null, plan, List.of(), elapsedMs(start));
  }

  /**
   * Probes dead heads and plans them ({@link HeadPlanner}); reads only. The one copy of the head decision: a round,
   * a head check and {@link #planRound} all call it.
   *
   * @param sortedBuckets per table, its bucket ranges in key order; empty for a head check
   * @param hotOnly       probe only table heads and remembered hot buckets (a head check), not every candidate
   * @param budget        the round's, which the plan takes from
   */
  private HeadPlan planHeads(RoundSettings s, List<SstFile> files, Map<String, List<KeyRange>> sortedBuckets,
      boolean hotOnly, Budget budget) throws IOException {
    Map<String, List<SstFile>> filesByTable = SstFile.byTable(files);
    Map<String, Long> memDeletes = new HashMap<>();
    if (!hotOnly) {
      store.memtables(s.tables()).forEach(m -> memDeletes.put(m.table(), m.deletes()));
    }
    List<HeadFacts> heads = new ArrayList<>();
    for (String table : s.tables()) {
      List<SstFile> tableFiles = filesByTable.getOrDefault(table, List.of());
      List<KeyRange> hot = memory.hotHeads(table);
      List<KeyRange> probes;
      if (hotOnly) {
        probes = new ArrayList<>();
        probes.add(HeadFacts.tableRange(table));
        probes.addAll(HeadPlanner.withoutDirectoriesThatMustWait(hot, tableFiles, s.planner()));
      } else {
        probes = HeadPlanner.pickProbes(table, tableFiles, memDeletes.getOrDefault(table, 0L),
            sortedBuckets.getOrDefault(table, List.of()), hot, s.planner(), HeadPlanner.PROBES_PER_ROUND,
            memory.rotation());
      }
      heads.addAll(store.probeHeads(table, probes, tableFiles));
    }
    return new HeadPlan(HeadPlanner.plan(heads, filesByTable, sortedBuckets, s.planner(), budget),
        List.copyOf(heads));
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

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
  }
}
