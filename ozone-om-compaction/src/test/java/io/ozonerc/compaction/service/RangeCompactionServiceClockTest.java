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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.WritePressure;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdds.utils.BackgroundTaskQueue;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The service's time logic against a clock the test moves by hand: no sleeping, nothing depends on how fast the
 * machine is. The store is real; only the clock, and where needed the pressure signal, are the test's.
 */
class RangeCompactionServiceClockTest {
  static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;
  final AtomicLong now = new AtomicLong(1_000 * MINUTE); // an arbitrary monotonic origin
  final AtomicLong wall = new AtomicLong(1_700_000_000_000L);

  /** Interval 10m, back-off cap 1h, budget 5m, then {@code keyValues}. */
  static RangeCompactionConfig config(String... keyValues) {
    return ServiceConf.config(RangeCompactionServiceTest.RANGES_ONLY, new String[] {
        "ozone.om.range.compaction.interval", "10m", "ozone.om.range.compaction.backoff.max", "1h",
        "ozone.om.range.compaction.timeout", "5m"}, keyValues);
  }

  @BeforeEach
  void seed() throws IOException {
    store = OmTestStore.open(dir);
    // Two hot ranges in two tables, so neither table's level 0 reaches RocksDB's own compaction trigger.
    store.addBucket("vol", -100, "a", -200, BucketLayout.OBJECT_STORE);
    store.addBucket("vol", -100, "fso", -300, BucketLayout.FILE_SYSTEM_OPTIMIZED);
    store.putKeys("vol", "a", 0, 20_000);
    store.putFiles(-100, -300, -301, 0, 20_000);
    store.flush();
    store.deleteKeys("vol", "a", 0, 19_000);
    store.deleteFiles(-100, -300, -301, 0, 19_000);
    store.flush();
  }

  @AfterEach
  void close() throws IOException {
    try (OmTestStore closing = store) { // closed even if the shutdown throws
      if (service != null) {
        service.shutdown();
      }
    }
  }

  RangeCompactionService service(CompactionStore s, RangeCompactionConfig config) {
    service = new RangeCompactionService(s, config, () -> false, now::get, wall::get);
    return service;
  }

  /**
   * Runs what the service's own thread would run now (interval and back-off apply, unlike runRoundNow): the
   * round's outcome, or null when the scheduler gets no round (the interval has not passed).
   */
  Outcome scheduledRound() throws Exception {
    BackgroundTaskQueue tasks = service.getTasks();
    if (tasks.isEmpty()) {
      return null;
    }
    tasks.poll().call();
    return service.getLastRound().outcome();
  }

  @Test
  void theTimeBudgetStopsTheRoundBeforeTheNextCompaction() throws IOException {
    // Each compaction takes six minutes of the test's clock; the budget is five.
    CompactionStore slow = new ForwardingStore(new OmCompactionStore(store.metadata())) {
      @Override
      public void compact(KeyRange range, boolean force) throws IOException {
        super.compact(range, force);
        now.addAndGet(6 * MINUTE);
      }
    };
    RoundResult r = service(slow, config()).runRoundNow();
    assertEquals(Outcome.TIME_BUDGET, r.outcome(), r.describe().toString());
    assertEquals(2, r.plan().planned().size(), r.describe().toString());
    assertEquals(1, r.compacted().size());
    assertEquals(1, r.left());
    assertEquals(6 * 60_000, r.compacted().get(0).timeMs(), "durations come from the clock given");
    assertEquals(1, service.getMetrics().getRangesSkippedBudget());
    assertEquals(6 * 60_000, service.getMetrics().getLastRoundDurationMs());
    assertEquals(wall.get(), service.getMetrics().getLastRoundEndTimeMs());
  }

  @Test
  void backOffDoublesFromTheIntervalUpToItsCapAndEndsWithARoundWithoutPressure() throws Exception {
    AtomicBoolean pressure = new AtomicBoolean(true);
    CompactionStore pressured = new ForwardingStore(new OmCompactionStore(store.metadata())) {
      @Override
      public WritePressure writePressure() throws IOException {
        WritePressure p = super.writePressure();
        return pressure.get() ? new WritePressure(p.maxPendingCompactionBytes(), p.maxLevel0Files(), 1 << 20, false)
            : p;
      }
    };
    service(pressured, config());
    long t = now.get();
    assertEquals(Outcome.PRESSURE, scheduledRound());
    assertTrue(service.getMetrics().isBackoffActive());
    // n consecutive pressure stops: skip for 10m x 2^(n-1), capped at 1h: 10m, 20m, 40m, 60m, 60m.
    for (long minutes : new long[] {10, 20, 40, 60, 60}) {
      long run = service.getMetrics().getRoundsRun();
      now.set(t + minutes * MINUTE - 1);
      Outcome early = scheduledRound(); // no round yet within the interval, a skipped one after it
      assertTrue(early == null || early == Outcome.BACKING_OFF, "1 ns before " + minutes + "m: " + early);
      assertEquals(run, service.getMetrics().getRoundsRun(), "1 ns before " + minutes + "m");
      now.set(t + minutes * MINUTE);
      assertEquals(Outcome.PRESSURE, scheduledRound(), "at " + minutes + "m");
      t = now.get();
    }
    assertEquals(6, service.getMetrics().getRoundsBackedOff());
    assertEquals(6, service.getMetrics().getRoundsRun(), "rounds skipped for back-off are not run");
    assertTrue(service.getMetrics().isBackoffActive());

    pressure.set(false);
    now.set(t + 60 * MINUTE);
    assertEquals(Outcome.COMPLETED, scheduledRound(), service.getLastRound().describe().toString());
    assertEquals(2, service.getLastRound().compacted().size());
    assertFalse(service.getMetrics().isBackoffActive());

    // The count starts again: the next pressure stop backs off for one interval, not one hour.
    pressure.set(true);
    t = now.get();
    now.set(t + 10 * MINUTE);
    assertEquals(Outcome.PRESSURE, scheduledRound());
    now.set(t + 20 * MINUTE);
    assertEquals(Outcome.PRESSURE, scheduledRound());
  }

