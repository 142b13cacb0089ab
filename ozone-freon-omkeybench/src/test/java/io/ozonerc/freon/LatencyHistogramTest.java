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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LatencyHistogramTest {

  @ParameterizedTest(name = "{0} -> bucket [{1}, {2}]")
  @CsvSource({
      // value, lower, upper: exact below 128, then 128 buckets per power of two
      "0, 0, 0",
      "127, 127, 127",
      "128, 128, 128",
      "255, 255, 255",
      "256, 256, 257",
      "257, 256, 257",
      "1000000, 999424, 1003519",          // 1 ms: bucket width 4096 ns = 0.41%
      "9223372036854775807, 9187343239835811840, 9223372036854775807"})
  void bucketBounds(long value, long lower, long upper) {
    int b = LatencyHistogram.bucketOf(value);
    assertEquals(lower, LatencyHistogram.lowerBound(b));
    assertEquals(upper, LatencyHistogram.upperBound(b));
    assertTrue(b < LatencyHistogram.BUCKETS);
  }

  @Test
  void bucketsTileTheLongRange() {
    for (int b = 1; b < LatencyHistogram.BUCKETS; b++) {
      assertEquals(LatencyHistogram.upperBound(b - 1) + 1, LatencyHistogram.lowerBound(b), "bucket " + b);
      assertEquals(b, LatencyHistogram.bucketOf(LatencyHistogram.lowerBound(b)));
      assertEquals(b, LatencyHistogram.bucketOf(LatencyHistogram.upperBound(b)));
    }
  }

  @Test
  void percentilesWithinOneBucketOfTheTrueValue() {
    LatencyHistogram h = new LatencyHistogram();
    for (long us = 1; us <= 10_000; us++) {
      h.record(us * 1000); // 1 us .. 10 ms
    }
    LatencyHistogram.Snapshot s = h.snapshot();
    assertEquals(10_000, s.count());
    assertEquals(1_000, s.min());
    assertEquals(10_000_000, s.max());
    assertEquals(5_000_500.0, s.mean(), 1e-6);
    long[][] expected = {{50, 5_000_000}, {99, 9_900_000}, {100, 10_000_000}};
    for (long[] e : expected) {
      long v = s.valueAt(e[0] / 100.0);
      assertTrue(v >= e[1] && v <= e[1] * 1.008, "p" + e[0] + " = " + v);
    }
  }

  @Test
  void intervalIsTheDifferenceOfTwoSnapshots() {
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 0; i < 100; i++) {
      h.record(50_000_000); // 50 ms
    }
    LatencyHistogram.Snapshot first = h.snapshot();
    for (int i = 0; i < 10; i++) {
      h.record(1_000_000); // 1 ms
    }
    LatencyHistogram.Snapshot interval = h.snapshot().since(first);
    assertEquals(10, interval.count());
    assertEquals(1_000_000.0, interval.mean(), 1e-6);
    assertTrue(interval.max() >= 1_000_000 && interval.max() <= 1_008_000, "max " + interval.max());
    assertTrue(interval.valueAt(0.99) <= 1_008_000, "p99 " + interval.valueAt(0.99));
  }

  @Test
  void concurrentRecordsAreAllCounted() throws Exception {
    LatencyHistogram h = new LatencyHistogram();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      long base = t;
      threads.add(new Thread(() -> {
        for (int i = 0; i < 50_000; i++) {
          h.record(base * 1000 + i % 997);
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(200_000, h.snapshot().count());
    assertEquals(0, h.snapshot().min());
    assertEquals(3996, h.snapshot().max());
  }
}
