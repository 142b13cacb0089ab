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

  /** Listings one every 100 ms from 0 to {@code seconds}, each taking {@code ms.applyAsDouble(start s)}. */
  private static long[][] listings(double seconds, java.util.function.DoubleUnaryOperator ms) {
    int n = (int) Math.round(seconds * 10);
    long[][] out = new long[2][n];
    for (int i = 0; i < n; i++) {
      out[0][i] = i * 100_000_000L;
      out[1][i] = Math.round(ms.applyAsDouble(i / 10.0) * 1e6);
    }
    return out;
  }

  private static double recovery(long[][] l, double lastBatch, double limit) {
    return ExpiryTimeline.recoverySeconds(l[0], l[1], lastBatch, limit, 5);
  }

  @Test
  void recoveryIsFromTheLastBatchToTheFirstMomentFromWhichOnTheListingsP99IsWithinTheLimit() {
    // 50 ms until 20 s, 10 ms after; 60 s of listings, 10 a second.
    long[][] l = listings(60, t -> t < 20 ? 50 : 10);
    // Last batch at 7 s, limit 15 ms: from 20 s on (the second boundary after 7 s that works) the p99 is 10 ms.
    assertEquals(13.0, recovery(l, 7, 15), 1e-9);
    // Limit 60 ms: already within at the batch's end.
    assertEquals(0.0, recovery(l, 7, 60), 1e-9);
    // The batch ended at 20 s exactly: recovered at once.
    assertEquals(0.0, recovery(l, 20, 15), 1e-9);
  }

  @Test
  void oneSlowListingAfterTheRecoveryDoesNotUndoItButASlowTailDoes() {
    // 10 ms throughout but one 110 ms listing at 45 s: one of the 400 listings after 20 s, p99 stays 10 ms.
    long[][] one = listings(60, t -> Math.abs(t - 45) < 0.05 ? 110 : 10);
    assertEquals(0.0, recovery(one, 20, 15), 1e-9);
    // Every 5 s interval from 30 s on has one 110 ms listing: 1 in 50 after 30 s, above the 1% a p99 allows.
    long[][] recurring = listings(60, t -> t >= 30 && Math.abs(t % 5) < 0.05 ? 110 : 10);
    assertTrue(Double.isNaN(recovery(recurring, 20, 15)), "a slow listing in every interval is no recovery");
  }

  @Test
  void onlyTheListingsThatCrossTheSpanJudgeTheRecovery() {
    // 1,000 listings a second for 60 s; one in 200 crosses the span and takes 50 ms until 20 s, 10 ms after; the
    // others take 1 ms throughout. Last batch at 7 s, limit 15 ms.
    int n = 60_000;
    long[] starts = new long[n];
    long[] took = new long[n];
    boolean[] crosses = new boolean[n];
    for (int i = 0; i < n; i++) {
      starts[i] = i * 1_000_000L;
      crosses[i] = i % 200 == 0;
      took[i] = crosses[i] ? (i < 20_000 ? 50_000_000L : 10_000_000L) : 1_000_000L;
    }
    org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
    RunResult.Expiry e = new RunResult.Expiry(h, 0, 0, 0, h, starts, took, crosses, 7_000_000_000L);
    // On all listings the 65 slow ones after 7 s are 0.1% of them: the p99 passes at the batch's end.
    assertEquals(0.0, ExpiryTimeline.recoverySeconds(e, null, 7, 15), 1e-9);
    // On the crossing ones every listing is slow until 20 s: recovered 13 s after the batch (200 follow, >= 100).
    assertEquals(13.0, ExpiryTimeline.recoverySeconds(e, crosses, 7, 15), 1e-9);
  }

  @Test
  void notRecoveredWhenFewerThanAHundredListingsFollowOrTheEndIsSlow() {
    long[][] l = listings(60, t -> t < 55 ? 50 : 1);
    // From 55 s on all listings are fast, but only 50 of them: too few for a p99.
    assertTrue(Double.isNaN(recovery(l, 7, 15)), "50 fast listings at the end");
    assertTrue(Double.isNaN(recovery(listings(60, t -> 10), 59, 15)), "10 listings after the batch");
    assertTrue(Double.isNaN(recovery(listings(60, t -> 10), 70, 15)), "no listing after the batch");
    assertEquals(0.0, recovery(listings(60, t -> 10), 50, 15), 1e-9); // exactly 100 listings from 50 s
  }
}
