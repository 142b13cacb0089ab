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

import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.compaction.testing.QueueBucket;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's log on a real store under a queue load: one INFO line per round or head check that wrote
 * something, none for one that did nothing, and the numbers in that line are the metrics' (the counts the
 * round's result adds to them). Rounds are driven by {@link RangeCompactionService#tick} on a clock that moves
 * 1 ms per reading, as the service's thread would drive them, without sleeping.
 */
class RoundLogTest {
  private static final long MS = Duration.ofMillis(1).toNanos();
  /** {@code round: compacted 1 of 1 planned (1 dead head, 0 ranges) 1.2 MB in 35 ms: ...}. */
  private static final Pattern COMPACTED = Pattern.compile("^(round|head check): (?:flushed (.*?); )?compacted "
      + "(\\d+) of (\\d+) planned \\((\\d+) dead heads?, (\\d+) ranges?\\) (\\S+ [KMG]B) in (\\S+ m?s)"
      + "(?:: dead head entries (\\d+) -> (\\d+))?(?:, (\\d+) tombstones removed)?(?:; .*)?$");

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;
  final AtomicLong clock = new AtomicLong(1_000_000 * MS);
  final Captured log = new Captured();
  Level levelBefore;
  QueueBucket queue;

  /** Every event of our loggers, DEBUG included. */
  static final class Captured extends AppenderSkeleton {
    final List<LoggingEvent> events = new CopyOnWriteArrayList<>();

    @Override
    protected void append(LoggingEvent e) {
      events.add(e);
    }

    List<String> at(Level level) {
      return events.stream().filter(e -> e.getLevel().equals(level)).map(LoggingEvent::getRenderedMessage).toList();
    }

    @Override
    public void close() { }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @BeforeEach
  void seed() throws IOException {
    store = OmTestStore.open(dir);
    queue = QueueBucket.seed(store, 50_000);
    service = new RangeCompactionService(new OmCompactionStore(store.metadata()),
        ServiceConf.config(HeadCadenceTest.HEAD_CHECKS),
        () -> false, () -> clock.addAndGet(MS));
    Logger ours = Logger.getLogger("io.ozonerc.compaction");
    levelBefore = ours.getLevel();
    ours.setLevel(Level.DEBUG);
    ours.addAppender(log);
  }

  @AfterEach
  void close() throws IOException {
    Logger ours = Logger.getLogger("io.ozonerc.compaction");
    ours.removeAppender(log);
    ours.setLevel(levelBefore);
    service.shutdown();
    store.close();
  }

  /** The metrics a round line reports, read before and after a round. */
  record Counts(long planned, long compacted, long heads, long bytes, long timeMs, long deadRemoved,
      long tombstonesRemoved, long flushes) {
    static Counts of(RangeCompactionMetrics m) {
      return new Counts(m.getRangesPlanned(), m.getRangesCompacted(), m.getHeadCompactions(), m.getCompactedBytes(),
          m.getCompactionTimeMs(), m.getHeadDeadEntriesRemoved(), m.getTombstonesRemoved(), m.getMemtableFlushes());
    }

    Counts minus(Counts o) {
      return new Counts(planned - o.planned, compacted - o.compacted, heads - o.heads, bytes - o.bytes,
          timeMs - o.timeMs, deadRemoved - o.deadRemoved, tombstonesRemoved - o.tombstonesRemoved,
          flushes - o.flushes);
    }
  }

  /** One wake of the service's thread, with the INFO lines it logged and the metrics it added. */
  record Wake(RangeCompactionService.Tick tick, List<String> info, Counts added) { }

  Wake wake() {
    int from = log.events.size();
    Counts before = Counts.of(service.getMetrics());
    RangeCompactionService.Tick t = service.tick();
    List<String> info = log.events.subList(from, log.events.size()).stream()
        .filter(e -> e.getLevel().equals(Level.INFO)).map(LoggingEvent::getRenderedMessage).toList();
    return new Wake(t, info, Counts.of(service.getMetrics()).minus(before));
  }

