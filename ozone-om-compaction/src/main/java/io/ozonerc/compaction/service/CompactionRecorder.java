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

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.service.Schedule.Admission;
import io.ozonerc.compaction.service.Schedule.Due;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what the compactor reports into the service's metrics and history as it happens, and books each round or
 * head check the service runs: its counters and its log line (under the service's logger name, which operators
 * set levels by).
 */
final class CompactionRecorder implements RoundListener {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactionService.class);
  static final int HISTORY = 256;
  private final RangeCompactionMetrics metrics;
  /** The last {@link #HISTORY} compactions, oldest first: what operators and tests ask "did it compact X?". */
  private final Deque<Compacted> history = new ArrayDeque<>();

  CompactionRecorder(RangeCompactionMetrics metrics) {
    this.metrics = metrics;
  }

  /**
   * Counts a round (not a head check) about to start, when it counts as run ({@link Admission#counts}: let through, or
   * skipped for the leader policy).
   */
  void passStarted(Admission p) {
    if (p.kind() == Due.ROUND && p.counts()) {
      metrics.roundsRun.incr();
    }
  }

  /**
   * Books a round or head check that ended (or was refused): a round's duration and what it left, a back-off, and
   * the log line.
   *
   * @param backoffNanos the back-off in force after it, for the log line of a pressure stop
   */
  void passEnded(Admission p, RoundResult r, long endEpochMillis, long backoffNanos) {
    boolean round = p.kind() == Due.ROUND;
    if (round && p.counts()) {
      roundEnded(r, endEpochMillis);
    }
    if (r.outcome() == Outcome.PRESSURE) {
      metrics.roundsBackedOff.incr();
    }
    log(round ? "round" : "head check", r, backoffNanos);
  }

  /**
   * Logs a round or head check ({@code what}): one INFO line when it wrote something (a compaction, a memtable
   * flush), was stopped by write pressure (it starts a back-off) or found the store unavailable; only DEBUG when it
   * did nothing, or was skipped (back-off, leader policy, shutdown, pause). A failure is the WARN logged where it
   * is caught. Each compaction's own line is DEBUG.
   */
  private static void log(String what, RoundResult r, long backoffNanos) {
    Outcome o = r.outcome();
    boolean info = r.acted() || o == Outcome.PRESSURE || o == Outcome.STORE_UNAVAILABLE;
    if (info && LOG.isInfoEnabled()) {
      LOG.info("{}: {}{}", what, r.summary(), o == Outcome.PRESSURE
          ? "; backing off " + RoundResult.duration(TimeUnit.NANOSECONDS.toMillis(backoffNanos)) : "");
    } else if (o != Outcome.FAILED && LOG.isDebugEnabled()) {
      LOG.debug("{}: {}", what, r.summary());
    }
    if (LOG.isDebugEnabled()) {
      r.compacted().forEach(c -> LOG.debug("{}:   {}", what, c.describe()));
    }
  }

  /**
   * Counts a round that ran (or was skipped for the leader policy): its duration and end, and the planned ranges
   * it left, by what stopped it; a pause counts as shutdown (the service was stopped, by the operator).
   */
  private void roundEnded(RoundResult r, long endEpochMillis) {
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
