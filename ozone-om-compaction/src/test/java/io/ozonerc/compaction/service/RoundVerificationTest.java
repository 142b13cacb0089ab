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
import io.ozonerc.compaction.plan.HeadPace;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.plan.WritePressure;
import io.ozonerc.compaction.rocks.RocksFacts;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import io.ozonerc.compaction.service.RoundResult.Outcome;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * A compaction that reports success removed the tombstones, on a real OM store: a queue-style bucket whose puts and
 * deletes were flushed into one level-0 file with nothing below is moved to the bottom by RocksDB without a rewrite;
 * the round sees it and finishes with a bottommost rewrite. A range whose compaction removed nothing does not hold
 * back the ranges behind it. Counts are RocksDB's own ({@code num_deletions} of the live files).
 */
class RoundVerificationTest {
  static final String VOL = "vol";

  @TempDir
  Path dir;
  OmTestStore store;
  RangeCompactionService service;

  @BeforeEach
  void open() throws IOException {
    store = OmTestStore.open(dir);
  }

  @AfterEach
  void close() throws IOException {
    if (service != null) {
      service.shutdown();
    }
    store.close();
  }

  RangeCompactionService service(String... keyValues) {
    service = new RangeCompactionService(new OmCompactionStore(store.metadata()),
        RangeCompactionConfig.from(RangeCompactionServiceTest.conf(keyValues)), () -> false, System::nanoTime);
    return service;
  }

  static KeyRange bucket(String name) {
    return KeyRange.bucket("keyTable", "/" + VOL + "/" + name + "/");
  }

  /** A queue: {@code puts} keys written and the oldest {@code deletes} deleted, all in one flush. */
  void queueInOneFile(String name, long bucketId, int puts, int deletes) throws IOException {
    store.addBucket(VOL, -100, name, bucketId, BucketLayout.OBJECT_STORE);
    store.putKeys(VOL, name, 0, puts);
    store.deleteKeys(VOL, name, 0, deletes);
    store.flush();
  }

  long deletionsIn(KeyRange r) throws IOException {
    return store.filesOverlapping(r.table(), r.begin(), r.end()).stream()
        .mapToLong(LiveFileMetaData::numDeletions).sum();
  }

  int deepestLevel(KeyRange r) throws IOException {
    return store.filesOverlapping(r.table(), r.begin(), r.end()).stream()
        .mapToInt(LiveFileMetaData::level).max().orElse(-1);
  }

  @Test
  void aTrivialMoveToTheBottomIsFinishedByABottommostRewriteInTheSameRound() throws IOException {
    queueInOneFile("queue", -200, 20_000, 12_000);
    KeyRange queue = bucket("queue");
    assertEquals(12_000, deletionsIn(queue));
    assertEquals(1, store.filesOverlapping("keyTable", queue.begin(), queue.end()).size(), "one level-0 file");
    assertEquals(0, deepestLevel(queue));

    RoundResult r = service().runRoundNow();

    assertEquals(Outcome.COMPLETED, r.outcome(), r.describe().toString());
    assertEquals(1, r.compacted().size(), r.describe().toString());
    Compacted c = r.compacted().get(0);
    assertEquals(queue, c.before().range());
    assertFalse(c.before().forceBottommost(), "planned without a bottommost rewrite (nothing below the file)");
    // The first pass moved the file down as it was: the blind spot this round must see.
    assertTrue(c.secondPass(), r.describe().toString());
    assertEquals(12_000, Math.round(c.firstPass().tombstones()), r.describe().toString());
    assertTrue(c.firstPass().deepestLevel() > 0, r.describe().toString());
    assertEquals(0, deletionsIn(queue), "RocksDB reports no tombstone left in the range");
    assertTrue(store.skipsForSeek("keyTable", "/vol/queue/") <= 2);
    assertEquals(12_000, c.tombstonesRemoved());
    RangeCompactionMetrics m = service.getMetrics();
    assertEquals(1, m.getRangesCompacted());
    assertEquals(1, m.getSecondPassCompactions());
    assertEquals(12_000, m.getTombstonesRemoved());
    assertEquals(1, m.getTableCompactions("keyTable"));
    assertEquals(12_000, m.getTableTombstonesRemoved("keyTable"));
    assertEquals(0, m.getTableCompactions("openKeyTable"));
    assertTrue(r.describe().get(1).contains("tombstones 12000 -> 12000, second pass with bottommost=force -> 0"),
        r.describe().toString());
  }

