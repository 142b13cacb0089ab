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

package io.ozonerc.compaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * The service on a real OM metadata store. Every assertion is on what RocksDB reports: SST file facts, internal
 * keys skipped by a seek, file names, and the store's contents.
 */
class RangeCompactionServiceTest {
  static final String VOL = "vol";
  static final String HOT = "hot";
  static final String COLD = "cold";
  static final int KEYS = 20_000;
  static final int DELETED = KEYS * 95 / 100; // the lowest 95%, a contiguous run

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;

  @BeforeEach
  void seed() throws IOException {
    store = OmTestStore.open(dir);
    store.addBucket(VOL, -100, COLD, -200, BucketLayout.OBJECT_STORE);
    store.addBucket(VOL, -100, HOT, -300, BucketLayout.OBJECT_STORE);
    // Separate flushes, so the cold bucket has SST files of its own that a hot-range compaction need not touch.
    store.putKeys(VOL, COLD, 0, KEYS);
    store.flush();
    store.putKeys(VOL, HOT, 0, KEYS);
    store.flush();
    store.deleteKeys(VOL, HOT, 0, DELETED);
    store.flush();
  }

  /**
   * A second hot range, in fileTable: an FSO bucket /-100/-400/ whose files under one directory are 95% deleted.
   * fileTable has SST files of its own, so keyTable's level 0 stays under RocksDB's compaction trigger.
   */
  void seedFsoHotBucket() throws IOException {
    store.addBucket(VOL, -100, "fso", -400, BucketLayout.FILE_SYSTEM_OPTIMIZED);
    store.putFiles(-100, -400, -401, 0, KEYS);
    store.flush();
    store.deleteFiles(-100, -400, -401, 0, DELETED);
    store.flush();
  }

  @AfterEach
  void close() throws IOException {
    if (service != null) {
      service.shutdown();
    }
    store.close();
  }

  static final String[] RANGES_ONLY = {
      "ozone.om.range.compaction.interval", "1h", // rounds run through runRoundNow()
      "ozone.om.range.compaction.timeout", "60s",
      // These tests pin the range plan; dead heads, which would take the hot bucket's run first, have their own
      // (HeadCadenceTest, DeadHeadCompactionTest).
      "ozone.om.range.compaction.dead.head.min.keys", "0"};

  static OzoneConfiguration conf(String... keyValues) {
    return ServiceConf.enabled(RANGES_ONLY, keyValues);
  }

  RangeCompactionService service(CompactionStore s, String... keyValues) {
    service = new RangeCompactionService(s, RangeCompactionConfig.from(conf(keyValues)), () -> false,
        System::nanoTime);
    return service;
  }

  static KeyRange bucket(String name) {
    return KeyRange.bucket("keyTable", "/" + VOL + "/" + name + "/");
  }

  long deletionsIn(KeyRange r) throws IOException {
    return store.filesOverlapping(r.table(), r.begin(), r.end()).stream()
        .mapToLong(LiveFileMetaData::numDeletions).sum();
  }

