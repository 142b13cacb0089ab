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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Decides which dead heads to compact: the signal that follows the reader.
 *
 * <h2>What a read pays</h2>
 * A listing seeks to where it starts and reads forward. Before it returns anything it steps over every internal
 * key between its seek key and the first live key: the range's <em>dead head</em>. In Ozone 2.2.0 every listing
 * pays two heads: {@code listKeys} opens a keyTable iterator whose constructor seeks to the table's first key, then
 * seeks to the bucket. So a dead run where readers start costs every read, while the same number of tombstones
 * scattered inside a bucket costs each read almost nothing (a reader only meets those inside its page). Totals per
 * range (the {@link RangePlanner}'s test) cannot tell these apart; the head can, and it is cheap to measure: one
 * bounded seek per range plus RocksDB's approximate sizes ({@link HeadFacts}).
 *
 * <h2>Threshold against the ideal read</h2>
 * A head qualifies when its dead entries reach {@code minDeadKeys}, chosen against the work of an ideal read
 * rather than as an absolute count (see {@code dead.head.min.keys}): a skipped internal key costs an OM listing
 * about 1/15 of a returned entry (docs/facts.md), so 2,000 dead keys add ~15% to an ideal page of 1,000.
 * Only the dead span [begin, firstLive) is compacted, not the whole bucket: it is all a reader pays for, and a
 * queue bucket's live tail can be far larger than its head.
 *
 * <h2>Which ranges to probe</h2>
 * Every watched table's head (whole-table range), always: it is crossed by every iterator the OM opens from the
 * table's start. Then bucket ranges whose <em>upper bound</em> of dead entries reaches the threshold: every
 * deletion of every SST file that overlaps the bucket, counted whole, plus every delete in the table's memtables,
 * twice (a deleted key costs its tombstone and the value it hides). A flush holds every bucket written since the
 * last one, so L0 files straddle many buckets; sharing their deletions between buckets by key position can give a
 * hot bucket an estimate of 0, but counting them whole can only overcount, so the hot bucket is never missed. The
 * probe then measures the head exactly where the bound was loose. Candidates are ordered by their bound and capped
 * at {@link #PROBES_PER_ROUND}; when there are more, half the budget goes to the largest bounds and half rotates
 * through the rest, so every candidate is probed within a bounded number of rounds.
 *
 * <p>A listing of a directory seeks to the directory's start, not the bucket's: an FSO {@code listStatus} to
 * {@code /volumeId/bucketId/parentId/}, a prefix listing to {@code /vol/bucket/prefix/}. So directories are
 * candidates too, by the same bound ({@link #directories}: those that start a file holding deletions, or end one),
 * and their heads are compacted as {@link KeyRange.Kind#DIRECTORY_HEAD}s. A directory is not probed while no head
 * from its start could be compacted ({@link #withoutDirectoriesThatMustWait}).
 *
 * <h2>Cost</h2>
 * A head's dead span is small, but {@code compactRange} of it takes every level-0 file overlapping it, grown to
 * the level-0 files overlapping those, and every file below their joint span ({@link CompactionCost}). On a busy
 * OM each flush holds writes of many buckets, so one level-0 file over the head can make a compaction of a few
 * thousand dead keys rewrite the whole table. A head whose compaction includes level-0 files and would rewrite more
 * than {@code max.compaction.entries} therefore waits ({@link Verdict#WAITS_FOR_LEVEL0}): RocksDB compacts level 0
 * by itself once it holds a few files (4 by default), a cost it pays anyway; the dead keys then sit in a level
 * below 0, where the head's own files are few, or are gone (a compaction into the bottom level drops tombstones).
 * A head still in the memtable counts the same way: {@code compactRange} flushes the memtable first, and the file
 * it writes is a level-0 file over everything the memtable holds ({@link #flushedMemtable}).
 * A head below level 0 is compacted whatever its cost: nothing will make it cheaper, and it must not starve.
 *
 * <h2>Heads that listings skip</h2>
 * On an OM patched with skip hints, a listing from a bucket's, directory's or table's start jumps to the first live
 * key an earlier listing found there, so it pays nothing for the dead span before it. Where a hint exists the
 * store sizes the head from it instead of seeking ({@link HeadFacts#skippedByReaders()}), and the head costs space
 * only: it is compacted when that is cheap, its files its own ({@link #foreignFile}), and otherwise left as
 * {@link Verdict#SKIPPED_BY_READERS}, for RocksDB's own compactions. Such a head never speeds up the head checks
 * (the service holds it like a head waiting for level 0). Without the patch every head is probed as above.
 *
 * <h2>Ranking</h2>
 * Table heads first, largest first: every listing of every bucket crosses its table's head, and a table head is
 * also the head of the table's first bucket. Then bucket heads by dead entries. A bucket head inside a planned
 * table head's span is left out (one compaction covers both).
 *
 * <p>Pure: no clock, no I/O, no RocksDB.
 */
public final class HeadPlanner {
  /**
   * Most ranges probed per table per round, table head included. A probe is one seek that steps over the head
   * it measures, ~50 us for a head at the threshold, plus two approximate-size calls: 1,000 probes is ~50-100 ms,
   * small next to one compaction and to a round's interval.
   */
  public static final int PROBES_PER_ROUND = 1_000;

  private HeadPlanner() { }

  /**
   * The ranges of one table to probe this round: its table head first, then bucket and directory candidates (see
   * the class comment and {@link #directories}), at most {@code budget} in all.
   *
   * @param sortedBuckets the table's bucket ranges in key order ({@link RangePlanner#sortedBuckets})
   * @param memDeletes    deletes in the table's memtables (they may lie in any bucket)
   * @param hot           ranges whose head qualified when last probed; probed first whatever their bound
   * @param rotation      a counter the caller increases every round; moves the rotating half of the budget
   */
  public static List<KeyRange> pickProbes(String table, List<SstFile> tableFiles, long memDeletes,
      List<KeyRange> sortedBuckets, List<KeyRange> hot, PlannerSettings settings, int budget, long rotation) {
    List<KeyRange> out = new ArrayList<>();
    long minDeadKeys = settings.deadHeadMinKeys();
    if (minDeadKeys <= 0 || budget <= 0) {
      return out;
    }
    out.add(HeadFacts.tableRange(table));
    List<KeyRange> hotHere = hot.stream().filter(r -> r.table().equals(table) && !isTableHead(r)).toList();
    for (KeyRange r : withoutDirectoriesThatMustWait(hotHere, tableFiles, settings)) {
      if (out.size() < budget) {
        out.add(r);
      }
    }
    List<Picks.Bound> rest = new ArrayList<>();
    List<Picks.Bound> all = new ArrayList<>(Picks.byDeletionBound(tableFiles, memDeletes, sortedBuckets,
        minDeadKeys));
    all.addAll(Picks.byDeletionBound(tableFiles, memDeletes, withoutDirectoriesThatMustWait(
        directories(tableFiles, sortedBuckets), tableFiles, settings), minDeadKeys));
    all.sort(Comparator.comparingLong(Picks.Bound::deadBound).reversed());
    for (Picks.Bound c : all) {
      if (hotHere.stream().noneMatch(h -> Arrays.equals(h.begin(), c.range().begin()))) {
        rest.add(c);
      }
    }
    Picks.topAndRotating(rest, budget - out.size(), rotation).forEach(c -> out.add(c.range()));
    return out;
  }

  /**
   * {@code ranges} less the directories whose head, however long, cannot be compacted now, so a probe of them would
   * step over the dead head for nothing: a compaction of the directory's first key alone would take level-0 files
   * and rewrite more than {@code max.compaction.entries} (every head from there waits for level 0), or takes a file
   * RocksDB is compacting now (every head from there is busy). A longer head only takes more files, and without a
   * forced bottommost rewrite fewer, so the first key's cost, counted without one, bounds every head's from below.
   * On a busy OM a flush holds every bucket written since the last one, so a directory drained oldest first (a
   * queue, an expiry) has its deletes in level-0 files that straddle its start and span the table; it is probed
   * again once RocksDB's own compactions have moved those files below level 0. Buckets are probed as before: their
   * readings pace the head checks.
   */
  public static List<KeyRange> withoutDirectoriesThatMustWait(List<KeyRange> ranges, List<SstFile> tableFiles,
      PlannerSettings s) {
    if (ranges.stream().noneMatch(r -> r.kind() == KeyRange.Kind.DIRECTORY)) {
      return ranges;
    }
    TableFacts t = TableFacts.of(tableFiles, List.of()); // buckets change estimates only, not cost, level or busy
    List<KeyRange> out = new ArrayList<>(ranges.size());
    for (KeyRange r : ranges) {
      if (r.kind() != KeyRange.Kind.DIRECTORY) {
        out.add(r);
        continue;
      }
      RangeStats first = RangeStats.of(t, r.begin(), Keys.keySuccessor(r.begin()), false);
      if (!first.waitsForLevel0(s) && !first.busy()) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Directories where a dead head may start, in key order: the directory ({@link KeyRange.Kind#DIRECTORY}) of the
   * smallest and of the largest key of every file holding deletions, inside a bucket and other than the bucket's
   * own start (the bucket's probe covers that). A directory is a key's prefix up to its last {@code /}: the FSO
   * parent {@code /volumeId/bucketId/parentId/} a {@code listStatus} seeks to, or a key-name prefix a listing with
   * that prefix seeks to. A directory drained oldest first (a staging or queue directory) leaves its deletes at
   * the start of the files a flush or a compaction writes for it, so its start is one of these keys; deletes in
   * the middle of a file are not seen this way. Labelled with the bucket's label and the rest of the prefix.
   */
  static List<KeyRange> directories(List<SstFile> tableFiles, List<KeyRange> sortedBuckets) {
    java.util.TreeMap<byte[], KeyRange> out = new java.util.TreeMap<>(Keys::compare);
    byte[][] begins = new byte[sortedBuckets.size()][];
    for (int i = 0; i < begins.length; i++) {
      begins[i] = sortedBuckets.get(i).begin();
    }
    for (SstFile f : tableFiles) {
      if (f.deletions() > 0) {
        addDirectory(out, f.smallestKey(), begins, sortedBuckets);
        addDirectory(out, f.largestKey(), begins, sortedBuckets);
      }
    }
    return List.copyOf(out.values());
  }

  private static void addDirectory(java.util.TreeMap<byte[], KeyRange> out, byte[] key, byte[][] begins,
      List<KeyRange> sortedBuckets) {
    int slash = key.length - 1;
    while (slash >= 0 && key[slash] != '/') {
      slash--;
    }
    if (slash < 0) {
      return;
    }
    byte[] dir = Arrays.copyOf(key, slash + 1);
    int at = Keys.countBelow(begins, Keys.keySuccessor(dir)) - 1; // the last bucket beginning at or before dir
    if (at < 0 || out.containsKey(dir)) {
      return;
    }
    KeyRange bucket = sortedBuckets.get(at);
    boolean inside = Keys.compare(dir, bucket.begin()) > 0 && Keys.compareEnds(dir, bucket.end()) < 0
        && Arrays.equals(Arrays.copyOf(dir, bucket.begin().length), bucket.begin());
    if (inside) {
      String rest = new String(dir, bucket.begin().length, dir.length - bucket.begin().length,
          java.nio.charset.StandardCharsets.UTF_8);
      out.put(dir, new KeyRange(bucket.table(), KeyRange.Kind.DIRECTORY, bucket.label() + " " + rest, dir,
          Keys.prefixSuccessor(dir)));
    }
  }

  private static boolean isTableHead(KeyRange r) {
    return r.kind() == KeyRange.Kind.TABLE;
  }

  /**
   * Plans the dead heads found by a probe: each head with at least {@code settings.deadHeadMinKeys()} dead entries
   * becomes a compaction of its dead span, assessed like any range (cost, bottommost mode, busy files) so the round can
   * re-check and verify it the same way. Ranked as the class comment says, and kept within what is left of the
   * round's {@code budget} ({@code ranges.per.run}, {@code bytes.per.run}), from which it takes what it plans;
   * {@code notPlanned} holds the probed heads that did not qualify, must wait or are over budget.
   *
   * @param filesByTable live SST files per table
   * @param bucketsByTable sorted bucket ranges per table
   */
  public static CompactionPlan plan(List<HeadFacts> heads, Map<String, List<SstFile>> filesByTable,
      Map<String, List<KeyRange>> bucketsByTable, PlannerSettings settings, Budget budget) {
    List<HeadFacts> ranked = new ArrayList<>(heads);
    ranked.sort(Comparator.comparing((HeadFacts h) -> !h.isTableHead())
        .thenComparing(Comparator.comparingLong(HeadFacts::deadEntries).reversed())
        .thenComparing(h -> h.range().table())
        .thenComparing(h -> h.range().begin(), Keys::compare));
    List<RangeAssessment> planned = new ArrayList<>();
    List<RangeAssessment> notPlanned = new ArrayList<>();
    for (HeadFacts h : ranked) {
      KeyRange span = h.deadSpan();
      if (span == null || h.deadEntries() == 0) {
        continue; // starts with a live key: nothing to report
      }
      RangeAssessment a = assess(h, filesByTable.getOrDefault(span.table(), List.of()),
          bucketsByTable.getOrDefault(span.table(), List.of()), settings);
      if (a.verdict() == Verdict.PLANNED && planned.stream().anyMatch(p -> covers(p.range(), span))) {
        continue; // inside a head planned before it, usually its table's head
      }
      if (a.verdict() == Verdict.PLANNED) {
        RangeAssessment over = budget.take(a);
        a = over == null ? a : over;
      }
      (a.verdict() == Verdict.PLANNED ? planned : notPlanned).add(a);
    }
    return new CompactionPlan(List.copyOf(planned), List.copyOf(notPlanned), Map.of());
  }

  /**
   * One head against the threshold, with the range's cost and bottommost decision from the SST facts. Used by
   * {@link #plan} and by the round's re-check on a fresh probe.
   */
  public static RangeAssessment assess(HeadFacts h, List<SstFile> tableFiles, List<KeyRange> sortedBuckets,
      PlannerSettings settings) {
    long minDeadKeys = settings.deadHeadMinKeys();
    KeyRange span = h.deadSpan() == null ? h.wholeRangeAsHead() : h.deadSpan();
    SstFile flushed = flushedMemtable(h, span, tableFiles);
    List<SstFile> files = tableFiles;
    if (flushed != null) {
      files = new ArrayList<>(tableFiles);
      files.add(flushed);
    }
    RangeAssessment base = Qualification.assess(span, TableFacts.of(files, sortedBuckets), settings);
    boolean qualifies = minDeadKeys > 0 && h.deadEntries() >= minDeadKeys;
    String why = String.format(Locale.ROOT, "dead head %d %s %d (%s)", h.deadEntries(),
        qualifies ? ">=" : "<", minDeadKeys, h.skippedByReaders()
            ? (h.firstLive() == null ? "listings skip it: a skip hint past the range's end"
                : "listings skip it: a skip hint at " + Keys.show(h.firstLive()))
            : h.firstLive() == null
            ? (h.truncated() ? "no live key within the probe's skip cap" : "no live key in the range")
            : "first live key " + Keys.show(h.firstLive()));
    // A head still in the memtables qualifies too: compactRange flushes a memtable that overlaps its range, and
    // the flushed file is costed as the level-0 file it becomes (flushedMemtable).
    RangeStats st = base.stats();
    SstFile foreign = qualifies && h.skippedByReaders()
        ? foreignFile(h, span, files, sortedBuckets, base.forceBottommost()) : null;
    Verdict v = !qualifies ? Verdict.BELOW_THRESHOLD : st.busy() ? Verdict.BUSY
        : foreign != null ? Verdict.SKIPPED_BY_READERS : st.waitsForLevel0(settings) ? Verdict.WAITS_FOR_LEVEL0
        : Verdict.PLANNED;
    if (v == Verdict.BUSY) {
      why = "an overlapping file is being compacted; " + why;
    } else if (v == Verdict.SKIPPED_BY_READERS) {
      why += "; it costs space only, and its compaction would rewrite files of other ranges too ("
          + (FLUSHED_MEMTABLE.equals(foreign.name()) ? foreign.name() : "level " + foreign.level() + " "
          + Keys.show(foreign.smallestKey()) + " .. " + Keys.show(foreign.largestKey())) + ")";
    } else if (v == Verdict.WAITS_FOR_LEVEL0) {
      why += "; its compaction would rewrite " + st.fileEntries() + " entries > max.compaction.entries "
          + settings.maxCompactionEntries() + " (level-0 files spanning other ranges and everything below them"
          + (flushed == null ? ")" : ", the memtable it flushes first included: " + h.memDead() + " entries of the "
              + "head, " + h.memOutside() + " outside the range)");
    }
    return new RangeAssessment(span, base.stats(), v, why, base.forceBottommost()).probedOver(h.range());
  }

  /**
   * For a head listings skip: a file its compaction would rewrite that reaches outside the head's own range, or
   * null when its files are its own. Such a head costs space only, so it is compacted only when reclaiming it
   * rewrites nothing but its own range: a compaction that rewrites other ranges' data for it is write
   * amplification with no reader to gain, and RocksDB's own compactions drop the span later at no extra cost. The
   * own range of a bucket head is its bucket; of a table head, the table's start up to the end of the bucket that
   * holds its first live key (the buckets it runs through are all dead up to there).
   */
  static SstFile foreignFile(HeadFacts h, KeyRange span, List<SstFile> files, List<KeyRange> sortedBuckets,
      boolean forceBottommost) {
    byte[] ownEnd = h.range().end();
    if (h.isTableHead()) {
      ownEnd = span.end();
      for (KeyRange b : sortedBuckets) {
        if (ownEnd != null && Keys.compare(b.begin(), ownEnd) <= 0 && Keys.compareEnds(ownEnd, b.end()) < 0) {
          ownEnd = b.end();
          break;
        }
      }
    }
    for (SstFile f : CompactionCost.pickedFiles(TableFacts.of(files, sortedBuckets), span.begin(), span.end(),
        forceBottommost)) {
      boolean inside = Keys.compare(f.smallestKey(), h.range().begin()) >= 0
          && (ownEnd == null || Keys.compare(f.largestKey(), ownEnd) < 0);
      if (!inside) {
        return f;
      }
    }
    return null;
  }

  /** Name of the level-0 file a head's compaction would flush, in costs and reports. */
  static final String FLUSHED_MEMTABLE = "(memtable flushed by the compaction)";

  /**
   * The level-0 file {@code compactRange} of a head writes first when the memtable holds part of the head: RocksDB
   * flushes a memtable overlapping the range before compacting, and the new file spans every key the memtable
   * holds. Where those keys lie is not known, only how many lie outside the probed range: none, and the file is
   * taken to span the range (from its start to the last SST key in it, or the dead span's end); some, and it is
   * taken to span the whole table, as a flush holding every bucket's writes does on a busy OM. The cost model then
   * treats it like any level-0 file: with cold data around, the compaction takes every file under its span, and a
   * head that would rewrite more than {@code max.compaction.entries} that way waits for level 0 like one under a
   * straddling level-0 file. Null when the memtable holds none of the head.
   */
  static SstFile flushedMemtable(HeadFacts h, KeyRange span, List<SstFile> tableFiles) {
    if (h.memDead() <= 0) {
      return null;
    }
    KeyRange reach = h.memOutside() > 0 ? HeadFacts.tableRange(span.table()) : h.range();
    byte[] hi = span.end() != null ? span.end() : reach.begin();
    for (SstFile f : tableFiles) {
      boolean inReach = reach.end() == null || Keys.compare(f.largestKey(), reach.end()) < 0;
      if (inReach && Keys.compare(f.largestKey(), hi) > 0) {
        hi = f.largestKey();
      }
    }
    return new SstFile(span.table(), FLUSHED_MEMTABLE, 0, reach.begin(), hi, h.memDead() + h.memOutside(), 0, 0,
        Long.MAX_VALUE, false);
  }

  private static boolean covers(KeyRange outer, KeyRange inner) {
    return outer.table().equals(inner.table()) && Keys.compare(outer.begin(), inner.begin()) <= 0
        && Keys.compareEnds(inner.end(), outer.end()) <= 0;
  }
}
