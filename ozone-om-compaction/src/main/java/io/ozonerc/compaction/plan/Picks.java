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
import java.util.List;

/**
 * How the planners that read the store before they decide (a head probe, {@link HeadPlanner}; a bucket count,
 * {@link CountPlanner}) pick what to read: ranges whose files' deletions, each file counted whole, could make them
 * qualify ({@link #byDeletionBound}: an upper bound, so the range that holds a straddling flush's deletes is never
 * missed, however the estimate shares them), within a budget of reads per round split between the best and the
 * rest in turn ({@link #topAndRotating}). Each planner's class comment says why it reads.
 *
 * <p>Pure: no clock, no I/O, no RocksDB.
 */
final class Picks {
  /** Dead entries a deleted key costs a reader at most, in the OM's create-then-delete use: tombstone + value. */
  static final int DEAD_ENTRIES_PER_DELETE = 2;

  private Picks() { }

  /** A range and the upper bound of the dead entries a seek at its start could step over. */
  record Bound(KeyRange range, long deadBound) {
    @Override
    public String toString() {
      return range.table() + " " + range.label() + " bound=" + deadBound;
    }
  }

  /**
   * Ranges (buckets, or directories) whose upper bound of dead entries reaches {@code minDeadKeys}, largest bound
   * first (ties in key order). One sort of the files by each end and a binary search per range:
   * O((ranges + files) log files). The deletions of the files overlapping [b, e) are those of files starting before
   * e minus those of files ending before b (a file that ends before b also starts before e).
   *
   * @param sortedRanges ranges of the table of {@code tableFiles}, in key order
   * @param memDeletes   deletes in the table's memtables (they may lie in any range)
   */
  static List<Bound> byDeletionBound(List<SstFile> tableFiles, long memDeletes, List<KeyRange> sortedRanges,
      long minDeadKeys) {
    if (sortedRanges.isEmpty()) {
      return List.of();
    }
    int n = tableFiles.size();
    byte[][] smallest = new byte[n][];
    byte[][] largest = new byte[n][];
    long[] delBySmallest = new long[n + 1]; // prefix sums of deletions, files ordered by smallest key
    long[] delByLargest = new long[n + 1];  // ... ordered by largest key
    List<SstFile> bySmallest = new ArrayList<>(tableFiles);
    bySmallest.sort(Comparator.comparing(SstFile::smallestKey, Keys::compare));
    List<SstFile> byLargest = new ArrayList<>(tableFiles);
    byLargest.sort(Comparator.comparing(SstFile::largestKey, Keys::compare));
    for (int i = 0; i < n; i++) {
      smallest[i] = bySmallest.get(i).smallestKey();
      delBySmallest[i + 1] = delBySmallest[i] + bySmallest.get(i).deletions();
      largest[i] = byLargest.get(i).largestKey();
      delByLargest[i + 1] = delByLargest[i] + byLargest.get(i).deletions();
    }
    List<Bound> out = new ArrayList<>();
    for (KeyRange b : sortedRanges) {
      long startBeforeEnd = b.end() == null ? delBySmallest[n] : delBySmallest[Keys.countBelow(smallest, b.end())];
      long endBeforeBegin = delByLargest[Keys.countBelow(largest, b.begin())];
      long bound = DEAD_ENTRIES_PER_DELETE * (startBeforeEnd - endBeforeBegin + memDeletes);
      if (bound >= minDeadKeys) {
        out.add(new Bound(b, bound));
      }
    }
    out.sort(Comparator.comparingLong(Bound::deadBound).reversed());
    return out;
  }

  /**
   * At most {@code slots} of {@code ranked} (best first): all of them when they fit; otherwise the better half of
   * the slots to the best, and the other half to the rest in turn, moved on by {@code rotation} (a counter the
   * caller increases every round), so every one is taken within a bounded number of rounds.
   */
  static <T> List<T> topAndRotating(List<T> ranked, int slots, long rotation) {
    if (ranked.size() <= slots) {
      return ranked;
    }
    List<T> out = new ArrayList<>(ranked.subList(0, (slots + 1) / 2));
    int top = out.size();
    int rotating = slots - top;
    int others = ranked.size() - top;
    long start = Math.floorMod(rotation * rotating, (long) others);
    for (int i = 0; i < rotating; i++) {
      out.add(ranked.get(top + (int) ((start + i) % others)));
    }
    return out;
  }
}