  Set<String> fileNames(KeyRange r) throws IOException {
    return store.filesOverlapping(r.table(), r.begin(), r.end()).stream()
        .map(LiveFileMetaData::fileName).collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void compactsTheHotBucketAndLeavesTheColdOneAlone() throws IOException {
    KeyRange hot = bucket(HOT);
    KeyRange cold = bucket(COLD);
    assertEquals(DELETED, deletionsIn(hot), "all tombstones are in the hot bucket's files");
    long skipsBefore = store.skipsForSeek("keyTable", "/vol/hot/");
    Set<String> coldFilesBefore = fileNames(cold);
    String digestBefore = store.digest();

    RoundResult r = service(new OmCompactionStore(store.metadata())).runRoundNow();

    assertEquals(Outcome.COMPLETED, r.outcome(), r.describe().toString());
    assertEquals(1, r.compacted().size(), r.describe().toString());
    assertEquals(hot.toString(), r.compacted().get(0).before().range().toString());
    assertEquals(0, deletionsIn(hot), "no tombstone left in the hot bucket's SST files");
    long skipsAfter = store.skipsForSeek("keyTable", "/vol/hot/");
    // ~2 skips per deleted key before (tombstone + the put it hides), ~0 after.
    assertTrue(skipsBefore >= 2L * DELETED - 10, "skips before " + skipsBefore);
    assertTrue(skipsAfter <= 2, "skips after " + skipsAfter);
    assertEquals(coldFilesBefore, fileNames(cold), "cold bucket's SST files were not rewritten");
    assertEquals(digestBefore, store.digest(), "every live key and value unchanged");
    RangeCompactionMetrics m = service.getMetrics();
    assertEquals(1, m.getRangesCompacted());
    assertEquals(DELETED, m.getTombstonesRemoved());
    assertTrue(m.getCompactedBytes() > 0);
    assertEquals(0.0, m.getWorstRatioByTable().getOrDefault("deletedTable", 0.0));
    assertTrue(m.getWorstRatioByTable().get("keyTable") > 0.45, m.getWorstRatioByTable().toString());
  }

  /**
   * Deletes still in the memtable: SST facts cannot see them, but a seek pays for them all the same. The round
   * flushes the table (its memtable deletes pass the range test) and compacts them in the same round; with
   * memtable.flush=false the same round plans nothing.
   */
  @Test
  void deletesStillInTheMemtableAreFlushedAndCompactedInOneRound() throws IOException {
    store.addBucket(VOL, -100, "queue", -700, BucketLayout.OBJECT_STORE);
    store.putKeys(VOL, "queue", 0, KEYS);
    store.flush();
    store.deleteKeys(VOL, "queue", 0, DELETED); // not flushed
    KeyRange queue = bucket("queue");
    assertEquals(0, deletionsIn(queue), "the deletes are only in the memtable");
    long skipsBefore = store.skipsForSeek("keyTable", "/vol/queue/");
    assertTrue(skipsBefore >= DELETED, "a seek pays for memtable deletes too: " + skipsBefore);

    RoundResult off = service(new OmCompactionStore(store.metadata()),
        "ozone.om.range.compaction.memtable.flush", "false").runRoundNow();
    assertTrue(off.compacted().stream().noneMatch(c -> c.before().range().toString().equals(queue.toString())),
        off.describe().toString()); // (the seeded hot bucket, flushed in setup, is compacted either way)
    assertEquals(0, service.getMetrics().getMemtableFlushes());
    service.shutdown();

    RoundResult on = service(new OmCompactionStore(store.metadata())).runRoundNow();
    assertEquals(1, service.getMetrics().getMemtableFlushes());
    assertEquals(1, on.compacted().size(), on.describe().toString());
    assertEquals(queue.toString(), on.compacted().get(0).before().range().toString());
    assertEquals(0, deletionsIn(queue));
    assertTrue(store.skipsForSeek("keyTable", "/vol/queue/") <= 2);
  }

  @Test
  void scatteredDeletesBelowTheRatioCompactNothing() throws IOException {
    OmTestStore s2 = OmTestStore.open(dir.resolve("scattered"));
    try {
      s2.addBucket(VOL, -100, HOT, -300, BucketLayout.OBJECT_STORE);
      s2.putKeys(VOL, HOT, 0, 100_000);
      s2.flush();
      for (int i = 0; i < 100_000; i += 5) { // every 5th key: 20k tombstones over 100k puts, ratio 0.17
        s2.deleteKeys(VOL, HOT, i, i + 1);
      }
      s2.flush();
      Set<String> filesBefore = fileNames(s2, bucket(HOT));
      RangeCompactionService svc = new RangeCompactionService(new OmCompactionStore(s2.metadata()),
          RangeCompactionConfig.from(conf()), () -> false, System::nanoTime);
      RoundResult r = svc.runRoundNow();
      assertEquals(Outcome.COMPLETED, r.outcome());
      assertEquals(0, r.plan().planned().size(), r.plan().describe().toString());
      assertEquals(0, svc.getMetrics().getRangesCompacted());
      assertEquals(filesBefore, fileNames(s2, bucket(HOT)), "no file rewritten");
      assertEquals(20_000, s2.filesOverlapping("keyTable", bucket(HOT).begin(), bucket(HOT).end()).stream()
          .mapToLong(LiveFileMetaData::numDeletions).sum());
    } finally {
      s2.close();
    }
  }

  private static Set<String> fileNames(OmTestStore s, KeyRange r) throws IOException {
    return s.filesOverlapping(r.table(), r.begin(), r.end()).stream().map(LiveFileMetaData::fileName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * A writer puts and deletes keys inside the hot range for as long as the round runs. Afterwards the writer's
   * own record of what it left is the oracle for its keys, and every other key must be exactly as before.
   */
  @Test
  void nothingLostWithAWriterRunningDuringTheRound() throws Exception {
    String writerPrefix = "/vol/hot/w-";
    String others = store.digest(k -> !k.startsWith(writerPrefix));
    Table<String, OmKeyInfo> keyTable = store.metadata().getKeyTable(BucketLayout.OBJECT_STORE);
    TreeMap<String, Long> oracle = new TreeMap<>();
    AtomicBoolean roundDone = new AtomicBoolean();
    AtomicLong opsDuringRound = new AtomicLong();
    CountDownLatch writerStarted = new CountDownLatch(1);
    Thread writer = new Thread(() -> {
      try {
        for (long i = 0; i < 5_000_000 && !roundDone.get(); i++) {
          String key = writerPrefix + String.format("%06d", i % 5_000);
          if (i % 3 == 2) {
            keyTable.delete(key);
            oracle.remove(key);
          } else {
            keyTable.put(key, OmTestStore.keyInfo("vol", "hot", key.substring(9), i));
            oracle.put(key, i);
          }
          opsDuringRound.incrementAndGet();
          writerStarted.countDown();
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();
    assertTrue(writerStarted.await(30, TimeUnit.SECONDS));
    long opsAtStart = opsDuringRound.get();
    RoundResult r = service(new OmCompactionStore(store.metadata())).runRoundNow();
    long opsAtEnd = opsDuringRound.get();
    roundDone.set(true);
    writer.join();

    assertEquals(Outcome.COMPLETED, r.outcome(), r.describe().toString());
    assertEquals(1, r.compacted().size());
    assertTrue(opsAtEnd > opsAtStart, "the writer wrote while the round ran");
    assertEquals(others, store.digest(k -> !k.startsWith(writerPrefix)), "keys outside the writer's unchanged");
    TreeMap<String, Long> actual = new TreeMap<>();
    try (Table.KeyValueIterator<String, OmKeyInfo> it = keyTable.iterator(writerPrefix)) {
      while (it.hasNext()) {
        Table.KeyValue<String, OmKeyInfo> kv = it.next();
        actual.put(kv.getKey(), kv.getValue().getUpdateID());
      }
    }
    assertEquals(oracle, actual, "the writer's keys are exactly what it last wrote");
    store.reopen();
    assertEquals(others, store.digest(k -> !k.startsWith(writerPrefix)), "and so after a reopen");
  }

  @Test
  void pendingCompactionBytesLimitZeroMeansNoCompactionAndABackoff() throws IOException {
    RoundResult r = service(new OmCompactionStore(store.metadata()),
        "ozone.om.range.compaction.pressure.pending.compaction.bytes", "0").runRoundNow();
    assertEquals(Outcome.PRESSURE, r.outcome());
    assertTrue(r.detail().contains("pending compaction bytes"), r.detail());
    assertEquals(0, service.getMetrics().getRangesCompacted());
    assertEquals(1, service.getMetrics().getRoundsBackedOff());
    assertEquals(DELETED, deletionsIn(bucket(HOT)), "tombstones untouched");
  }

  @Test
  void pressureBetweenCompactionsStopsTheRestOfTheRound() throws IOException {
    seedFsoHotBucket();
    // Pressure appears after the first compaction: the store reports a delayed write rate from then on.
    OmCompactionStore real = new OmCompactionStore(store.metadata());
    AtomicLong compactions = new AtomicLong();
    CompactionStore pressured = new ForwardingStore(real) {
      @Override
      public io.ozonerc.compaction.plan.WritePressure writePressure() throws IOException {
        var p = real.writePressure();
        return compactions.get() == 0 ? p : new io.ozonerc.compaction.plan.WritePressure(
            p.maxPendingCompactionBytes(), p.maxLevel0Files(), 16 << 20, false);
      }

      @Override
      public void compact(KeyRange range, boolean force) throws IOException {
        compactions.incrementAndGet();
        super.compact(range, force);
      }
    };
    RoundResult r = service(pressured).runRoundNow();
    assertEquals(Outcome.PRESSURE, r.outcome());
    assertEquals(1, r.compacted().size());
    assertEquals(1, r.left());
    assertEquals(1, service.getMetrics().getRangesSkippedPressure());
    assertEquals(1, service.getMetrics().getRoundsBackedOff());
  }

  @Test
  void shutdownDuringARoundStopsAfterTheRunningCompaction() throws Exception {
    seedFsoHotBucket();
    String before = store.digest();
    HoldingStore holding = new HoldingStore(new OmCompactionStore(store.metadata()));
    RangeCompactionService svc = service(holding, "ozone.om.range.compaction.timeout", "60s");
    RoundResult[] result = new RoundResult[1];
    Thread round = new Thread(() -> result[0] = svc.runRoundNow());
    round.start();
    assertTrue(holding.inCompaction.await(60, TimeUnit.SECONDS));
    Thread stopper = new Thread(svc::shutdown);
    stopper.start();
    while (!svc.isStopping()) {
      Thread.onSpinWait();
    }
    holding.release.countDown(); // the first compaction now runs to its end; the round must not start the second
    round.join();
    stopper.join();
    service = null;

    assertEquals(Outcome.SHUTDOWN, result[0].outcome(), result[0].describe().toString());
    assertEquals(1, result[0].compacted().size());
    assertEquals(1, result[0].left());
    assertEquals(1, svc.getMetrics().getRangesSkippedShutdown());
    store.reopen();
    assertEquals(before, store.digest(), "reopened store has every live key");
  }

  @Test
  void shutdownReturnsAfterTheTimeoutEvenIfACompactionIsStillRunning() throws Exception {
    String before = store.digest();
    HoldingStore holding = new HoldingStore(new OmCompactionStore(store.metadata()));
    RangeCompactionService svc = service(holding, "ozone.om.range.compaction.timeout", "1s");
    svc.start(); // the background thread runs the first round at once
    assertTrue(holding.inCompaction.await(60, TimeUnit.SECONDS));
    svc.shutdown(); // must come back although the compaction is held
    service = null;
    assertEquals(1, holding.release.getCount(), "shutdown returned while the compaction was still held");
    holding.release.countDown();
    svc.getExecutorService().awaitTermination(60, TimeUnit.SECONDS);
    store.reopen();
    assertEquals(before, store.digest(), "reopened store has every live key");
  }

  @Test
  void closingTheStoreUnderARunningCompactionLosesNothing() throws Exception {
    store.addBucket(VOL, -100, "big", -500, BucketLayout.OBJECT_STORE);
    for (int i = 0; i < 4; i++) {
      store.putKeys(VOL, "big", i * 50_000, (i + 1) * 50_000);
      store.flush();
    }
    store.deleteKeys(VOL, "big", 0, 180_000);
    store.flush();
    String before = store.digest();
    RangeCompactionService svc = service(new OmCompactionStore(store.metadata()));
    RoundResult[] result = new RoundResult[1];
    Thread round = new Thread(() -> result[0] = svc.runRoundNow());
    round.start();
    while (svc.inFlight() == null && round.isAlive()) {
      Thread.onSpinWait();
    }
    store.close(); // the OM stopping its store: RocksDB cancels background work, the compaction ends early or not
    round.join();
    service = null;
    assertTrue(result[0].outcome() == Outcome.COMPLETED || result[0].outcome() == Outcome.FAILED
        || result[0].outcome() == Outcome.STORE_UNAVAILABLE, result[0].describe().toString());
    store = OmTestStore.open(dir);
    assertEquals(before, store.digest(), "reopened store has every live key");
  }

  /**
   * What a follower's checkpoint install does: the OM stops its metadata manager and builds a new one over the
   * replaced DB. The service, asking the OM for its manager on every call, must pause meanwhile and then work on
   * the new one, never the closed one.
   */
  @Test
  void followsTheOmToANewMetadataManagerAfterTheStoreIsReplaced() throws IOException {
    java.util.concurrent.atomic.AtomicReference<org.apache.hadoop.ozone.om.OMMetadataManager> current =
        new java.util.concurrent.atomic.AtomicReference<>(store.metadata());
    RangeCompactionService svc = service(new OmCompactionStore(current::get));
    store.close();
    RoundResult closed = svc.runRoundNow();
    assertEquals(Outcome.STORE_UNAVAILABLE, closed.outcome(), closed.describe().toString());
    store = OmTestStore.open(dir); // a new OmMetadataManagerImpl over the same directory
    current.set(store.metadata());
    RoundResult reopened = svc.runRoundNow();
    assertEquals(Outcome.COMPLETED, reopened.outcome(), reopened.describe().toString());
    assertEquals(1, reopened.compacted().size());
    assertEquals(0, deletionsIn(bucket(HOT)));
  }

  /**
   * The same swap under the running service's own thread (rounds every 100 ms): it compacts the original store;
   * while the store is closed its rounds end as store-unavailable and touch no closed handle; once the new store
   * is in place the same running service finds and compacts new tombstones there by itself.
   */
  @Test
  void aRunningServicePausesDuringTheSwapAndResumesOnTheNewStore() throws Exception {
    java.util.concurrent.atomic.AtomicReference<org.apache.hadoop.ozone.om.OMMetadataManager> current =
        new java.util.concurrent.atomic.AtomicReference<>(store.metadata());
    // The test's own flush is the only one: with memtable.flush on, a 100 ms round could flush the cold deletes
    // while they are still being written, compact the first part and leave a tail below min.tombstones.
    RangeCompactionService svc = service(new OmCompactionStore(current::get),
        "ozone.om.range.compaction.interval", "100ms", "ozone.om.range.compaction.memtable.flush", "false");
    svc.start();
    org.apache.ozone.test.GenericTestUtils.waitFor(() -> deletions(bucket(HOT)) == 0, 20, 30_000);

    current.set(null); // the OM between stopping the old metadata manager and building the new one
    store.close();
    long failedBefore = svc.getMetrics().getRoundsFailed();
    org.apache.ozone.test.GenericTestUtils.waitFor(
        () -> svc.getMetrics().getRoundsFailed() >= failedBefore + 2, 20, 30_000);
    assertEquals(Outcome.STORE_UNAVAILABLE, svc.getLastRound().outcome(), svc.getLastRound().describe().toString());

    store = OmTestStore.open(dir);
    current.set(store.metadata());
    store.deleteKeys(VOL, COLD, 0, DELETED);
    store.flush();
    String expected = store.digest();
    long compactedBefore = svc.getMetrics().getRangesCompacted();
    org.apache.ozone.test.GenericTestUtils.waitFor(() -> deletions(bucket(COLD)) == 0
        && svc.getMetrics().getRangesCompacted() > compactedBefore, 20, 30_000);
    assertEquals(expected, store.digest(), "every live key intact on the new store");
  }

  private long deletions(KeyRange r) {
    try {
      return deletionsIn(r);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void roundsPauseWhileTheStoreIsClosedAndResumeOnTheReopenedOne() throws IOException {
    RangeCompactionService svc = service(new OmCompactionStore(store.metadata()));
    store.stopInPlace(); // what the OM does to its metadata manager around a checkpoint install
    RoundResult closed = svc.runRoundNow();
    assertEquals(Outcome.STORE_UNAVAILABLE, closed.outcome(), closed.describe().toString());
    assertEquals(1, svc.getMetrics().getRoundsFailed());
    store.startInPlace();
    RoundResult reopened = svc.runRoundNow();
    assertEquals(Outcome.COMPLETED, reopened.outcome(), reopened.describe().toString());
    assertEquals(1, reopened.compacted().size());
    assertEquals(0, deletionsIn(bucket(HOT)), "compacted through the new handle");
  }
}
