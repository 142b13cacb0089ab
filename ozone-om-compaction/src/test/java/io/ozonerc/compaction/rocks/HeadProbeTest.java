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

package io.ozonerc.compaction.rocks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.testing.OmTestStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The probe against what RocksDB itself counts: the {@code rocksdb.number.iter.skip} ticker around a seek at the
 * same key is the true dead head; the probe's estimate must land near it.
 */
class HeadProbeTest {
  private static final Logger LOG = LoggerFactory.getLogger(HeadProbeTest.class);
  private static final String KEYS = "keyTable";

  @TempDir
  Path dir;

  private static List<SstFile> files(OmTestStore s) throws Exception {
    return RocksFacts.liveFiles(s.db(), Set.of(KEYS));
  }

  private static HeadFacts probe(OmTestStore s, KeyRange r) throws Exception {
    return HeadProbe.probe(s.db(), KEYS, List.of(r), files(s)).get(0);
  }

  /** Key interpolation over the SST facts, the alternative estimate, for the record. */
  private static long interpolated(List<SstFile> files, byte[] begin, byte[] end) {
    double sum = 0;
    for (SstFile f : files) {
      sum += f.entries() * Keys.overlapFraction(f.smallestKey(), f.largestKey(), begin, end);
    }
    return Math.round(sum);
  }

  private static void record(String what, OmTestStore s, HeadFacts h, long skips) throws Exception {
    KeyRange span = h.deadSpan();
    LOG.info("{}: probe estimate {} entries ({} bytes), interpolation {}, skip ticker {}", what, h.deadEntries(),
        h.deadBytes(), span == null ? 0 : interpolated(files(s), span.begin(), span.end()), skips);
  }

