package io.ozonerc.compaction.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One table's SST files and bucket ranges, indexed once so that every range query of a plan is a few binary
 * searches: files per level sorted by smallest key with prefix sums ({@link LevelFiles}), buckets sorted by begin
 * with their ends sorted too, level 0 cut into stretches at its files' bounds. Building it sorts once,
 * O(n log n); a query costs O(levels x log n) plus the level-0 files it meets. Queries of one range, and of the
 * next range in key order, find the answers of the last one kept: the bounds of each level's run, the buckets a
 * range spans, the stretch of level 0. Immutable after construction except for those memoised values and the work
 * counter; not thread-safe (one plan uses it on one thread).
 */
public final class TableFacts {
  private final List<SstFile> files;
  private final List<KeyRange> buckets;
  private final LevelFiles[] levels; // index = level number; null when the level has no file
  private final PlanWork work;
  // Buckets sorted by begin, and their non-null ends sorted on their own (for counting overlaps of any input).
  private final KeyRange[] sortedBuckets;
  private final byte[][] bucketBegins; // of sortedBuckets
  private final byte[][] bucketEnds; // of sortedBuckets, null for +infinity
  private final byte[][] sortedEnds;
  private final boolean bucketsDisjoint;
  // Disjoint buckets (else null): per bucket, how many file bounds lie before its begin and before its end (all
  // for a null end), and whether the bucket before ends exactly where it begins. A plan asks about each bucket
  // (and the gap before it) with the bucket's own key arrays, in key order: found by identity next to the last
  // one found (bucketCursor), its answers about file bounds need no search.
  private final int[] rankBegin;
  private final int[] rankEnd;
  private final boolean[] adjoinsPrevious;
  private int bucketCursor;
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
  private final Map<Double, LevelFiles[]> denseByRatio = new HashMap<>();
  private double denseRatio;
  private LevelFiles[] denseFor;
  private byte[][][] denseL0Span; // [k]: span of the dense files among l0Covering(k), null when none
  // densityBelow of the last spans asked: [slot][level], NaN until asked (see memoSlot).
  private final double[][] memoBelow;
  private final byte[][] memoBegin = new byte[4][];
  private final byte[][] memoEnd = new byte[4][];
  private int memoNext;
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
  // Disjoint buckets: ranks of the last two range begins and ends asked, latest first (see bucketShareSum).
  private final byte[][] rangeBegin = new byte[2][];
  private final int[] beginRank = new int[2];
  private final byte[][] rangeEnd = new byte[2][];
  private final int[] endRank = new int[2];
  private int touchedBeginHint;
  private int touchedEndHint;
  // partFraction of a file covering a whole bucket, for the last bucket and range asked.
  private KeyRange fractionBucket;
  private byte[] fractionBegin;
  private byte[] fractionEnd;
  private double bucketFraction;

  private TableFacts(List<SstFile> files, List<KeyRange> buckets, PlanWork work) {
    this.files = List.copyOf(files);
    this.work = work;
    int maxLevel = -1;
    for (SstFile f : files) {
      maxLevel = Math.max(maxLevel, f.level());
    }
    this.levels = byLevel(files, maxLevel, work);
    this.memoBelow = new double[memoBegin.length][levels.length];
    KeyRange[] sorted = buckets.toArray(new KeyRange[0]);
    int nb = sorted.length;
    byte[][] begins = new byte[nb][];
    byte[][] bucketEnds = new byte[nb][];
    boundsOf(sorted, begins, bucketEnds);
    // The service passes the buckets of a key-name table sorted and disjoint: each ends at or before the next
    // begins. One pass checks that (and which buckets the one before adjoins); anything else is sorted first.
    boolean[] adjoins = new boolean[nb];
    boolean d = disjointInOrder(begins, bucketEnds, adjoins);
    if (!d && !Keys.ascending(begins)) {
      Arrays.sort(sorted, BY_BEGIN); // stable: ties keep their order
      boundsOf(sorted, begins, bucketEnds);
      d = disjointInOrder(begins, bucketEnds, adjoins);
    }
    this.bucketsDisjoint = d;
    this.sortedBuckets = sorted;
    this.bucketBegins = begins;
    this.bucketEnds = bucketEnds;
    this.buckets = Collections.unmodifiableList(Arrays.asList(sorted)); // a view: copying 1e5 buckets costs more
    // Disjoint buckets have only the last end null, if any: no pass needed.
    byte[][] ends = !d ? nonNull(bucketEnds)
        : nb > 0 && bucketEnds[nb - 1] == null ? Arrays.copyOf(bucketEnds, nb - 1) : bucketEnds;
    if (!d && !Keys.ascending(ends)) { // disjoint buckets end in order
      Arrays.sort(ends, Keys.ORDER);
    }
    this.sortedEnds = ends;
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
    if (bucketsDisjoint) {
      rankBegin = new int[nb];
      rankEnd = new int[nb];
      adjoinsPrevious = adjoins;
      rank(begins, bucketEnds, fileBounds, rankBegin, rankEnd, work);
    } else {
      rankBegin = null;
      rankEnd = null;
      adjoinsPrevious = null;
    }
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
  }

