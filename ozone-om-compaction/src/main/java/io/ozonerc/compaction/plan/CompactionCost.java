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
import java.util.List;

/**
 * The SST files a manual {@code compactRange(begin, end)} of a leveled column family will rewrite, estimated from
 * the file facts the way RocksDB 7.7.3 picks them.
 *
 * <h2>What RocksDB does</h2>
 * {@code DBImpl::CompactRange} finds the shallowest and deepest level holding keys in [begin, end] (the end key is
 * inclusive) and runs one manual compaction per level from the shallowest down, each with the same [begin, end]
 * ({@code RunManualCompaction}; {@code CompactionPicker::CompactRange}):
 * <ul>
 *   <li>level 0: every level-0 file overlapping [begin, end], grown while another level-0 file overlaps the grown
 *       span (level-0 files overlap each other, and an older one cannot be left behind a newer one);</li>
 *   <li>level n > 0: the files overlapping [begin, end], expanded to a clean cut;</li>
 *   <li>then, in the output level n + 1, every file overlapping the key span of those inputs
 *       ({@code SetupOtherInputs}).</li>
 * </ul>
 * The output of step n lands in level n + 1 and is an input of step n + 1, so the span carried down is the union
 * of everything picked so far. On a busy OM a flush holds every bucket's writes, so level-0 files straddle many
 * buckets; one hot bucket's compaction then picks all of level 0 and every level-1 file under its span, and so on
 * down. Counting only the files that overlap the bucket undercounts that ~13x.
 *
 * <p>The deepest level is the bottommost: with {@code kSkip} it is only written into (its files under the carried
 * span are rewritten by the step above); with {@code kForce} it is also compacted by itself, which adds its files
 * overlapping [begin, end]. A range whose keys all sit in one level below 0 is not touched at all under
 * {@code kSkip}. A range whose keys all sit in level 0 (a new bucket, a head still in recent flushes) is still
 * compacted into the level below, and that step takes the files there under the level-0 files' span, although
 * none of them is in [begin, end].
 *
 * <h2>Where the estimate is off</h2>
 * It assumes each step writes one output file (true below RocksDB's target file size, 64 MiB by default); larger
 * outputs are cut, so the span carried down is narrower and deeper levels lose fewer files than counted here: an
 * upper bound. It ignores trivial moves (a file with nothing under it moves down without a rewrite; it is counted
 * as rewritten), the extra level-0 files RocksDB may add when that does not grow the output set, and the second
 * rewrite of fresh bottom output under {@code kForce}. A level "holds keys" here when a file's span overlaps; RocksDB
 * seeks for a key. Cost: one binary search per level and per carried span, O(levels x log files).
 *
 * @param files   number of existing SST files the compaction reads and replaces
 * @param entries their entries
 * @param bytes   their size on disk
 * @param busy    one of them is being compacted by RocksDB now (the manual compaction would wait for it)
 */
public record CompactionCost(int files, long entries, long bytes, boolean busy) {
  static final CompactionCost NONE = new CompactionCost(0, 0, 0, false);

  /** The cost of {@code compactRange(begin, end)} over {@code t}, {@code end == null} meaning to the last key. */
  public static CompactionCost estimate(TableFacts t, byte[] begin, byte[] end, boolean forceBottommost) {
    Sum sum = new Sum();
    for (Picked p : pick(t, begin, end, forceBottommost)) {
      if (p.level.disjoint) {
        // Both are runs of one sorted array: count each, then take back the files they share.
        sum.add(p.level, p.own, 1);
        sum.add(p.level, p.carried, 1);
        sum.add(p.level, p.own.intersect(p.carried), -1);
      } else {
        Block outer = p.own.outer(p.carried);
        for (int i = outer.from; i < outer.to; i++) {
          if (p.own.contains(i) || p.carried.contains(i)) {
            sum.add(p.level, new Block(i, i + 1, null), 1);
          }
        }
      }
    }
    return new CompactionCost(sum.files, sum.entries, sum.bytes, sum.busy);
  }

