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
}
