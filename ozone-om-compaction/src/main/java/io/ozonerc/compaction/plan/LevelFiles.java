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

import java.util.Arrays;
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
  /** Smallest and largest key of each of {@link #files}: the smallest ascend, the largest too when disjoint. */
  final byte[][] smallest;
  final byte[][] largest;
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
  // See placeAmongBounds: null unless set.
  private int[] smallestAt;
  private int[] largestAt;
  private final byte[][] largestSuccessor; // null until asked
  /** Level 0: indexes of {@link #files} oldest first (by largest sequence number; ties in key order). */
  final int[] bySeqno;

  LevelFiles(int level, List<SstFile> levelFiles, PlanWork work) {
    this.level = level;
    this.work = work;
    SstFile[] f = levelFiles.toArray(new SstFile[0]);
    byte[][] lo = new byte[f.length][];
    keys(f, lo, true);
    if (!Keys.ascending(lo)) { // RocksDB lists a level's files in key order: most levels come sorted
      Arrays.sort(f, BY_SMALLEST); // stable: ties keep their order
      keys(f, lo, true);
    }
    this.files = f;
    this.smallest = lo;
    int n = files.length;
    this.largest = new byte[n][];
    keys(f, largest, false);
    this.disjoint = eachEndsBeforeNext();
    entries = new long[n + 1];
    deletions = new long[n + 1];
    bytes = new long[n + 1];
    busy = new int[n + 1];
    sums();
    largestSuccessor = new byte[n][];
    bySeqno = level > 0 ? null : bySeqno(files);
  }

  /** The smallest (or largest) key of every file. */
  private static void keys(SstFile[] f, byte[][] out, boolean smallestKeys) {
    for (int i = 0; i < f.length; i++) {
      out[i] = smallestKeys ? f[i].smallestKey() : f[i].largestKey();
    }
  }

  /** Whether the files are disjoint, each ending before the next begins. */
  private boolean eachEndsBeforeNext() {
    for (int i = 1; i < files.length; i++) {
      if (Keys.compare(largest[i - 1], smallest[i]) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** The prefix sums of the files. */
  private void sums() {
    for (int i = 0; i < files.length; i++) {
      entries[i + 1] = entries[i] + files[i].entries();
      deletions[i + 1] = deletions[i] + files[i].deletions();
      bytes[i + 1] = bytes[i] + files[i].sizeBytes();
      busy[i + 1] = busy[i] + (files[i].beingCompacted() ? 1 : 0);
    }
  }

  /** Files by smallest key (a class, not a lambda: see {@link Keys#ORDER}). */
  private static final Comparator<SstFile> BY_SMALLEST = new Comparator<>() {
    @Override
    public int compare(SstFile a, SstFile b) {
      return Keys.compare(a.smallestKey(), b.smallestKey());
    }
  };

  /** Indexes of {@code files} by largest sequence number, ties in index order (an insertion sort: level 0 is small). */
  private static int[] bySeqno(SstFile[] files) {
    int[] order = new int[files.length];
    for (int i = 0; i < order.length; i++) {
      int j = i;
      while (j > 0 && files[order[j - 1]].largestSeqno() > files[i].largestSeqno()) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = i;
    }
    return order;
  }

  /**
   * Disjoint levels only: the files overlapping [begin, end) are the run [from(begin), to(end, false)); with
   * {@code inclusiveEnd}, those overlapping [begin, end] (RocksDB's manual compaction treats its end as inclusive).
   */
  int from(byte[] begin) {
    return from(begin, -1);
  }

  /**
   * {@link #from(byte[])}, given how many of the table's file bounds lie before {@code begin} ({@code rank}, -1
   * when not known): then the answer is counted among this level's places in those bounds, with no key compared.
   */
  int from(byte[] begin, int rank) {
    if (begin != fromKey) { // one range asks for the same bounds many times (estimate, shares, cost)
      // first file whose largest >= begin
      fromHint = rank >= 0 && largestAt != null ? searchInts(largestAt, rank, fromHint)
          : Keys.search(largest, begin, false, fromHint, work);
      fromKey = begin;
    }
    return fromHint;
  }

  int to(byte[] end, boolean inclusiveEnd) {
    return to(end, inclusiveEnd, -1);
  }

  /** {@link #to(byte[], boolean)}, given the rank of an exclusive {@code end} as {@link #from(byte[], int)} takes. */
  int to(byte[] end, boolean inclusiveEnd, int rank) {
    if (end == null) {
      return files.length;
    }
    int k = inclusiveEnd ? 1 : 0;
    if (end != toKey[k]) {
      // first file whose smallest >= end (> end when inclusive)
      toHint[k] = rank >= 0 && !inclusiveEnd && smallestAt != null ? searchInts(smallestAt, rank, toHint[k])
          : Keys.search(smallest, end, inclusiveEnd, toHint[k], work);
      toKey[k] = end;
    }
    return toHint[k];
  }

  /**
   * Disjoint levels of a table: where each file's smallest and largest key stand among all the table's file
   * bounds sorted ({@link TableFacts}). The files whose largest key lies before a key are then those whose place
   * is below the key's rank among the bounds.
   */
  void placeAmongBounds(int[] smallestPlaces, int[] largestPlaces) {
    this.smallestAt = smallestPlaces;
    this.largestAt = largestPlaces;
  }

  /** The first index of ascending {@code places} holding {@code rank} or more, galloping from {@code hint}. */
  private int searchInts(int[] places, int rank, int hint) {
    return Keys.gallop(places.length, hint, new AtLeast(places, rank), work);
  }

  /** Ascending places: the one at i is {@code rank} or more (for {@link Keys#gallop}). */
  private static final class AtLeast extends Keys.Reached {
    private final int[] places;
    private final int rank;

    AtLeast(int[] places, int rank) {
      this.places = places;
      this.rank = rank;
    }

    @Override
    boolean at(int i) {
      return places[i] >= rank;
    }
  }

  /**
   * Disjoint levels only: the run of files overlapping [lo, hi] (inclusive), remembered for the last (lo, hi) asked
   * (by identity: callers pass keys of files, which never change).
   */
  int[] spanRun(byte[] lo, byte[] hi) {
    if (lo != spanLo || hi != spanHi) {
      int from = Keys.search(largest, lo, false, spanRun[0], work);
      int to = Keys.search(smallest, hi, true, spanRun[1], work);
      spanLo = lo;
      spanHi = hi;
      spanRun = new int[] {from, to};
    }
    work.step();
    return spanRun;
  }

  /** Any level: whether file i overlaps [begin, end), or [begin, end] with {@code inclusiveEnd}. */
  boolean overlaps(int i, byte[] begin, byte[] end, boolean inclusiveEnd) {
    work.step();
    if (Keys.compare(largest[i], begin) < 0) {
      return false;
    }
    if (end == null) {
      return true;
    }
    int c = Keys.compare(smallest[i], end);
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
