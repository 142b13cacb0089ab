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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.WritePressure;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.compaction.testing.QueueBucket;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's cadence for dead heads, on a real store with a fake clock: full rounds every {@code interval},
 * head checks in between (first after {@code head.check.interval}, then paced by how fast heads grow), each wake driven
 * by {@link RangeCompactionService#tick} as the service's thread would, without sleeping. A queue bucket's head regrows
 * between rounds; the head check finds and compacts it long before the next full round.
 */
class HeadCadenceTest {
  private static final String KEYS = "keyTable";
  private static final long SECOND = Duration.ofSeconds(1).toNanos();
  /** Rounds every 10m, head checks every 5s: the head checks run between rounds. */
  static final String[] HEAD_CHECKS = {
      "ozone.om.range.compaction.interval", "10m", "ozone.om.range.compaction.head.check.interval", "5s"};

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;
  final AtomicLong clock = new AtomicLong(1_000 * SECOND);
  final AtomicBoolean pressure = new AtomicBoolean();
  final AtomicBoolean probeFails = new AtomicBoolean();
  QueueBucket queue;

  @BeforeEach
  void seed() throws IOException {
    store = OmTestStore.open(dir);
    queue = QueueBucket.seed(store, 50_000);
    service = service();
  }

  RangeCompactionService service(String... keyValues) {
    RangeCompactionConfig config = ServiceConf.config(HEAD_CHECKS, keyValues);
    CompactionStore real = new OmCompactionStore(store.metadata());
    CompactionStore s = new ForwardingStore(real) {
      @Override
      public WritePressure writePressure() throws IOException {
        return pressure.get() ? new WritePressure(0, 0, 1, false) : super.writePressure();
      }

      @Override
      public java.util.List<io.ozonerc.compaction.plan.HeadFacts> probeHeads(String table,
          java.util.List<io.ozonerc.compaction.plan.KeyRange> ranges,
          java.util.List<io.ozonerc.compaction.plan.SstFile> tableFiles) throws IOException {
        if (probeFails.get()) {
          throw new IOException("injected probe failure");
        }
        return super.probeHeads(table, ranges, tableFiles);
      }
    };
    return new RangeCompactionService(s, config, () -> false, clock::get);
  }

  @AfterEach
  void close() throws IOException {
    store.close();
  }

  void churn(int n) throws IOException {
    queue.churn(n);
  }

  long headSkips() throws IOException {
    return store.skipsForSeek(KEYS, "/v/q/");
  }

  /**
   * Many queues regrow between rounds: one check compacts every head that qualifies (within the round's budgets),
   * not one per check, so a store with many hot buckets is not served one bucket a second.
   */
  @Test
  void oneHeadCheckCompactsEveryQueueHeadThatRegrew() throws IOException {
    store.addBucket("v", 1, "r", 4, BucketLayout.OBJECT_STORE);
    store.putKeys("v", "r", 0, 20_000);
    store.flush();
    store.metadata().getStore().compactDB(); // level 0 empty: each queue's deletes below get their own file
    churn(5_000);
    deleteFromR(0, 5_000);
    RangeCompactionService.Tick first = service.tick();
    assertTrue(first.fullRound());
    assertEquals(2, first.result().compacted().size(), first.result().describe().toString());

    churn(3_000);
    deleteFromR(5_000, 8_000);
    assertTrue(store.skipsForSeek(KEYS, "/v/r/") >= 3_000, "regrown head of r");
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick check = service.tick();
    assertFalse(check.fullRound(), "a head check");
    assertEquals(2, check.result().compacted().size(), check.result().describe().toString());
    assertTrue(headSkips() <= 10, "q after the check: " + headSkips());
    assertTrue(store.skipsForSeek(KEYS, "/v/r/") <= 10, "r after the check: " + store.skipsForSeek(KEYS, "/v/r/"));
  }

  /** The oldest keys of queue r deleted, flushed into a level-0 file of their own. */
  private void deleteFromR(int from, int to) throws IOException {
    store.deleteKeys("v", "r", from, to);
    store.flush();
  }

  @Test
  void headChecksBetweenRoundsCatchARegrowingQueueHead() throws IOException {
    churn(5_000); // 10,000 dead internal keys at the bucket start
    RangeCompactionService.Tick first = service.tick();
    assertTrue(first.fullRound(), "the first wake runs a full round");
    assertEquals(1, first.result().compacted().size(), first.result().describe().toString());
    assertEquals("/v/q/", first.result().compacted().get(0).before().range().label());
    assertTrue(headSkips() <= 10, "after the round: " + headSkips());

    churn(3_000); // the head regrows: 6,000 dead internal keys
    long regrown = headSkips();
    assertTrue(regrown >= 5_900, "regrown head: " + regrown);
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick check = service.tick();
    assertFalse(check.fullRound(), "5 s later: a head check, not a round");
    assertEquals(1, check.result().compacted().size(), check.result().describe().toString());
    assertEquals("/v/q/", check.result().compacted().get(0).before().range().label());
    assertTrue(headSkips() <= 10, "after the head check: " + headSkips());

    churn(500); // 1,000 dead: below dead.head.min.keys, left alone
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick quiet = service.tick();
    assertFalse(quiet.fullRound());
    assertEquals(0, quiet.result().compacted().size(), quiet.result().describe().toString());
    assertTrue(headSkips() >= 990, "a short head stays: " + headSkips());

    clock.addAndGet(10 * 60 * SECOND);
    RangeCompactionService.Tick next = service.tick();
    assertTrue(next.fullRound(), "interval after the last round ended: a full round again");
    assertEquals(0, next.result().compacted().size(), "the 1,000-key head is still below the threshold");
    assertEquals(2, service.getMetrics().getRangesCompacted(), "one compaction by the round, one by the check");
  }

  /** A head check that fails is counted like a failed round, and the next check works again. */
  @Test
  void aFailedHeadCheckCountsAsAFailedRound() throws IOException {
    churn(5_000);
    assertTrue(service.tick().fullRound());
    assertEquals(0, service.getMetrics().getRoundsFailed());
    churn(3_000);
    probeFails.set(true);
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick failed = service.tick();
    assertFalse(failed.fullRound());
    assertEquals(Outcome.FAILED, failed.result().outcome(), failed.result().describe().toString());
    assertEquals(1, service.getMetrics().getRoundsFailed(), "the failed head check is counted");
    probeFails.set(false);
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick next = service.tick();
    assertEquals(1, next.result().compacted().size(), next.result().describe().toString());
    assertEquals(1, service.getMetrics().getRoundsFailed());
  }

  @Test
  void headChecksYieldToWritePressureAndBackOff() throws IOException {
    churn(5_000);
    assertTrue(service.tick().fullRound());
    churn(3_000);
    pressure.set(true);
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick check = service.tick();
    assertFalse(check.fullRound());
    assertEquals(Outcome.PRESSURE, check.result().outcome(), check.result().describe().toString());
    assertTrue(headSkips() >= 5_900, "nothing compacted under pressure: " + headSkips());

    pressure.set(false);
    clock.addAndGet(5 * SECOND);
    assertEquals(Outcome.BACKING_OFF, service.tick().result().outcome(), "backs off for interval x 2^0");
    clock.addAndGet(10 * 60 * SECOND);
    RangeCompactionService.Tick round = service.tick();
    assertTrue(round.fullRound());
    assertEquals(1, round.result().compacted().size(), round.result().describe().toString());
    assertTrue(headSkips() <= 10);
  }

  @Test
  void headsKeepToTheRoundBudget() throws IOException {
    churn(5_000);
    RangeCompactionService.Tick none = service("ozone.om.range.compaction.ranges.per.run", "0").tick();
    assertTrue(none.fullRound());
    assertEquals(0, none.result().compacted().size(), none.result().describe().toString());
    assertTrue(headSkips() >= 9_900, "ranges.per.run=0 compacts no head: " + headSkips());
  }

  /**
   * The wait between checks follows the head: after a check finds the queue's head regrown fast, the next check
   * comes sooner than {@code head.check.interval}; while nothing grows the wait doubles up to
   * {@code head.check.max.interval}.
   */
  @Test
  void headChecksComeSoonerWhileAHeadGrowsAndBackOffWhileNothingDoes() throws IOException {
    churn(5_000);
    assertTrue(service.tick().fullRound());
    assertEquals(5_000, service.getMetrics().getHeadCheckWaitMs(), "the first wait is head.check.interval");

    churn(3_000); // 6,000 dead internal keys in 5 s: the threshold of 2,000 was reached well before 5 s
    clock.addAndGet(5 * SECOND);
    RangeCompactionService.Tick check = service.tick();
    assertEquals(Schedule.Due.HEAD_CHECK, check.due());
    assertEquals(1, check.result().compacted().size(), check.result().describe().toString());
    long fast = service.getMetrics().getHeadCheckWaitMs();
    assertTrue(fast >= 1_000 && fast < 5_000, "paced to the growth, (2000 - left) / rate: " + fast);

    churn(2_500); // grows on
    clock.addAndGet((fast + 1) * 1_000_000L);
    RangeCompactionService.Tick sooner = service.tick();
    assertEquals(Schedule.Due.HEAD_CHECK, sooner.due(), "due before the fixed 5 s");
    assertEquals(1, sooner.result().compacted().size(), sooner.result().describe().toString());
    assertTrue(headSkips() <= 10, "after the paced check: " + headSkips());

    // Nothing grows any more: the wait doubles each check, up to the 30 s maximum.
    long wait = service.getMetrics().getHeadCheckWaitMs();
    int checks = 0;
    while (wait < 30_000) {
      clock.addAndGet((wait - 500) * 1_000_000L);
      assertEquals(Schedule.Due.NOTHING, service.tick().due(), "not before the wait of " + wait);
      clock.addAndGet(501 * 1_000_000L); // the metric is the wait in whole ms, rounded down
      RangeCompactionService.Tick quiet = service.tick();
      assertEquals(Schedule.Due.HEAD_CHECK, quiet.due());
      assertEquals(0, quiet.result().compacted().size(), quiet.result().describe().toString());
      long next = service.getMetrics().getHeadCheckWaitMs();
      assertEquals(Math.min(30_000, 2 * wait), next, 2, "doubles while nothing grows");
      wait = next;
      assertTrue(++checks <= 6, "reaches the maximum in a few checks");
    }
    assertEquals(3, service.getMetrics().getRangesCompacted(), "the round and two paced checks");
  }

  @Test
  void whatIsDueFollowsBothIntervals() {
    Schedule.Settings c = Schedule.Settings.of(RangeCompactionConfig.from(new OzoneConfiguration())); // 10m, 5s
    long m = 60 * SECOND;
    long w = 5 * SECOND;
    assertEquals(Schedule.Due.ROUND, Schedule.due(0, null, null, c, w));
    assertEquals(Schedule.Due.NOTHING, Schedule.due(4 * SECOND, 0L, null, c, w));
    assertEquals(Schedule.Due.HEAD_CHECK, Schedule.due(5 * SECOND, 0L, null, c, w));
    assertEquals(Schedule.Due.NOTHING,
        Schedule.due(7 * SECOND, 0L, 5 * SECOND, c, w), "5 s after the last check, not the round");
    assertEquals(Schedule.Due.ROUND, Schedule.due(10 * m, 0L, 10 * m - SECOND, c, w));
    assertEquals(Schedule.Due.HEAD_CHECK,
        Schedule.due(7 * SECOND, 0L, 5 * SECOND, c, 2 * SECOND), "a paced 2 s wait");
    assertEquals(Schedule.Due.HEAD_CHECK,
        Schedule.due(6 * SECOND, 0L, 5 * SECOND, c, 1), "a wait below min is min (1 s)");
    assertEquals(Schedule.Due.NOTHING,
        Schedule.due(34 * SECOND, 0L, 5 * SECOND, c, 9 * m), "a wait above max is max (30 s)...");
    assertEquals(Schedule.Due.HEAD_CHECK,
        Schedule.due(35 * SECOND, 0L, 5 * SECOND, c, 9 * m), "...and then due");

    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.range.compaction.head.check.interval", "0s");
    RangeCompactionConfig noChecks = RangeCompactionConfig.from(conf);
    assertEquals(Schedule.Due.NOTHING, Schedule.due(9 * m, 0L, null, Schedule.Settings.of(noChecks), w));
    conf.set("ozone.om.range.compaction.head.check.interval", "5s");
    conf.set("ozone.om.range.compaction.dead.head.min.keys", "0");
    RangeCompactionConfig headsOff = RangeCompactionConfig.from(conf);
    assertEquals(Schedule.Due.NOTHING, Schedule.due(9 * m, 0L, null, Schedule.Settings.of(headsOff), w));
  }
}
