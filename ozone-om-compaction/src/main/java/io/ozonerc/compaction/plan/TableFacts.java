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
import java.util.List;
import java.util.function.Consumer;

/**
 * One table's SST files and bucket ranges, indexed once so that every range query of a plan is a few binary
 * searches: files per level sorted by smallest key with prefix sums ({@link LevelFiles}), buckets sorted by begin
 * with their ends sorted too ({@link Buckets}), level 0 cut into stretches at its files' bounds. Building it sorts
 * once, O(n log n); a query costs O(levels x log n) plus the level-0 files it meets. Queries of one range, and of
 * the next range in key order, find the answers of the last one kept: the bounds of each level's run, the buckets a
 * range spans, the stretch of level 0. How a straddling file's entries are shared among ranges is
 * {@link BucketShares}; the spans of tombstone-dense files, {@link DenseSpans}: each keeps its own answers.
 * Immutable after construction except for those kept answers and the work counter; not thread-safe (one plan uses
 * it on one thread).
 */
public final class TableFacts {
  private final List<SstFile> files;
  private final LevelFiles[] levels; // index = level number; null when the level has no file
  private final Buckets buckets;
  private final BucketShares shares;
  private final DenseSpans dense;
  private final PlanWork work;
  // Level-0 files sorted by smallest key grouped into runs that overlap transitively (RocksDB picks a whole run).
  private final int[] l0RunStart;
  private final byte[][] l0RunLargest;
  // Level 0 cut at its files' bounds (smallest keys and successors of largest keys, sorted, distinct): between two
  // neighbouring points every level-0 file either covers the whole stretch or misses it, so a range lying strictly
  // between two points meets exactly the files covering that stretch, each straddling both its ends.
  private final byte[][] l0Points;
  private final int[][] l0Covering; // [k]: files covering the stretch before point k, oldest first
  private final boolean[][] l0CoveringIn; // [k][i]: file i (key order) is one of them
  private final long[] l0CoveringEntries;
  private int l0Hint;
  // Every file's smallest and largest key, all levels, sorted: whether a range holds a file boundary.
  private final byte[][] fileBounds;
  private int boundHint;
  // Every file's smallest key, all levels, sorted: whether a file begins inside a range.
  private final byte[][] fileStarts;
  private int startHint;
  private byte[] straddleBegin;
  private byte[] straddleEnd;
  private int straddle;
  // Per stretch of file bounds (see straddleStretch): whether a file overlaps a range in it (0 not asked yet, 1 no,
  // 2 yes), and the estimate kept for its whole buckets (see wholeBucketStretch).
  private final byte[] overlapInStretch;
  private final RangeStats[] stretchEstimates;

  private TableFacts(List<SstFile> files, List<KeyRange> buckets, PlanWork work) {
    this.files = List.copyOf(files);
    this.work = work;
    int maxLevel = -1;
    for (SstFile f : files) {
      maxLevel = Math.max(maxLevel, f.level());
    }
    this.levels = byLevel(files, maxLevel, work);
    LevelFiles l0 = level(0);
    int n0 = l0 == null ? 0 : l0.files.length;
    int[] starts = new int[n0 + 1];
    byte[][] largest = new byte[n0][];
    int runs = 0;
    for (int i = 0; i < n0; i++) {
      if (runs > 0 && Keys.compare(l0.smallest[i], largest[runs - 1]) <= 0) {
        if (Keys.compare(l0.largest[i], largest[runs - 1]) > 0) {
          largest[runs - 1] = l0.largest[i];
        }
      } else {
        starts[runs] = i;
        largest[runs++] = l0.largest[i];
      }
    }
    starts[runs] = n0;
    this.l0RunStart = l0 == null ? new int[0] : Arrays.copyOf(starts, runs + 1);
    this.l0RunLargest = Arrays.copyOf(largest, runs);
    this.l0Points = l0 == null ? new byte[0][] : l0Points(l0);
    this.fileBounds = fileBounds(levels);
    this.fileStarts = fileStarts(levels);
    this.buckets = new Buckets(buckets, fileBounds, work);
    int stretches = l0Points.length + 1;
    this.l0Covering = new int[stretches][];
    this.l0CoveringIn = new boolean[stretches][];
    this.l0CoveringEntries = new long[stretches];
    if (l0 != null) {
      cover(l0, l0Points, l0Covering, l0CoveringIn, l0CoveringEntries);
    } else {
      Arrays.fill(l0Covering, new int[0]);
      Arrays.fill(l0CoveringIn, new boolean[0]);
    }
    this.overlapInStretch = new byte[fileBounds.length + 1];
    this.stretchEstimates = new RangeStats[fileBounds.length + 1];
    this.shares = new BucketShares(levels, this.buckets, work);
    this.dense = new DenseSpans(this, levels, work);
  }

