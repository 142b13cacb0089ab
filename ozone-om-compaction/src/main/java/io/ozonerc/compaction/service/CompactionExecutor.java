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

import io.ozonerc.compaction.plan.CountPlanner;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.HeadPlanner;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlanMemory;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.HeadDrop;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one planned compaction of any kind, the same way for each: re-check it on fresh facts, compact it, read
 * the facts again, finish with a bottommost rewrite when the first pass left what it was meant to remove, and
 * remember it when it made no progress ({@link PlanMemory}). A round ({@link RangeCompactor}) hands it every
 * planned head and range in order, and asks its stop checks before each; this class asks them again before a
 * bottommost rewrite, which is a compaction of its own.
 *
 * <h2>Re-check by kind</h2>
 * A head ({@link KeyRange.Kind#isHead}) is re-checked by probing again the range its probe read
 * ({@link RangeAssessment#probed}): the head ends at the first live key, which readers and writers move. A counted
 * bucket ({@link KeyRange.Kind#COUNTED}) is counted again: its estimate is what it was counted to correct. Any
 * other range is assessed again over its own bounds ({@link RangePlanner#assess}). A re-check that no longer plans it
 * skips it: below the threshold now means an earlier compaction (ours or RocksDB's) took the job, reported as
 * {@link Verdict#STALE}; a remembered no-progress range whose files are unchanged is {@link Verdict#NO_PROGRESS}.
 *
 * <h2>Verify, and finish what a pass left</h2>
 * A {@code compactRange} that returns has not necessarily removed anything: RocksDB moves a file down without
 * rewriting it when nothing below overlaps it, so a level-0 file holding a queue's puts and deletes lands in the
 * bottom level with every tombstone. A range is compacted again with a bottommost rewrite when its facts after
 * show that ({@link io.ozonerc.compaction.plan.BottommostMode#needsSecondPass}); a head when its fresh probe
 * still qualifies, a counted bucket when its fresh count does. A stop before that rewrite leaves it to a later round,
 * and the range is not remembered as stuck (it is not finished).
 */
final class CompactionExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionExecutor.class);

  private final CompactionStore store;
  private final LongSupplier nanoClock;
  private final PlanMemory memory;
  private volatile KeyRange current;

  CompactionExecutor(CompactionStore store, LongSupplier nanoClock, PlanMemory memory) {
    this.store = store;
    this.nanoClock = nanoClock;
    this.memory = memory;
  }

  /** The range being compacted now, or null. */
  KeyRange current() {
    return current;
  }

  /**
   * What running one planned compaction came to: {@code compacted} or {@code skipped} (the other null);
   * {@code stop} is what kept its bottommost rewrite from starting (null when none was due, or it ran). For a
   * head, {@code headBefore} and {@code headAfter} are its probes before and after (after is null when skipped).
   */
  record Ran(Compacted compacted, RangeAssessment skipped, Stop stop, HeadFacts headBefore,
      HeadFacts headAfter) {
    /** True when a finished head compaction left the head still dead: it is held until its files change. */
    boolean leftStuck() {
      return compacted != null && stop == null && compacted.after().verdict() == Verdict.PLANNED;
    }
  }

  /** Fresh facts of a planned compaction: its assessment now, the table's files it rests on, a head's probe. */
  private record Fresh(RangeAssessment assessment, List<SstFile> files, HeadFacts head) { }

  /**
   * Runs {@code planned}: re-check, compact, verify, rewrite the bottom if due, remember.
   *
   * @param tableBuckets the sorted bucket ranges of its table
   */
  Ran run(RangeAssessment planned, List<KeyRange> tableBuckets, PlannerSettings s, Stop.Check stops)
      throws IOException {
    KeyRange key = PlanMemory.key(planned);
    Fresh first = recheck(planned, tableBuckets, s);
    RangeAssessment before = first.assessment();
    boolean stuck = memory.stuck(key, first.files());
    if (before.verdict() != Verdict.PLANNED || stuck) {
      Verdict v = stuck ? Verdict.NO_PROGRESS
          : before.verdict() == Verdict.BELOW_THRESHOLD ? Verdict.STALE : before.verdict();
      RangeAssessment skipped = new RangeAssessment(before.range(), before.stats(), v, before.why(),
          before.forceBottommost()).probedOver(before.probed());
      LOG.debug("Skipping {} {} {}: {} on re-check: {}", before.range().kind(), before.range(),
          before.range().label(), v, before.why());
      return new Ran(null, skipped, null, first.head(), null);
    }
    long t0 = nanoClock.getAsLong();
    RangeStats firstPass = null;
    Stop stop = null;
    Fresh last;
    current = before.range();
    try {
      store.compact(before.range(), before.forceBottommost());
      last = recheck(planned, tableBuckets, s);
      if (secondPassDue(before, last, tableBuckets, s)) {
        stop = stops.check();
        if (stop == null) {
          LOG.debug("{} {} {} still qualifies after a pass ({}); compacting it again with bottommost=force",
              before.range().kind(), before.range(), before.range().label(), last.assessment().why());
          firstPass = sameSpan(last, before.range(), tableBuckets);
          store.compact(last.assessment().range(), true);
          last = recheck(planned, tableBuckets, s);
        } else {
          LOG.debug("{} {} {}: its bottommost rewrite is left to a later round ({})", before.range().kind(),
              before.range(), before.range().label(), stop.detail());
        }
      }
    } finally {
      current = null;
    }
    // Reported over the span compacted (a head's span after may start elsewhere, or be its whole bucket), with
    // the verdict of the fresh re-check.
    RangeAssessment after = last.assessment();
    RangeAssessment afterSameSpan = before.range().kind().isHead()
        ? new RangeAssessment(before.range(), sameSpan(last, before.range(), tableBuckets), after.verdict(),
            after.why(), after.forceBottommost()).probedOver(before.probed())
        : after;
    HeadDrop drop = first.head() == null ? null
        : new HeadDrop(first.head().deadEntries(), last.head().deadEntries(), first.head().memDead());
    Compacted c = new Compacted(before, firstPass, afterSameSpan,
        TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - t0), drop);
    if (stop == null && PlanMemory.madeNoProgress(planned, c.tombstonesRemoved(),
        after.verdict() == Verdict.PLANNED)) {
      LOG.debug("{} {} {}: no progress ({}); left out until its files change", before.range().kind(),
          before.range(), before.range().label(), after.why());
      memory.rememberNoProgress(key, last.files());
    } else {
      memory.forget(key);
    }
    return new Ran(c, null, stop, first.head(), last.head());
  }

  /**
   * Whether the first pass needs a bottommost rewrite: for a head, its fresh probe still qualifies; for a range,
   * what {@code bottommost.mode} says of the facts before and after. Never after a pass that already forced it.
   */
  private static boolean secondPassDue(RangeAssessment before, Fresh after, List<KeyRange> tableBuckets,
      PlannerSettings s) {
    if (before.forceBottommost()) {
      return false;
    }
    if (before.range().kind().isHead() || before.range().kind() == KeyRange.Kind.COUNTED) {
      return after.assessment().verdict() == Verdict.PLANNED;
    }
    return s.bottommost().needsSecondPass(before.stats(), false,
        sameSpan(after, before.range(), tableBuckets));
  }

  private static RangeStats sameSpan(Fresh fresh, KeyRange span, List<KeyRange> tableBuckets) {
    return RangeStats.of(fresh.files(), tableBuckets, span.begin(), span.end());
  }

  /**
   * The planned compaction on fresh facts: a head probed again over its probed range, a counted bucket counted
   * again, any other range assessed again.
   */
  private Fresh recheck(RangeAssessment planned, List<KeyRange> tableBuckets, PlannerSettings s)
      throws IOException {
    KeyRange probed = planned.probed();
    List<SstFile> tableFiles = store.liveFiles(Set.of(probed.table()));
    if (planned.range().kind() == KeyRange.Kind.COUNTED) {
      List<RangeCount> count = store.countRanges(probed.table(), List.of(probed), tableFiles);
      // not counted (a file went meanwhile): judged on the estimate, which is what left it to counting
      return new Fresh(count.isEmpty() ? RangePlanner.assess(probed, tableFiles, tableBuckets, s)
          : CountPlanner.assess(count.get(0), tableFiles, tableBuckets, s), tableFiles, null);
    }
    if (!planned.range().kind().isHead()) {
      return new Fresh(RangePlanner.assess(probed, tableFiles, tableBuckets, s), tableFiles, null);
    }
    HeadFacts head = store.probeHeads(probed.table(), List.of(probed), tableFiles).get(0);
    return new Fresh(HeadPlanner.assess(head, tableFiles, tableBuckets, s),
        tableFiles, head);
  }
}
