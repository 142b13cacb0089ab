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

package io.ozonerc.compaction.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides which buckets to count, and what their counts decide ({@link RangeCount}).
 *
 * <h2>Which buckets</h2>
 * The range plan judges a bucket by its estimated tombstones, and the estimate shares a straddling file's deletions
 * among the buckets it spans by key position ({@link BucketShares}). When the file holds one bucket's deletes
 * and every other bucket's puts (a flush on a busy OM), the bucket with the deletes gets a small share of them and
 * never qualifies. So after the range plan, the buckets it left below the thresholds are counted when the
 * deletions of every file overlapping them, each file counted whole, reach {@code min.tombstones}: the estimate can
 * only be that wrong where that upper bound allows it (the same bound picks dead heads to probe,
 * {@link Picks#byDeletionBound}). Only buckets the range plan judged whole (it splits one over
 * {@code max.compaction.entries}); those that any planned, busy, over-budget or stuck range overlaps, and counted
 * buckets whose last compaction made no progress on the files they still have, are left out: counting would not
 * change their fate this round; so are buckets whose compaction would be busy or wait for level 0 whatever the
 * count ({@link #withoutFatesDecided}). At most {@code budget} per table and round: half to the
 * largest estimates (then bounds), the rest in turn ({@link Picks#topAndRotating}); a count reads the
 * bucket's part of each straddling file once, about what one full listing of it reads.
 *
 * <h2>What a count decides</h2>
 * The same test as any range, on counted numbers: tombstones >= {@code min.tombstones} and tombstones / entries >=
 * {@code tombstone.ratio}. The cost is the range's ({@link CompactionCost}); as for a dead head, a compaction that
 * would take level-0 files spanning other ranges and rewrite more than {@code max.compaction.entries} waits for
 * RocksDB's own level-0 compaction ({@link Verdict#WAITS_FOR_LEVEL0}), after which the deletes sit below level 0,
 * where the bucket's own files are few, and are counted again; below level 0 it is compacted whatever its cost, as
 * a head is (only buckets the range plan judged whole are counted). A planned count is a {@link KeyRange.Kind#COUNTED}
 * range: the round re-checks it by counting again, and verifies its compaction by a count after.
 *
 * <p>Pure: no clock, no I/O, no RocksDB.
 */
public final class CountPlanner {
  /**
   * Buckets counted per table per round, at most; the counter also stops once it has read its entry budget
   * ({@code rocks.RangeCounter}). One flush on a busy OM spans every bucket written since the last one and gives
   * them all the same bound, so a round counts many: a small bucket's count reads a block or two of each file it
   * straddles, about the price of a probe's seek (the dead heads' budget is the same, {@link
   * HeadPlanner#PROBES_PER_ROUND}).
   */
  public static final int COUNTS_PER_ROUND = 1_000;

  private CountPlanner() { }

  /**
   * The buckets of {@code table} to count after {@code rangePlan} (see the class comment).
   *
   * @param sortedBuckets the table's bucket ranges in key order
   * @param stuck         ranges remembered as making no progress on the files they still have
   *                      ({@link PlanMemory#unchangedRanges}): a counted bucket among them is not counted again
   * @param rotation      a counter the caller increases every round
   * @return the buckets to count, the best first, then the rotating ones (the counter reads them in key order)
   */
  public static List<KeyRange> pick(String table, List<SstFile> tableFiles, List<KeyRange> sortedBuckets,
      CompactionPlan rangePlan, List<KeyRange> stuck, PlannerSettings settings, int budget, long rotation) {
    long minTombstones = settings.minTombstones();
    if (minTombstones <= 0 || budget <= 0) {
      return List.of();
    }
    TreeMap<byte[], byte[]> decided = new TreeMap<>(Keys::compare); // begin -> end of ranges with another fate
    for (KeyRange r : stuck) {
      if (r.table().equals(table) && r.kind() == KeyRange.Kind.COUNTED) {
        decided.put(r.begin(), r.end() == null ? PAST : r.end());
      }
    }
    TreeMap<byte[], Double> estimated = new TreeMap<>(Keys::compare); // bucket begin -> estimated tombstones
    for (List<RangeAssessment> list : List.of(rangePlan.planned(), rangePlan.notPlanned())) {
      for (RangeAssessment a : list) {
        if (!a.range().table().equals(table)) {
          continue;
        }
        if (a.verdict() != Verdict.BELOW_THRESHOLD) {
          decided.merge(a.range().begin(), a.range().end() == null ? PAST : a.range().end(),
              (x, y) -> Keys.compare(x, y) >= 0 ? x : y);
        } else if (a.range().kind() == KeyRange.Kind.BUCKET) {
          estimated.put(a.range().begin(), a.stats().tombstones());
        }
      }
    }
    List<Candidate> ranked = new ArrayList<>();
    // the bound counts each delete twice (tombstone and hidden value): twice the threshold is the same test
    long minBound = Picks.DEAD_ENTRIES_PER_DELETE * minTombstones;
    for (Picks.Bound c : Picks.byDeletionBound(tableFiles, 0, sortedBuckets, minBound)) {
      Double estimate = estimated.get(c.range().begin());
      // only buckets the range plan judged whole: one it split is over max.compaction.entries as a whole
      if (estimate != null && !overlapsAny(decided, c.range())) {
        ranked.add(new Candidate(c.range(), estimate, c.deadBound()));
      }
    }
    // One flush spanning every bucket gives them all one bound; the estimate, wrong as it may be in size, still
    // leans toward where the deletes are (it shares a file by where the data below it lies).
    ranked.sort(Comparator.comparingDouble(Candidate::estimate).thenComparingLong(Candidate::bound).reversed());
    List<KeyRange> picks = Picks.topAndRotating(ranked, budget, rotation).stream().map(Candidate::range).toList();
    return picks.isEmpty() ? picks : withoutFatesDecided(picks, TableFacts.of(tableFiles, sortedBuckets), settings);
  }

  /**
   * The picks whose count could plan them. A bucket whose compaction takes a file being compacted, or takes level-0
   * files and rewrites more than {@code max.compaction.entries}, is busy or waits for level 0 whatever its count
   * ({@link #assess} judges those from the SST facts alone, {@link RangeStats#waitsForLevel0}): reading its files would
   * decide nothing this round. On a busy OM every recent flush spans the table, so until RocksDB compacts level 0
   * this leaves out most buckets, and each round would otherwise read up to {@code rocks.RangeCounter}'s entry
   * budget for them.
   */
  static List<KeyRange> withoutFatesDecided(List<KeyRange> picks, TableFacts t, PlannerSettings s) {
    List<KeyRange> out = new ArrayList<>(picks.size());
    for (KeyRange r : picks) {
      RangeStats st = Qualification.assess(countedRange(r), t, s).stats();
      if (!st.busy() && !st.waitsForLevel0(s)) {
        out.add(r);
      }
    }
    return out;
  }

  private static KeyRange countedRange(KeyRange bucket) {
    return new KeyRange(bucket.table(), KeyRange.Kind.COUNTED, bucket.label(), bucket.begin(), bucket.end());
  }

  /** A bucket to count: its estimated tombstones and the bound of its files' deletions (each delete twice). */
  private record Candidate(KeyRange range, double estimate, long bound) { }

  /** An end past every key, for the map of decided ranges. */
  private static final byte[] PAST = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

  private static boolean overlapsAny(TreeMap<byte[], byte[]> decided, KeyRange r) {
    // ranges beginning before r's end; any of them ending after r's begin overlaps (they do not nest far: check all
    // that begin inside r, and the last one beginning at or before r's begin)
    Map.Entry<byte[], byte[]> before = decided.floorEntry(r.begin());
    if (before != null && Keys.compare(before.getValue(), r.begin()) > 0) {
      return true;
    }
    Map.Entry<byte[], byte[]> inside = decided.higherEntry(r.begin());
    return inside != null && (r.end() == null || Keys.compare(inside.getKey(), r.end()) < 0);
  }

  /**
   * Plans counted buckets of every table, best first (by score), within what the round left of its {@code budget},
   * and takes from it what it plans; {@code notPlanned} holds those that did not qualify, must wait or are over
   * budget.
   *
   * @param filesByTable   live SST files per table
   * @param bucketsByTable sorted bucket ranges per table
   */
  public static CompactionPlan plan(List<RangeCount> counts, Map<String, List<SstFile>> filesByTable,
      Map<String, List<KeyRange>> bucketsByTable, PlannerSettings settings, Budget budget) {
    List<RangeAssessment> qualified = new ArrayList<>();
    List<RangeAssessment> notPlanned = new ArrayList<>();
    Map<String, TableFacts> facts = new HashMap<>(); // indexed once per table, not once per count
    for (RangeCount c : counts) {
      String table = c.range().table();
      TableFacts t = facts.computeIfAbsent(table, x -> TableFacts.of(filesByTable.getOrDefault(x, List.of()),
          bucketsByTable.getOrDefault(x, List.of())));
      RangeAssessment a = assess(c, t, settings);
      (a.verdict() == Verdict.PLANNED ? qualified : notPlanned).add(a);
    }
    qualified.sort(Comparator.comparingDouble(RangeAssessment::score).reversed());
    List<RangeAssessment> planned = new ArrayList<>();
    for (RangeAssessment a : qualified) {
      RangeAssessment over = budget.take(a);
      (over == null ? planned : notPlanned).add(over == null ? a : over);
    }
    return new CompactionPlan(List.copyOf(planned), List.copyOf(notPlanned), Map.of());
  }

  /**
   * One count against the thresholds, with the range's cost and bottommost decision from the SST facts. Used by
   * {@link #plan} and by the round's re-check on a fresh count. The range assessed is a
   * {@link KeyRange.Kind#COUNTED} range over the counted range's bounds, re-checked by counting that range again.
   */
  public static RangeAssessment assess(RangeCount c, List<SstFile> tableFiles, List<KeyRange> sortedBuckets,
      PlannerSettings s) {
    return assess(c, TableFacts.of(tableFiles, sortedBuckets), s);
  }

  /** {@link #assess(RangeCount, List, List, PlannerSettings)} on an indexed table. */
  static RangeAssessment assess(RangeCount c, TableFacts t, PlannerSettings s) {
    KeyRange counted = countedRange(c.range());
    RangeAssessment base = Qualification.assess(counted, t, s);
    RangeStats est = base.stats();
    // Each tombstone hides at most one older put; what a listing steps over, for ranking only.
    long hidden = Math.min(c.tombstones(), c.entries() - c.tombstones());
    RangeStats st = new RangeStats(c.entries(), c.tombstones(), hidden, est.bottomTombstones(), est.fileEntries(),
        est.fileBytes(), est.files(), est.shallowestLevel(), est.deepestLevel(), est.busy());
    boolean qualifies = c.tombstones() >= s.minTombstones() && st.tombstoneRatio() >= s.tombstoneRatio();
    Verdict v = !qualifies ? Verdict.BELOW_THRESHOLD : st.busy() ? Verdict.BUSY
        : st.waitsForLevel0(s) ? Verdict.WAITS_FOR_LEVEL0 : Verdict.PLANNED;
    String why = "counted " + c.tombstones() + " tombstones in " + c.entries() + " entries (" + c.filesRead()
        + " straddling file(s) read; estimated " + Math.round(est.tombstones()) + "): tombstones " + c.tombstones()
        + (c.tombstones() >= s.minTombstones() ? " >= " : " < ") + s.minTombstones() + ", ratio "
        + Qualification.twoDecimals(st.tombstoneRatio())
        + (st.tombstoneRatio() >= s.tombstoneRatio() ? " >= " : " < ") + Qualification.twoDecimals(s.tombstoneRatio())
        + (v == Verdict.BUSY ? "; an overlapping file is being compacted"
            : v == Verdict.WAITS_FOR_LEVEL0 ? "; its compaction would rewrite " + st.fileEntries()
                + " entries > max.compaction.entries " + s.maxCompactionEntries() + " (level-0 files spanning "
                + "other ranges and everything below them)" : "");
    return new RangeAssessment(counted, st, v, why, base.forceBottommost()).probedOver(c.range());
  }
}
