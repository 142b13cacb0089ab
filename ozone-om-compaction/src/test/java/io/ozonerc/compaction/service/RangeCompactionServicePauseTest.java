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

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.LiveConfig;
import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.compaction.testing.QueueBucket;
import io.ozonerc.testsupport.SiteConfJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * {@code service.enabled=false} set on a running service, as {@code ozone admin reconfig} sets it: through
 * {@link LiveConfig}, whose listener is {@link RangeCompactionService#reconfigure}, on a configuration read from a
 * real {@code ozone-site.xml}. A compaction is held inside a real store while the pause arrives from another
 * thread: when the pause returns, the compaction in flight has ended and no other starts, in a round or a head
 * check. The clock is the test's; the store, RocksDB and the configuration files are real.
 */
class RangeCompactionServicePauseTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;
  LiveConfig live;
  final AtomicLong clock = new AtomicLong(1_000 * SECOND);

  @BeforeEach
  void open() throws IOException {
    store = OmTestStore.open(dir.resolve("om"));
  }

  @AfterEach
  void close() throws IOException {
    try (OmTestStore closing = store) {
      if (service != null) {
        service.shutdown();
      }
    }
  }

  /**
   * Writes {@code values} to an {@code ozone-site.xml}, reads our keys from an {@code OzoneConfiguration} with that
   * file as a resource, and creates the service on it, wired to the live configuration as the OM wires it.
   */
  RangeCompactionService service(CompactionStore s, Map<String, String> values) throws IOException {
    Path site = SiteConfJvm.withSite(dir.resolve("conf"), values).confDir().resolve("ozone-site.xml");
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.addResource(site.toUri().toURL());
    live = LiveConfig.from(conf);
    service = new RangeCompactionService(s, live.get(), () -> false, clock::get);
    live.onChange(service::reconfigure);
    assertEquals(Duration.ofSeconds(45), service.getConfig().getTimeout(), "the site file's timeout, not 5m");
    return service;
  }

  /**
   * Range plans only: no dead heads, interval 10m, a 45 s budget (the test's clock does not spend it), and ranges
   * of at most 30,000 entries, so that two buckets are never merged into one compaction.
   */
  static final Map<String, String> RANGES = Map.of(
      RangeCompactionConfig.ENABLED_KEY, "true",
      "ozone.om.range.compaction.interval", "10m",
      "ozone.om.range.compaction.timeout", "45s",
      "ozone.om.range.compaction.max.compaction.entries", "30000",
      "ozone.om.range.compaction.dead.head.min.keys", "0");

  /** Three buckets, each 95% deleted, each in a level-0 file of its own: three compactions. */
  void seedThreeHotBuckets() throws IOException {
    for (int b = 0; b < 3; b++) {
      store.addBucket("vol", -100, "b" + b, -200 - b, BucketLayout.OBJECT_STORE);
      store.putKeys("vol", "b" + b, 0, 20_000);
      store.deleteKeys("vol", "b" + b, 0, 19_000);
      store.flush();
    }
  }

  long tombstones() throws IOException {
    return store.filesOverlapping("keyTable", new byte[0], null).stream()
        .mapToLong(LiveFileMetaData::numDeletions).sum();
  }

  /** What the pausing thread saw when the pause returned. */
  record Returned(int begun, int ended) { }

  /**
   * Runs {@code pass} on a thread of its own, holds its first compaction inside the store, pauses from a third
   * thread, then releases the compaction.
   *
   * @return what the store had seen begin and end when the pause returned
   */
  <T> Returned pauseDuring(HoldingStore held, Supplier<T> pass, AtomicReference<T> result) throws Exception {
    AtomicReference<Throwable> failed = new AtomicReference<>();
    held.armed = true;
    Thread passThread = new Thread(() -> result.set(pass.get()), "pass");
    passThread.setUncaughtExceptionHandler((t, e) -> failed.set(e));
    passThread.start();
    assertTrue(held.inCompaction.await(60, TimeUnit.SECONDS), "a compaction began");
    AtomicReference<Returned> returned = new AtomicReference<>();
    Thread pauser = new Thread(() -> {
      live.set(RangeCompactionConfig.ENABLED_KEY, "false");
      returned.set(new Returned(held.begun.get(), held.ended.get()));
    }, "pauser");
    pauser.setUncaughtExceptionHandler((t, e) -> failed.set(e));
    pauser.start();
    // The pause is in force, and the pausing thread is waiting on the gate or has returned.
    while (service.getConfig().isEnabled()) {
      Thread.onSpinWait();
    }
    while (pauser.getState() != Thread.State.TIMED_WAITING && pauser.getState() != Thread.State.TERMINATED) {
      Thread.onSpinWait();
    }
    held.release.countDown();
    passThread.join();
    pauser.join();
    assertNull(failed.get(), String.valueOf(failed.get()));
    return returned.get();
  }

  @Test
  void aPauseDuringARoundEndsItAfterTheCompactionInFlight() throws Exception {
    seedThreeHotBuckets();
    String before = store.digest();
    HoldingStore held = new HoldingStore(new OmCompactionStore(store.metadata()), false);
    RangeCompactionService svc = service(held, RANGES);
    AtomicReference<RangeCompactionService.Tick> tick = new AtomicReference<>();

    Returned returned = pauseDuring(held, svc::tick, tick);

    assertAll(() -> assertEquals(1, held.begun.get(), "no compaction began after the pause returned"),
        () -> assertEquals(new Returned(1, 1), returned, "the pause returned once the compaction in flight ended"));
    RoundResult r = tick.get().result();
    assertTrue(tick.get().fullRound());
    assertEquals(Outcome.PAUSED, r.outcome(), r.describe().toString());
    assertEquals(3, r.plannedRanges(), r.describe().toString());
    assertEquals(1, r.compacted().size(), r.describe().toString());
    assertEquals(2, r.left(), "the ranges the pause left");
    assertEquals(2, svc.getMetrics().getRangesSkippedShutdown(), "counted as left for shutdown");
    assertEquals(0, svc.getMetrics().getRoundsFailed());
    assertEquals(before, store.digest(), "every key readable, unchanged");
    assertTrue(tombstones() >= 2 * 19_000, "the other two buckets' tombstones are still there: " + tombstones());

    clock.addAndGet(3_600 * SECOND);
    assertTrue(svc.getTasks().isEmpty(), "paused: the scheduler gets nothing, however long it waits");
    assertEquals(Outcome.PAUSED, svc.tick().result().outcome(), "a wake that slipped through is refused");
    assertEquals(1, held.begun.get());

    live.set(RangeCompactionConfig.ENABLED_KEY, "true");
    assertFalse(svc.getTasks().isEmpty(), "enabled: the next tick runs the round that is due");
    RangeCompactionService.Tick resumed = svc.tick();
    assertEquals(Outcome.COMPLETED, resumed.result().outcome(), resumed.result().describe().toString());
    assertTrue(resumed.result().compacted().size() >= 2, "the two ranges the pause left (and the first one's "
        + "bottommost rewrite, if the pause came before it): " + resumed.result().describe());
    assertEquals(0, tombstones(), "every tombstone gone");
    store.reopen();
    assertEquals(before, store.digest(), "and after a reopen");
  }

  /** A head check paused while it compacts the first of two regrown queue heads leaves the second. */
  @Test
  void aPauseDuringAHeadCheckEndsItAfterTheCompactionInFlight() throws Exception {
    QueueBucket q = QueueBucket.seed(store, 50_000);
    store.addBucket("v", 1, "r", 4, BucketLayout.OBJECT_STORE);
    store.putKeys("v", "r", 0, 20_000);
    store.flush();
    store.metadata().getStore().compactDB(); // level 0 empty: each queue's deletes below get their own file
    q.churn(5_000);
    store.deleteKeys("v", "r", 0, 5_000);
    store.flush();
    HoldingStore held = new HoldingStore(new OmCompactionStore(store.metadata()), false);
    RangeCompactionService svc = service(held, Map.of(RangeCompactionConfig.ENABLED_KEY, "true",
        "ozone.om.range.compaction.interval", "10m", "ozone.om.range.compaction.timeout", "45s",
        "ozone.om.range.compaction.head.check.interval", "5s"));
    RangeCompactionService.Tick round = svc.tick();
    assertTrue(round.fullRound());
    assertEquals(2, round.result().headCompactions(), round.result().describe().toString());

    q.churn(3_000);
    store.deleteKeys("v", "r", 5_000, 8_000);
    store.flush();
    String before = store.digest();
    int begunBefore = held.begun.get();
    clock.addAndGet(5 * SECOND);
    AtomicReference<RangeCompactionService.Tick> tick = new AtomicReference<>();

    Returned returned = pauseDuring(held, svc::tick, tick);

    assertAll(() -> assertEquals(begunBefore + 1, held.begun.get(), "no compaction began after the pause returned"),
        () -> assertEquals(new Returned(begunBefore + 1, begunBefore + 1), returned,
            "the pause returned once the compaction in flight ended"));
    RoundResult r = tick.get().result();
    assertEquals(Schedule.Due.HEAD_CHECK, tick.get().due());
    assertEquals(Outcome.PAUSED, r.outcome(), r.describe().toString());
    assertEquals(2, r.plannedHeads(), r.describe().toString());
    assertEquals(1, r.compacted().size(), r.describe().toString());
    assertEquals(1, r.left(), r.describe().toString());
    assertEquals(r, svc.getLastHeadCheck());
    assertEquals(before, store.digest(), "every key readable, unchanged");
  }

  /**
   * An operator's round runs while the service is paused (the scheduled ones do not), and a pause during it stops
   * it like any round.
   */
  @Test
  void anExplicitRoundRunsWhilePausedUntilTheNextPause() throws Exception {
    seedThreeHotBuckets();
    HoldingStore held = new HoldingStore(new OmCompactionStore(store.metadata()), false);
    RangeCompactionService svc = service(held, RANGES);
    live.set(RangeCompactionConfig.ENABLED_KEY, "false"); // nothing in flight: returns at once
    assertTrue(svc.getTasks().isEmpty());
    assertEquals(Outcome.PAUSED, svc.tick().result().outcome(), "no scheduled round while paused");
    assertEquals(0, held.begun.get());

    AtomicReference<RoundResult> result = new AtomicReference<>();
    Returned returned = pauseDuring(held, svc::runRoundNow, result);

    assertAll(() -> assertEquals(1, held.begun.get(), "the second pause stopped it"),
        () -> assertEquals(new Returned(1, 1), returned, "the pause returned once the compaction in flight ended"));
    assertEquals(Outcome.PAUSED, result.get().outcome(), result.get().describe().toString());
    assertEquals(1, result.get().compacted().size());
    assertEquals(2, result.get().left());

    RoundResult now = svc.runRoundNow();
    assertEquals(Outcome.COMPLETED, now.outcome(), "an explicit round begun while paused runs to its end: "
        + now.describe());
    assertEquals(0, tombstones(), "every tombstone gone");
  }
}