  /**
   * The bottommost rewrite is a second compaction and waits on the same checks as any: RocksDB reports writes
   * stopped after the first pass (a narrow seam over the real store), so the round ends there; the range is not
   * taken for one that made no progress, and the next round, with the pressure gone, finishes it.
   */
  @Test
  void aBottommostRewriteWaitsForWritePressureLikeAnyCompaction() throws IOException {
    queueInOneFile("queue", -200, 20_000, 12_000);
    KeyRange queue = bucket("queue");
    AtomicBoolean writesStopped = new AtomicBoolean();
    service = new RangeCompactionService(stopsWritesAfterACompaction(writesStopped),
        RangeCompactionConfig.from(RangeCompactionServiceTest.conf()), () -> false, System::nanoTime);

    RoundResult first = service.runRoundNow();
    assertEquals(Outcome.PRESSURE, first.outcome(), first.describe().toString());
    assertEquals(1, first.compacted().size(), first.describe().toString());
    assertFalse(first.compacted().get(0).secondPass(), first.describe().toString());
    assertEquals(12_000, deletionsIn(queue), "moved down, not rewritten");
    assertTrue(deepestLevel(queue) > 0);

    writesStopped.set(false);
    RoundResult second = service.runRoundNow();
    assertEquals(0, second.noProgress(), second.describe().toString());
    assertEquals(1, second.compacted().size(), second.describe().toString());
    assertEquals(queue, second.compacted().get(0).before().range(), second.describe().toString());
    assertEquals(0, deletionsIn(queue), "the next round finished it: " + second.describe());
    assertTrue(store.skipsForSeek("keyTable", "/vol/queue/") <= 2);
  }

  /** The same for a dead head: its check ends at the pressure, the head is not held, the next one finishes it. */
  @Test
  void aDeadHeadsBottommostRewriteWaitsForWritePressureToo() throws IOException {
    queueInOneFile("queue", -200, 20_000, 12_000);
    KeyRange queue = bucket("queue");
    AtomicBoolean writesStopped = new AtomicBoolean();
    RangeCompactionConfig c = RangeCompactionConfig.from(RangeCompactionServiceTest.conf(
        "ozone.om.range.compaction.dead.head.min.keys", "2000",
        "ozone.om.range.compaction.min.tombstones", "1000000000")); // only the head can act
    RangeCompactor compactor = new RangeCompactor(stopsWritesAfterACompaction(writesStopped), System::nanoTime,
        new RoundListener() { });
    RoundSettings settings = RoundSettings.of(c, c.plannerSettings());

    RoundResult first = compactor.run(settings, () -> false);
    assertEquals(Outcome.PRESSURE, first.outcome(), first.describe().toString());
    assertEquals(1, first.compacted().size(), first.describe().toString());
    assertFalse(first.compacted().get(0).secondPass(), first.describe().toString());
    assertEquals(12_000, deletionsIn(queue), "moved down, not rewritten");
    assertTrue(first.heads().stream().noneMatch(HeadPace.Reading::held), "left by a stop, not held: "
        + first.heads());

    writesStopped.set(false);
    RoundResult second = compactor.run(settings, () -> false);
    assertEquals(Outcome.COMPLETED, second.outcome(), second.describe().toString());
    assertEquals(1, second.compacted().size(), second.describe().toString());
    assertEquals(0, deletionsIn(queue), "the next round finished it: " + second.describe());
    assertTrue(store.skipsForSeek("keyTable", "/vol/queue/") <= 2);
  }

  /** The real store, where RocksDB is taken to report writes stopped from the first compaction on (until reset). */
  private CompactionStore stopsWritesAfterACompaction(AtomicBoolean writesStopped) {
    return new ForwardingStore(new OmCompactionStore(store.metadata())) {
      @Override
      public void compact(KeyRange range, boolean forceBottommost) throws IOException {
        super.compact(range, forceBottommost);
        writesStopped.set(true);
      }

      @Override
      public WritePressure writePressure() throws IOException {
        return writesStopped.get() ? new WritePressure(0, 0, 0, true) : super.writePressure();
      }
    };
  }

