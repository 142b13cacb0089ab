package io.ozonerc.compaction.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * The files of one LSM level of one table, sorted by smallest key, with prefix sums, so that a range query costs a
 * binary search instead of a pass over every file.
 *
 * <p>Levels 1 and deeper of a leveled LSM hold non-overlapping files ({@link #disjoint}): the files overlapping a
 * range are then one contiguous run of the sorted array, found with two binary searches, and sums over the run
 * come from prefix sums. Level 0 files overlap each other, as may the files of a hand-written fixture; such a
 * level is scanned file by file (level 0 holds a handful of files: RocksDB slows writes at 20).
 *
 * <p>Ranges are [begin, end) with {@code end == null} for +infinity; a file spans [smallest, largest] inclusive.
 * Every comparison is counted in {@link PlanWork} so a test can bound a plan's cost without timing it.
 */
final class LevelFiles {
  final int level;
  final SstFile[] files;
  /** No two files share a key: largest keys ascend with smallest keys. */
  final boolean disjoint;
  private final long[] entries;
  private final long[] deletions;
  private final long[] bytes;
  private final int[] busy;
  private final PlanWork work;
  // Where the last search ended, for the key asked (by identity: keys never change): the next range of a plan
  // lies just after it. The end is kept apart for exclusive [0] and inclusive [1] ends.
  private int fromHint;
  private byte[] fromKey;
  private final int[] toHint = new int[2];
  private final byte[][] toKey = new byte[2][];
  private byte[] spanLo;
  private byte[] spanHi;
  private int[] spanRun = {0, 0};
  // Per-file values a plan asks for again and again, kept by index (see TableFacts#share): NaN or -1 until asked.
  final double[] densityUnder;
  private final byte[][] largestSuccessor;
  final int[] bucketsTouched;
  final int[] bucketsEndingBefore;
  final int[] bucketsBeginningUpTo;
  /** Level 0: indexes of {@link #files} oldest first (by largest sequence number; ties in key order). */
  final int[] bySeqno;

  LevelFiles(int level, List<SstFile> levelFiles, PlanWork work) {
    this.level = level;
    this.work = work;
    List<SstFile> sorted = new ArrayList<>(levelFiles);
    sorted.sort(Comparator.comparing(SstFile::smallestKey, Keys::compare));
    this.files = sorted.toArray(new SstFile[0]);
    boolean d = true;
    for (int i = 1; i < files.length && d; i++) {
      d = Keys.compare(files[i - 1].largestKey(), files[i].smallestKey()) < 0;
    }
    this.disjoint = d;
    int n = files.length;
    entries = new long[n + 1];
    deletions = new long[n + 1];
    bytes = new long[n + 1];
    busy = new int[n + 1];
    for (int i = 0; i < n; i++) {
      entries[i + 1] = entries[i] + files[i].entries();
      deletions[i + 1] = deletions[i] + files[i].deletions();
      bytes[i + 1] = bytes[i] + files[i].sizeBytes();
      busy[i + 1] = busy[i] + (files[i].beingCompacted() ? 1 : 0);
    }
    densityUnder = new double[n];
    largestSuccessor = new byte[n][];
    Arrays.fill(densityUnder, Double.NaN);
    bucketsTouched = new int[n];
    Arrays.fill(bucketsTouched, -1);
    bucketsEndingBefore = new int[n];
    bucketsBeginningUpTo = new int[n];
    bySeqno = level > 0 ? null : IntStream.range(0, n).boxed()
        .sorted(Comparator.comparingLong(i -> files[i].largestSeqno())).mapToInt(Integer::intValue).toArray();
  }

  /**
   * Disjoint levels only: the files overlapping [begin, end) are the run [from(begin), to(end, false)); with
   * {@code inclusiveEnd}, those overlapping [begin, end] (RocksDB's manual compaction treats its end as inclusive).
   */
  int from(byte[] begin) {
    if (begin != fromKey) { // one range asks for the same bounds many times (estimate, shares, cost)
      // first file whose largest >= begin
      fromHint = search(i -> Keys.compare(files[i].largestKey(), begin) >= 0, fromHint);
      fromKey = begin;
    }
    return fromHint;
  }

  int to(byte[] end, boolean inclusiveEnd) {
    if (end == null) {
      return files.length;
    }
    int k = inclusiveEnd ? 1 : 0;
    if (end != toKey[k]) {
      // first file whose smallest >= end (> end when inclusive)
      toHint[k] = search(i -> {
        int c = Keys.compare(files[i].smallestKey(), end);
        return c > 0 || (c == 0 && !inclusiveEnd);
      }, toHint[k]);
      toKey[k] = end;
    }
    return toHint[k];
  }

  /**
   * Disjoint levels only: the run of files overlapping [lo, hi] (inclusive), remembered for the last (lo, hi) asked
   * (by identity: callers pass keys of files, which never change).
   */
  int[] spanRun(byte[] lo, byte[] hi) {
    if (lo != spanLo || hi != spanHi) {
      int from = search(i -> Keys.compare(files[i].largestKey(), lo) >= 0, spanRun[0]);
      int to = search(i -> Keys.compare(files[i].smallestKey(), hi) > 0, spanRun[1]);
      spanLo = lo;
      spanHi = hi;
      spanRun = new int[] {from, to};
    }
    work.step();
    return spanRun;
  }

  /**
   * The first index in [0, n] where {@code atOrAfter} holds (it holds for every index from there on), searched
   * outwards from {@code hint} in doubling steps, then by bisection: O(log d) for an answer d files from the hint.
   * A plan asks for ranges in key order, so d is small and a query costs a few comparisons.
   */
  private int search(IntPredicate atOrAfter, int hint) {
    return search(files.length, atOrAfter, hint, work);
  }

  /** {@link #search(IntPredicate, int)} over any n sorted elements. */
  static int search(int n, IntPredicate atOrAfter, int hint, PlanWork work) {
    if (n == 0) {
      return 0;
    }
    int h = Math.min(Math.max(hint, 0), n - 1);
    int lo;
    int hi;
    work.step();
    if (atOrAfter.test(h)) { // the answer is at or before h
      hi = h;
      lo = 0;
      for (int step = 1; hi - step >= 0; step <<= 1) {
        work.step();
        if (!atOrAfter.test(hi - step)) {
          lo = hi - step + 1;
          break;
        }
        hi -= step;
      }
    } else { // the answer is after h
      lo = h + 1;
      hi = n;
      for (int step = 1; lo + step - 1 < n; step <<= 1) {
        work.step();
        if (atOrAfter.test(lo + step - 1)) {
          hi = lo + step - 1;
          break;
        }
        lo += step;
      }
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      work.step();
      if (atOrAfter.test(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Any level: whether file i overlaps [begin, end), or [begin, end] with {@code inclusiveEnd}. */
  boolean overlaps(int i, byte[] begin, byte[] end, boolean inclusiveEnd) {
    work.step();
    SstFile f = files[i];
    if (Keys.compare(f.largestKey(), begin) < 0) {
      return false;
    }
    if (end == null) {
      return true;
    }
    int c = Keys.compare(f.smallestKey(), end);
    return c < 0 || (inclusiveEnd && c == 0);
  }

  /** {@link Keys#keySuccessor} of file i's largest key, built once: the same array each time (memos key on it). */
  byte[] largestSuccessor(int i) {
    if (largestSuccessor[i] == null) {
      largestSuccessor[i] = Keys.keySuccessor(files[i].largestKey());
    }
    return largestSuccessor[i];
  }

  long entries(int from, int to) {
    return entries[to] - entries[from];
  }

  long deletions(int from, int to) {
    return deletions[to] - deletions[from];
  }

  long bytes(int from, int to) {
    return bytes[to] - bytes[from];
  }

  boolean busy(int from, int to) {
    return busy[to] - busy[from] > 0;
  }
}
