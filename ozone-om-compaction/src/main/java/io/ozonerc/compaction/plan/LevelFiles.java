package io.ozonerc.compaction.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
  }

  /**
   * Disjoint levels only: the files overlapping [begin, end) are the run [from(begin), to(end, false)); with
   * {@code inclusiveEnd}, those overlapping [begin, end] (RocksDB's manual compaction treats its end as inclusive).
   */
  int from(byte[] begin) {
    int lo = 0;
    int hi = files.length; // first file whose largest >= begin
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      work.step();
      if (Keys.compare(files[mid].largestKey(), begin) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  int to(byte[] end, boolean inclusiveEnd) {
    if (end == null) {
      return files.length;
    }
    int lo = 0;
    int hi = files.length; // first file whose smallest >= end (> end when inclusive)
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      work.step();
      int c = Keys.compare(files[mid].smallestKey(), end);
      if (c < 0 || (inclusiveEnd && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
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