  @Test
  void queueHeadInSstFilesIsFoundAndSizedNearTheSkipTicker() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket("v", 1, "q", 2, BucketLayout.OBJECT_STORE);
      s.putKeys("v", "q", 0, 50_000);
      s.flush();
      s.deleteKeys("v", "q", 0, 20_000);
      s.flush();
      HeadFacts h = probe(s, KeyRange.bucket(KEYS, "/v/q/"));
      long skips = s.skipsForSeek(KEYS, "/v/q/");
      record("queue head, flushed", s, h, skips);
      assertArrayEquals(Keys.utf8("/v/q/" + OmTestStore.keyName(20_000)), h.firstLive());
      assertTrue(skips >= 39_000, "a seek steps over tombstone + put per deleted key: " + skips);
      assertWithin(h.deadEntries(), skips, 0.25);
    }
  }

  @Test
  void deletesStillInTheMemtableAreCounted() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket("v", 1, "q", 2, BucketLayout.OBJECT_STORE);
      s.putKeys("v", "q", 0, 30_000);
      s.flush();
      s.deleteKeys("v", "q", 0, 10_000); // not flushed
      HeadFacts h = probe(s, KeyRange.bucket(KEYS, "/v/q/"));
      long skips = s.skipsForSeek(KEYS, "/v/q/");
      record("queue head, deletes in memtable", s, h, skips);
      assertTrue(skips >= 19_000, "skips " + skips);
      // Half the head is in the memtable, where RocksDB's own estimate of it varies from run to run (docs/facts.md).
      assertWithin(h.memDead(), 10_000, 1.0 / 16);
      assertWithin(h.deadEntries(), skips, 0.1);
    }
  }

  @Test
  void wholeTableHeadAndLiveStartAndEmptyBucket() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE);
      s.addBucket("v", 1, "b", 3, BucketLayout.OBJECT_STORE);
      s.putKeys("v", "a", 0, 10_000);
      s.putKeys("v", "b", 0, 10_000);
      s.flush();
      s.deleteKeys("v", "a", 0, 10_000); // bucket a: all dead
      s.flush();
      HeadFacts table = probe(s, HeadFacts.tableRange(KEYS));
      long tableSkips = s.skipsForSeek(KEYS, "");
      record("table head over a dead first bucket", s, table, tableSkips);
      assertArrayEquals(Keys.utf8("/v/b/" + OmTestStore.keyName(0)), table.firstLive());
      assertWithin(table.deadEntries(), tableSkips, 0.25);

      HeadFacts a = probe(s, KeyRange.bucket(KEYS, "/v/a/"));
      assertNull(a.firstLive(), "bucket a has no live key; the upper bound stops the seek at its end");
      assertArrayEquals(Keys.utf8("/v/a0"), a.deadSpan().end(), "the dead span is the whole bucket");
      assertWithin(a.deadEntries(), tableSkips, 0.25);

      HeadFacts b = probe(s, KeyRange.bucket(KEYS, "/v/b/"));
      assertArrayEquals(Keys.utf8("/v/b/" + OmTestStore.keyName(0)), b.firstLive());
      assertEquals(0, b.deadEntries(), "bucket b starts with a live key");
    }
  }

  /** Many buckets written together, so every flush straddles all of them; one hot queue among them. */
  @Test
  void hotQueueAmongColdBucketsWithStraddlingFlushes() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      int cold = 200;
      int head = s.hotQueueAmongColdBuckets(cold, 30, 2_000);
      HeadFacts h = probe(s, KeyRange.bucket(KEYS, "/v/hot/"));
      long skips = s.skipsForSeek(KEYS, "/v/hot/");
      record("hot queue among " + cold + " cold buckets", s, h, skips);
      assertArrayEquals(Keys.utf8("/v/hot/" + OmTestStore.keyName(head)), h.firstLive());
      assertTrue(skips >= 2_000, "skips " + skips);
      assertWithin(h.deadEntries(), skips, 0.5);
    }
  }

  /**
   * A few of the head's deletes in a memtable full of another bucket's puts: RocksDB's memtable estimate reads 0
   * for such a count often enough (3 and 10 deletes read 0 here once), and a head compaction planned on that
   * would flush the memtable, unforeseen, into a level-0 file spanning the other bucket. The probe must see them.
   */
  @ParameterizedTest(name = "{0} head deletes beside 50,000 puts in the memtable")
  @ValueSource(ints = {3, 10, 1_000})
  void aFewHeadDeletesAmongManyMemtableEntriesAreSeen(int deletes) throws Exception {
    try (OmTestStore s = queueInSstBesideBucketA()) {
      s.putKeys("v", "a", 0, 50_000);
      s.deleteKeys("v", "q", 0, deletes);
      HeadFacts h = probe(s, KeyRange.bucket(KEYS, "/v/q/"));
      LOG.info("{} deletes in the memtable: probe memDead {}, memOutside {}", deletes, h.memDead(), h.memOutside());
      assertArrayEquals(Keys.utf8("/v/q/" + OmTestStore.keyName(deletes)), h.firstLive());
      assertTrue(h.memDead() >= 1, "the memtable holds part of the head: " + h);
      assertTrue(h.memOutside() >= 1, "and bucket a's puts beside it: " + h);
    }
  }

  @Test
  void aHeadWhollyInSstFilesIsNotTakenForAMemtableOne() throws Exception {
    try (OmTestStore s = queueInSstBesideBucketA()) {
      s.deleteKeys("v", "q", 0, 2_000);
      s.flush();
      s.putKeys("v", "a", 0, 50_000); // the memtable holds only the other bucket
      HeadFacts h = probe(s, KeyRange.bucket(KEYS, "/v/q/"));
      assertEquals(0, h.memDead(), "nothing of the head in the memtable: " + h);
      assertEquals(0, h.memOutside(), "measured only for a head in the memtable: " + h);
      assertTrue(h.deadEntries() > 0, "a dead head in SST: " + h);
    }
  }

  /** Bucket a (empty) sorting before queue q, whose 30,000 keys are flushed. */
  private OmTestStore queueInSstBesideBucketA() throws Exception {
    OmTestStore s = OmTestStore.open(dir);
    s.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE);
    s.addBucket("v", 1, "q", 3, BucketLayout.OBJECT_STORE);
    s.putKeys("v", "q", 0, 30_000);
    s.flush();
    return s;
  }

  /**
   * The count a memtable-only seek gives, whatever RocksDB's estimate says: the estimate is passed in, from none
   * to far too many, so the search is tested on each, not only on the estimate RocksDB happens to give this run.
   * Tombstones over flushed puts are one internal key each; over puts still in the memtable, two. Bucket a's
   * 50,000 puts fill the memtable beside the head.
   */
  @ParameterizedTest(name = "{0} deletes, puts in the memtable too: {1}, estimate {2} of the count")
  @CsvSource({
      "3, false, 1", "3, true, 0", "10, false, 0", "10, true, 40",
      "1000, false, 0", "1000, true, 0.3", "1000, false, 1", "1000, true, 3", "1000, false, 1000",
      "20000, false, 0", "20000, true, 0.37", "20000, false, 1", "20000, true, 2.7", "20000, true, 1000",
  })
  void theMemtableShareIsCountedWhateverTheEstimate(int deletes, boolean putsInMemtable, double estimateShare)
      throws Exception {
    try (OmTestStore s = queueInSstBesideBucketA()) {
      long internalKeys = memtableHead(s, deletes, putsInMemtable);
      s.putKeys("v", "a", 0, 50_000);
      byte[] begin = Keys.utf8("/v/q/");
      byte[] end = Keys.utf8("/v/q/" + OmTestStore.keyName(putsInMemtable ? 30_000 + deletes : deletes));
      long estimate = Math.round(estimateShare * internalKeys);
      long count = MemtableSpan.count(raw(s), keys(s), begin, end, estimate);
      assertTrue(count <= internalKeys, "a lower bound: " + count + " of " + internalKeys);
      assertWithin(count, internalKeys, 1.0 / 16);
    }
  }

  /** Fewer than 3 internal keys are below what a memtable seek sees: the estimate stands, capped at 2. */
  @ParameterizedTest(name = "{0} deletes, estimate {1} -> {2}")
  @CsvSource({"0, 0, 0", "0, 5, 2", "1, 1, 1", "1, 0, 0", "2, 2, 2", "2, 9, 2"})
  void belowThreeTheCappedEstimateStands(int deletes, long estimate, long expected) throws Exception {
    try (OmTestStore s = queueInSstBesideBucketA()) {
      memtableHead(s, deletes, false);
      s.putKeys("v", "a", 0, 1_000);
      byte[] end = Keys.utf8("/v/q/" + OmTestStore.keyName(deletes));
      assertEquals(expected, MemtableSpan.count(raw(s), keys(s), Keys.utf8("/v/q/"), end, estimate));
    }
  }

  /**
   * The seek behind the count. Bounded at the first live key, as the probe bounds it, "at least n internal keys"
   * holds exactly for n = 3 up to what is there. With a live key inside the bound (one written into the span since
   * it was sought) it holds for one more, since the seek examines that key too before it stops.
   */
  @ParameterizedTest(name = "{0} deletes, puts in the memtable too: {1}")
  @CsvSource({"1, false", "2, false", "3, false", "7, false", "1, true", "2, true", "5, true"})
  void theMemtableHoldsAtLeastNExactlyUpToWhatIsThere(int deletes, boolean putsInMemtable) throws Exception {
    try (OmTestStore s = queueInSstBesideBucketA()) {
      long internalKeys = memtableHead(s, deletes, putsInMemtable);
      s.putKeys("v", "a", 0, 100); // live keys before the span
      s.putKeys("v", "q", 40_000, 40_005); // and after it
      byte[] begin = Keys.utf8("/v/q/");
      byte[] firstLive = Keys.utf8("/v/q/" + OmTestStore.keyName(40_000));
      for (long n = 3; n <= internalKeys + 3; n++) {
        assertEquals(n <= internalKeys, MemtableSpan.holds(raw(s), keys(s), begin, firstLive, n),
            "at least " + n + " of " + internalKeys + ", bounded at the first live key");
        assertEquals(n <= internalKeys + 1, MemtableSpan.holds(raw(s), keys(s), begin, Keys.utf8("/v/q0"), n),
            "at least " + n + " of " + internalKeys + ", a live key inside the bound");
      }
    }
  }

  /**
   * Deletes of queue q into the memtable: of flushed keys (a tombstone each) or of keys put into the memtable
   * first (tombstone and value). Returns the internal keys that leaves in the memtable.
   */
  private static long memtableHead(OmTestStore s, int deletes, boolean putsInMemtable) throws Exception {
    if (putsInMemtable) {
      s.putKeys("v", "q", 30_000, 30_000 + deletes);
      s.deleteKeys("v", "q", 30_000, 30_000 + deletes);
      return 2L * deletes;
    }
    s.deleteKeys("v", "q", 0, deletes);
    return deletes;
  }

  private static org.rocksdb.RocksDB raw(OmTestStore s) {
    return s.db().getManagedRocksDb().get();
  }

  private static org.rocksdb.ColumnFamilyHandle keys(OmTestStore s) {
    return s.db().getColumnFamily(KEYS).getHandle();
  }

  @ParameterizedTest(name = "estimate {0}, memtable holds some: {1} -> {2}")
  @CsvSource({
      "0, true, 1",     // the estimate missed what is there
      "250, true, 250", // the estimate sizes what is there
      "0, false, 0",
      "1, false, 1",    // one or two internal keys are below what the memtable check sees
      "2, false, 2",
      "249, false, 2",  // the estimate overcounts: at most two can hide from the check
  })
  void theEstimateIsCheckedAgainstTheMemtable(long estimate, boolean holdsAny, long expected) {
    assertEquals(expected, MemtableSpan.checked(estimate, holdsAny));
  }

  private static void assertWithin(long estimate, long actual, double tolerance) {
    assertTrue(Math.abs(estimate - actual) <= tolerance * actual,
        "estimate " + estimate + " not within " + tolerance + " of the true count " + actual);
  }
}