  /** interval x 2^(n-1), capped; never negative, whatever n and however large the cap. */
  @ParameterizedTest
  @CsvSource({
      "10, 60, 1, 10", "10, 60, 2, 20", "10, 60, 3, 40", "10, 60, 4, 60", "10, 60, 5, 60", "10, 60, 2147483647, 60",
      "90, 60, 1, 60",
      "1, 9223372036854775807, 62, 2305843009213693952", "1, 9223372036854775807, 64, 9223372036854775807",
      "1, 9223372036854775807, 2147483647, 9223372036854775807",
      "4611686018427387904, 9223372036854775807, 3, 9223372036854775807"})
  void backOffScheduleAndCap(long interval, long max, int stops, long expected) {
    assertEquals(expected, Schedule.backoffDelayNanos(interval, max, stops));
  }

  /** The largest interval and cap the configuration accepts, doubled 70 times: the back-off saturates at the cap. */
  @Test
  void manyStopsAtTheLargestCapStayAtTheCap() throws Exception {
    CompactionStore pressured = new ForwardingStore(new OmCompactionStore(store.metadata())) {
      @Override
      public WritePressure writePressure() {
        return new WritePressure(0, 0, 0, true);
      }
    };
    service(pressured, config("ozone.om.range.compaction.interval", "365d",
        "ozone.om.range.compaction.backoff.max", "365d"));
    long t = now.get();
    for (int i = 0; i < 70; i++) { // runRoundNow ignores back-off: 70 consecutive pressure stops
      assertEquals(Outcome.PRESSURE, service.runRoundNow().outcome());
    }
    long year = TimeUnit.DAYS.toNanos(365);
    now.set(t + year - 1);
    assertEquals(Outcome.BACKING_OFF, scheduledRound(), "1 ns before the cap");
    now.set(t + year);
    assertEquals(Outcome.PRESSURE, scheduledRound(), "at the cap");
  }

  @Test
  void leaderPolicyReducedGivesTheLeaderAQuarterOfRangesAndBytes() {
    RangeCompactionConfig reduced = config("ozone.om.range.compaction.leader.policy", "reduced",
        "ozone.om.range.compaction.ranges.per.run", "20", "ozone.om.range.compaction.bytes.per.run", "4GB");
    PlannerSettings follower = Schedule.settingsForRole(reduced, false);
    PlannerSettings leader = Schedule.settingsForRole(reduced, true);
    assertEquals(20, follower.rangesPerRun());
    assertEquals(4L << 30, follower.maxBytesPerRun());
    assertEquals(5, leader.rangesPerRun());
    assertEquals(1L << 30, leader.maxBytesPerRun());
    assertEquals(follower.minTombstones(), leader.minTombstones());
    assertEquals(follower.tombstoneRatio(), leader.tombstoneRatio());
    // At least one range, so a leader under a small budget still compacts.
    assertEquals(1, Schedule.settingsForRole(config("ozone.om.range.compaction.leader.policy",
        "reduced", "ozone.om.range.compaction.ranges.per.run", "3"), true).rangesPerRun());
    // 0 keeps its meaning on the leader: ranges.per.run=0 plans only, bytes.per.run=0 is no limit.
    PlannerSettings planOnly = Schedule.settingsForRole(config("ozone.om.range.compaction.leader"
        + ".policy", "reduced", "ozone.om.range.compaction.ranges.per.run", "0",
        "ozone.om.range.compaction.bytes.per.run", "0"), true);
    assertEquals(0, planOnly.rangesPerRun());
    assertEquals(0, planOnly.maxBytesPerRun());
    assertEquals(1, Schedule.settingsForRole(config("ozone.om.range.compaction.leader.policy",
        "reduced", "ozone.om.range.compaction.bytes.per.run", "3"), true).maxBytesPerRun(), "3 bytes stay a limit");
    assertEquals(20, Schedule.settingsForRole(config(), true).rangesPerRun(), "normal");
    assertNull(Schedule.settingsForRole(config("ozone.om.range.compaction.leader.policy", "skip"),
        true));
  }

  /** The reduced budget on a real round: a leader with ranges.per.run=4 compacts one of the two hot ranges. */
  @Test
  void aReducedLeaderRoundCompactsAQuarter() {
    service = new RangeCompactionService(new OmCompactionStore(store.metadata()),
        config("ozone.om.range.compaction.leader.policy", "reduced", "ozone.om.range.compaction.ranges.per.run",
            "4"), () -> true, now::get, wall::get);
    RoundResult r = service.runRoundNow();
    assertEquals(1, r.plan().planned().size(), r.describe().toString());
    assertEquals(1, r.compacted().size());
    assertEquals(1, service.getMetrics().getRangesSkippedBudget(), "the other range waits for the budget");
  }
}
