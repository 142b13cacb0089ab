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

package io.ozonerc.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The expiry listings' intervals and the time to recover after the expiry's last batch, on hand-made values. */
class ExpiryTimelineTest {

  private static ExpiryTimeline.Interval at(double start, long lists, double p99) {
    return new ExpiryTimeline.Interval(start, start + 5, lists, p99);
  }

  @Test
  void listingsAreBucketedByStartWithNearestRankP99() {
    long s = 1_000_000_000L;
    List<ExpiryTimeline.Interval> iv = ExpiryTimeline.intervals(new long[] {s / 2, s, 11 * s, 12 * s},
        new long[] {3_000_000, 9_000_000, 2_000_000, 4_000_000}, 5);
    assertEquals(3, iv.size());
    assertEquals(new ExpiryTimeline.Interval(0, 5, 2, 9.0), iv.get(0)); // fewer than 100: p99 is the largest
    assertEquals(0, iv.get(1).lists());
    assertTrue(Double.isNaN(iv.get(1).p99Millis()));
    assertEquals(new ExpiryTimeline.Interval(10, 15, 2, 4.0), iv.get(2));

    long[] starts = new long[200];
    long[] took = new long[200];
    for (int i = 0; i < 200; i++) {
      starts[i] = i * 10_000_000L; // all within the first 2 s
      took[i] = (200 - i) * 1_000_000L; // 200 ms down to 1 ms
    }
    // rank ceil(0.99 x 200) = 198 of 1..200 ms
    assertEquals(198.0, ExpiryTimeline.intervals(starts, took, 5).get(0).p99Millis(), 1e-9);
  }

  @Test
  void recoveryIsFromTheLastBatchToTheIntervalFromWhichOnEveryP99IsWithinTheLimit() {
    List<ExpiryTimeline.Interval> iv = List.of(at(0, 10, 50), at(5, 10, 40), at(10, 10, 10), at(15, 10, 30),
        at(20, 0, Double.NaN), at(25, 10, 9), at(30, 10, 8));
    // last batch at 7 s, limit 15 ms: 40 (5-10) and 30 (15-20) are above, the empty 20-25 counts for nothing,
    // from 25 s on every interval is within: 25 - 7 = 18 s.
    assertEquals(18.0, ExpiryTimeline.recoverySeconds(iv, 7, 15), 1e-9);
    // limit 45 ms: the interval the batch ended in (5-10) is already within: 0 s.
    assertEquals(0.0, ExpiryTimeline.recoverySeconds(iv, 7, 45), 1e-9);
    // the last batch at 16 s: from 25 s on within, 9 s.
    assertEquals(9.0, ExpiryTimeline.recoverySeconds(iv, 16, 15), 1e-9);
  }

  @Test
  void notRecoveredWhenTheLastIntervalIsAboveTheLimitOrNothingFollowsTheBatch() {
    List<ExpiryTimeline.Interval> iv = List.of(at(0, 10, 50), at(5, 10, 10), at(10, 10, 20));
    assertTrue(Double.isNaN(ExpiryTimeline.recoverySeconds(iv, 3, 15)), "the last interval is at 20 ms");
    assertEquals(2.0, ExpiryTimeline.recoverySeconds(iv, 3, 25), 1e-9);
    assertTrue(Double.isNaN(ExpiryTimeline.recoverySeconds(iv, 15, 100)), "no listing after the batch");
    assertTrue(Double.isNaN(ExpiryTimeline.recoverySeconds(List.of(at(0, 5, 1), at(5, 0, Double.NaN)), 6, 100)),
        "an interval after the batch without listings is no recovery");
  }
}