  private static void boundsOf(KeyRange[] buckets, byte[][] begins, byte[][] ends) {
    for (int i = 0; i < buckets.length; i++) {
      begins[i] = buckets[i].begin();
      ends[i] = buckets[i].end();
    }
  }

  /** Whether each bucket ends at or before the next begins; marks those whose predecessor ends just there. */
  private static boolean disjointInOrder(byte[][] begins, byte[][] ends, boolean[] adjoins) {
    for (int i = 1; i < begins.length; i++) {
      int c = ends[i - 1] == null ? 1 : Keys.compare(ends[i - 1], begins[i]);
      if (c > 0) {
        return false;
      }
      adjoins[i] = c == 0;
    }
    return true;
  }

  private static byte[][] nonNull(byte[][] keys) {
    int n = 0;
    for (byte[] k : keys) {
      n += k == null ? 0 : 1;
    }
    byte[][] out = new byte[n][];
    n = 0;
    for (byte[] k : keys) {
      if (k != null) {
        out[n++] = k;
      }
    }
    return out;
  }

  /**
   * How many of {@code bounds} lie before each begin and each end (all of them for a null end), for disjoint
   * buckets: begins and ends then alternate in ascending order, so one pass over the bounds counts them all.
   */
  private static void rank(byte[][] begins, byte[][] ends, byte[][] bounds, int[] rankBegin, int[] rankEnd,
      PlanWork work) {
    int p = 0;
    for (int j = 0; j < begins.length; j++) {
      p = boundsBefore(bounds, begins[j], p, work);
      rankBegin[j] = p;
      if (ends[j] == null) {
        rankEnd[j] = bounds.length;
      } else {
        p = boundsBefore(bounds, ends[j], p, work);
        rankEnd[j] = p;
      }
    }
  }

