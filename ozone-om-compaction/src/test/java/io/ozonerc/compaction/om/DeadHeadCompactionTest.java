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

package io.ozonerc.compaction.om;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.Budget;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.HeadPlanner;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RangeCompactor;
import io.ozonerc.compaction.service.RoundListener;
import io.ozonerc.compaction.service.RoundResult;
import io.ozonerc.compaction.service.RoundSettings;
import io.ozonerc.compaction.testing.OmTestStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dead heads on a real OM store, under the default configuration: probe, plan, compact the planned heads in
 * order, and check with RocksDB's own skip ticker what a seek pays before and after.
 */
class DeadHeadCompactionTest {
  private static final Logger LOG = LoggerFactory.getLogger(DeadHeadCompactionTest.class);
  private static final String KEYS = "keyTable";
  private static final RangeCompactionConfig DEFAULTS = RangeCompactionConfig.from(new OzoneConfiguration());

  @TempDir
  Path dir;

  /** One pass of the head signal over keyTable: pick probes, probe, plan. */
  private static CompactionPlan planHeads(OmCompactionStore store, List<KeyRange> probed) throws Exception {
    List<SstFile> files = store.liveFiles(Set.of(KEYS));
    long memDeletes = store.memtables(Set.of(KEYS)).get(0).deletes();
    List<KeyRange> buckets = RangePlanner.sortedBuckets(store.bucketRanges(Set.of(KEYS)).get(KEYS));
    List<KeyRange> probes = HeadPlanner.pickProbes(KEYS, files, memDeletes, buckets, List.of(),
        DEFAULTS.plannerSettings(), HeadPlanner.PROBES_PER_ROUND, 0);
    probed.addAll(probes);
    List<HeadFacts> heads = store.probeHeads(KEYS, probes, files);
    return HeadPlanner.plan(heads, Map.of(KEYS, files), Map.of(KEYS, buckets),
        DEFAULTS.plannerSettings(), Budget.of(DEFAULTS.plannerSettings()));
  }

  private static void compactAll(OmCompactionStore store, CompactionPlan plan) throws Exception {
    for (RangeAssessment a : plan.planned()) {
      store.compact(a.range(), a.forceBottommost());
    }
  }

  private static CompactionPlan rangePlan(OmCompactionStore store, PlannerSettings s) throws Exception {
    return RangePlanner.plan(store.liveFiles(Set.of(KEYS)), store.bucketRanges(Set.of(KEYS)), List.of(), s);
  }

