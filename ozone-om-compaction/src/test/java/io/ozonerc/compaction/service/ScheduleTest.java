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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.service.Schedule.Admission;
import io.ozonerc.compaction.service.Schedule.Due;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The service's time logic on its own: no store, no thread, the time passed in by the test. Every case runs from
 * more than one clock origin, one of them just below {@code Long.MAX_VALUE} so that the readings wrap around, as
 * {@link System#nanoTime()} may.
 */
class ScheduleTest {
  static final long S = 1_000_000_000L;
  static final long M = 60 * S;
  static final BooleanSupplier FOLLOWER = () -> false;
  static final BooleanSupplier LEADER = () -> true;
  static final KeyRange Q = KeyRange.bucket("keyTable", "/v/q/");

  /** Enabled, interval 10m, back-off cap 1h, head checks 5s within 1s..30s at 2,000 dead entries, then {@code kv}. */
  static RangeCompactionConfig config(String... kv) {
    return ServiceConf.config(new String[] {"ozone.om.range.compaction.interval", "10m",
        "ozone.om.range.compaction.backoff.max", "1h", "ozone.om.range.compaction.head.check.interval", "5s"}, kv);
  }

  static Schedule schedule(String... kv) {
    return new Schedule(Schedule.Settings.of(config(kv)));
  }

  /** The scheduled pass due at {@code now}, finished at once with {@code outcome} when let through. */
  static Admission tick(Schedule s, long now, Outcome outcome) {
    Admission p = s.scheduled(now, FOLLOWER);
    if (p != null) {
      s.finish(p, RoundResult.early(p.refusal() == null ? outcome : p.refusal(), "", 0), now);
    }
    return p;
  }

  static Due due(Admission p) {
    return p == null ? Due.NOTHING : p.kind();
  }

  static RoundResult headsRead(long probed, long left) {
    return new RoundResult(Outcome.COMPLETED, "", null, null, List.of(), List.of(), List.of(), 0, 0,
        List.of(new HeadPace.Reading(Q, probed, left)));
  }

  /**
   * What is due, seconds after the last round ended ({@code check}: seconds after it that the last head check
   * ended, empty for none; {@code wait}: the paced wait in seconds). The default settings: interval 10m, head
   * checks 5s within 1s..30s.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "no check yet: not before 5 s,             4,   ,    5, NOTHING",
      "no check yet: 5 s after the round,        5,   ,    5, HEAD_CHECK",
      "5 s after the check not the round,        7,  5,    5, NOTHING",
      "a paced 2 s wait,                         7,  5,    2, HEAD_CHECK",
      "a wait below min is min (1 s),            6,  5,    0, HEAD_CHECK",
      "a wait above max is max: 30 s...,         34, 5,  540, NOTHING",
      "...and then due,                          35, 5,  540, HEAD_CHECK",
      "the interval beats a due check,           600, 590, 5, ROUND",
      "1 s before the interval,                  599, 594, 5, HEAD_CHECK"})
  void whatIsDue(String what, long at, Long check, long wait, Due expected) {
    Schedule.Settings s = Schedule.Settings.of(config());
    for (long origin : new long[] {0, -7 * S, Long.MAX_VALUE - 3 * S, Long.MIN_VALUE + S}) {
      Long lastCheck = check == null ? null : origin + check * S;
      assertEquals(expected, Schedule.due(origin + at * S, origin, lastCheck, s, wait * S), what + " from " + origin);
    }
    assertEquals(Due.ROUND, Schedule.due(Long.MIN_VALUE, null, null, s, 5 * S), "no round yet: a round at once");
  }

  /** A scheduled schedule: round first, then head checks every 5 s, then the next round 10 m after the first. */
  @ParameterizedTest
  @ValueSource(longs = {0, -1, Long.MAX_VALUE - 30 * S, Long.MIN_VALUE})
  void roundsAndHeadChecksFollowTheClock(long origin) {
    Schedule s = schedule();
    assertEquals(Due.ROUND, due(tick(s, origin, Outcome.COMPLETED)), "nothing ran yet: a round");
    assertFalse(s.wake(origin + 5 * S - 1));
    assertNull(tick(s, origin + 5 * S - 1, Outcome.COMPLETED));
    assertTrue(s.wake(origin + 5 * S));
    assertEquals(Due.HEAD_CHECK, due(tick(s, origin + 5 * S, Outcome.COMPLETED)));
    assertNull(tick(s, origin + 10 * S - 1, Outcome.COMPLETED), "5 s after the check, not after the round");
    assertEquals(Due.HEAD_CHECK, due(tick(s, origin + 10 * S, Outcome.COMPLETED)));
    assertEquals(Due.ROUND, due(tick(s, origin + 10 * M, Outcome.COMPLETED)));
    assertNull(tick(s, origin + 10 * M + 5 * S - 1, Outcome.COMPLETED), "counted from the round's end");

    Schedule off = schedule("ozone.om.range.compaction.head.check.interval", "0s");
    tick(off, origin, Outcome.COMPLETED);
    assertNull(tick(off, origin + 10 * M - 1, Outcome.COMPLETED), "head checks off: nothing between rounds");
    Schedule noHeads = schedule("ozone.om.range.compaction.dead.head.min.keys", "0");
    tick(noHeads, origin, Outcome.COMPLETED);
    assertNull(tick(noHeads, origin + 10 * M - 1, Outcome.COMPLETED), "dead heads off: no head checks");
  }

  /**
   * The guard, first reason wins: stopping, paused (scheduled only), backing off (scheduled only), leader skip.
   * Empty {@code expected}: the pass runs.
   */
  @ParameterizedTest(name = "stopping={0} paused={1} backingOff={2} leaderSkips={3} explicit={4}: {5}")
  @CsvSource({
      "false, false, false, false, false, ",
      "true,  false, false, false, false, SHUTDOWN",
      "true,  true,  true,  true,  true,  SHUTDOWN",
      "false, true,  false, false, false, PAUSED",
      "false, true,  true,  true,  false, PAUSED",
      "false, true,  false, false, true,  ",
      "false, false, true,  false, false, BACKING_OFF",
      "false, false, true,  true,  false, BACKING_OFF",
      "false, false, true,  false, true,  ",
      "false, false, false, true,  false, LEADER_SKIPPED",
      "false, true,  true,  true,  true,  LEADER_SKIPPED"})
  void theGuard(boolean stopping, boolean paused, boolean backingOff, boolean leaderSkips, boolean explicit,
      Outcome expected) {
    Schedule s = schedule("ozone.om.range.compaction.leader.policy", leaderSkips ? "skip" : "normal");
    long t = Long.MAX_VALUE - M; // the back-off below spans the wrap
    if (backingOff) {
      s.finish(s.explicit(t, FOLLOWER), RoundResult.early(Outcome.PRESSURE, "", 0), t);
    }
    if (paused) {
      s.reconfigure(Schedule.Settings.of(config(RangeCompactionConfig.ENABLED_KEY, "false",
          "ozone.om.range.compaction.leader.policy", leaderSkips ? "skip" : "normal")));
    }
    s.stop(stopping);
    long now = t + 2 * M;
    Admission p = explicit ? s.explicit(now, LEADER) : s.scheduled(now, LEADER);
    assertNotNull(p, "a round is due: none has run");
    assertEquals(Due.ROUND, p.kind());
    assertEquals(expected, p.refusal(), p.why());
    assertEquals(expected == null, p.round() != null, "settings only for a pass that runs");
    assertEquals(expected == null || expected == Outcome.LEADER_SKIPPED, p.counts());
    assertEquals(!stopping && !paused, s.wake(now), "the thread wakes during a back-off, to be refused");
  }

  @ParameterizedTest
  @ValueSource(longs = {0, Long.MAX_VALUE - 90 * M, Long.MIN_VALUE})
  void backOffDoublesToItsCapAndAGoodRoundEndsIt(long origin) {
    Schedule s = schedule();
    long t = origin;
    assertEquals(Due.ROUND, due(tick(s, t, Outcome.PRESSURE)));
    for (long minutes : new long[] {10, 20, 40, 60, 60}) {
      assertTrue(s.backingOff(t + minutes * M - 1));
      assertEquals(Outcome.BACKING_OFF, tick(s, t + minutes * M - 1, Outcome.COMPLETED).refusal(),
          "1 ns before " + minutes + "m");
      assertFalse(s.backingOff(t + minutes * M));
      t += minutes * M;
      Admission p = tick(s, t, Outcome.PRESSURE);
      assertNull(p.refusal(), "at " + minutes + "m");
      assertEquals(Due.ROUND, p.kind(), "a refused round does not count: the round is still due");
    }
    assertEquals(60 * M, s.backoffNanos());

    t += 60 * M;
    tick(s, t, Outcome.COMPLETED);
    assertFalse(s.backingOff(t));
    assertEquals(0, s.backoffNanos());
    t += 10 * M;
    tick(s, t, Outcome.PRESSURE);
    assertEquals(10 * M, s.backoffNanos(), "the count starts again after a completed round");
  }

  @Test
  void headChecksAndExplicitRoundsBackOffTooButOnlyACompletedRoundEndsIt() {
    Schedule s = schedule();
    tick(s, 0, Outcome.COMPLETED);
    assertEquals(Due.HEAD_CHECK, due(tick(s, 5 * S, Outcome.PRESSURE)));
    assertEquals(10 * M, s.backoffNanos());
    assertEquals(Outcome.BACKING_OFF, tick(s, 10 * S, Outcome.COMPLETED).refusal(), "the next check is held");
    Admission now = s.explicit(20 * S, FOLLOWER);
    assertNull(now.refusal(), "an explicit round ignores the back-off");
    s.finish(now, RoundResult.early(Outcome.PRESSURE, "", 0), 20 * S);
    assertEquals(20 * M, s.backoffNanos(), "and counts its pressure stop");
    s.finish(s.explicit(30 * S, FOLLOWER), RoundResult.early(Outcome.COMPLETED, "", 0), 30 * S);
    assertEquals(0, s.backoffNanos(), "a completed round, explicit or not, ends it");
  }

  /** Before any back-off, a clock that reads negative must not look like one ({@code now - 0 < 0}). */
  @Test
  void aNegativeClockIsNoBackOff() {
    Schedule s = schedule();
    assertNull(s.scheduled(Long.MIN_VALUE + 1, FOLLOWER).refusal());
    assertFalse(s.backingOff(-1));
  }

  @ParameterizedTest
  @ValueSource(longs = {0, Long.MAX_VALUE - 20 * S})
  void headChecksArePacedWithinTheirBounds(long t) {
    Schedule s = schedule();
    assertEquals(5 * S, s.headWaitNanos(), "first head.check.interval");
    Admission round = s.scheduled(t, FOLLOWER);
    s.finish(round, headsRead(10_000, 0), t);
    assertEquals(5 * S, s.headWaitNanos(), "one reading: no rate yet");
    Admission check = s.scheduled(t + 5 * S, FOLLOWER);
    s.finish(check, headsRead(6_000, 0), t + 5 * S); // 1,200 a second: 2,000 in 1.7 s
    assertEquals(2_000 * S / 1_200, s.headWaitNanos(), 1, "paced to the growth");
    s.finish(s.scheduled(t + 7 * S, FOLLOWER), headsRead(1_000_000, 0), t + 7 * S);
    assertEquals(S, s.headWaitNanos(), "no shorter than head.check.min.interval");
    long wait = S;
    long at = t + 7 * S;
    for (long expected : new long[] {2 * S, 4 * S, 8 * S, 16 * S, 30 * S, 30 * S}) {
      at += wait;
      Admission quiet = s.scheduled(at, FOLLOWER);
      assertEquals(Due.HEAD_CHECK, quiet.kind());
      s.finish(quiet, headsRead(0, 0), at);
      assertEquals(expected, s.headWaitNanos(), "doubles while nothing grows, up to head.check.max.interval");
      wait = expected;
    }
  }

  @Test
  void aReconfigurationRestartsThePaceEvenDuringAPass() {
    Schedule s = schedule();
    s.finish(s.scheduled(0, FOLLOWER), headsRead(0, 0), 0);
    s.finish(s.scheduled(5 * S, FOLLOWER), headsRead(10_000, 0), 5 * S);
    assertEquals(S, s.headWaitNanos());
    s.reconfigure(Schedule.Settings.of(config("ozone.om.range.compaction.head.check.interval", "8s",
        "ozone.om.range.compaction.head.check.max.interval", "40s")));
    assertEquals(8 * S, s.headWaitNanos(), "starts over at the new head.check.interval");

    Admission check = s.scheduled(13 * S, FOLLOWER);
    assertEquals(Due.HEAD_CHECK, check.kind());
    s.reconfigure(Schedule.Settings.of(config("ozone.om.range.compaction.head.check.interval", "9s",
        "ozone.om.range.compaction.head.check.max.interval", "40s")));
    s.finish(check, headsRead(1_000_000, 0), 14 * S);
    assertEquals(9 * S, s.headWaitNanos(), "a pass that began before the reconfiguration does not pace over it");
    assertNull(s.scheduled(14 * S + 9 * S - 1, FOLLOWER));
    assertEquals(Due.HEAD_CHECK, s.scheduled(14 * S + 9 * S, FOLLOWER).kind());
  }

  /** A new interval counts from the end of the last round, not from the reconfiguration. */
  @ParameterizedTest
  @ValueSource(longs = {0, Long.MAX_VALUE - 3 * M})
  void aNewIntervalCountsFromTheLastRoundsEnd(long t) {
    Schedule s = schedule("ozone.om.range.compaction.head.check.interval", "0s");
    tick(s, t, Outcome.COMPLETED);
    s.reconfigure(Schedule.Settings.of(config("ozone.om.range.compaction.interval", "5m",
        "ozone.om.range.compaction.head.check.interval", "0s")));
    assertNull(s.scheduled(t + 5 * M - 1, FOLLOWER));
    assertEquals(Due.ROUND, s.scheduled(t + 5 * M, FOLLOWER).kind(), "5m after the round, not 5m after the change");
    s.reconfigure(Schedule.Settings.of(config("ozone.om.range.compaction.interval", "2m",
        "ozone.om.range.compaction.head.check.interval", "0s")));
    assertEquals(Due.ROUND, s.scheduled(t + 2 * M, FOLLOWER).kind(), "already passed: due at once");
  }

  /** A round the leader skips on purpose counts as a round; one refused for pause or back-off does not. */
  @Test
  void whatCountsAsARound() {
    Schedule skip = schedule("ozone.om.range.compaction.leader.policy", "skip",
        "ozone.om.range.compaction.head.check.interval", "0s");
    Admission skipped = skip.scheduled(0, LEADER);
    assertEquals(Outcome.LEADER_SKIPPED, skipped.refusal());
    skip.finish(skipped, RoundResult.early(Outcome.LEADER_SKIPPED, "", 0), S);
    assertNull(skip.scheduled(S + 10 * M - 1, LEADER), "the next round one interval after the skipped one");

    Schedule paused = schedule(RangeCompactionConfig.ENABLED_KEY, "false");
    assertEquals(Outcome.PAUSED, tick(paused, 0, Outcome.COMPLETED).refusal());
    paused.reconfigure(Schedule.Settings.of(config()));
    assertTrue(paused.wake(S), "enabled again: the round is due at the next tick");
    assertNull(tick(paused, S, Outcome.COMPLETED).refusal());
  }

  /**
   * A pause stops a pass that began before it, scheduled or explicit; an explicit round begun while paused runs
   * until the next pause; enabling again lets a pass go on. Shutdown stops every pass and stays shutdown.
   */
  @Test
  void whatAPauseStops() {
    Schedule s = schedule();
    Admission scheduled = s.scheduled(0, FOLLOWER);
    assertFalse(scheduled.stopRequested());
    s.reconfigure(Schedule.Settings.of(config(RangeCompactionConfig.ENABLED_KEY, "false")));
    assertTrue(scheduled.paused());
    assertTrue(scheduled.stopRequested());
    RoundResult stopped = scheduled.settle(RoundResult.early(Outcome.SHUTDOWN, "service stopping", 0));
    assertEquals(Outcome.PAUSED, stopped.outcome());
    assertTrue(stopped.detail().contains(RangeCompactionConfig.ENABLED_KEY + "=false"), stopped.detail());
    RoundResult done = RoundResult.early(Outcome.COMPLETED, "", 0);
    assertSame(done, scheduled.settle(done), "only a stop is turned into a pause");

    Admission explicit = s.explicit(S, FOLLOWER);
    assertNull(explicit.refusal(), "an operator's round runs while paused");
    assertFalse(explicit.stopRequested());
    s.reconfigure(Schedule.Settings.of(config(RangeCompactionConfig.ENABLED_KEY, "false",
        "ozone.om.range.compaction.min.tombstones", "5")));
    assertTrue(explicit.stopRequested(), "another reconfiguration that leaves it paused is another pause");

    s.reconfigure(Schedule.Settings.of(config()));
    assertFalse(scheduled.stopRequested(), "enabled again");
    assertFalse(explicit.stopRequested());
    s.stop(true);
    assertTrue(explicit.stopRequested());
    s.reconfigure(Schedule.Settings.of(config(RangeCompactionConfig.ENABLED_KEY, "false")));
    RoundResult both = explicit.settle(RoundResult.early(Outcome.SHUTDOWN, "service stopping", 0));
    assertEquals(Outcome.SHUTDOWN, both.outcome(), "stopping and paused: shutdown");
  }
}
