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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides which key ranges of the OM's tables to compact, from SST file facts alone.
 *
 * <h2>Why ranges, and which</h2>
 * A delete in RocksDB writes a tombstone; until a compaction carries it to the bottom level, every iterator that
 * crosses it steps over it and over the older value it hides. The OM lists a bucket by seeking to the bucket's
 * first key and reading forward, so a bucket whose lower 95% was deleted makes each listing step over ~2 internal
 * keys per deleted key (109 ms per seek at 1e6 keys, docs/facts.md) while RocksDB's own compaction picker, which
 * looks at level sizes, sees no reason to act. A manual {@code compactRange} over just that bucket removes them all.
 *
 * <p>The unit is therefore the bucket: one range per bucket prefix per table ({@code /vol/bucket/} for the
 * key-name tables, {@code /volumeId/bucketId/} for the FSO tables, ending at the prefix's successor, never at the
 * next bucket's keys), plus one range per gap between buckets, where keys of deleted buckets are left behind.
 *
 * <h2>A plan in six steps</h2>
 * <ol>
 *   <li><b>Partition</b> each table's key space into bucket and gap ranges; keep those some SST file overlaps.</li>
 *   <li><b>Split</b> a range whose overlapping files hold more than {@code maxCompactionEntries} entries at file
 *       boundaries, greedily, so each piece stays under the cap. A cut never falls inside a file that alone
 *       exceeds the cap: such a file becomes one range of its own, never skipped.</li>
 *   <li><b>Qualify</b> each piece ({@link Qualification}): tombstones >= {@code minTombstones} and
 *       tombstones/entries >= {@code tombstoneRatio} (TiKV's and HDDS-12682's test); not when an overlapping file
 *       is being compacted ({@code busy}) or the range overlaps one whose last compaction removed nothing
 *       ({@code noProgress}). A piece that fails as a whole is tried once more on the span of its
 *       tombstone-dense files ({@link #denseSubRange}).</li>
 *   <li><b>Merge</b> neighbouring qualifying pieces of one table (no data between them) while the merged range's
 *       files stay under the cap: one compaction instead of several over the same files.</li>
 *   <li><b>File sets</b>: RocksDB pays per file, not per range. Neighbouring pieces that fail the test on their own
 *       but whose compactions would rewrite the same files (after the first, no file begins in any of them) are
 *       judged together: one compaction of the joined span ({@link KeyRange.Kind#FILE_SET}) rewrites
 *       those files once and removes the tombstones of all of them, so its benefit is their sum
 *       ({@link #fileSets}). Thousands of buckets each with a few hundred deletes, all in files spanning every
 *       bucket, are one compaction this way and none otherwise.</li>
 *   <li><b>Rank</b> by {@link RangeStats#score()} (dead keys x dead-key density) and keep the best that fit
 *       {@code rangesPerRun} and {@code maxBytesPerRun}; the first always fits, so an oversized range cannot
 *       starve.</li>
 * </ol>
 * Everything here is a function of its arguments: no clock, no I/O, no RocksDB. The service re-checks each planned
 * range with {@link #assess} on fresh facts right before compacting it.
 */
public final class RangePlanner {
  /** Label of a range between buckets (or of a whole table that has no bucket ranges). */
  public static final String NO_BUCKET = "(no bucket)";

  private RangePlanner() { }

  /**
   * Plans one round that compacts ranges alone: with the whole budget of {@code settings}.
   *
   * @param files          live SST files of any tables; files of tables not in {@code bucketsByTable} are ignored
   * @param bucketsByTable the tables to consider, each with its bucket ranges (may be empty)
   * @param noProgress     ranges to leave out: their last compaction removed no tombstone and their files are
   *                       unchanged since ({@link NoProgress#unchangedIn}), so compacting them again would not either
   * @param settings       thresholds and budget per round
   */
  public static CompactionPlan plan(List<SstFile> files, Map<String, List<KeyRange>> bucketsByTable,
      List<KeyRange> noProgress, PlannerSettings settings) {
    return plan(files, bucketsByTable, noProgress, settings, PlanWork.unbounded());
  }

  /**
   * Plans one round that compacts ranges alone, asking {@code work} between ranges whether to stop. A stopped plan
   * ranks and budgets what it assessed so far (tables in name order, ranges in key order) and says so
   * ({@link CompactionPlan#complete()}).
   *
   * <p>Cost: each table's files and buckets are sorted once ({@link TableFacts}); each range then costs a few
   * searches per level, started from the previous range's answers, plus the level-0 files it meets, so a plan is
   * O((B + F) log(B + F)) for B buckets and F files, never a pass over all files per range or over all buckets per
   * file. Only ranges that qualify get their compaction cost worked out during the plan (see
   * {@link RangeAssessment}).
   */
  public static CompactionPlan plan(List<SstFile> files, Map<String, List<KeyRange>> bucketsByTable,
      List<KeyRange> noProgress, PlannerSettings settings, PlanWork work) {
    return plan(files, bucketsByTable, noProgress, settings, Budget.of(settings), work);
  }

  /**
   * Plans the ranges of a round within what is left of its {@code budget} (dead heads may have taken some), and
   * takes from it what it plans.
   */
  public static CompactionPlan plan(List<SstFile> files, Map<String, List<KeyRange>> bucketsByTable,
      List<KeyRange> noProgress, PlannerSettings settings, Budget budget, PlanWork work) {
    List<RangeAssessment> candidates = new ArrayList<>();
    List<RangeAssessment> rejected = new ArrayList<>();
    Map<String, Double> worst = new TreeMap<>();
    Map<String, List<SstFile>> filesByTable = new HashMap<>();
    for (SstFile f : files) {
      if (bucketsByTable.containsKey(f.table())) {
        List<SstFile> tableFiles = filesByTable.get(f.table()); // no lambda: see BEST_FIRST
        if (tableFiles == null) {
          tableFiles = new ArrayList<>();
          filesByTable.put(f.table(), tableFiles);
        }
        tableFiles.add(f);
      }
    }
    boolean stopped = false;
    for (Map.Entry<String, List<KeyRange>> e : new TreeMap<>(bucketsByTable).entrySet()) {
      String table = e.getKey();
      TableFacts t = TableFacts.of(filesByTable.getOrDefault(table, List.of()), e.getValue(), work);
      List<RangeAssessment> pieces = new ArrayList<>();
      double worstRatio = 0;
      for (KeyRange range : partition(table, t)) {
        if (work.shouldStop()) {
          stopped = true;
          break;
        }
        worstRatio = assessPieces(range, t, settings, noProgress, pieces, worstRatio);
      }
      worst.put(table, worstRatio);
      for (RangeAssessment a : merge(pieces, t, settings)) {
        (a.verdict() == Verdict.PLANNED ? candidates : rejected).add(a);
      }
      for (RangeAssessment set : fileSets(pieces, t, settings)) {
        RangeAssessment a = leaveOutNoProgress(set, noProgress);
        (a.verdict() == Verdict.PLANNED ? candidates : rejected).add(a);
      }
      if (stopped) {
        break;
      }
    }
    candidates.sort(BEST_FIRST);
    List<RangeAssessment> planned = new ArrayList<>();
    List<RangeAssessment> notPlanned = new ArrayList<>();
    for (RangeAssessment a : candidates) {
      RangeAssessment over = budget.take(a);
      if (over == null) {
        planned.add(a);
      } else {
        notPlanned.add(over);
      }
    }
    notPlanned.addAll(rejected);
    // Not List.copyOf: the lists are this method's own, and copying 1e5 assessments costs a first plan its time.
    return new CompactionPlan(Collections.unmodifiableList(planned), Collections.unmodifiableList(notPlanned),
        Map.copyOf(worst), !work.stopped());
  }

  /**
   * Steps 2 and 3 for one range of step 1: adds its pieces' assessments to {@code pieces}, returns the highest
   * tombstone ratio seen so far.
   */
  private static double assessPieces(KeyRange range, TableFacts t, PlannerSettings settings,
      List<KeyRange> noProgress, List<RangeAssessment> pieces, double worstRatio) {
    for (KeyRange piece : split(range, t, settings.maxCompactionEntries())) {
      if (range.kind() == KeyRange.Kind.GAP
          && Math.round(RangeStats.estimate(t, piece.begin(), piece.end()).entries()) == 0) {
        continue; // a gap that straddling files cross but that holds nothing by estimate
      }
      RangeAssessment a = Qualification.inPlan(piece, t, settings);
      if (a.verdict() == Verdict.BELOW_THRESHOLD) {
        a = denseSubRange(piece, t, settings).orElse(a);
      }
      if (range.kind() == KeyRange.Kind.GAP && Math.round(a.stats().entries()) == 0) {
        continue; // a gap that straddling files cross but that holds nothing by estimate
      }
      worstRatio = Math.max(worstRatio, a.stats().tombstoneRatio());
      // Before merging, so a piece that must wait does not hold back its neighbours.
      pieces.add(a.verdict() == Verdict.PLANNED ? leaveOutNoProgress(a, noProgress) : a);
    }
    return worstRatio;
  }

  /**
   * Assesses one range against fresh facts: the qualification test of step 3 and the bottommost decision
   * ({@link Qualification#assess}). Used by the service's re-check right before a compaction; indexes
   * {@code tableFiles} first.
   */
  public static RangeAssessment assess(KeyRange range, List<SstFile> tableFiles, List<KeyRange> buckets,
      PlannerSettings s) {
    return Qualification.assess(range, TableFacts.of(tableFiles, buckets), s);
  }

  /**
   * The cost and the words of an assessment a plan left {@linkplain RangeAssessment#explained() unexplained} (a
   * range below the thresholds), worked out from {@code index}: the facts of the range's table the plan was made
   * from (its buckets may be left out: they change estimates, not the cost). Any other assessment is returned as
   * it is.
   */
  public static RangeAssessment explain(RangeAssessment a, TableFacts index) {
    return Qualification.explain(a, index);
  }

  /** {@link #sortedBuckets(List)} of every table. */
  public static Map<String, List<KeyRange>> sortedBuckets(Map<String, List<KeyRange>> buckets) {
    Map<String, List<KeyRange>> out = new HashMap<>();
    buckets.forEach((table, b) -> out.put(table, sortedBuckets(b)));
    return out;
  }

  /** A table's bucket ranges in key order. */
  public static List<KeyRange> sortedBuckets(List<KeyRange> buckets) {
    List<KeyRange> sorted = new ArrayList<>(buckets);
    sorted.sort(Comparator.comparing(KeyRange::begin, Keys::compare));
    return List.copyOf(sorted);
  }

  /**
   * Step 3b: a range that fails the test as a whole may hold a part that passes. Deletes of a queue (oldest keys
   * first) or of one directory land in a few SST files that are nearly all tombstones, at one end of a bucket whose
   * live keys dilute the bucket-wide ratio: with 25k live keys a bucket needs ~19k tombstones to reach 0.3, yet
   * every listing from its start steps over all of them. As Pebble singles out tombstone-dense files, take the key
   * span of the files in the range whose own deletions/entries reach {@code tombstoneRatio}, and assess that
   * sub-range alone. Returned only when it qualifies and is smaller than the range.
   */
  static java.util.Optional<RangeAssessment> denseSubRange(KeyRange range, TableFacts t, PlannerSettings s) {
    if (t.straddleStretch(range.begin(), range.end()) >= 0) {
      return java.util.Optional.empty(); // every file straddles the range: dense ones span all of it
    }
    byte[][] span = t.denseSpan(range.begin(), range.end(), s.tombstoneRatio());
    if (span == null) {
      return java.util.Optional.empty();
    }
    byte[] lo = span[0];
    byte[] hi = span[1];
    byte[] begin = Keys.compare(lo, range.begin()) > 0 ? lo : range.begin();
    byte[] end = Keys.keySuccessor(hi);
    if (range.end() != null && Keys.compare(end, range.end()) > 0) {
      end = range.end();
    }
    if (Keys.compare(begin, range.begin()) == 0 && Keys.compareEnds(end, range.end()) == 0) {
      return java.util.Optional.empty(); // the dense files span the whole range: nothing new to assess
    }
    RangeAssessment sub = Qualification.inPlan(new KeyRange(range.table(), KeyRange.Kind.DENSE_PART,
        range.label() + " dense part", begin, end), t, s);
    return sub.verdict() == Verdict.PLANNED
        ? java.util.Optional.of(sub.with(Verdict.PLANNED, sub.why() + "; the range as a whole is below threshold"))
        : java.util.Optional.empty();
  }

  /** Step 1: bucket ranges (sorted) and the gaps between them, keeping only ranges that hold data. */
  static List<KeyRange> partition(String table, TableFacts t) {
    List<KeyRange> all = new ArrayList<>();
    byte[] cursor = new byte[0];
    for (KeyRange b : t.buckets()) {
      cursor = addBucket(table, t, b, cursor, all);
      if (cursor == null) {
        break; // a bucket ran to +inf; anything after it is inside it
      }
    }
    if (cursor != null) {
      all.add(new KeyRange(table, KeyRange.Kind.GAP, NO_BUCKET, cursor, null));
    }
    List<KeyRange> held = new ArrayList<>(all.size());
    for (KeyRange r : all) {
      if (t.anyOverlapping(r.begin(), r.end())) {
        held.add(r);
      }
    }
    return held;
  }

  /** Step 1 for one bucket: adds the gap before it (when it may hold data) and the bucket; returns the new cursor. */
  private static byte[] addBucket(String table, TableFacts t, KeyRange b, byte[] cursor, List<KeyRange> all) {
    byte[] begin = Keys.compare(b.begin(), cursor) < 0 ? cursor : b.begin(); // clip overlapping input
    // A gap no file begins or ends in holds nothing by estimate (TableFacts#straddledGap): most gaps of a big OM.
    if (Keys.compare(cursor, begin) < 0 && !t.straddledGap(cursor, begin)) {
      all.add(new KeyRange(table, KeyRange.Kind.GAP, NO_BUCKET, cursor, begin));
    }
    if (b.end() == null || Keys.compare(begin, b.end()) < 0) {
      all.add(b.withBounds(begin, b.end()));
      return b.end();
    }
    return cursor;
  }

  /** Step 2: cut a range at file boundaries into pieces whose overlapping files hold at most {@code cap} entries. */
  static List<KeyRange> split(KeyRange range, TableFacts t, long cap) {
    if (t.straddleStretch(range.begin(), range.end()) >= 0) {
      return List.of(range); // every file straddles the range: no cut falls inside it
    }
    long whole = t.wholeEntries(range.begin(), range.end());
    if (whole <= cap) {
      return List.of(range);
    }
    // A file spanning the whole range (a level-0 flush of every bucket) is in every piece: no cut reduces it, so
    // it does not count against the cap. Counting it made every piece exceed the cap and split at every cut.
    long fixed = t.spanningEntries(range.begin(), range.end());
    if (whole - fixed <= cap) {
      return List.of(range);
    }
    TreeSet<byte[]> cuts = new TreeSet<>(Keys::compare);
    List<SstFile> big = new ArrayList<>();
    for (int level = 0; level <= t.maxLevel(); level++) {
      t.forEachOverlapping(level, range.begin(), range.end(), f -> {
        addCut(cuts, range, f.smallestKey());
        addCut(cuts, range, Keys.keySuccessor(f.largestKey()));
        if (f.entries() > cap) {
          big.add(f);
        }
      });
    }
    // Never cut inside a file that alone exceeds the cap: it is compacted whole, as one range of its own.
    for (SstFile f : big) {
      cuts.subSet(f.smallestKey(), false, f.largestKey(), true).clear();
    }
    List<byte[]> bounds = new ArrayList<>();
    bounds.add(range.begin());
    bounds.addAll(cuts);
    bounds.add(range.end());
    List<byte[][]> chunks = new ArrayList<>();
    int start = 0;
    while (start < bounds.size() - 1) {
      int stop = start + 1; // the chunk is [bounds[start], bounds[stop]); one piece at least, even above the cap
      // Grow while the files stay under the cap; a chunk that holds no file yet always grows.
      while (stop + 1 < bounds.size() && (t.wholeEntries(bounds.get(start), bounds.get(stop)) - fixed == 0
          || t.wholeEntries(bounds.get(start), bounds.get(stop + 1)) - fixed <= cap)) {
        stop++;
      }
      // End the chunk at the first bound past its last file, not at the next file's smallest key: RocksDB's
      // compactRange takes its end as inclusive and would pull in the file that starts exactly there.
      long chunk = t.wholeEntries(bounds.get(start), bounds.get(stop));
      while (stop - 1 > start && stop + 1 < bounds.size()
          && t.wholeEntries(bounds.get(start), bounds.get(stop - 1)) == chunk) {
        stop--;
      }
      if (chunk - fixed > 0) {
        chunks.add(new byte[][] {bounds.get(start), bounds.get(stop)});
      } else if (!chunks.isEmpty()) {
        chunks.get(chunks.size() - 1)[1] = bounds.get(stop); // an empty tail joins the chunk before it
      }
      start = stop;
    }
    List<KeyRange> out = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      out.add(new KeyRange(range.table(), KeyRange.Kind.SPLIT_PART,
          range.label() + " part " + (i + 1) + "/" + chunks.size(), chunks.get(i)[0], chunks.get(i)[1]));
    }
    return out;
  }

  private static void addCut(TreeSet<byte[]> cuts, KeyRange range, byte[] key) {
    if (Keys.compare(key, range.begin()) > 0 && (range.end() == null || Keys.compare(key, range.end()) < 0)) {
      cuts.add(key);
    }
  }

  /** Step 4: merge runs of neighbouring qualifying pieces while their files stay under the cap. */
  static List<RangeAssessment> merge(List<RangeAssessment> pieces, TableFacts t, PlannerSettings s) {
    List<RangeAssessment> out = new ArrayList<>();
    RangeAssessment run = null;
    int merged = 1;
    for (RangeAssessment a : pieces) {
      if (run != null && run.verdict() == Verdict.PLANNED && a.verdict() == Verdict.PLANNED) {
        KeyRange joined = new KeyRange(run.range().table(), KeyRange.Kind.MERGED,
            run.range().label() + " + " + a.range().label(), run.range().begin(), a.range().end());
        RangeAssessment candidate = Qualification.inPlan(joined, t, s);
        if (candidate.verdict() == Verdict.PLANNED && candidate.stats().fileEntries() <= s.maxCompactionEntries()) {
          run = candidate;
          merged++;
          continue;
        }
      }
      if (run != null) {
        out.add(mergedRun(run, merged));
      }
      run = a;
      merged = 1;
    }
    if (run != null) {
      out.add(mergedRun(run, merged));
    }
    return out;
  }

  /** A run of step 4 as it ends: its words say how many pieces it joined. */
  private static RangeAssessment mergedRun(RangeAssessment run, int merged) {
    return merged > 1 ? run.with(run.verdict(), run.why() + "; merged " + merged + " ranges") : run;
  }

  /**
   * Step 5: runs of neighbouring pieces that fail the test alone and whose compactions rewrite the same files,
   * judged as one compaction of their joined span. A run starts at any piece below the thresholds with
   * tombstones and grows while no file (any level) begins between the end of the run and the end of the next
   * piece: every file that piece overlaps then began before the run's first piece ended, so it overlaps that
   * piece too, and the joined compaction rewrites no file the first piece's would not. A run of two or more pieces
   * whose joined span passes the test is planned; its cost may pass {@code max.compaction.entries}, as for a range
   * inside one file above the cap, since no cut makes the shared
   * files smaller. Left out when the span overlaps a no-progress range ({@link #leaveOutNoProgress} runs on it).
   */
  static List<RangeAssessment> fileSets(List<RangeAssessment> pieces, TableFacts t, PlannerSettings s) {
    List<RangeAssessment> out = new ArrayList<>();
    int start = -1;
    for (int i = 0; i <= pieces.size(); i++) { // up to size() itself: it closes the run that ends with the pieces
      RangeAssessment a = i < pieces.size() ? pieces.get(i) : null;
      boolean member = a != null && a.verdict() == Verdict.BELOW_THRESHOLD && a.stats().tombstones() > 0;
      if (member && start >= 0) {
        byte[] runEnd = pieces.get(i - 1).range().end();
        if (runEnd != null && Keys.compare(runEnd, a.range().begin()) <= 0
            && !t.anyFileBeginsIn(runEnd, a.range().end())) {
          continue; // the run grows
        }
      }
      if (start >= 0 && i - start >= 2) {
        RangeAssessment set = fileSet(pieces.subList(start, i), t, s);
        if (set != null) {
          out.add(set);
        }
      }
      start = member ? i : -1;
    }
    return out;
  }

  private static RangeAssessment fileSet(List<RangeAssessment> run, TableFacts t, PlannerSettings s) {
    double tombstones = 0;
    for (RangeAssessment a : run) {
      tombstones += a.stats().tombstones();
    }
    if (Math.round(tombstones) < s.minTombstones()) {
      return null; // the sum cannot pass either: no need to assess the span
    }
    KeyRange first = run.get(0).range();
    KeyRange last = run.get(run.size() - 1).range();
    KeyRange span = new KeyRange(first.table(), KeyRange.Kind.FILE_SET, first.label() + " .. " + last.label()
        + " (" + run.size() + " ranges)", first.begin(), last.end());
    RangeAssessment a = Qualification.inPlan(span, t, s);
    return a.verdict() != Verdict.PLANNED ? null : a.with(Verdict.PLANNED, a.why() + "; " + run.size()
        + " ranges below the thresholds alone whose compactions rewrite the same files");
  }

  private static RangeAssessment leaveOutNoProgress(RangeAssessment a, List<KeyRange> noProgress) {
    for (KeyRange r : noProgress) {
      if (r.overlaps(a.range())) {
        return a.with(Verdict.NO_PROGRESS, "overlaps " + r + ", whose last compaction removed no tombstone and "
            + "whose files are unchanged since; " + a.why());
      }
    }
    return a;
  }

  /*
   * Classes, not lambdas, on the way of every plan: the first plan after an OM restart would otherwise spin a
   * class per lambda (and have the JIT compile the class spinner) while the planner itself still runs interpreted.
   */

  /** Ranges by score, best first; ties by table, then by begin. */
  private static final Comparator<RangeAssessment> BEST_FIRST = new Comparator<>() {
    @Override
    public int compare(RangeAssessment a, RangeAssessment b) {
      int c = Double.compare(b.score(), a.score());
      if (c == 0) {
        c = a.range().table().compareTo(b.range().table());
      }
      return c != 0 ? c : Keys.compare(a.range().begin(), b.range().begin());
    }
  };
}
