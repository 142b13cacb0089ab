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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * When the service runs a round or a head check, and why it does not: its time logic as one value. The caller
 * reads the clock and passes the time in; nothing here touches RocksDB.
 *
 * <h2>What is due</h2>
 * A full round when none has run yet or {@code interval} has passed since the last scheduled round ended (so a new
 * interval counts from that end); else a head check, when head checks are on, once the paced wait has passed since
 * the last round or check ended; else nothing. The wait starts at {@code head.check.interval}, is paced after each
 * pass over heads by {@link HeadPace} within {@code head.check.min.interval} and {@code head.check.max.interval},
 * and starts over on every reconfiguration.
 *
 * <h2>The guard</h2>
 * {@link #scheduled} and {@link #explicit} decide whether a round or head check runs, or why not, in this order:
 * the service is stopping ({@code SHUTDOWN}); it is paused ({@code PAUSED}, scheduled only); a back-off is in force
 * ({@code BACKING_OFF}, scheduled only); {@code leader.policy=skip} on the leader ({@code LEADER_SKIPPED}). A round
 * or head check stopped for write pressure starts a back-off of interval x 2^(n-1) after n consecutive pressure
 * stops, at most {@code backoff.max}; a round that completes ends it and the count starts again.
 *
 * <h2>Pause</h2>
 * Every reconfiguration with {@code service.enabled=false} is a pause. A pass that began before a pause stops at its
 * next compaction ({@link Admission#paused()}); while paused no scheduled pass begins. An explicit round begun while
 * paused runs (an operator asked for it) until the next pause.
 *
 * <p>Times are {@link System#nanoTime()} readings, compared only as differences, so a clock that wraps is safe.
 * Every method is safe from any thread; the service calls {@link #scheduled}, {@link #explicit} and {@link #finish}
 * one at a time (its round lock), so a pass is booked before the next is let through.
 */
final class Schedule {
  /*
   * The rule for this class's state: everything that changes is one immutable State, held in the one
   * AtomicReference `state`, and nothing else here changes after construction. A reader takes one snapshot
   * (state.get()) and answers from it alone, so it never mixes two moments; a change swaps in a new State computed
   * from the old one by a function without side effects (updateAndGet, which may run it more than once when changes
   * race). No lock: the service's thread, the compaction gate and the gauges read from any thread, and no caller's
   * code (the leader supplier) runs inside a change.
   */

  /** What a wake of the service's thread should do. */
  enum Due { ROUND, HEAD_CHECK, NOTHING }

  /**
   * What the schedule and a round read of one configuration, converted once.
   *
   * @param headPace the bounds head checks are paced within; null when head checks are off
   *                 ({@code dead.head.min.keys=0} or {@code head.check.interval=0})
   */
  record Settings(RangeCompactionConfig config, boolean enabled, long intervalNanos, long timeoutNanos,
      long backoffMaxNanos, long headCheckNanos, HeadPace.Bounds headPace) {
    static Settings of(RangeCompactionConfig c) {
      boolean checks = c.getDeadHeadMinKeys() > 0 && !c.getHeadCheckInterval().isZero();
      HeadPace.Bounds pace = checks ? new HeadPace.Bounds(c.getDeadHeadMinKeys(),
          RoundSettings.nanos(c.getHeadCheckMinInterval()), RoundSettings.nanos(c.getHeadCheckMaxInterval())) : null;
      return new Settings(c, c.isEnabled(), RoundSettings.nanos(c.getInterval()), RoundSettings.nanos(c.getTimeout()),
          RoundSettings.nanos(c.getBackoffMax()), RoundSettings.nanos(c.getHeadCheckInterval()), pace);
    }
  }

  /** The settings in force and how many reconfigurations paused the service; replaced as a whole. */
  private record Version(Settings settings, long pauses) { }

  /**
   * Write-pressure back-off.
   *
   * @param pressureStops consecutive passes stopped for write pressure
   * @param start         when the back-off in force began
   * @param nanos         its length; 0 when none is in force
   */
  private record Backoff(int pressureStops, long start, long nanos) {
    static final Backoff NONE = new Backoff(0, 0, 0);

    boolean active(long now) {
      return nanos > 0 && now - start < nanos;
    }
  }

  /**
   * The head-check pace.
   *
   * @param waitNanos the wait before the next head check
   * @param left      what the last pass over heads left each at
   * @param readAt    when that pass began
   */
  private record Pace(long waitNanos, Map<KeyRange, Long> left, long readAt) { }

  /**
   * Everything of the schedule that changes (see the rule at the top of the class).
   *
   * @param lastRoundEnd end of the last scheduled round that counted; null before the first
   * @param lastCheckEnd end of the last head check; null before the first
   * @param stopping     the stop flag every pass checks before each compaction
   */
  private record State(Version version, Long lastRoundEnd, Long lastCheckEnd, Backoff backoff, Pace pace,
      boolean stopping) {
    Settings settings() {
      return version.settings();
    }

    Due due(long now) {
      return Schedule.due(now, lastRoundEnd, lastCheckEnd, settings(), pace.waitNanos());
    }

    /** With {@code s} in force: a pause when {@code s} is disabled, and the head-check pace starts over. */
    State reconfigured(Settings s) {
      Version v = new Version(s, s.enabled() ? version.pauses() : version.pauses() + 1);
      return new State(v, lastRoundEnd, lastCheckEnd, backoff, new Pace(s.headCheckNanos(), pace.left(),
          pace.readAt()), stopping);
    }

    State withStop(boolean stop) {
      return new State(version, lastRoundEnd, lastCheckEnd, backoff, pace, stop);
    }
  }

  private final AtomicReference<State> state;

  Schedule(Settings settings) {
    state = new AtomicReference<>(new State(new Version(settings, 0), null, null, Backoff.NONE,
        new Pace(settings.headCheckNanos(), Map.of(), 0), false));
  }

  Settings settings() {
    return state.get().settings();
  }

  /** New settings, from now on: the head-check pace starts over; disabled settings are a pause. */
  void reconfigure(Settings s) {
    state.updateAndGet(st -> st.reconfigured(s));
  }

  /** Sets or clears the stop flag that every pass checks before each compaction. */
  void stop(boolean stop) {
    state.updateAndGet(st -> st.withStop(stop));
  }

  boolean stopping() {
    return state.get().stopping();
  }

  /** The wait before the next head check, as paced. */
  long headWaitNanos() {
    return state.get().pace().waitNanos();
  }

  /** Whether a back-off keeps scheduled passes from running at {@code now}. */
  boolean backingOff(long now) {
    return state.get().backoff().active(now);
  }

  /** The length of the current back-off; 0 when none. */
  long backoffNanos() {
    return state.get().backoff().nanos();
  }

  /** Whether the service's thread has anything to run at {@code now}: not while stopping or paused. */
  boolean wake(long now) {
    State st = state.get();
    return !st.stopping() && st.settings().enabled() && st.due(now) != Due.NOTHING;
  }

  /**
   * What is due at {@code now} (see the class comment). The wait before a head check is {@code headWait} kept
   * within the pace bounds.
   *
   * @param lastRoundEnd end of the last scheduled round, or null before the first
   * @param lastCheckEnd end of the last head check, or null before the first
   */
  static Due due(long now, Long lastRoundEnd, Long lastCheckEnd, Settings s, long headWait) {
    if (lastRoundEnd == null || now - lastRoundEnd >= s.intervalNanos()) {
      return Due.ROUND;
    }
    HeadPace.Bounds b = s.headPace();
    if (b == null) {
      return Due.NOTHING;
    }
    long wait = Math.max(b.minNanos(), Math.min(b.maxNanos(), headWait));
    long last = lastCheckEnd != null && lastCheckEnd - lastRoundEnd > 0 ? lastCheckEnd : lastRoundEnd;
    return now - last >= wait ? Due.HEAD_CHECK : Due.NOTHING;
  }

  /** The scheduled pass due at {@code now}, let through or refused by the guard; null when nothing is due. */
  Admission scheduled(long now, BooleanSupplier leader) {
    State st = state.get();
    Due d = st.due(now);
    return d == Due.NOTHING ? null : admit(st, d, false, now, leader);
  }

  /** A round an operator or tool asked for at {@code now}: it runs while paused and during a back-off. */
  Admission explicit(long now, BooleanSupplier leader) {
    return admit(state.get(), Due.ROUND, true, now, leader);
  }

  private Admission admit(State st, Due kind, boolean explicit, long now, BooleanSupplier leader) {
    Version v = st.version();
    Settings s = v.settings();
    if (st.stopping()) {
      return new Admission(kind, explicit, now, v, Outcome.SHUTDOWN, "service stopping", null);
    }
    if (!explicit && !s.enabled()) {
      return new Admission(kind, false, now, v, Outcome.PAUSED, RangeCompactionConfig.ENABLED_KEY + "=false", null);
    }
    if (!explicit && st.backoff().active(now)) {
      return new Admission(kind, false, now, v, Outcome.BACKING_OFF, "backing off after write pressure", null);
    }
    PlannerSettings planner = settingsForRole(s.config(), leader.getAsBoolean());
    if (planner == null) {
      return new Admission(kind, explicit, now, v, Outcome.LEADER_SKIPPED,
          "leader.policy=skip and this OM is the leader", null);
    }
    return new Admission(kind, explicit, now, v, null, "", RoundSettings.of(s.config(), planner));
  }

  /**
   * Books a pass that ended at {@code end} with {@code r}: a pressure stop backs off and a completed round ends
   * the back-off; a scheduled pass sets when the next one is due and paces head checks from the heads it read.
   * A scheduled round refused for stopping, pause or back-off does not count as a round, so the next tick tries
   * again.
   */
  void finish(Admission p, RoundResult r, long end) {
    state.updateAndGet(st -> finished(st, p, r, end));
  }

  /** {@code st} after {@link #finish}: a function of its arguments alone. */
  private static State finished(State st, Admission p, RoundResult r, long end) {
    Settings s = p.version.settings();
    Backoff backoff = st.backoff();
    if (r.outcome() == Outcome.PRESSURE) {
      int stops = backoff.pressureStops() + 1;
      backoff = new Backoff(stops, p.start, backoffDelayNanos(s.intervalNanos(), s.backoffMaxNanos(), stops));
    } else if (r.outcome() == Outcome.COMPLETED && p.kind == Due.ROUND) {
      backoff = Backoff.NONE;
    }
    if (p.explicit) {
      return new State(st.version(), st.lastRoundEnd(), st.lastCheckEnd(), backoff, st.pace(), st.stopping());
    }
    Long lastRoundEnd = p.kind != Due.HEAD_CHECK && p.counts() ? Long.valueOf(end) : st.lastRoundEnd();
    Long lastCheckEnd = p.kind == Due.HEAD_CHECK ? Long.valueOf(end) : st.lastCheckEnd();
    Pace pace = s.headPace() != null && !r.heads().isEmpty() ? paced(st, p, r.heads()) : st.pace();
    return new State(st.version(), lastRoundEnd, lastCheckEnd, backoff, pace, st.stopping());
  }

  /** The pace after a pass read {@code heads}, unless a reconfiguration since it began restarted the pace. */
  private static Pace paced(State st, Admission p, List<HeadPace.Reading> heads) {
    Pace before = st.pace();
    if (st.version() != p.version) { // identity: every reconfiguration makes a new Version
      return before;
    }
    long elapsed = before.left().isEmpty() ? 0 : p.start - before.readAt();
    long wait = HeadPace.nextWait(before.left(), elapsed, heads, before.waitNanos(), p.version.settings().headPace());
    Map<KeyRange, Long> left = new HashMap<>();
    heads.forEach(h -> left.put(h.range(), h.left()));
    return new Pace(wait, Map.copyOf(left), p.start);
  }

  /**
   * The back-off after {@code stops} consecutive pressure stops: {@code interval x 2^(stops-1)}, at most
   * {@code max}. Doubling stops at the cap, so no value of {@code stops} overflows.
   */
  static long backoffDelayNanos(long interval, long max, int stops) {
    long delay = Math.min(max, interval);
    for (int i = 1; i < stops && delay < max; i++) {
      delay = delay > max / 2 ? max : delay * 2;
    }
    return delay;
  }

  /**
   * The planner settings for an OM's Ratis role, or null to skip the round: the configured ones, except for the
   * leader under {@code leader.policy=reduced} (a quarter of ranges and bytes, at least one of each unless the
   * configured value is 0, which keeps its meaning: plan only, or no byte limit) or {@code skip}.
   */
  static PlannerSettings settingsForRole(RangeCompactionConfig config, boolean leader) {
    PlannerSettings s = config.plannerSettings();
    if (!leader) {
      return s;
    }
    return switch (config.leaderPolicy()) {
    case NORMAL -> s;
    case SKIP -> null;
    // The leader serves client reads, followers catch up on compaction.
    case REDUCED -> s.withBudget((int) quarter(s.rangesPerRun()), quarter(s.maxBytesPerRun()));
    };
  }

  /** A quarter of {@code n}, at least 1 when {@code n} is positive; 0 for 0. */
  private static long quarter(long n) {
    return n <= 0 ? n : Math.max(1, n / 4);
  }

  /**
   * The guard's answer for one round or head check: let through ({@link #refusal()} null) with the settings it
   * runs with, or refused with the outcome that says why.
   */
  final class Admission {
    private final Due kind;
    private final boolean explicit;
    private final long start;
    private final Version version;
    private final Outcome refusal;
    private final String why;
    private final RoundSettings round;

    private Admission(Due kind, boolean explicit, long start, Version version, Outcome refusal, String why,
        RoundSettings round) {
      this.kind = kind;
      this.explicit = explicit;
      this.start = start;
      this.version = version;
      this.refusal = refusal;
      this.why = why;
      this.round = round;
    }

    Due kind() {
      return kind;
    }

    long start() {
      return start;
    }

    /** Why the pass may not run, or null when it may. */
    Outcome refusal() {
      return refusal;
    }

    String why() {
      return why;
    }

    /** The frozen inputs of the round or head check; null when refused. */
    RoundSettings round() {
      return round;
    }

    /**
     * Whether it counts as a round run (the rounds-run metric, the last round's end): let through, or skipped
     * for the leader policy on purpose; not when refused for stopping, pause or back-off.
     */
    boolean counts() {
      return refusal == null || refusal == Outcome.LEADER_SKIPPED;
    }

    /** Whether the service was paused after this pass began: it may start no compaction now. */
    boolean paused() {
      return pausedIn(state.get());
    }

    private boolean pausedIn(State now) {
      return !now.settings().enabled() && now.version().pauses() != version.pauses();
    }

    /** The stop the compactor asks for before each compaction: shutdown or a pause. */
    boolean stopRequested() {
      State now = state.get();
      return now.stopping() || pausedIn(now);
    }

    /** {@code r} as the compactor returned it, a stop for a pause reported as {@code PAUSED}, not as shutdown. */
    RoundResult settle(RoundResult r) {
      State now = state.get();
      if (r.outcome() != Outcome.SHUTDOWN || now.stopping() || !pausedIn(now)) {
        return r;
      }
      return new RoundResult(Outcome.PAUSED, RangeCompactionConfig.ENABLED_KEY + "=false", r.plan(), r.headPlan(),
          r.flushed(), r.compacted(), r.skipped(), r.left(), r.durationMs(), r.heads());
    }
  }
}