  /** The one INFO line of {@code w}, checked against the metrics it added and its result. */
  static void assertOneLineMatchingTheMetrics(String what, Wake w) {
    assertEquals(1, w.info().size(), "one INFO line for a " + what + " that compacted: " + w.info());
    String line = w.info().get(0);
    Matcher m = COMPACTED.matcher(line);
    assertTrue(m.matches(), line);
    assertEquals(what, m.group(1), line);
    Counts c = w.added();
    RoundResult r = w.tick().result();
    assertEquals(c.compacted(), Long.parseLong(m.group(3)), line);
    assertEquals(r.compacted().size(), Integer.parseInt(m.group(3)), line);
    assertEquals(c.planned(), Long.parseLong(m.group(4)), line + " (heads are counted among planned)");
    assertEquals(c.heads(), Long.parseLong(m.group(5)), line);
    assertEquals(c.compacted() - c.heads(), Long.parseLong(m.group(6)), line);
    assertEquals(RoundResult.human(c.bytes()), m.group(7), line);
    assertEquals(RoundResult.duration(c.timeMs()), m.group(8), line);
    if (c.heads() > 0) {
      assertEquals(c.deadRemoved(), Long.parseLong(m.group(9)) - Long.parseLong(m.group(10)), line);
    }
    assertEquals(r.planned(), r.compacted().size() + r.stale() + r.left(), "the counts add up: " + r.describe());
  }

  @Test
  void oneInfoLinePerActingRoundOrHeadCheckAndNoneForAnIdleOne() throws IOException {
    queue.churn(5_000);
    Wake round = wake();
    assertTrue(round.tick().fullRound());
    assertOneLineMatchingTheMetrics("round", round);
    assertEquals(1, round.added().heads(), round.info().toString());
    assertTrue(store.skipsForSeek("keyTable", "/v/q/") <= 10, "the queue head was compacted");

    clock.addAndGet(Duration.ofSeconds(5).toNanos());
    Wake idleCheck = wake();
    assertFalse(idleCheck.tick().fullRound(), "a head check");
    assertEquals(0, idleCheck.tick().result().compacted().size(), idleCheck.tick().result().describe().toString());
    assertEquals(List.of(), idleCheck.info(), "a check that did nothing logs nothing at INFO");

    queue.churn(3_000); // the head regrows
    clock.addAndGet(Duration.ofSeconds(30).toNanos());
    Wake check = wake();
    assertFalse(check.tick().fullRound(), "a head check");
    assertOneLineMatchingTheMetrics("head check", check);

    clock.addAndGet(Duration.ofMinutes(10).toNanos());
    Wake idleRound = wake();
    assertTrue(idleRound.tick().fullRound());
    assertEquals(0, idleRound.tick().result().compacted().size(), idleRound.tick().result().describe().toString());
    assertEquals(List.of(), idleRound.info(), "a round that did nothing logs nothing at INFO");
    assertTrue(log.at(Level.DEBUG).stream().anyMatch(l -> l.startsWith("round: compacted 0 of 0 planned")),
        "the idle round is at DEBUG: " + log.at(Level.DEBUG));
  }

  /**
   * A round that flushes the queue's deletes from the memtable (enough to qualify as a range) and then compacts the
   * head they make: one line that says it flushed N deletes, and the compaction with the probe's counts.
   */
  @Test
  void aFlushIsReportedAsTheDeletesItFlushedInTheRoundsOneLine() throws IOException {
    store.deleteKeys("v", "q", 0, 12_000); // in the memtable only: 12,000 deletes >= min.tombstones 10,000
    Wake round = wake();
    assertOneLineMatchingTheMetrics("round", round);
    assertEquals(1, round.added().flushes(), round.info().toString());
    String line = round.info().get(0);
    assertTrue(line.startsWith("round: flushed keyTable (12000 deletes in 12000 memtable entries); compacted "),
        line);
    assertFalse(line.contains("tombstones 0 ->"), line);
    assertTrue(store.skipsForSeek("keyTable", "/v/q/") <= 10, "the queue head was compacted");
  }
}
