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

/**
 * How the entries of one table's SST files are shared among the ranges a plan asks about: the share of file
 * {@code i} of a level that lies in [begin, end), the model behind every estimate of {@link RangeStats}.
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
 *
 * <p>What a plan asks again and again is kept: per file, the entries below it and the buckets it touches; the sums
 * below the last few spans asked; the fraction of the last bucket and range asked. A value kept is the value
 * worked out, so asking in any order gives the same shares. Not thread-safe (one plan uses it on one thread).
 */
final class BucketShares {
  private final LevelFiles[] levels; // of the table, index = level number, null when the level has no file
  private final Buckets buckets;
  private final PlanWork work;
  // Per level and file: entries below the file's span (NaN until asked), the buckets it touches (-1 until asked),
  // and the two counts that bound them (see bucketsTouched).
  private final double[][] densityUnder;
  private final int[][] touchedCount;
  private final int[][] endingBefore;
  private final int[][] beginningUpTo;
  private int touchedBeginHint;
  private int touchedEndHint;
  // densityBelow of the last spans asked: [slot][level], NaN until asked (see memoSlot).
  private final double[][] memoBelow;
  private final byte[][] memoBegin = new byte[4][];
  private final byte[][] memoEnd = new byte[4][];
  private int memoNext;
  // partFraction of a file covering a whole bucket, for the last bucket and range asked.
  private KeyRange fractionBucket;
  private byte[] fractionBegin;
  private byte[] fractionEnd;
  private double bucketFraction;

  BucketShares(LevelFiles[] levels, Buckets buckets, PlanWork work) {
    this.levels = levels;
    this.buckets = buckets;
    this.work = work;
    int nl = levels.length;
    densityUnder = new double[nl][];
    touchedCount = new int[nl][];
    endingBefore = new int[nl][];
    beginningUpTo = new int[nl][];
    for (int l = 0; l < nl; l++) {
      int n = levels[l] == null ? 0 : levels[l].files.length;
      densityUnder[l] = new double[n];
      Arrays.fill(densityUnder[l], Double.NaN);
      touchedCount[l] = new int[n];
      Arrays.fill(touchedCount[l], -1);
      endingBefore[l] = new int[n];
      beginningUpTo[l] = new int[n];
    }
    memoBelow = new double[memoBegin.length][nl];
  }

  /** The share in [begin, end) of file {@code i} of {@code lf}, known to overlap it (one of a level's run). */
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

  /** The share in [begin, end) of file {@code i} of {@code lf}, known to straddle it; its part inside is [lo, hi). */
  double straddlingShare(LevelFiles lf, int i, byte[] lo, byte[] hi, byte[] begin, byte[] end) {
    SstFile f = lf.files[i];
    double whole = densityUnder[lf.level][i];
    if (Double.isNaN(whole)) {
      whole = densityBelow(f.level(), f.smallestKey(), lf.largestSuccessor(i));
      densityUnder[lf.level][i] = whole;
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
      int from = lf.from(begin, buckets.rankOf(begin));
      int to = lf.to(end, false, buckets.rankOf(end));
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
    if (touchedCount[lf.level][i] < 0) {
      SstFile f = lf.files[i];
      // Each search starts from the answer for a neighbouring file of the level when known (the next range asks
      // about the next file), else from the last answer.
      int beginHint = touchedBeginHint;
      int endHint = touchedEndHint;
      int near = i > 0 && touchedCount[lf.level][i - 1] >= 0 ? i - 1
          : i + 1 < lf.files.length && touchedCount[lf.level][i + 1] >= 0 ? i + 1 : -1;
      if (near >= 0) {
        beginHint = beginningUpTo[lf.level][near];
        endHint = endingBefore[lf.level][near];
      }
      int beginUpTo = Keys.search(buckets.begins, f.largestKey(), true, beginHint, work); // begin <= largest
      int endBefore = Keys.search(buckets.sortedEnds, f.smallestKey(), true, endHint, work); // end <= smallest
      touchedBeginHint = beginUpTo;
      touchedEndHint = endBefore;
      beginningUpTo[lf.level][i] = beginUpTo;
      endingBefore[lf.level][i] = endBefore;
      touchedCount[lf.level][i] = beginUpTo - endBefore;
    }
    return touchedCount[lf.level][i];
  }

  /**
   * Sum over the buckets file i of lf touches of the fraction of (its part inside the bucket) that [begin, end)
   * covers. With disjoint buckets only the first and last contributing bucket need interpolation; those between
   * count 1 each.
   */
  private double bucketShareSum(LevelFiles lf, int i, byte[] begin, byte[] end) {
    SstFile f = lf.files[i];
    if (!buckets.disjoint) {
      double sum = 0;
      for (KeyRange b : buckets.sorted) {
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
    int first = Math.max(endingBefore[lf.level][i], buckets.endingBefore(begin));
    int last = Math.min(beginningUpTo[lf.level][i], buckets.beginningBefore(end)) - 1;
    if (last < first) {
      return 0;
    }
    if (last == first) {
      return partFraction(f, buckets.sorted[first], begin, end);
    }
    return partFraction(f, buckets.sorted[first], begin, end) + partFraction(f, buckets.sorted[last], begin, end)
        + (last - first - 1);
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
}