  /** How many of {@code bounds} lie before {@code key}, counting on from {@code from} of them (known to lie before). */
  private static int boundsBefore(byte[][] bounds, byte[] key, int from, PlanWork work) {
    int p = from;
    while (p < bounds.length) {
      work.step();
      if (Keys.compare(bounds[p], key) >= 0) {
        break;
      }
      p++;
    }
    return p;
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

  /**
   * Every file's smallest and largest key, all levels, sorted. A disjoint level gives them in order already (each
   * file's smallest, then its largest): the levels are merged one by one, smallest first. Each disjoint level of 1
   * and deeper is told where its files' keys stand in the result ({@link LevelFiles#placeAmongBounds}).
   */
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

  /** Buckets by begin. */
  private static final Comparator<KeyRange> BY_BEGIN = new Comparator<>() {
    @Override
    public int compare(KeyRange x, KeyRange y) {
      return Keys.compare(x.begin(), y.begin());
    }
  };

  /**
   * Disjoint buckets: the index of the bucket whose begin is this very array (not just equal), else -1. Looked for
   * at the last one found and the next (a plan asks in key order), then by a search.
   */
  private int bucketBeginningAt(byte[] key) {
    if (rankBegin == null) {
      return -1;
    }
    int c = bucketCursor;
    if (c < bucketBegins.length && bucketBegins[c] == key) {
      return c;
    }
    if (c + 1 < bucketBegins.length && bucketBegins[c + 1] == key) {
      bucketCursor = c + 1;
      return c + 1;
    }
    int j = Keys.search(bucketBegins, key, false, c, work);
    if (j < bucketBegins.length && bucketBegins[j] == key) {
      bucketCursor = j;
      return j;
    }
    return -1;
  }

  /**
   * How many file bounds lie before {@code key} when it is a bucket's own begin or end array near the last bucket
   * found (a range of a plan, or the gap before or after it), else -1: known without a search.
   */
  private int rankOf(byte[] key) {
    if (rankBegin == null || key == null) {
      return -1;
    }
    int c = bucketCursor;
    int n = bucketBegins.length;
    if (c < n && bucketBegins[c] == key) {
      return rankBegin[c];
    }
    if (c < n && bucketEnds[c] == key) {
      return rankEnd[c];
    }
    if (c + 1 < n && bucketBegins[c + 1] == key) {
      return rankBegin[c + 1];
    }
    if (c > 0 && bucketEnds[c - 1] == key) {
      return rankEnd[c - 1];
    }
    return -1;
  }

  /** {@link LevelFiles#from(byte[])} of a level of this table, with no search when {@link #rankOf} knows begin. */
  int from(LevelFiles lf, byte[] begin) {
    return lf.from(begin, rankOf(begin));
  }

  /** {@link LevelFiles#to(byte[], boolean)} for an exclusive end, as {@link #from(LevelFiles, byte[])}. */
  int to(LevelFiles lf, byte[] end) {
    return lf.to(end, false, rankOf(end));
  }

  /** Disjoint buckets: the index of the bucket whose bounds are these very arrays, else -1. */
  private int bucketAt(byte[] begin, byte[] end) {
    int j = bucketBeginningAt(begin);
    return j >= 0 && bucketEnds[j] == end ? j : -1;
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
    return buckets;
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
      int j = bucketAt(begin, end);
      if (j >= 0) { // a bucket: no bound inside when as many lie before its end as before its begin
        boundHint = rankBegin[j];
        straddle = rankBegin[j] == rankEnd[j] ? rankBegin[j] : -1;
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
   * the buckets on both sides, and those hold all of its entries ({@link #interpolated}): the gap's estimate is
   * zero, known without one.
   */
  boolean straddledGap(byte[] begin, byte[] end) {
    if (!bucketsDisjoint || end == null || begin.length == 0) {
      return false;
    }
    int next = bucketBeginningAt(end);
    if (next > 0 && bucketEnds[next - 1] == begin) {
      return rankEnd[next - 1] == rankBegin[next]; // no bound between the two buckets
    }
    int after = bucketsBeginningBefore(end);
    return after > 0 && after < sortedBuckets.length && Keys.compare(sortedBuckets[after].begin(), end) == 0
        && sortedBuckets[after - 1].end() != null && Keys.compare(sortedBuckets[after - 1].end(), begin) == 0
        && straddleStretch(begin, end) >= 0;
  }

  /**
   * The stretch of bounds ({@link #straddleStretch}) holding [begin, end) when that range is exactly one bucket
   * (disjoint buckets) and no file bound lies inside it, else -1. Every such bucket of one stretch has the same
   * estimate ({@link RangeStats#estimate} keeps it here): each file overlapping it covers it whole, and a covering
   * file's entries are shared equally among the buckets it touches.
   */
  int wholeBucketStretch(byte[] begin, byte[] end) {
    if (!bucketsDisjoint || end == null) {
      return -1;
    }
    int at = bucketAt(begin, end);
    if (at >= 0) { // as below: a bucket the one before adjoins is not found by its begin
      return adjoinsPrevious[at] ? -1 : straddleStretch(begin, end);
    }
    int j = bucketsEndingBefore(begin);
    if (j >= sortedBuckets.length || !Arrays.equals(sortedBuckets[j].begin(), begin)
        || Keys.compareEnds(sortedBuckets[j].end(), end) != 0) {
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

  /**
   * Estimated share of the entries of file {@code i} of level {@code lf} that lie in [begin, end): the sharing
   * model behind every estimate of {@link RangeStats}.
   *
   * <p>A file wholly inside counts whole. A file that straddles a boundary (a flush holds every bucket written since
   * the last one) is shared, first choice, by where the deeper levels keep their data inside the file's span: the
   * entries of deeper files, each shared by key interpolation. Deleted keys were written before, so they sit over
   * their older values; a tombstone-only L0 file spanning the tail of bucket a and all of bucket b then lands on b,
   * where the data is. With nothing below (all of it in L0, or a bottom file holding several small buckets) the file
   * is shared equally among the buckets it touches, and within a bucket by key interpolation over the part of the
   * file inside that bucket, where keys share the bucket prefix and interpolation is sound. Plain interpolation over
   * the whole file would not do: the byte naming the bucket dominates it, and a file spanning {@code /v/a/...} to
   * {@code /v/b/...} would give nearly all its entries to the empty gap between the buckets. Gaps get nothing from a
   * file that touches a bucket; a file touching none falls back to interpolation.
   */
  double share(LevelFiles lf, int i, byte[] begin, byte[] end) {
    return lf.files[i].overlaps(begin, end) ? overlappingShare(lf, i, begin, end) : 0.0;
  }

  /** {@link #share} of a file known to overlap [begin, end) (one of a level's run found by its bounds). */
  double overlappingShare(LevelFiles lf, int i, byte[] begin, byte[] end) {
    boolean startsInside = Keys.compare(lf.smallest[i], begin) >= 0;
    boolean endsInside = end == null || Keys.compare(lf.largest[i], end) < 0;
    if (startsInside && endsInside) {
      return 1.0;
    }
    byte[] lo = startsInside ? lf.smallest[i] : begin;
    byte[] hi = endsInside ? lf.largestSuccessor(i) : end;
    return straddlingShare(lf, i, lo, hi, begin, end);
  }

  /** {@link #share} of a file known to straddle [begin, end), whose part inside is [lo, hi). */
  double straddlingShare(LevelFiles lf, int i, byte[] lo, byte[] hi, byte[] begin, byte[] end) {
    SstFile f = lf.files[i];
    double whole = lf.densityUnder[i];
    if (Double.isNaN(whole)) {
      whole = densityBelow(f.level(), f.smallestKey(), lf.largestSuccessor(i));
      lf.densityUnder[i] = whole;
    }
    if (whole > 0) {
      return Math.min(1.0, densityBelow(f.level(), lo, hi) / whole);
    }
    int touched = bucketsTouched(lf, i);
    if (touched == 0) {
      return Keys.overlapFraction(f.smallestKey(), f.largestKey(), begin, end);
    }
    return bucketShareSum(lf, i, begin, end) / touched;
  }

  /**
   * Entries of files in levels below {@code level} that fall in [begin, end), each shared by interpolation. The
   * sums of the last range asked are kept: every level-0 file straddling a range asks for the same.
   */
  private double densityBelow(int level, byte[] begin, byte[] end) {
    if (level + 1 >= levels.length) {
      return 0;
    }
    int slot = memoSlot(begin, end);
    if (Double.isNaN(memoBelow[slot][level])) { // levels below level + 1 are summed once per span, deepest first
      double sum = levelDensity(level + 1, begin, end) + densityBelow(level + 1, begin, end);
      memoBelow[slot][level] = sum; // the recursion asks for this span only, so the slot is still its own
    }
    return memoBelow[slot][level];
  }

  /**
   * The memo slot of span [begin, end) (by identity), taking the oldest slot for a new span. One range asks for a
   * few spans in turn (the range, and its part inside each file that ends or begins within it), so a handful of
   * slots keeps them all.
   */
  private int memoSlot(byte[] begin, byte[] end) {
    for (int k = 0; k < memoBegin.length; k++) {
      if (memoBegin[k] == begin && memoEnd[k] == end) {
        return k;
      }
    }
    int k = memoNext;
    memoNext = (memoNext + 1) % memoBegin.length;
    memoBegin[k] = begin;
    memoEnd[k] = end;
    Arrays.fill(memoBelow[k], Double.NaN);
    return k;
  }

  private double levelDensity(int l, byte[] begin, byte[] end) {
    LevelFiles lf = levels[l];
    if (lf == null) {
      return 0;
    }
    double sum = 0;
    if (lf.disjoint) {
      int from = from(lf, begin);
      int to = to(lf, end);
      if (to - from >= 3) {
        sum += lf.entries(from + 1, to - 1); // files strictly between the first and the last lie wholly inside
      }
      if (to > from) {
        sum += interpolated(lf, from, begin, end);
      }
      if (to - 1 > from) {
        sum += interpolated(lf, to - 1, begin, end);
      }
    } else {
      for (int i = 0; i < lf.files.length; i++) {
        if (lf.overlaps(i, begin, end, false)) {
          sum += interpolated(lf, i, begin, end);
        }
      }
    }
    return sum;
  }

  /**
   * The entries of lower-level file {@code i} of {@code lf} in [begin, end). A file that touches buckets is taken
   * to hold its entries in those buckets, shared equally between them and interpolated inside each; the gaps
   * between buckets get none of it. Plain key interpolation over the file would not do: the bytes that tell
   * buckets apart come early in the key, so the empty gap between {@code /v/b9/} and {@code /v/b10/} spans far
   * more of the key space than either bucket, and a straddling file would seem to hold most of its entries (and,
   * through the level-0 shares built on this, most of the new tombstones) in a range where the OM keeps no key. A
   * file that touches no bucket (keys of a deleted bucket) is interpolated over its key span.
   */
  private double interpolated(LevelFiles lf, int i, byte[] begin, byte[] end) {
    SstFile g = lf.files[i];
    int touched = bucketsTouched(lf, i);
    double fraction = touched == 0 ? Keys.overlapFraction(g.smallestKey(), g.largestKey(), begin, end)
        : bucketShareSum(lf, i, begin, end) / touched;
    return g.entries() * fraction;
  }

  /**
   * Buckets sharing a key with file i of lf: all buckets but those beginning after it and those ending before it.
   * Both counts are kept per file: {@link #bucketShareSum} bounds its buckets with them.
   */
  private int bucketsTouched(LevelFiles lf, int i) {
    if (lf.bucketsTouched[i] < 0) {
      SstFile f = lf.files[i];
      // Each search starts from the answer for a neighbouring file of the level when known (the next range asks
      // about the next file), else from the last answer.
      int beginHint = touchedBeginHint;
      int endHint = touchedEndHint;
      int near = i > 0 && lf.bucketsTouched[i - 1] >= 0 ? i - 1
          : i + 1 < lf.files.length && lf.bucketsTouched[i + 1] >= 0 ? i + 1 : -1;
      if (near >= 0) {
        beginHint = lf.bucketsBeginningUpTo[near];
        endHint = lf.bucketsEndingBefore[near];
      }
      int beginUpTo = Keys.search(bucketBegins, f.largestKey(), true, beginHint, work); // begin <= largest
      int endBefore = Keys.search(sortedEnds, f.smallestKey(), true, endHint, work); // end <= smallest
      touchedBeginHint = beginUpTo;
      touchedEndHint = endBefore;
      lf.bucketsBeginningUpTo[i] = beginUpTo;
      lf.bucketsEndingBefore[i] = endBefore;
      lf.bucketsTouched[i] = beginUpTo - endBefore;
    }
    return lf.bucketsTouched[i];
  }

  /**
   * Sum over the buckets file i of lf touches of the fraction of (its part inside the bucket) that [begin, end)
   * covers. With disjoint buckets only the first and last contributing bucket need interpolation; those between
   * count 1 each.
   */
  private double bucketShareSum(LevelFiles lf, int i, byte[] begin, byte[] end) {
    SstFile f = lf.files[i];
    if (!bucketsDisjoint) {
      double sum = 0;
      for (KeyRange b : sortedBuckets) {
        work.step();
        if (f.overlaps(b.begin(), b.end())) {
          sum += partFraction(f, b, begin, end);
        }
      }
      return sum;
    }
    // Disjoint buckets have ascending begins and ends (a null end only last), so the contributing buckets are one
    // run: from the first whose end is past f's smallest key and not before begin, to the last that begins at or
    // before f's largest key and before end. Each bound is a count kept per file (bucketsTouched) or per range.
    bucketsTouched(lf, i);
    int first = Math.max(lf.bucketsEndingBefore[i], bucketsEndingBefore(begin));
    int last = Math.min(lf.bucketsBeginningUpTo[i], bucketsBeginningBefore(end)) - 1;
    if (last < first) {
      return 0;
    }
    if (last == first) {
      return partFraction(f, sortedBuckets[first], begin, end);
    }
    return partFraction(f, sortedBuckets[first], begin, end) + partFraction(f, sortedBuckets[last], begin, end)
        + (last - first - 1);
  }

  /**
   * Disjoint buckets: how many end (non-null) before {@code begin}. The answers for the last two keys asked are
   * kept: a range's shares ask for the range's bounds and for those of the part of a file inside it in turn.
   */
  private int bucketsEndingBefore(byte[] begin) {
    if (begin == rangeBegin[0]) {
      return beginRank[0];
    }
    int c = bucketCursor;
    if (rankBegin != null && c < bucketBegins.length) { // a bound of the bucket at hand: no search
      if (begin == bucketBegins[c]) {
        return adjoinsPrevious[c] ? c - 1 : c; // the bucket before ends before it, or just at it
      }
      if (begin == bucketEnds[c]) {
        return c; // the gap after it: every bucket before it ends before
      }
    }
    if (begin != rangeBegin[1]) {
      rangeBegin[1] = begin;
      beginRank[1] = Keys.search(bucketEnds, begin, false, beginRank[0], work); // disjoint: ends ascend, null last
    }
    swap(rangeBegin, beginRank);
    return beginRank[0];
  }

  /** Disjoint buckets: how many begin before {@code end} (all when null); as {@link #bucketsEndingBefore}. */
  private int bucketsBeginningBefore(byte[] end) {
    if (end == null) {
      return sortedBuckets.length;
    }
    if (end == rangeEnd[0]) {
      return endRank[0];
    }
    int c = bucketCursor;
    if (rankBegin != null && c < bucketBegins.length) { // a bound of the bucket at hand: no search
      if (end == bucketEnds[c]) {
        return c + 1; // the next begins at or after it
      }
      if (end == bucketBegins[c]) {
        return c;
      }
    }
    if (end != rangeEnd[1]) {
      rangeEnd[1] = end;
      endRank[1] = Keys.search(bucketBegins, end, false, endRank[0], work);
    }
    swap(rangeEnd, endRank);
    return endRank[0];
  }

  /** Makes the second of two kept answers the first. */
  private static void swap(byte[][] keys, int[] ranks) {
    byte[] k = keys[0];
    keys[0] = keys[1];
    keys[1] = k;
    int r = ranks[0];
    ranks[0] = ranks[1];
    ranks[1] = r;
  }

  /** The part of f inside bucket b, and how much of that part [begin, end) covers. */
  private double partFraction(SstFile f, KeyRange b, byte[] begin, byte[] end) {
    boolean startsInside = Keys.compare(f.smallestKey(), b.begin()) > 0;
    boolean endsInside = b.end() == null || Keys.compare(f.largestKey(), b.end()) < 0;
    if (!startsInside && !endsInside) {
      // f covers the bucket: the part is the bucket itself, as for every other file covering it (the last answer
      // is kept; one range asks it for each level).
      if (b != fractionBucket || begin != fractionBegin || end != fractionEnd) {
        fractionBucket = b;
        fractionBegin = begin;
        fractionEnd = end;
        bucketFraction = Keys.overlapFraction(b.begin(), b.end(), begin, end);
      }
      return bucketFraction;
    }
    byte[] partLo = startsInside ? f.smallestKey() : b.begin();
    byte[] partHi = endsInside ? f.largestKey() : b.end();
    return Keys.overlapFraction(partLo, partHi, begin, end);
  }

  /** Per level, the files whose own deletions / entries reach {@code ratio}, indexed; built once per ratio. */
  private LevelFiles[] denseByRatio(double ratio) {
    LevelFiles[] out = denseByRatio.get(ratio);
    if (out == null) {
      out = new LevelFiles[levels.length];
      for (int l = 0; l < levels.length; l++) {
        if (levels[l] != null) {
          List<SstFile> d = new ArrayList<>();
          for (SstFile f : levels[l].files) {
            if (f.entries() > 0 && (double) f.deletions() / f.entries() >= ratio) {
              d.add(f);
            }
          }
          out[l] = d.isEmpty() ? null : new LevelFiles(l, d, work);
        }
      }
      denseByRatio.put(ratio, out);
    }
    return out;
  }

  /**
   * The key span [smallest, largest] of the files overlapping [begin, end) whose own deletions / entries reach
   * {@code ratio}, or null when there is none.
   */
  byte[][] denseSpan(byte[] begin, byte[] end, double ratio) {
    if (denseFor == null || denseRatio != ratio) { // one ratio per plan: no map lookup (and boxing) per range
      denseRatio = ratio;
      denseFor = denseByRatio(ratio);
      denseL0Span = new byte[l0Covering.length][][];
      for (int k = 0; k < l0Covering.length; k++) {
        for (int i : l0Covering[k]) {
          SstFile f = levels[0].files[i];
          if (f.entries() > 0 && (double) f.deletions() / f.entries() >= ratio) { // as denseByRatio picks them
            byte[][] span = denseL0Span[k];
            denseL0Span[k] = span == null ? new byte[][] {f.smallestKey(), f.largestKey()} : new byte[][] {
                Keys.compare(f.smallestKey(), span[0]) < 0 ? f.smallestKey() : span[0],
                Keys.compare(f.largestKey(), span[1]) > 0 ? f.largestKey() : span[1]};
          }
        }
      }
    }
    LevelFiles[] dense = denseFor;
    byte[] lo = null;
    byte[] hi = null;
    int stretch = l0Stretch(begin, end);
    for (LevelFiles lf : dense) {
      if (lf == null) {
        continue;
      }
      if (lf.level == 0 && stretch >= 0) { // the dense level-0 files covering the range's stretch of level 0
        byte[][] span = denseL0Span[stretch];
        if (span != null) {
          lo = lo == null || Keys.compare(span[0], lo) < 0 ? span[0] : lo;
          hi = hi == null || Keys.compare(span[1], hi) > 0 ? span[1] : hi;
        }
        continue;
      }
      int from = 0;
      int to = lf.files.length;
      if (lf.disjoint) {
        from = lf.from(begin);
        to = lf.to(end, false);
      }
      for (int i = from; i < to; i++) {
        if (!lf.disjoint && !lf.overlaps(i, begin, end, false)) {
          continue;
        }
        SstFile f = lf.files[i];
        lo = lo == null || Keys.compare(f.smallestKey(), lo) < 0 ? f.smallestKey() : lo;
        hi = hi == null || Keys.compare(f.largestKey(), hi) > 0 ? f.largestKey() : hi;
        if (lf.disjoint && i == from && to - from > 2) {
          i = to - 2; // in a disjoint level only the first and the last file can widen the span
        }
      }
    }
    return lo == null ? null : new byte[][] {lo, hi};
  }
}
