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
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * One table's bucket ranges sorted by begin, for {@link TableFacts} and {@link BucketShares}: their bounds as key
 * arrays, their ends sorted on their own (for counting the buckets any range overlaps), and, when the buckets are
 * disjoint, where each bound stands among the table's file bounds.
 *
 * <p>A plan asks about each bucket (and the gap before it) with the bucket's own key arrays, in key order: such a
 * key is found by identity next to the last bucket found, and its rank among file bounds needs no search. The
 * answers for the last two range bounds asked are kept too. Immutable after construction except for those; not
 * thread-safe (one plan uses it on one thread).
 */
final class Buckets {
  /** The buckets, sorted by begin (stable: ties keep their order). */
  final KeyRange[] sorted;
  final byte[][] begins;
  final byte[][] ends; // null for +infinity
  /** The non-null ends, sorted. */
  final byte[][] sortedEnds;
  /** Each bucket ends at or before the next begins. */
  final boolean disjoint;
  private final List<KeyRange> list;
  private final PlanWork work;
  // Disjoint buckets (else null): per bucket, how many file bounds lie before its begin and before its end (all
  // for a null end), and whether the bucket before ends exactly where it begins.
  final int[] rankBegin;
  final int[] rankEnd;
  final boolean[] adjoinsPrevious;
  private int cursor; // the bucket found last
  // Disjoint buckets: ranks of the last two range begins and ends asked, latest first (see endingBefore).
  private final byte[][] rangeBegin = new byte[2][];
  private final int[] beginRank = new int[2];
  private final byte[][] rangeEnd = new byte[2][];
  private final int[] endRank = new int[2];

  /** {@code buckets} in any order; {@code fileBounds}: every file's smallest and largest key, sorted. */
  Buckets(List<KeyRange> buckets, byte[][] fileBounds, PlanWork work) {
    this.work = work;
    KeyRange[] s = buckets.toArray(new KeyRange[0]);
    int nb = s.length;
    byte[][] b = new byte[nb][];
    byte[][] e = new byte[nb][];
    boundsOf(s, b, e);
    // The service passes the buckets of a key-name table sorted and disjoint: each ends at or before the next
    // begins. One pass checks that (and which buckets the one before adjoins); anything else is sorted first.
    boolean[] adjoins = new boolean[nb];
    boolean d = disjointInOrder(b, e, adjoins);
    if (!d && !Keys.ascending(b)) {
      Arrays.sort(s, BY_BEGIN); // stable: ties keep their order
      boundsOf(s, b, e);
      d = disjointInOrder(b, e, adjoins);
    }
    this.disjoint = d;
    this.sorted = s;
    this.begins = b;
    this.ends = e;
    this.list = Collections.unmodifiableList(Arrays.asList(s)); // a view: copying 1e5 buckets costs more
    // Disjoint buckets have only the last end null, if any: no pass needed.
    byte[][] se = !d ? nonNull(e) : nb > 0 && e[nb - 1] == null ? Arrays.copyOf(e, nb - 1) : e;
    if (!d && !Keys.ascending(se)) { // disjoint buckets end in order
      Arrays.sort(se, Keys.ORDER);
    }
    this.sortedEnds = se;
    if (d) {
      rankBegin = new int[nb];
      rankEnd = new int[nb];
      adjoinsPrevious = adjoins;
      rank(b, e, fileBounds, rankBegin, rankEnd, work);
    } else {
      rankBegin = null;
      rankEnd = null;
      adjoinsPrevious = null;
    }
  }

  /** The buckets, sorted by begin. */
  List<KeyRange> list() {
    return list;
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
  int beginningAt(byte[] key) {
    if (rankBegin == null) {
      return -1;
    }
    int c = cursor;
    if (c < begins.length && begins[c] == key) {
      return c;
    }
    if (c + 1 < begins.length && begins[c + 1] == key) {
      cursor = c + 1;
      return c + 1;
    }
    int j = Keys.search(begins, key, false, c, work);
    if (j < begins.length && begins[j] == key) {
      cursor = j;
      return j;
    }
    return -1;
  }

  /** Disjoint buckets: the index of the bucket whose bounds are these very arrays, else -1. */
  int at(byte[] begin, byte[] end) {
    int j = beginningAt(begin);
    return j >= 0 && ends[j] == end ? j : -1;
  }

  /**
   * How many file bounds lie before {@code key} when it is a bucket's own begin or end array near the last bucket
   * found (a range of a plan, or the gap before or after it), else -1: known without a search.
   */
  int rankOf(byte[] key) {
    if (rankBegin == null || key == null) {
      return -1;
    }
    int c = cursor;
    int n = begins.length;
    if (c < n && begins[c] == key) {
      return rankBegin[c];
    }
    if (c < n && ends[c] == key) {
      return rankEnd[c];
    }
    if (c + 1 < n && begins[c + 1] == key) {
      return rankBegin[c + 1];
    }
    if (c > 0 && ends[c - 1] == key) {
      return rankEnd[c - 1];
    }
    return -1;
  }

  /**
   * Disjoint buckets: how many end (non-null) before {@code begin}. The answers for the last two keys asked are
   * kept: a range's shares ask for the range's bounds and for those of the part of a file inside it in turn.
   */
  int endingBefore(byte[] begin) {
    if (begin == rangeBegin[0]) {
      return beginRank[0];
    }
    int c = cursor;
    if (rankBegin != null && c < begins.length) { // a bound of the bucket at hand: no search
      if (begin == begins[c]) {
        return adjoinsPrevious[c] ? c - 1 : c; // the bucket before ends before it, or just at it
      }
      if (begin == ends[c]) {
        return c; // the gap after it: every bucket before it ends before
      }
    }
    if (begin != rangeBegin[1]) {
      rangeBegin[1] = begin;
      beginRank[1] = Keys.search(ends, begin, false, beginRank[0], work); // disjoint: ends ascend, null last
    }
    swap(rangeBegin, beginRank);
    return beginRank[0];
  }

  /** Disjoint buckets: how many begin before {@code end} (all when null); as {@link #endingBefore}. */
  int beginningBefore(byte[] end) {
    if (end == null) {
      return sorted.length;
    }
    if (end == rangeEnd[0]) {
      return endRank[0];
    }
    int c = cursor;
    if (rankBegin != null && c < begins.length) { // a bound of the bucket at hand: no search
      if (end == ends[c]) {
        return c + 1; // the next begins at or after it
      }
      if (end == begins[c]) {
        return c;
      }
    }
    if (end != rangeEnd[1]) {
      rangeEnd[1] = end;
      endRank[1] = Keys.search(begins, end, false, endRank[0], work);
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
}
