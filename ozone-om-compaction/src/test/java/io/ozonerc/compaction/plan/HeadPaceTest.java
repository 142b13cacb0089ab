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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link HeadPace#nextWait}: the wait before the next head check, with the service's defaults (threshold 2,000
 * dead entries, min 1 s, max 30 s). Times are in milliseconds in the table.
 */
class HeadPaceTest {
  private static final long MS = 1_000_000L;
  private static final HeadPace.Bounds DEFAULTS = new HeadPace.Bounds(2_000, 1_000 * MS, 30_000 * MS);
  private static final KeyRange Q = KeyRange.bucket("keyTable", "/v/q/");
  private static final KeyRange R = KeyRange.bucket("keyTable", "/v/r/");

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // case | left before (-1: not seen) | elapsed ms | probed now | left now | current wait ms | next wait ms
      "fast queue, compacted: due sooner than min, so min    | 0     | 5000 | 15000 | 0    | 5000  | 1000",
      "growing 300/s from 0, compacted to 0: (2000-0)/300 s  | 0     | 5000 | 1500  | 0    | 5000  | 6666",
      "growing 300/s, not compacted at 1,500: 500/300 s      | 0     | 5000 | 1500  | 1500 | 5000  | 1666",
      "slow grower: 10/s would take 195 s, so twice the wait | 0     | 5000 | 50    | 50   | 5000  | 10000",
      "slow grower at a 20 s wait: capped at max             | 0     | 5000 | 50    | 50   | 20000 | 30000",
      "nothing grows: doubles                                | 800   | 5000 | 800   | 800  | 5000  | 10000",
      "shrinking (RocksDB compacted it): doubles             | 1500  | 5000 | 200   | 200  | 5000  | 10000",
      "nothing grows at max: stays at max                    | 800   | 5000 | 800   | 800  | 30000 | 30000",
      "left at the threshold, not compacted: min             | 1000  | 5000 | 2000  | 2000 | 5000  | 1000",
      "new head above the threshold, not compacted: min      | -1    | 5000 | 9000  | 9000 | 5000  | 1000",
      "new head below the threshold: no rate yet, same wait  | -1    | 5000 | 1500  | 1500 | 5000  | 5000",
      "no time between passes: no rate, same wait            | 0     | 0    | 1500  | 1500 | 5000  | 5000",
      "at min and growing fast: stays at min                 | 0     | 1000 | 3000  | 0    | 1000  | 1000",
      "hours apart and millions of entries: no overflow      | 0     | 36000000 | 5000000 | 0 | 30000 | 14400",
  })
  void oneHead(String name, long leftBefore, long elapsedMs, long probed, long left, long currentMs,
      long expectedMs) {
    Map<KeyRange, Long> previous = new HashMap<>();
    if (leftBefore >= 0) {
      previous.put(Q, leftBefore);
    }
    long wait = HeadPace.nextWait(previous, elapsedMs * MS, List.of(new HeadPace.Reading(Q, probed, left)),
        currentMs * MS, DEFAULTS);
    assertEquals(expectedMs, wait / MS, name);
  }

  @Test
  void theSoonestGrowingHeadSetsTheWait() {
    Map<KeyRange, Long> previous = Map.of(Q, 0L, R, 0L);
    List<HeadPace.Reading> now = List.of(
        new HeadPace.Reading(Q, 100, 100),   // 20/s: 95 s to go
        new HeadPace.Reading(R, 1_000, 1_000)); // 200/s: 5 s to go
    assertEquals(5_000, HeadPace.nextWait(previous, 5_000 * MS, now, 5_000 * MS, DEFAULTS) / MS);
    List<HeadPace.Reading> reversed = new ArrayList<>(now);
    Collections.reverse(reversed);
    assertEquals(5_000, HeadPace.nextWait(previous, 5_000 * MS, reversed, 5_000 * MS, DEFAULTS) / MS,
        "order does not matter");
  }

  @Test
  void aHeadHeldByRocksDbNeitherSetsTheMinimumNorPaces() {
    Map<KeyRange, Long> previous = Map.of(Q, 9_000L, R, 100L);
    List<HeadPace.Reading> waiting = List.of(new HeadPace.Reading(Q, 30_000, 30_000, true),
        new HeadPace.Reading(R, 100, 100));
    assertEquals(10_000, HeadPace.nextWait(previous, 5_000 * MS, waiting, 5_000 * MS, DEFAULTS) / MS,
        "Q waits for level 0 (held), R does not grow: back off");
    List<HeadPace.Reading> budget = List.of(new HeadPace.Reading(Q, 30_000, 30_000, false),
        new HeadPace.Reading(R, 100, 100));
    assertEquals(1_000, HeadPace.nextWait(previous, 5_000 * MS, budget, 5_000 * MS, DEFAULTS) / MS,
        "Q was left for the budget: the next check compacts it");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // case | held head seen before | current wait ms | next wait ms
      "only a held head, seen before: doubles              | true  | 5000  | 10000",
      "only a held head, seen before, at 20 s: max         | true  | 20000 | 30000",
      "only a held head, first seen: no rate, same wait    | false | 5000  | 5000",
  })
  void onlyHeldHeadsLeftBackOff(String name, boolean seenBefore, long currentMs, long expectedMs) {
    Map<KeyRange, Long> previous = seenBefore ? Map.of(Q, 30_000L) : Map.of();
    List<HeadPace.Reading> held = List.of(new HeadPace.Reading(Q, 31_000, 31_000, true));
    assertEquals(expectedMs, HeadPace.nextWait(previous, 5_000 * MS, held, currentMs * MS, DEFAULTS) / MS, name);
  }

  @Test
  void withNothingToCompareTheWaitStaysWithinItsBounds() {
    assertEquals(5_000, HeadPace.nextWait(Map.of(), 5_000 * MS, List.of(), 5_000 * MS, DEFAULTS) / MS);
    assertEquals(30_000, HeadPace.nextWait(Map.of(), 5_000 * MS, List.of(), Long.MAX_VALUE, DEFAULTS) / MS);
    assertEquals(1_000, HeadPace.nextWait(Map.of(), 5_000 * MS, List.of(), 1, DEFAULTS) / MS);
  }

  @Test
  void aHeadSeenTheFirstTimeDoesNotHideOneThatStoppedGrowing() {
    Map<KeyRange, Long> previous = Map.of(Q, 800L);
    List<HeadPace.Reading> now = List.of(new HeadPace.Reading(Q, 800, 800), new HeadPace.Reading(R, 100, 100));
    assertEquals(10_000, HeadPace.nextWait(previous, 5_000 * MS, now, 5_000 * MS, DEFAULTS) / MS,
        "Q was seen before and did not grow: back off; R is new and gives no rate");
    assertEquals(30_000, HeadPace.nextWait(previous, 5_000 * MS, now, Long.MAX_VALUE, DEFAULTS) / MS,
        "no overflow when doubling");
  }

  @Test
  void boundsAndReadingsRejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new HeadPace.Bounds(0, MS, MS));
    assertThrows(IllegalArgumentException.class, () -> new HeadPace.Bounds(1, 0, MS));
    assertThrows(IllegalArgumentException.class, () -> new HeadPace.Bounds(1, 2 * MS, MS));
    assertThrows(IllegalArgumentException.class, () -> new HeadPace.Reading(Q, -1, 0));
  }
}
