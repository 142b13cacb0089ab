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

package io.ozonerc.freon;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Latencies of one operation over a whole run, in nanoseconds, in log-linear buckets: values below 128 are counted
 * exactly, and every power of two above is split into 128 equal buckets, so a bucket is at most 1/128 (0.8%) of
 * its values wide. That is HdrHistogram's layout at two significant digits, written here because freon's classpath
 * in Ozone 2.2.0 does not carry HdrHistogram. 7,296 counters (57 KB) cover every non-negative long.
 *
 * <p>{@link #record} is wait-free and allocation-free (one counter increment, a sum, and min/max updates that only
 * write when they change), so it can sit next to the timed call. {@link #snapshot} copies the counters; concurrent
 * records may land on either side of a snapshot, never get lost.
 */
final class LatencyHistogram {
  /** Sub-buckets per power of two: 2^7 = 128, so a bucket spans at most 1/128 of its lower bound. */
  static final int SUB_BITS = 7;
  static final int SUB_COUNT = 1 << SUB_BITS;
  /** Values 0..127 exactly, then 128 buckets for each of the powers 2^7 .. 2^62. */
  static final int BUCKETS = SUB_COUNT + (63 - SUB_BITS) * SUB_COUNT;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final LongAdder sum = new LongAdder();
  private final AtomicLong min = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong max = new AtomicLong(Long.MIN_VALUE);

  void record(long nanos) {
    long v = Math.max(0, nanos);
    counts.incrementAndGet(bucketOf(v));
    sum.add(v);
    long m = min.get();
    while (v < m && !min.compareAndSet(m, v)) {
      m = min.get();
    }
    m = max.get();
    while (v > m && !max.compareAndSet(m, v)) {
      m = max.get();
    }
  }

  static int bucketOf(long v) {
    if (v < SUB_COUNT) {
      return (int) v;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(v); // v in [2^exponent, 2^(exponent+1)), exponent >= 7
    int shift = exponent - SUB_BITS;
    int sub = (int) (v >>> shift) - SUB_COUNT; // the 7 bits below the leading one
    return SUB_COUNT + shift * SUB_COUNT + sub;
  }

  /** Smallest value that falls into {@code bucket}. */
  static long lowerBound(int bucket) {
    if (bucket < SUB_COUNT) {
      return bucket;
    }
    int shift = (bucket - SUB_COUNT) / SUB_COUNT;
    long sub = (bucket - SUB_COUNT) % SUB_COUNT;
    return (SUB_COUNT + sub) << shift;
  }

  /** Largest value that falls into {@code bucket}. */
  static long upperBound(int bucket) {
    if (bucket < SUB_COUNT) {
      return bucket;
    }
    int shift = (bucket - SUB_COUNT) / SUB_COUNT;
    return lowerBound(bucket) + (1L << shift) - 1;
  }

  Snapshot snapshot() {
    long[] c = new long[BUCKETS];
    long n = 0;
    for (int i = 0; i < BUCKETS; i++) {
      c[i] = counts.get(i);
      n += c[i];
    }
    return new Snapshot(c, n, sum.sum(), n == 0 ? 0 : min.get(), n == 0 ? 0 : max.get());
  }

  /**
   * Frozen counts. Percentiles report the upper bound of the bucket that holds the rank (never below the true
   * value, at most 0.8% above it), clipped to the exact maximum.
   */
  static final class Snapshot {
    private final long[] counts;
    private final long count;
    private final long sum;
    private final long min;
    private final long max;

    Snapshot(long[] counts, long count, long sum, long min, long max) {
      this.counts = counts;
      this.count = count;
      this.sum = sum;
      this.min = min;
      this.max = max;
    }

    long count() {
      return count;
    }

    long min() {
      return min;
    }

    long max() {
      return max;
    }

    double mean() {
      return count == 0 ? 0 : (double) sum / count;
    }

    /** Value at quantile {@code q} in [0, 1]: the smallest bucket bound with at least ceil(q * count) values. */
    long valueAt(double q) {
      if (count == 0) {
        return 0;
      }
      long rank = Math.max(1, (long) Math.ceil(q * count));
      long seen = 0;
      for (int i = 0; i < counts.length; i++) {
        seen += counts[i];
        if (seen >= rank) {
          return Math.max(min, Math.min(max, upperBound(i)));
        }
      }
      return max;
    }

    /** Standard deviation from bucket midpoints (an estimate within the bucket width). */
    double stdDev() {
      if (count < 2) {
        return 0;
      }
      double mean = mean();
      double squares = 0;
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] != 0) {
          double mid = (lowerBound(i) + upperBound(i)) / 2.0;
          squares += counts[i] * (mid - mean) * (mid - mean);
        }
      }
      return Math.sqrt(squares / (count - 1));
    }

    /**
     * What was recorded after {@code earlier} (a snapshot of the same histogram). Min and max of the difference
     * are the bounds of its lowest and highest non-empty buckets, clipped to this snapshot's exact min and max.
     */
    Snapshot since(Snapshot earlier) {
      long[] c = new long[counts.length];
      long n = 0;
      int lo = -1;
      int hi = -1;
      for (int i = 0; i < c.length; i++) {
        c[i] = counts[i] - earlier.counts[i];
        if (c[i] > 0) {
          n += c[i];
          hi = i;
          if (lo < 0) {
            lo = i;
          }
        }
      }
      long dMin = n == 0 ? 0 : Math.max(min, lowerBound(lo));
      long dMax = n == 0 ? 0 : Math.min(max, upperBound(hi));
      return new Snapshot(c, n, sum - earlier.sum, dMin, dMax);
    }

    /** One "upper-bound count" line per non-empty bucket. */
    String dump() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] != 0) {
          sb.append(upperBound(i)).append(' ').append(counts[i]).append('\n');
        }
      }
      return sb.toString();
    }
  }
}