  /** The files {@link #estimate} counts, shallowest level first: for tests and reports, O(files picked). */
  public static List<SstFile> pickedFiles(TableFacts t, byte[] begin, byte[] end, boolean forceBottommost) {
    List<SstFile> out = new ArrayList<>();
    for (Picked p : pick(t, begin, end, forceBottommost)) {
      Block outer = p.own.outer(p.carried);
      for (int i = outer.from; i < outer.to; i++) {
        if (p.own.contains(i) || p.carried.contains(i)) {
          out.add(p.level.files[i]);
        }
      }
    }
    return out;
  }

  /** What one level gives: the files picked as inputs of its own step, and those under the span carried down. */
  private record Picked(LevelFiles level, Block own, Block carried) { }

  private static List<Picked> pick(TableFacts t, byte[] begin, byte[] end, boolean forceBottommost) {
    int first = -1;
    int deepest = -1;
    Block[] inRange = new Block[t.maxLevel() + 1];
    for (int l = 0; l <= t.maxLevel(); l++) {
      LevelFiles lf = t.level(l);
      inRange[l] = lf == null ? Block.EMPTY : l == 0 ? level0Block(t, lf, begin, end) : block(lf, begin, end, true);
      if (!inRange[l].isEmpty()) {
        first = first < 0 ? l : first;
        deepest = l;
      }
    }
    List<Picked> out = new ArrayList<>();
    if (first < 0 || (first == deepest && first > 0 && !forceBottommost)) {
      return out;
    }
    if (deepest == 0) {
      // Only level 0 holds keys of the range: RocksDB still compacts those files into the level below, and that
      // step takes every file there under their span (a flush of a busy OM spans the table: all of it).
      deepest = outputOfLevel0(t);
    }
    byte[] lo = null; // the carried span [lo, hi], inclusive; null while nothing is picked
    byte[] hi = null;
    for (int l = first; l <= deepest; l++) {
      LevelFiles lf = t.level(l);
      if (lf == null) {
        continue;
      }
      // The bottommost level is an input of its own only under kForce; level 0 is never bottommost.
      Block own = l < deepest || forceBottommost || l == 0 ? inRange[l] : Block.EMPTY;
      if (l == 0) {
        own = l0Closure(t, own);
      }
      Block carried = lo == null ? Block.EMPTY : carried(lf, lo, hi);
      if (own.isEmpty() && carried.isEmpty()) {
        continue;
      }
      out.add(new Picked(lf, own, carried));
      Block outer = own.outer(carried);
      for (int i = outer.from; i < outer.to; i++) {
        if (own.contains(i) || carried.contains(i)) {
          lo = min(lo, lf.files[i].smallestKey());
          hi = max(hi, lf.files[i].largestKey());
        }
        if (lf.disjoint && i == outer.from) {
          i = Math.max(i, outer.to - 2); // sorted and disjoint: the first and last file give the span
        }
      }
    }
    return out;
  }

  /**
   * The level a level-0 compaction writes into: the shallowest level below 0 holding files (RocksDB's base level
   * with dynamic level sizes, as Ozone configures; with fixed sizes it is level 1, and counting a deeper level's
   * files keeps the estimate an upper bound). 0 when no level below holds files: the output is new files only.
   */
  private static int outputOfLevel0(TableFacts t) {
    for (int l = 1; l <= t.maxLevel(); l++) {
      LevelFiles lf = t.level(l);
      if (lf != null && lf.files.length > 0) {
        return l;
      }
    }
    return 0;
  }

  /**
   * Files of {@code lf} under a carried span. The span's ends are keys of picked files, and consecutive ranges of
   * a plan usually carry the same span (level-0 files straddling them all), so a disjoint level keeps the last answer.
   */
  private static Block carried(LevelFiles lf, byte[] lo, byte[] hi) {
    if (!lf.disjoint) {
      return block(lf, lo, hi, true);
    }
    int[] run = lf.spanRun(lo, hi);
    return run[1] > run[0] ? new Block(run[0], run[1], null) : Block.EMPTY;
  }