  /** Per stretch of level 0 between its points, the files covering it (oldest first), their flags and entries. */
  private static void cover(LevelFiles l0, byte[][] points, int[][] covering, boolean[][] coveringIn,
      long[] coveringEntries) {
    int n0 = l0.files.length;
    int[] cover = new int[n0];
    for (int k = 0; k < covering.length; k++) {
      int count = 0;
      boolean[] in = new boolean[n0];
      for (int j = 0; k > 0 && k < points.length && j < n0; j++) {
        int i = l0.bySeqno[j];
        // Covers the stretch (points[k-1], points[k]): starts at or before its lower point, ends at or after its upper.
        if (Keys.compare(l0.smallest[i], points[k - 1]) <= 0 && Keys.compare(l0.largestSuccessor(i), points[k]) >= 0) {
          cover[count++] = i;
          in[i] = true;
          coveringEntries[k] += l0.files[i].entries();
        }
      }
      covering[k] = Arrays.copyOf(cover, count);
      coveringIn[k] = in;
    }
  }

  /** Level 0's smallest keys and successors of largest keys, sorted and distinct. */
  private static byte[][] l0Points(LevelFiles l0) {
    byte[][] points = new byte[2 * l0.files.length][];
    for (int i = 0; i < l0.files.length; i++) {
      points[2 * i] = l0.smallest[i];
      points[2 * i + 1] = l0.largestSuccessor(i);
    }
    Arrays.sort(points, Keys.ORDER);
    int distinct = 0;
    for (byte[] p : points) {
      if (distinct == 0 || Keys.compare(points[distinct - 1], p) != 0) {
        points[distinct++] = p;
      }
    }
    return Arrays.copyOf(points, distinct);
  }

  /** Every file's smallest key, ascending (for {@link #anyFileBeginsIn}). */
  private static byte[][] fileStarts(LevelFiles[] levels) {
    int n = 0;
    for (LevelFiles lf : levels) {
      n += lf == null ? 0 : lf.files.length;
    }
    byte[][] starts = new byte[n][];
    int i = 0;
    for (LevelFiles lf : levels) {
      if (lf != null) {
        System.arraycopy(lf.smallest, 0, starts, i, lf.files.length);
        i += lf.files.length;
      }
    }
    Arrays.sort(starts, Keys.ORDER);
    return starts;
  }

  /**
   * Every file's smallest and largest key, all levels, sorted. A disjoint level gives them in order already (each
   * file's smallest, then its largest): the levels are merged one by one, smallest first. Each disjoint level of 1
   * and deeper is told where its files' keys stand in the result ({@link LevelFiles#placeAmongBounds}).
   */
  private static byte[][] fileBounds(LevelFiles[] levels) {
    byte[][] merged = new byte[0][];
    int[] tags = new int[0]; // per merged key: (file index x 2 + 1 for a largest key) x levels + level
    int nl = levels.length;
    for (LevelFiles lf : levels) {
      if (lf == null) {
        continue;
      }
      byte[][] level = new byte[2 * lf.files.length][];
      int[] levelTags = new int[level.length];
      for (int i = 0; i < lf.files.length; i++) {
        level[2 * i] = lf.smallest[i];
        level[2 * i + 1] = lf.largest[i];
        levelTags[2 * i] = (2 * i) * nl + lf.level;
        levelTags[2 * i + 1] = (2 * i + 1) * nl + lf.level;
      }
      if (!lf.disjoint) {
        Arrays.sort(level, Keys.ORDER); // its places are not needed
      }
      byte[][] out = new byte[merged.length + level.length][];
      int[] outTags = new int[out.length];
      mergeBounds(merged, tags, level, levelTags, out, outTags);
      merged = out;
      tags = outTags;
    }
    int[][] smallestAt = new int[nl][];
    int[][] largestAt = new int[nl][];
    for (int l = 1; l < nl; l++) {
      if (levels[l] != null && levels[l].disjoint) {
        smallestAt[l] = new int[levels[l].files.length];
        largestAt[l] = new int[levels[l].files.length];
      }
    }
    for (int r = 0; r < tags.length; r++) {
      int l = tags[r] % nl;
      int k = tags[r] / nl;
      if (smallestAt[l] != null) {
        ((k & 1) == 0 ? smallestAt[l] : largestAt[l])[k >> 1] = r;
      }
    }
    for (int l = 1; l < nl; l++) {
      if (smallestAt[l] != null) {
        levels[l].placeAmongBounds(smallestAt[l], largestAt[l]);
      }
    }
    return merged;
  }

