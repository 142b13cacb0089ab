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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkloadTest {

  private static WorkloadSpec spec(long seed, WorkloadSpec.DeleteMode mode) {
    return new WorkloadSpec(20_000, Weights.parse(Weights.DEFAULT), 500, mode, WorkloadSpec.ListMode.RANDOM, 1000,
        3, 1.0, WorkloadSpec.KeyNames.HASHED, seed);
  }

  @Test
  void sameSeedSameSequence() {
    Workload a = Workload.generate(spec(7, WorkloadSpec.DeleteMode.RANDOM));
    Workload b = Workload.generate(spec(7, WorkloadSpec.DeleteMode.RANDOM));
    assertArrayEquals(a.kind, b.kind);
    assertArrayEquals(a.bucket, b.bucket);
    assertArrayEquals(a.key, b.key);
    assertFalse(java.util.Arrays.equals(a.key, Workload.generate(spec(8, WorkloadSpec.DeleteMode.RANDOM)).key));
  }

  /** Replays the sequence against a set: deletes hit live keys, lists start at live keys, the cap holds. */
  @ParameterizedTest
  @CsvSource({"OLDEST", "RANDOM"})
  void sequenceIsConsistentWithItsLiveSet(WorkloadSpec.DeleteMode mode) {
    Workload w = Workload.generate(spec(3, mode));
    assertEquals(20_000, w.size);
    Set<Long> live = new HashSet<>();
    long lastDeleted = -1;
    for (int i = 0; i < w.size; i++) {
      switch (w.kind[i]) {
      case Workload.CREATE -> assertTrue(live.add(w.key[i]), "created twice: " + w.key[i]);
      case Workload.DELETE -> {
        assertTrue(live.remove(w.key[i]), "deleted a key not live: " + w.key[i]);
        lastDeleted = w.key[i];
      }
      default -> assertTrue(w.key[i] < 0 || live.contains(w.key[i]), "list starts at a dead key");
      }
      assertTrue(live.size() <= 501, "live set above the cap: " + live.size());
    }
    assertEquals(live.size(), w.finalLiveCount());
    assertTrue(lastDeleted >= 0);
    assertTrue(w.lists > 0 && w.creates > w.deletes);
  }

  /** With cold data: cold puts land in cold buckets only, everything else in the hot buckets between them. */
  @Test
  void coldPutsGoToColdBucketsAndHotBucketsSitBetweenThem() {
    WorkloadSpec spec = new WorkloadSpec(20_000, Weights.parse(Weights.DEFAULT), 500, WorkloadSpec.DeleteMode.OLDEST,
        WorkloadSpec.ListMode.START, 1000, 2, 0, WorkloadSpec.KeyNames.SEQUENTIAL, 5, 10, 1000, 0.25);
    assertEquals(12, spec.storeBuckets());
    assertEquals(5, spec.hotStoreIndex(0));
    assertEquals(6, spec.hotStoreIndex(1));
    assertTrue(spec.isCold(4) && spec.isCold(7) && !spec.isCold(5) && !spec.isCold(6));
    Workload w = Workload.generate(spec);
    Set<Long> coldIds = new HashSet<>();
    for (int i = 0; i < w.size; i++) {
      if (spec.isCold(w.bucket[i])) {
        assertEquals(Workload.CREATE, w.kind[i], "only creates go to cold buckets");
        assertTrue(w.key[i] >= 1000 && coldIds.add(w.key[i]), "cold put numbers follow the loaded cold keys");
      }
    }
    assertEquals(w.coldPuts, coldIds.size());
    // About a quarter of the create draws: 20,000 ops at 20 creates per 29 draws.
    assertTrue(w.coldPuts > 2000 && w.coldPuts < 5000, "cold puts: " + w.coldPuts);
    assertEquals(w.finalLiveCount() + 1000 + w.coldPuts, w.finalKeyCount());
    assertFalse(WorkloadSpec.coldName(3).equals(spec.keyName(3)));
  }

  private static WorkloadSpec expirySpec(WorkloadSpec.Expiry expiry) {
    return new WorkloadSpec(40_000, Weights.parse("create:40,delete:16,list:1"), 2000, WorkloadSpec.DeleteMode.OLDEST,
        WorkloadSpec.ListMode.START, 1000, 1, 0, WorkloadSpec.KeyNames.SEQUENTIAL, 11, 10, 5000, 0.2, expiry);
  }

  /**
   * The expiry is placed between the hot operations without changing them; its batches delete exactly the oldest
   * share of the logs/ keys, contiguous and in order, between 5% and 30% of the run; its listings start anywhere in
   * the bucket, inside the expired span too, from 5% of the run on.
   */
  @Test
  void expiryDeletesTheOldestLogsKeysInBatchesBetweenTheHotOperations() {
    WorkloadSpec.Expiry expiry = new WorkloadSpec.Expiry(30_000, 0.5, 1000, 400);
    WorkloadSpec spec = expirySpec(expiry);
    Workload plain = Workload.generate(expirySpec(WorkloadSpec.Expiry.NONE));
    Workload w = Workload.generate(spec);
    assertEquals(300, expiry.kept());
    assertEquals(14_850, expiry.expired()); // half of the 29,700 logs/ keys
    assertEquals(15, w.expiryBatches);
    assertEquals(14_850, w.expiredKeys);
    assertEquals(400, w.expiryLists);
    assertEquals(plain.size + 15 + 400, w.size);

    int hot = 0;
    long nextExpired = expiry.kept();
    int firstExpiry = -1;
    int lastBatchHot = -1;
    int listsInSpan = 0;
    int listsAfterSpan = 0;
    for (int i = 0; i < w.size; i++) {
      if (w.kind[i] == Workload.EXPIRE || w.kind[i] == Workload.EXPIRY_LIST) {
        assertEquals(spec.expiryStoreIndex(), w.bucket[i]);
        if (firstExpiry < 0) {
          firstExpiry = hot;
        }
        if (w.kind[i] == Workload.EXPIRE) {
          assertEquals(nextExpired, w.key[i], "batches delete the oldest keys, contiguous and in order");
          assertTrue(w.batchSize(i) >= 1 && w.batchSize(i) <= 1000);
          nextExpired += w.batchSize(i);
          lastBatchHot = hot;
        } else {
          assertTrue(w.key[i] >= 0 && w.key[i] < 30_000, "start key outside the bucket: " + w.key[i]);
          if (w.key[i] >= expiry.kept() && w.key[i] < expiry.kept() + expiry.expired()) {
            listsInSpan++;
          } else if (w.key[i] >= expiry.kept() + expiry.expired()) {
            listsAfterSpan++;
          }
        }
        continue;
      }
      assertEquals(plain.kind[hot], w.kind[i], "hot operation " + hot + " changed");
      assertEquals(plain.bucket[hot], w.bucket[i]);
      assertEquals(plain.key[hot], w.key[i]);
      hot++;
    }
    assertEquals(plain.size, hot);
    assertEquals(expiry.kept() + expiry.expired(), nextExpired, "every expired key deleted once");
    assertEquals((int) (plain.size * WorkloadSpec.Expiry.FROM), firstExpiry);
    assertTrue(lastBatchHot < plain.size * WorkloadSpec.Expiry.TO, "last batch after 30%: " + lastBatchHot);
    // Start keys are uniform over the bucket: about half in the expired span, about half after it.
    assertTrue(listsInSpan > 150 && listsAfterSpan > 150, listsInSpan + " in the span, " + listsAfterSpan + " after");
    assertEquals(plain.finalKeyCount() + 30_000 - 14_850, w.finalKeyCount());
    assertEquals(plain.lists, w.lists);
    assertEquals(plain.deletes, w.deletes);
  }

  /** The expiry bucket sorts after every other bucket; its names sort by age, the kept index/ keys first. */
  @Test
  void expiryBucketIsTheLastBucketAndItsNamesSortByAge() {
    WorkloadSpec spec = expirySpec(new WorkloadSpec.Expiry(30_000, 0.5, 1000, 10));
    assertEquals(12, spec.storeBuckets());
    assertEquals(11, spec.expiryStoreIndex());
    assertTrue(spec.isExpiry(11) && !spec.isCold(11) && spec.isCold(10) && !spec.isExpiry(5));
    assertEquals("index/000000000299", spec.name(11, 299));
    assertEquals("logs/000000000300", spec.name(11, 300));
    for (long id = 1; id < 30_000; id++) {
      assertTrue(spec.name(11, id - 1).compareTo(spec.name(11, id)) < 0, "not sorted at " + id);
    }
    assertEquals(11, expirySpec(WorkloadSpec.Expiry.NONE).storeBuckets());
    assertFalse(expirySpec(WorkloadSpec.Expiry.NONE).isExpiry(11));
  }

  @Test
  void hashedNamesAreDistinctAndSequentialNamesSortByAge() {
    WorkloadSpec hashed = spec(1, WorkloadSpec.DeleteMode.OLDEST);
    Set<String> names = new HashSet<>();
    for (long id = 0; id < 10_000; id++) {
      assertTrue(names.add(hashed.keyName(id)));
    }
    WorkloadSpec seq = new WorkloadSpec(1, Weights.parse("create:1"), 1, WorkloadSpec.DeleteMode.OLDEST,
        WorkloadSpec.ListMode.START, 1, 1, 0, WorkloadSpec.KeyNames.SEQUENTIAL, 1);
    assertTrue(seq.keyName(9).compareTo(seq.keyName(10)) < 0);
    assertEquals("key-000000000123", seq.keyName(123));
  }

  @ParameterizedTest(name = "entries={0} deletions={1} -> {2}")
  @CsvSource({
      // entries, deletions, qualifies (min 10000, ratio 0.3: the published design's defaults)
      "100000, 30000, true",
      "100000, 29999, false", // ratio just below 0.3
      "20000,  9999,  false", // ratio fine, too few tombstones
      "0,      0,     false",
  })
  void referenceTrigger(long entries, long deletions, boolean expected) {
    assertEquals(expected, ReferenceRangeCompactor.qualifies(entries, deletions, 10_000, 0.3));
  }

  @Test
  void successorOfABucketPrefix() {
    assertArrayEquals("/vol1/b0".getBytes(), ReferenceRangeCompactor.successor("/vol1/b/".getBytes()));
    assertArrayEquals(new byte[] {2}, ReferenceRangeCompactor.successor(new byte[] {1, (byte) 0xFF}));
  }

  /**
   * Which expiry listings cross the expired span: a 100,000-key expiry bucket keeps 1,000 index/ keys and expires
   * half the rest, [1000, 50500); a listing reads 100 keys, so one from index/ key 901 or later reaches the span.
   */
  @ParameterizedTest
  @CsvSource({"0, false", "900, false", "901, true", "999, true", "1000, true", "50499, true", "50500, false",
      "99999, false"})
  void anExpiryListingCrossesTheSpanWhenItStartsInItOrFewerThanAListingBeforeIt(long start, boolean crosses) {
    WorkloadSpec spec = new WorkloadSpec(400, Weights.parse("create:1,list:1"), 10_000,
        WorkloadSpec.DeleteMode.OLDEST, WorkloadSpec.ListMode.START, 100, 1, 0, WorkloadSpec.KeyNames.SEQUENTIAL, 3,
        0, 0, 0, new WorkloadSpec.Expiry(100_000, 0.5, 1000, 10));
    assertEquals(1000, spec.expiry().kept());
    assertEquals(49_500, spec.expiry().expired());
    assertEquals(crosses, Workload.generate(spec).crossesExpiredSpan(start));
  }
}