  /** Files of {@code lf} overlapping [begin, end], or [begin, end) when not {@code inclusive}. */
  private static Block block(LevelFiles lf, byte[] begin, byte[] end, boolean inclusive) {
    if (lf.disjoint) {
      int from = lf.from(begin);
      int to = lf.to(end, inclusive);
      return to > from ? new Block(from, to, null) : Block.EMPTY;
    }
    boolean[] in = new boolean[lf.files.length];
    int from = -1;
    int to = -1;
    for (int i = 0; i < lf.files.length; i++) {
      if (lf.overlaps(i, begin, end, inclusive)) {
        in[i] = true;
        from = from < 0 ? i : from;
        to = i + 1;
      }
    }
    return from < 0 ? Block.EMPTY : new Block(from, to, in);
  }

  /** Level-0 files overlapping [begin, end]: those covering the range's stretch of level 0 when it has one. */
  private static Block level0Block(TableFacts t, LevelFiles l0, byte[] begin, byte[] end) {
    int k = t.l0Stretch(begin, end);
    if (k < 0) {
      return block(l0, begin, end, true);
    }
    int[] cover = t.l0Covering(k);
    if (cover.length == 0) {
      return Block.EMPTY;
    }
    int from = Integer.MAX_VALUE;
    int to = 0;
    for (int i : cover) {
      from = Math.min(from, i);
      to = Math.max(to, i + 1);
    }
    return new Block(from, to, t.l0CoveringIn(k));
  }

  /**
   * Level 0: the runs of transitively overlapping files (precomputed in {@link TableFacts}) that the picked files
   * belong to; RocksDB's expansion of the level-0 inputs ends exactly there.
   */
  private static Block l0Closure(TableFacts t, Block own) {
    if (own.isEmpty()) {
      return own;
    }
    int[] starts = t.l0RunStart();
    int from = Integer.MAX_VALUE;
    int to = -1;
    for (int r = 0; r + 1 < starts.length; r++) {
      t.work().step();
      for (int i = starts[r]; i < starts[r + 1]; i++) {
        if (own.contains(i)) {
          from = Math.min(from, starts[r]);
          to = Math.max(to, starts[r + 1]);
          break;
        }
      }
    }
    // Runs between two picked runs lie inside [begin, end] and are picked too: the closure is one block.
    return new Block(from, to, null);
  }

  private static byte[] min(byte[] a, byte[] b) {
    return a == null || Keys.compare(b, a) < 0 ? b : a;
  }

  private static byte[] max(byte[] a, byte[] b) {
    return a == null || Keys.compare(b, a) > 0 ? b : a;
  }

  /** A run [from, to) of a level's sorted files; {@code in} marks members when the level is not disjoint. */
  private record Block(int from, int to, boolean[] in) {
    static final Block EMPTY = new Block(0, 0, null);

    boolean isEmpty() {
      return to <= from;
    }

    boolean contains(int i) {
      return i >= from && i < to && (in == null || in[i]);
    }

    /** From the first to the last file of either. */
    Block outer(Block o) {
      if (isEmpty()) {
        return o;
      }
      return o.isEmpty() ? this : new Block(Math.min(from, o.from), Math.max(to, o.to), null);
    }

    Block intersect(Block o) {
      int f = Math.max(from, o.from);
      int t = Math.min(to, o.to);
      return t > f ? new Block(f, t, null) : EMPTY;
    }
  }

  private static final class Sum {
    int files;
    long entries;
    long bytes;
    boolean busy;

    void add(LevelFiles lf, Block b, int sign) {
      if (!b.isEmpty()) {
        files += sign * (b.to() - b.from());
        entries += sign * lf.entries(b.from(), b.to());
        bytes += sign * lf.bytes(b.from(), b.to());
        busy |= lf.busy(b.from(), b.to());
      }
    }
  }
}