  /**
   * {@code bottommost.mode=skip} and tombstones that end up at the bottom: the compaction removes none. With one
   * range per round, a range that removes nothing must not take every round's turn.
   */
  @Test
  void aRangeWhoseCompactionRemovedNothingDoesNotStarveTheNextOne() throws IOException {
    // q1: a queue whose 50000 tombstones already sit at the bottom (its one file moved down without a rewrite).
    queueInOneFile("q1", -200, 60_000, 50_000);
    KeyRange stuck = bucket("q1");
    RocksFacts.compact(store.db(), stuck, false);
    assertEquals(50_000, deletionsIn(stuck));
    assertTrue(deepestLevel(stuck) > 0, "tombstones at the bottom");
    // q2 holds only live keys and keeps the two hot buckets from merging into one range.
    store.addBucket(VOL, -100, "q2", -300, BucketLayout.OBJECT_STORE);
    store.addBucket(VOL, -100, "q3", -400, BucketLayout.OBJECT_STORE);
    store.putKeys(VOL, "q2", 0, 20_000);
    store.putKeys(VOL, "q3", 0, 15_000);
    store.flush();
    store.deleteKeys(VOL, "q3", 0, 14_000); // 14000 tombstones over their puts: score ~27000, below q1's ~41700
    store.flush();
    KeyRange next = bucket("q3");
    service("ozone.om.range.compaction.bottommost.mode", "skip", "ozone.om.range.compaction.ranges.per.run", "1");

    RoundResult first = service.runRoundNow();
    assertEquals(1, first.compacted().size(), first.describe().toString());
    assertEquals(stuck, first.compacted().get(0).before().range(), first.describe().toString());
    assertEquals(0, first.compacted().get(0).tombstonesRemoved(), first.describe().toString());
    assertFalse(first.compacted().get(0).secondPass(), "skip rules out a bottommost rewrite");
    assertEquals(50_000, deletionsIn(stuck));
    assertEquals(14_000, deletionsIn(next), "not reached: ranges.per.run=1");

    RoundResult second = service.runRoundNow();
    assertEquals(1, second.compacted().size(), second.describe().toString());
    assertEquals(next, second.compacted().get(0).before().range(), second.describe().toString());
    assertEquals(0, deletionsIn(next), "the range behind got its turn");
    assertEquals(50_000, deletionsIn(stuck));
    assertEquals(1, second.noProgress(), second.describe().toString());
    assertTrue(second.plan().notPlanned().stream()
        .anyMatch(a -> a.range().equals(stuck) && a.verdict() == Verdict.NO_PROGRESS), second.describe().toString());
    assertEquals(1, service.getMetrics().getRangesSkippedNoProgress());
    // Between rounds the service keeps every count of the round, and none of its ranges below the thresholds (q2).
    RoundResult kept = service.getLastRound();
    assertEquals(second.summary(), kept.summary());
    assertEquals(second.plan().planned(), kept.plan().planned());
    assertTrue(second.plan().notPlanned().stream().anyMatch(a -> a.verdict() == Verdict.BELOW_THRESHOLD),
        second.describe().toString());
    assertEquals(second.plan().notPlanned().stream().filter(a -> a.verdict() != Verdict.BELOW_THRESHOLD).toList(),
        kept.plan().notPlanned());

    RoundResult third = service.runRoundNow();
    assertEquals(List.of(), third.compacted(), third.describe().toString());

    // New puts over the stuck range change its files: it is planned again, and this time the merge of the new
    // level-0 file into the bottom file drops the tombstones.
    store.putKeys(VOL, "q1", 0, 10);
    store.flush();
    RoundResult fourth = service.runRoundNow();
    assertEquals(1, fourth.compacted().size(), fourth.describe().toString());
    assertEquals(stuck, fourth.compacted().get(0).before().range(), fourth.describe().toString());
    assertEquals(0, deletionsIn(stuck), fourth.describe().toString());
  }
}