  @Test
  void deadTableHeadIsCompactedFirstAndASeekAtTheTableStartThenSkipsNothing() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      s.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE); // first bucket: a queue, its oldest 20k deleted
      s.addBucket("v", 1, "c", 3, BucketLayout.OBJECT_STORE); // a later bucket with a longer dead head
      s.putKeys("v", "a", 0, 30_000);
      s.putKeys("v", "c", 0, 60_000);
      s.flush();
      s.deleteKeys("v", "a", 0, 20_000);
      s.deleteKeys("v", "c", 0, 40_000);
      s.flush();
      long before = s.skipsForSeek(KEYS, "");
      assertTrue(before >= 39_000, "a seek at the table start steps over bucket a's dead head: " + before);

      CompactionPlan plan = planHeads(store, new java.util.ArrayList<>());
      plan.describe().forEach(l -> LOG.info("heads: {}", l));
      RangeAssessment first = plan.planned().get(0);
      assertEquals(HeadFacts.TABLE_HEAD, first.range().label(), "the table head ranks first");
      assertArrayEquals(Keys.utf8("/v/a/" + OmTestStore.keyName(20_000)), first.range().end());
      assertEquals("/v/c/", plan.planned().get(1).range().label(), "then the longer bucket head");
      assertEquals(2, plan.planned().size(), "bucket a's head lies inside the table head: one compaction");

      compactAll(store, plan);
      long after = s.skipsForSeek(KEYS, "");
      long afterC = s.skipsForSeek(KEYS, "/v/c/");
      LOG.info("seek at the table start: {} skips before, {} after; at /v/c/: {} after", before, after, afterC);
      assertTrue(after <= 10, "table head skips after: " + after);
      assertTrue(afterC <= 10, "bucket c head skips after: " + afterC);
      assertEquals(0, planHeads(store, new java.util.ArrayList<>()).planned().size(), "nothing left to do");
    }
  }

  @Test
  void smallShareButLongAgainstAPageIsCompactedScatteredIsNot() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      s.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE); // live first bucket: the table head is live
      s.addBucket("v", 1, "q", 3, BucketLayout.OBJECT_STORE); // queue: oldest 5,000 of 100,000 deleted
      s.addBucket("v", 1, "s", 4, BucketLayout.OBJECT_STORE); // the same 5,000 deletes, scattered
      s.putKeys("v", "a", 0, 1_000);
      s.putKeys("v", "q", 0, 100_000);
      s.putKeys("v", "s", 0, 100_000);
      s.flush();
      s.deleteKeys("v", "q", 0, 5_000);
      for (int i = 1; i < 100_000; i += 20) {
        s.deleteKeys("v", "s", i, i + 1);
      }
      s.flush();
      long queueBefore = s.skipsForSeek(KEYS, "/v/q/");
      long scatteredBefore = s.skipsForSeek(KEYS, "/v/s/");
      assertTrue(queueBefore >= 9_900, "queue head: tombstone + put per deleted key: " + queueBefore);
      assertTrue(scatteredBefore <= 10, "scattered: the first key is live: " + scatteredBefore);

      // The range test misses both: 5,000 tombstones < min.tombstones=10,000 and ~5% < 30%.
      assertTrue(rangePlan(store, DEFAULTS.plannerSettings()).planned().isEmpty());

      List<KeyRange> probed = new java.util.ArrayList<>();
      CompactionPlan plan = planHeads(store, probed);
      plan.describe().forEach(l -> LOG.info("heads: {}", l));
      assertEquals(1, plan.planned().size(), String.join("\n", plan.describe()));
      RangeAssessment q = plan.planned().get(0);
      assertEquals("/v/q/", q.range().label());
      assertArrayEquals(Keys.utf8("/v/q/" + OmTestStore.keyName(5_000)), q.range().end(), "just the dead span");
      assertTrue(probed.stream().anyMatch(r -> r.label().equals("/v/s/")), "the scattered bucket was probed");

      compactAll(store, plan);
      long queueAfter = s.skipsForSeek(KEYS, "/v/q/");
      LOG.info("queue head skips {} -> {}; scattered bucket head skips {}", queueBefore, queueAfter,
          scatteredBefore);
      assertTrue(queueAfter <= 10, "queue head skips after: " + queueAfter);
    }
  }

  /**
   * Part of a busy OM: 200 cold buckets written together with one hot queue, so each of the many flushes holds
   * every bucket's writes and the L0 files straddle everything. The head signal still finds the hot bucket.
   */
  @Test
  void hotQueueAmongManyColdBucketsSharingItsFlushesIsFoundAndItsHeadRemoved() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      int head = s.hotQueueAmongColdBuckets(200, 30, 2_000);
      KeyRange hot = KeyRange.bucket(KEYS, "/v/hot/");
      long before = s.skipsForSeek(KEYS, "/v/hot/");
      List<SstFile> files = store.liveFiles(Set.of(KEYS));
      RangeAssessment shared = RangePlanner.assess(hot, files,
          RangePlanner.sortedBuckets(store.bucketRanges(Set.of(KEYS)).get(KEYS)), DEFAULTS.plannerSettings());
      LOG.info("hot bucket: {} skips for a seek; the range planner's shared estimate: {} tombstones of {} deleted "
          + "keys in {} files", before, Math.round(shared.stats().tombstones()), head, shared.stats().files());

      List<KeyRange> probed = new java.util.ArrayList<>();
      CompactionPlan plan = planHeads(store, probed);
      plan.describe().forEach(l -> LOG.info("heads: {}", l));
      LOG.info("{} ranges probed", probed.size());
      assertTrue(probed.stream().anyMatch(r -> r.label().equals("/v/hot/")), "the hot bucket is a candidate");
      RangeAssessment h = plan.planned().stream().filter(a -> a.range().label().equals("/v/hot/")).findFirst()
          .orElseThrow(() -> new AssertionError("hot head not planned:\n" + String.join("\n", plan.describe())));
      assertArrayEquals(Keys.utf8("/v/hot/" + OmTestStore.keyName(head)), h.range().end());
      assertTrue(plan.planned().stream().allMatch(a -> a.range().label().equals("/v/hot/")),
          "no cold bucket has a dead head: " + plan.describe());
      assertTrue(plan.notPlanned().stream().noneMatch(a -> a.verdict() == Verdict.PLANNED));

      compactAll(store, plan);
      long after = s.skipsForSeek(KEYS, "/v/hot/");
      LOG.info("hot head skips {} -> {}; deletions left in files overlapping the hot bucket: {}", before, after,
          deletionsIn(s, "/v/hot/"));
      assertTrue(before >= 2 * DEFAULTS.getDeadHeadMinKeys(), "before: " + before);
      assertTrue(after <= 10, "after: " + after);
      assertEquals(0, deletionsIn(s, "/v/hot/"), "the compaction carried the head's tombstones out");
    }
  }

  /**
   * The same queue head through the service's round: the round reports the compaction as a head, with the dead
   * entries its own seeks measured before and after, and the tombstones of the compacted span from SST facts.
   */
  @Test
  void aRoundReportsTheHeadItCompactedWithWhatItsSeeksMeasured() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      s.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE);
      s.addBucket("v", 1, "q", 3, BucketLayout.OBJECT_STORE);
      s.putKeys("v", "a", 0, 1_000);
      s.putKeys("v", "q", 0, 100_000);
      s.flush();
      s.deleteKeys("v", "q", 0, 5_000);
      s.flush();
      long skipsBefore = s.skipsForSeek(KEYS, "/v/q/");

      List<RoundResult.Compacted> seen = new java.util.ArrayList<>();
      RangeCompactor compactor = new RangeCompactor(store, System::nanoTime, new RoundListener() {
        @Override
        public void compacted(RoundResult.Compacted c) {
          seen.add(c);
        }
      });
      RoundResult r = compactor.run(RoundSettings.of(DEFAULTS, DEFAULTS.plannerSettings()),
          () -> false);
      r.describe().forEach(l -> LOG.info("round: {}", l));
      assertEquals(List.of(), r.compacted().stream().filter(c -> c.head() == null).toList(),
          "only the head qualifies; the range test misses 5% tombstones");
      assertEquals(1, seen.size(), String.join("\n", r.describe()));
      RoundResult.Compacted c = seen.get(0);
      assertEquals("/v/q/", c.before().range().label());
      assertArrayEquals(c.before().range().begin(), c.after().range().begin(), "before and after: the same span");
      assertArrayEquals(c.before().range().end(), c.after().range().end(), "before and after: the same span");
      // The probe counts what its bounded seek stepped over and sizes the rest by RocksDB's approximate sizes.
      assertTrue(Math.abs(skipsBefore - c.head().deadBefore()) <= skipsBefore / 100,
          "the round's probe " + c.head().deadBefore() + " vs RocksDB's skip ticker " + skipsBefore);
      assertTrue(c.head().deadAfter() <= 10, "dead head after: " + c.head().deadAfter());
      assertEquals(c.head().deadBefore() - c.head().deadAfter(), c.deadEntriesRemoved());
      assertTrue(c.tombstonesRemoved() > 0, "the span's tombstones from SST facts: " + c.before().stats() + " -> "
          + c.after().stats());
      assertTrue(s.skipsForSeek(KEYS, "/v/q/") <= 10);
    }
  }

  /**
   * A queue head under a level-0 file that also holds cold buckets' writes: compacting the head would take that file
   * and every cold file below it. Above max.compaction.entries the head waits for RocksDB's own level-0 compaction
   * (nothing compacted, the head reported as waiting); with the default cap the same head is compacted.
   */
  @Test
  void aHeadUnderLevel0FilesSpanningColdDataWaitsWhenItsCompactionWouldPassTheCap() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      int head = s.hotQueueAmongColdBuckets(50, 12, 2_000);
      // One more flush holding cold puts and the queue's next deletes: a level-0 file over the head and cold data.
      s.putKeys("v", "c000", 10_000, 10_050);
      s.putKeys("v", "c049", 10_000, 10_050);
      s.deleteKeys("v", "hot", head, head + 2_000);
      s.flush();
      assertTrue(s.filesOverlapping(KEYS, Keys.utf8("/v/hot/"), Keys.utf8("/v/hot0")).stream()
          .anyMatch(f -> f.level() == 0), "a level-0 file lies over the queue head");
      waitsUnderTheCapAndIsCompactedUnderTheDefault(s, store, "level-0 files spanning other ranges");
    }
  }

  /**
   * The hot queue's head: with max.compaction.entries 1000 nothing is compacted, the head is reported as waiting
   * for level 0 ({@code why} naming {@code because}) and a seek pays what it did; with the default cap the head is
   * compacted and a seek then skips ~nothing.
   */
  private static void waitsUnderTheCapAndIsCompactedUnderTheDefault(OmTestStore s, OmCompactionStore store,
      String because) throws Exception {
    long skipsBefore = s.skipsForSeek(KEYS, "/v/hot/");
    List<CompactionPlan> seen = new java.util.ArrayList<>();
    RoundResult capped = headsOnlyRound(store, "1000", seen);
    capped.describe().forEach(l -> LOG.info("capped: {}", l));
    assertEquals(List.of(), capped.compacted(), "nothing compacted under the cap");
    assertTrue(seen.stream().flatMap(p -> p.notPlanned().stream()).anyMatch(a -> a.verdict()
        == Verdict.WAITS_FOR_LEVEL0 && a.range().label().equals("/v/hot/") && a.why().contains(because)),
        "the queue head waits: " + seen);
    assertEquals(skipsBefore, s.skipsForSeek(KEYS, "/v/hot/"), "the head is as it was");

    RoundResult open = headsOnlyRound(store, "1000000", new java.util.ArrayList<>());
    open.describe().forEach(l -> LOG.info("default cap: {}", l));
    assertTrue(open.compacted().stream().anyMatch(c -> c.head() != null
        && c.before().range().label().equals("/v/hot/")), String.join("\n", open.describe()));
    assertTrue(s.skipsForSeek(KEYS, "/v/hot/") <= 10, "head compacted");
  }

  /**
   * The queue head still in the memtable, with no level-0 file over it: a compactRange of it flushes the memtable
   * first, and the memtable also holds cold buckets' writes, so the flushed level-0 file spans the cold data and
   * the compaction takes every file below it. Above max.compaction.entries the head waits as one under a
   * straddling level-0 file does (left alone, it would be compacted: its SST files are all below level 0); with
   * the default cap it is compacted.
   */
  @Test
  void aHeadInAMemtableHoldingColdWritesIsCostedAsTheLevel0FileItsFlushWrites() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      int head = s.hotQueueAmongColdBuckets(50, 12, 2_000);
      s.metadata().getStore().compactDB(); // level 0 empty: every SST file below it
      s.putKeys("v", "c000", 10_000, 10_050);
      s.putKeys("v", "c049", 10_000, 10_050);
      s.deleteKeys("v", "hot", head, head + 2_000); // the next head, in the memtable only
      assertTrue(s.filesOverlapping(KEYS, new byte[0], null).stream().noneMatch(f -> f.level() == 0),
          "no level-0 file");
      KeyRange hot = KeyRange.bucket(KEYS, "/v/hot/");
      HeadFacts probed = store.probeHeads(KEYS, List.of(hot), store.liveFiles(Set.of(KEYS))).get(0);
      assertTrue(probed.memDead() > 0 && probed.memOutside() > 0, "head in the memtable, cold writes beside it: "
          + probed);
      long skipsBefore = s.skipsForSeek(KEYS, "/v/hot/");
      assertTrue(skipsBefore >= 2_000, "a dead head: " + skipsBefore);
      waitsUnderTheCapAndIsCompactedUnderTheDefault(s, store, "the memtable it flushes first");
    }
  }

  /**
   * A queue's next deletes land at its first live key, the end of the dead span, while a head compaction waits to
   * start. {@code compactRange} flushes the memtables first when they hold a key of its range and takes its end
   * inclusive, so the span's end must be left out: otherwise those deletes make RocksDB flush a memtable holding
   * cold writes into a level-0 file spanning the cold buckets, which the plan (memtable empty at the probe) never
   * costed (on the benchmark's store: a rewrite of the whole table).
   */
  @Test
  void aQueuesNextDeletesAtItsFirstLiveKeyDoNotMakeTheHeadCompactionFlushColdWrites() throws Exception {
    try (OmTestStore s = OmTestStore.open(dir)) {
      OmCompactionStore store = new OmCompactionStore(s.metadata());
      int head = s.hotQueueAmongColdBuckets(50, 12, 2_000);
      s.metadata().getStore().compactDB(); // level 0 empty: every SST file below it
      s.deleteKeys("v", "hot", head, head + 3_000);
      s.flush(); // the head: a level-0 file of the queue's tombstones alone, over the bottom
      CompactionPlan plan = planHeads(store, new java.util.ArrayList<>());
      assertEquals(1, plan.planned().size(), plan.toString());
      KeyRange span = plan.planned().get(0).range();
      assertArrayEquals(Keys.utf8("/v/hot/" + OmTestStore.keyName(head + 3_000)), span.end(), "ends at the first "
          + "live key");

      // Meanwhile: cold writes, and the queue deletes its first live key.
      s.putKeys("v", "c000", 10_000, 10_050);
      s.deleteKeys("v", "hot", head + 3_000, head + 3_001);
      long memtable = store.memtables(Set.of(KEYS)).get(0).entries();
      store.compact(span, plan.planned().get(0).forceBottommost());

      assertTrue(memtable >= 51, "cold puts and the delete in the memtable: " + memtable);
      assertEquals(memtable, store.memtables(Set.of(KEYS)).get(0).entries(), "the memtable was not flushed");
      assertTrue(s.skipsForSeek(KEYS, "/v/hot/") <= 10, "the head is gone but the one new delete");
    }
  }

  /** A round where only dead heads can act (the range test is out of reach), with the given entry cap. */
  private static RoundResult headsOnlyRound(OmCompactionStore store, String maxEntries, List<CompactionPlan> heads)
      throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.range.compaction.max.compaction.entries", maxEntries);
    conf.set("ozone.om.range.compaction.min.tombstones", "1000000000");
    conf.set("ozone.om.range.compaction.memtable.flush", "false");
    RangeCompactionConfig c = RangeCompactionConfig.from(conf);
    RangeCompactor compactor = new RangeCompactor(store, System::nanoTime, new RoundListener() {
      @Override
      public void headsPlanned(CompactionPlan plan) {
        heads.add(plan);
      }
    });
    return compactor.run(RoundSettings.of(c, c.plannerSettings()), () -> false);
  }

  /** Deletions RocksDB reports for the live files overlapping a bucket prefix (counted whole). */
  private static long deletionsIn(OmTestStore s, String prefix) throws Exception {
    KeyRange r = KeyRange.bucket(KEYS, prefix);
    long sum = 0;
    for (LiveFileMetaData f : s.filesOverlapping(KEYS, r.begin(), r.end())) {
      sum += f.numDeletions();
    }
    return sum;
  }
}
