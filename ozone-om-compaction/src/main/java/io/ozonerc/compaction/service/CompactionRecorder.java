package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Turns what the compactor reports into the service's metrics and history as it happens. */
final class CompactionRecorder implements RoundListener {
  static final int HISTORY = 256;
  private final RangeCompactionMetrics metrics;
  /** The last {@link #HISTORY} compactions, oldest first: what operators and tests ask "did it compact X?". */
  private final Deque<Compacted> history = new ArrayDeque<>();

  CompactionRecorder(RangeCompactionMetrics metrics) {
    this.metrics = metrics;
  }

  /**
   * Counts a round that ran (or was skipped for the leader policy): its duration and end, and the planned ranges
   * it left, by what stopped it; a pause counts as shutdown (the service was stopped, by the operator).
   */
  void roundEnded(RoundResult r, long endEpochMillis) {
    metrics.lastRoundDurationMs.set(r.durationMs());
    metrics.lastRoundEndTimeMs.set(endEpochMillis);
    switch (r.outcome()) {
      case PRESSURE -> metrics.rangesSkippedPressure.incr(r.left());
      case TIME_BUDGET -> metrics.rangesSkippedBudget.incr(r.left());
      case SHUTDOWN, PAUSED -> metrics.rangesSkippedShutdown.incr(r.left());
      default -> { }
    }
  }

  /** The most recent compactions (at most {@value #HISTORY}), oldest first. */
  List<Compacted> recent() {
    synchronized (history) {
      return List.copyOf(history);
    }
  }

  @Override
  public void flushed(MemtableFacts memtable) {
    metrics.memtableFlushes.incr();
  }

  @Override
  public void planned(CompactionPlan plan) {
    metrics.recordWorstRatios(plan.worstRatioByTable());
    metrics.rangesPlanned.incr(plan.planned().size());
    metrics.rangesSkippedBudget.incr(count(plan, Verdict.OVER_BUDGET));
    metrics.rangesSkippedNoProgress.incr(count(plan, Verdict.NO_PROGRESS));
  }

  @Override
  public void headsPlanned(CompactionPlan plan) {
    metrics.rangesPlanned.incr(plan.planned().size());
    metrics.rangesSkippedBudget.incr(count(plan, Verdict.OVER_BUDGET));
    metrics.headsWaitingForLevel0.incr(count(plan, Verdict.WAITS_FOR_LEVEL0));
    metrics.headsSkippedByReaders.incr(count(plan, Verdict.SKIPPED_BY_READERS));
  }

  @Override
  public void headsProbed(List<HeadFacts> probed) {
    long fromHints = probed.stream().filter(HeadFacts::skippedByReaders).count();
    metrics.headsSizedFromHints.incr(fromHints);
    metrics.headProbeSeeks.incr(probed.size() - fromHints);
  }

  @Override
  public void counted(List<RangeCount> counts, CompactionPlan plan) {
    metrics.rangesCounted.incr(counts.size());
    metrics.rangesPlanned.incr(plan.planned().size());
    metrics.rangesSkippedBudget.incr(count(plan, Verdict.OVER_BUDGET));
  }

  @Override
  public void compacted(Compacted c) {
    synchronized (history) {
      if (history.size() == HISTORY) {
        history.removeFirst();
      }
      history.addLast(c);
    }
    metrics.recordCompaction(c);
  }

  @Override
  public void skipped(RangeAssessment recheck) {
    if (recheck.verdict() == Verdict.WAITS_FOR_LEVEL0) {
      metrics.headsWaitingForLevel0.incr();
    } else if (recheck.verdict() == Verdict.SKIPPED_BY_READERS) {
      metrics.headsSkippedByReaders.incr();
    } else {
      metrics.rangesSkippedStale.incr();
    }
  }

  private static long count(CompactionPlan plan, Verdict v) {
    return plan.notPlanned().stream().filter(a -> a.verdict() == v).count();
  }
}