  /** The merge of sorted {@code a} and {@code b} (ties from a first) into {@code out}, with their tags. */
  private static void mergeBounds(byte[][] a, int[] aTags, byte[][] b, int[] bTags, byte[][] out, int[] outTags) {
    int i = 0;
    int j = 0;
    for (int n = 0; n < out.length; n++) {
      if (j >= b.length || (i < a.length && Keys.compare(a[i], b[j]) <= 0)) {
        outTags[n] = aTags[i];
        out[n] = a[i++];
      } else {
        outTags[n] = bTags[j];
        out[n] = b[j++];
      }
    }
  }

  /** {@link LevelFiles#from(byte[])} of a level of this table, no search when {@link Buckets#rankOf} knows begin. */
  int from(LevelFiles lf, byte[] begin) {
    return lf.from(begin, buckets.rankOf(begin));
  }

  /** {@link LevelFiles#to(byte[], boolean)} for an exclusive end, as {@link #from(LevelFiles, byte[])}. */
  int to(LevelFiles lf, byte[] end) {
    return lf.to(end, false, buckets.rankOf(end));
  }

  /** Indexes {@code tableFiles} (files of one table) and {@code buckets} (that table's bucket ranges, any order). */
  public static TableFacts of(List<SstFile> tableFiles, List<KeyRange> buckets) {
    return new TableFacts(tableFiles, buckets, PlanWork.unbounded());
  }

  static TableFacts of(List<SstFile> tableFiles, List<KeyRange> buckets, PlanWork work) {
    return new TableFacts(tableFiles, buckets, work);
  }

  private static LevelFiles[] byLevel(List<SstFile> files, int maxLevel, PlanWork work) {
    List<List<SstFile>> per = new ArrayList<>();
    for (int l = 0; l <= maxLevel; l++) {
      per.add(new ArrayList<>());
    }
    for (SstFile f : files) {
      per.get(f.level()).add(f);
    }
    LevelFiles[] out = new LevelFiles[maxLevel + 1];
    for (int l = 0; l <= maxLevel; l++) {
      out[l] = per.get(l).isEmpty() ? null : new LevelFiles(l, per.get(l), work);
    }
    return out;
  }

  public List<SstFile> files() {
    return files;
  }

  /** The bucket ranges, sorted by begin. */
  public List<KeyRange> buckets() {
    return buckets.list();
  }

  PlanWork work() {
    return work;
  }

  int maxLevel() {
    return levels.length - 1;
  }

  LevelFiles level(int l) {
    return l < levels.length ? levels[l] : null;
  }

  /** Calls {@code visit} for each file of level {@code l} overlapping [begin, end), in smallest-key order. */
  void forEachOverlapping(int l, byte[] begin, byte[] end, Consumer<SstFile> visit) {
    LevelFiles lf = level(l);
    if (lf == null) {
      return;
    }
    if (lf.disjoint) {
      for (int i = from(lf, begin), to = to(lf, end); i < to; i++) {
        work.step();
        visit.accept(lf.files[i]);
      }
    } else {
      for (int i = 0; i < lf.files.length; i++) {
        if (lf.overlaps(i, begin, end, false)) {
          visit.accept(lf.files[i]);
        }
      }
    }
  }

  /**
   * Whether any file overlaps [begin, end). Ranges in one stretch of file bounds ({@link #straddleStretch}) meet the
   * same files, those spanning the stretch: the answer is kept per stretch.
   */
  boolean anyOverlapping(byte[] begin, byte[] end) {
    int stretch = straddleStretch(begin, end);
    if (stretch >= 0 && overlapInStretch[stretch] != 0) {
      return overlapInStretch[stretch] == 2;
    }
    boolean any = anyOverlappingFiles(begin, end);
    if (stretch >= 0) {
      overlapInStretch[stretch] = (byte) (any ? 2 : 1);
    }
    return any;
  }

