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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expiry phase on a real OM store, where nothing compacts the expiry's tombstones away during the run (a 64 MB
 * memtable that never fills): the expiry deletes exactly its keys, and each listing of the expiry bucket crosses
 * exactly the dead keys between its start key and the end of the span expired so far, which RocksDB's skip ticker
 * counts (a tombstone and the value it hides per dead key). ideal, where the expiry was compacted away, crosses none.
 */
class WorkloadRunnerExpiryTest {

  @TempDir
  Path dir;

  /** 400 hot operations (creates and lists from the bucket start, no deletes) around a 5,000-key expiry bucket. */
  private static WorkloadSpec spec() {
    return new WorkloadSpec(400, Weights.parse("create:1,list:1"), 10_000, WorkloadSpec.DeleteMode.OLDEST,
        WorkloadSpec.ListMode.START, 100, 1, 0, WorkloadSpec.KeyNames.SEQUENTIAL, 3, 0, 0, 0,
        new WorkloadSpec.Expiry(5000, 0.5, 500, 60));
  }

  private static final long BUFFER = 64L << 20;

  private BenchStore loaded(String name, WorkloadSpec spec) throws Exception {
    BenchStore store = BenchStore.create(dir, name, spec.storeBuckets(), BUFFER);
    store.loadCold(spec, n -> { });
    return store;
  }

  /**
   * Dead keys the sequence's expiry listings cross: a listing at position i from key s crosses the dead keys from s
   * to the end of the span expired so far, when s lies in that span. The span is at least what the batches before i
   * deleted (a listing waits for every write before it), and at most what the batches before the next listing
   * deleted: once a listing is taken, writers may run on to the next one, and a batch committed before the
   * listing's iterator is created is in its view. A listing that starts before the span, among the kept index/
   * keys, crosses all of it when fewer than a listing's length of kept keys lie before it. Returns {min, max}.
   */
  private static long[] crossedDeadKeys(Workload w) {
    long kept = w.spec.expiry().kept();
    long deletedUpTo = kept;
    long[] crossed = new long[2];
    for (int i = 0; i < w.size; i++) {
      if (w.kind[i] == Workload.EXPIRE) {
        deletedUpTo += w.batchSize(i);
      } else if (w.kind[i] == Workload.EXPIRY_LIST) {
        long upToNextList = deletedUpTo;
        for (int j = i + 1; j < w.size && w.kind[j] != Workload.LIST && w.kind[j] != Workload.EXPIRY_LIST; j++) {
          if (w.kind[j] == Workload.EXPIRE) {
            upToNextList += w.batchSize(j);
          }
        }
        crossed[0] += crossed(w, w.key[i], deletedUpTo);
        crossed[1] += crossed(w, w.key[i], upToNextList);
      }
    }
    return crossed;
  }

  /** Dead keys a listing from key {@code s} crosses when the expiry has deleted [kept, deletedUpTo). */
  private static long crossed(Workload w, long s, long deletedUpTo) {
    long kept = w.spec.expiry().kept();
    if (s >= kept) {
      return s < deletedUpTo ? deletedUpTo - s : 0;
    }
    return kept - s < w.spec.listLength() ? deletedUpTo - kept : 0; // reads the kept keys, then enters the span
  }

  @Test
  void expiryListingsCrossTheDeadSpanUnderNoneAndNothingUnderIdeal() throws Exception {
    WorkloadSpec spec = spec();
    Workload w = Workload.generate(spec);
    assertEquals(50, spec.expiry().kept());
    assertEquals(2475, w.expiredKeys);
    assertEquals(5, w.expiryBatches);
    assertEquals(60, w.expiryLists);
    long[] crossed = crossedDeadKeys(w);
    assertTrue(crossed[0] > 10_000, "the sequence's listings should start inside the span: " + crossed[0]);
    WorkloadRunner.Options options = new WorkloadRunner.Options(1, 1, 1000, 0);

    RunResult none;
    try (BenchStore store = loaded("none", spec)) {
      none = new WorkloadRunner(w, options).run(store, new Policy.None(), n -> { });
    }
    assertEquals(w.finalKeyCount(), none.liveKeysFound(), "keys left after the expiry");
    assertEquals(w.finalKeyCount(), none.liveKeysExpected());
    assertEquals(2475, none.expiry().deletedKeys());
    assertEquals(5, none.expiry().batches());
    assertEquals(5, none.expiry().batch().getTotalCount());
    assertEquals(60, none.expiry().list().getTotalCount());
    assertEquals(w.lists, none.list().getTotalCount(), "the queue's lists are counted apart");
    long skips = none.expiry().skips();
    // At least the tombstone of every dead key surely crossed, at most it and the value it hides for every dead key
    // that may have been crossed (and a few per listing).
    assertTrue(skips >= crossed[0] && skips <= 2 * crossed[1] + 4L * w.expiryLists, "expiry listings skipped "
        + skips + " internal keys for " + crossed[0] + " to " + crossed[1] + " dead keys crossed");
    assertEquals(0.0, none.skipsPerList(), 1.0, "the hot bucket has no deletes: its lists cross nothing");
    // Each listing's mark for the time to recover: it crosses the span the whole expiry deletes, by this test's own
    // rule. Listings run in sequence order (one list thread), so the marks are in that order.
    long spanEnd = spec.expiry().kept() + w.expiredKeys;
    List<Boolean> expected = new ArrayList<>();
    for (int i = 0; i < w.size; i++) {
      if (w.kind[i] == Workload.EXPIRY_LIST) {
        expected.add(crossed(w, w.key[i], spanEnd) > 0);
      }
    }
    boolean[] marks = none.expiry().listCrossesSpan();
    assertEquals(expected.size(), marks.length);
    for (int i = 0; i < marks.length; i++) {
      assertEquals(expected.get(i), marks[i], "expiry listing " + i);
    }
    assertTrue(expected.contains(true) && expected.contains(false), "the sequence should have both kinds");

    RunResult ideal;
    try (BenchStore store = loaded("ideal", spec)) {
      ideal = new WorkloadRunner(w, options).runIdeal(store, n -> { });
    }
    assertEquals(w.finalKeyCount(), ideal.liveKeysFound());
    assertEquals(2475, ideal.expiry().deletedKeys());
    assertEquals(60, ideal.expiry().list().getTotalCount());
    assertEquals(0, ideal.expiry().skips(), "ideal's store holds no tombstone");
  }
}