  private boolean anyOverlappingFiles(byte[] begin, byte[] end) {
    int k = l0Stretch(begin, end);
    for (LevelFiles lf : levels) {
      if (lf != null && lf.level == 0 && k >= 0) {
        if (l0Covering[k].length > 0) {
          return true;
        }
        continue;
      }
      if (lf != null && count(lf, begin, end) > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where [begin, end) lies among the files' bounds: the number of bounds (smallest and largest keys, all levels)
   * before it when none lies inside it, else -1. With no bound inside, every file overlapping the range straddles
   * it (begins before it and ends at or after its end): a split cannot cut it ({@link RangePlanner#split}), no
   * file is denser in one part of it than in another, and every whole bucket inside the same stretch of bounds is
   * met by the same files in the same way. A plan asks in key order, so this is a step or two from the last answer.
   */
  int straddleStretch(byte[] begin, byte[] end) {
    if (begin != straddleBegin || end != straddleEnd) {
      straddleBegin = begin;
      straddleEnd = end;
      int j = buckets.at(begin, end);
      if (j >= 0) { // a bucket: no bound inside when as many lie before its end as before its begin
        boundHint = buckets.rankBegin[j];
        straddle = buckets.rankBegin[j] == buckets.rankEnd[j] ? buckets.rankBegin[j] : -1;
        return straddle;
      }
      boundHint = Keys.search(fileBounds, begin, false, boundHint, work);
      boolean inside = boundHint < fileBounds.length && (end == null || Keys.compare(fileBounds[boundHint], end) < 0);
      straddle = inside ? -1 : boundHint;
    }
    return straddle;
  }

  /**
   * Whether any file of any level begins inside [begin, end): when none does, every file overlapping the range
   * began before it, so a compaction that already reached {@code begin} rewrites no other file for it
   * ({@link RangePlanner#fileSets}). Asked in key order, a step or two from the last answer.
   */
  boolean anyFileBeginsIn(byte[] begin, byte[] end) {
    startHint = Keys.search(fileStarts, begin, false, startHint, work);
    return startHint < fileStarts.length && (end == null || Keys.compare(fileStarts[startHint], end) < 0);
  }

  /**
   * Whether [begin, end) is a gap between two neighbouring buckets (it begins where one ends and ends where the
   * next begins) that no file begins or ends in. Every file overlapping such a gap then straddles it and touches
   * the buckets on both sides, and those hold all of its entries ({@link BucketShares}): the gap's estimate is
   * zero, known without one.
   */
  boolean straddledGap(byte[] begin, byte[] end) {
    if (!buckets.disjoint || end == null || begin.length == 0) {
      return false;
    }
    int next = buckets.beginningAt(end);
    if (next > 0 && buckets.ends[next - 1] == begin) {
      return buckets.rankEnd[next - 1] == buckets.rankBegin[next]; // no bound between the two buckets
    }
    int after = buckets.beginningBefore(end);
    return after > 0 && after < buckets.sorted.length && Keys.compare(buckets.sorted[after].begin(), end) == 0
        && buckets.sorted[after - 1].end() != null && Keys.compare(buckets.sorted[after - 1].end(), begin) == 0
        && straddleStretch(begin, end) >= 0;
  }

  /**
   * The stretch of bounds ({@link #straddleStretch}) holding [begin, end) when that range is exactly one bucket
   * (disjoint buckets) and no file bound lies inside it, else -1. Every such bucket of one stretch has the same
   * estimate ({@link RangeStats#estimate} keeps it here): each file overlapping it covers it whole, and a covering
   * file's entries are shared equally among the buckets it touches.
   */
  int wholeBucketStretch(byte[] begin, byte[] end) {
    if (!buckets.disjoint || end == null) {
      return -1;
    }
    int at = buckets.at(begin, end);
    if (at >= 0) { // as below: a bucket the one before adjoins is not found by its begin
      return buckets.adjoinsPrevious[at] ? -1 : straddleStretch(begin, end);
    }
    int j = buckets.endingBefore(begin);
    if (j >= buckets.sorted.length || !Arrays.equals(buckets.sorted[j].begin(), begin)
        || Keys.compareEnds(buckets.sorted[j].end(), end) != 0) {
      return -1;
    }
    return straddleStretch(begin, end);
  }

  RangeStats stretchEstimate(int k) {
    return stretchEstimates[k];
  }

  void rememberStretchEstimate(int k, RangeStats estimate) {
    stretchEstimates[k] = estimate;
  }

  /** Entries of all files overlapping [begin, end), each counted whole. */
  long wholeEntries(byte[] begin, byte[] end) {
    long sum = 0;
    int k = l0Stretch(begin, end);
    for (LevelFiles lf : levels) {
      if (lf == null) {
        continue;
      }
      if (lf.level == 0 && k >= 0) {
        sum += l0CoveringEntries[k];
      } else if (lf.disjoint) {
        int from = from(lf, begin);
        sum += lf.entries(from, Math.max(from, to(lf, end)));
      } else {
        for (int i = 0; i < lf.files.length; i++) {
          sum += lf.overlaps(i, begin, end, false) ? lf.files[i].entries() : 0;
        }
      }
    }
    return sum;
  }

  /**
   * Entries of the files that span all of [begin, end) (begin at or before it, end at or after it): every piece a
   * split of the range makes holds them. Zero for a range to +infinity.
   */
  long spanningEntries(byte[] begin, byte[] end) {
    if (end == null) {
      return 0;
    }
    long sum = 0;
    int k = l0Stretch(begin, end);
    for (LevelFiles lf : levels) {
      if (lf == null) {
        continue;
      }
      if (lf.level == 0 && k >= 0) {
        sum += l0CoveringEntries[k]; // each straddles both ends
        continue;
      }
      int from = 0;
      int to = lf.files.length;
      if (lf.disjoint) {
        from = from(lf, begin);
        to = Math.min(to(lf, end), from + 1); // disjoint: only the first file can span the range
      }
      for (int i = from; i < to; i++) {
        work.step();
        SstFile f = lf.files[i];
        if (Keys.compare(f.smallestKey(), begin) <= 0 && Keys.successorAtOrAfter(f.largestKey(), end)) {
          sum += f.entries();
        }
      }
    }
    return sum;
  }

  private int count(LevelFiles lf, byte[] begin, byte[] end) {
    if (lf.disjoint) {
      return Math.max(0, to(lf, end) - from(lf, begin));
    }
    int n = 0;
    for (int i = 0; i < lf.files.length; i++) {
      n += lf.overlaps(i, begin, end, false) ? 1 : 0;
    }
    return n;
  }

  /**
   * The stretch of level 0 that holds [begin, end] (end inclusive, or not: the answer is the same) strictly inside,
   * or -1 when a level-0 file begins or ends within it. For a stretch k, {@link #l0Covering} are the level-0 files
   * the range meets, and each of them straddles both its ends. A plan's ranges come in key order and are mostly
   * far narrower than a flush, so this is one or two comparisons from the last answer.
   */
  int l0Stretch(byte[] begin, byte[] end) {
    if (level(0) == null) {
      return -1;
    }
    // k = how many points lie before begin; the range fits when none lies in [begin, end].
    int k = Keys.search(l0Points, begin, false, l0Hint, work);
    l0Hint = k;
    return k == l0Points.length || (end != null && Keys.compare(l0Points[k], end) > 0) ? k : -1;
  }

  /** Level-0 files (indexes in key order) covering stretch k, oldest first. */
  int[] l0Covering(int k) {
    return l0Covering[k];
  }

  /** Membership of {@link #l0Covering}, by index in key order. */
  boolean[] l0CoveringIn(int k) {
    return l0CoveringIn[k];
  }

  /** Level-0 runs: indexes into level 0's sorted files where each transitively overlapping run starts. */
  int[] l0RunStart() {
    return l0RunStart;
  }

  byte[][] l0RunLargest() {
    return l0RunLargest;
  }

  /** How many stretches level 0 is cut into (for {@link #l0Covering}). */
  int l0Stretches() {
    return l0Covering.length;
  }

  /** The sharing model of this table's files among ranges. */
  BucketShares shares() {
    return shares;
  }

  /**
   * The key span [smallest, largest] of the files overlapping [begin, end) whose own deletions / entries reach
   * {@code ratio}, or null when there is none ({@link DenseSpans}).
   */
  byte[][] denseSpan(byte[] begin, byte[] end, double ratio) {
    return dense.span(begin, end, ratio);
  }
}
