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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.plan.CompactionCost;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.TableFacts;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CompactionCost} against RocksDB itself: on a real OM store where each flush holds writes of many buckets
 * (so level-0 files straddle them), the files the estimate says {@code compactRange} of one hot bucket will rewrite
 * are exactly the files that are gone after it, including a level-0 file that does not reach the bucket but
 * overlaps one that does. Counting the files that overlap the bucket misses it.
 */
class CompactionCostStoreTest {
  private static final String TABLE = "keyTable";
  private static final String VOL = "vol";
  private static final int BUCKETS = 200;
  private static final String HOT = bucket(100);
  private static final int PER_ROUND = 100;

  @TempDir
  Path dir;

  private static String bucket(int i) {
    return String.format("b%03d", i);
  }

  @Test
  void estimateMatchesTheFilesCompactRangeRewrites() throws Exception {
    try (OmTestStore store = OmTestStore.open(dir)) {
      List<KeyRange> buckets = bucketsCompactedOutOfLevel0(store);
      // Then three flushes that stay in level 0 (under RocksDB's trigger of 4): b000..b099, which does not reach
      // the hot bucket b100; b050..b149; and b100..b199 while the hot bucket loses its oldest keys.
      putRound(store, 0, 100, 4);
      putRound(store, 50, 150, 5);
      store.deleteKeys(VOL, HOT, 0, 3 * PER_ROUND);
      putRound(store, 100, BUCKETS, 6);
      awaitNoCompaction(store.db());
      KeyRange hot = KeyRange.bucket(TABLE, "/" + VOL + "/" + HOT + "/");
      List<SstFile> before = RocksFacts.liveFiles(store.db(), Set.of(TABLE));
      TableFacts facts = TableFacts.of(before, buckets);
      CompactionCost cost = CompactionCost.estimate(facts, hot.begin(), hot.end(), false);
      Set<String> picked = names(CompactionCost.pickedFiles(facts, hot.begin(), hot.end(), false));
      Set<String> overlapping = names(before.stream()
          .filter(f -> io.ozonerc.compaction.plan.Keys.overlaps(f.smallestKey(), f.largestKey(), hot.begin(),
              hot.end())).toList());
      long written = store.tickers().get("rocksdb.compact.write.bytes");

      RocksFacts.compact(store.db(), hot, false);
      awaitNoCompaction(store.db());

      written = store.tickers().get("rocksdb.compact.write.bytes") - written;
      List<SstFile> after = RocksFacts.liveFiles(store.db(), Set.of(TABLE));
      Set<String> gone = names(before);
      gone.removeAll(names(after));
      long goneBytes = before.stream().filter(f -> gone.contains(f.name())).mapToLong(SstFile::sizeBytes).sum();
      System.out.printf("levels before: %s%nhot bucket overlaps %d files; estimate %d files %d bytes; "
              + "RocksDB rewrote %d files %d bytes (wrote %d bytes)%n", levels(before), overlapping.size(),
          cost.files(), cost.bytes(), gone.size(), goneBytes, written);
      assertEquals(gone, picked, "estimated files vs files compactRange replaced");
      assertEquals(goneBytes, cost.bytes());
      assertTrue(gone.size() > overlapping.size(),
          "straddling level-0 files pull in files beyond the bucket: " + gone.size() + " vs " + overlapping.size());
    }
  }

  /**
   * A bucket whose keys are all in level 0 (new, or its head only in recent flushes), in a flush that also holds
   * every cold bucket's writes: none of the files below is in the bucket's range, yet {@code compactRange} of it
   * compacts the level-0 file into the level below and rewrites every file there under that file's span.
   */
  @Test
  void aRangeOnlyInLevel0StillRewritesTheFilesBelowItsFlush() throws Exception {
    try (OmTestStore store = OmTestStore.open(dir)) {
      List<KeyRange> buckets = bucketsCompactedOutOfLevel0(store);
      String fresh = "b999"; // after every cold bucket: no file below level 0 spans it
      store.addBucket(VOL, -100, fresh, -999, BucketLayout.OBJECT_STORE);
      KeyRange hot = KeyRange.bucket(TABLE, "/" + VOL + "/" + fresh + "/");
      buckets.add(hot);
      store.putKeys(VOL, fresh, 0, 2 * PER_ROUND);
      store.deleteKeys(VOL, fresh, 0, PER_ROUND);
      putRound(store, 0, BUCKETS, 4); // one flush: the new bucket and every cold one
      awaitNoCompaction(store.db());
      List<SstFile> before = RocksFacts.liveFiles(store.db(), Set.of(TABLE));
      assertTrue(before.stream().filter(f -> io.ozonerc.compaction.plan.Keys.overlaps(f.smallestKey(),
          f.largestKey(), hot.begin(), hot.end())).allMatch(f -> f.level() == 0), "the bucket is only in level 0: "
          + levels(before));
      TableFacts facts = TableFacts.of(before, buckets);
      CompactionCost cost = CompactionCost.estimate(facts, hot.begin(), hot.end(), false);
      Set<String> picked = names(CompactionCost.pickedFiles(facts, hot.begin(), hot.end(), false));

      RocksFacts.compact(store.db(), hot, false);
      awaitNoCompaction(store.db());

      List<SstFile> after = RocksFacts.liveFiles(store.db(), Set.of(TABLE));
      Set<String> gone = names(before);
      gone.removeAll(names(after));
      long goneBytes = before.stream().filter(f -> gone.contains(f.name())).mapToLong(SstFile::sizeBytes).sum();
      System.out.printf("levels before: %s; estimate %d files %d bytes; RocksDB rewrote %d files %d bytes%n",
          levels(before), cost.files(), cost.bytes(), gone.size(), goneBytes);
      assertEquals(gone, picked, "estimated files vs files compactRange replaced");
      assertEquals(goneBytes, cost.bytes());
      assertTrue(gone.stream().anyMatch(n -> before.stream().anyMatch(f -> f.name().equals(n) && f.level() > 0)),
          "files below level 0 were rewritten: " + gone);
    }
  }

  /** The buckets, and four flushes of interleaved puts to every one, which RocksDB compacts out of level 0. */
  private static List<KeyRange> bucketsCompactedOutOfLevel0(OmTestStore store) throws Exception {
    List<KeyRange> buckets = new ArrayList<>();
    for (int b = 0; b < BUCKETS; b++) {
      store.addBucket(VOL, -100, bucket(b), -1000 - b, BucketLayout.OBJECT_STORE);
      buckets.add(KeyRange.bucket(TABLE, "/" + VOL + "/" + bucket(b) + "/"));
    }
    for (int round = 0; round < 4; round++) {
      putRound(store, 0, BUCKETS, round);
    }
    awaitNoCompaction(store.db());
    return buckets;
  }

  /** One flush holding {@code PER_ROUND} new keys of each bucket in [from, to). */
  private static void putRound(OmTestStore store, int from, int to, int round) throws IOException {
    for (int b = from; b < to; b++) {
      store.putKeys(VOL, bucket(b), round * PER_ROUND, (round + 1) * PER_ROUND);
    }
    store.flush();
  }

  private static Set<String> names(List<SstFile> files) {
    return files.stream().map(SstFile::name).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String levels(List<SstFile> files) {
    int[] n = new int[7];
    files.forEach(f -> n[f.level()]++);
    return java.util.Arrays.toString(n);
  }

  /** Waits (bounded) until RocksDB runs and owes no compaction on keyTable, so the file set is stable. */
  private static void awaitNoCompaction(RocksDatabase db) throws IOException, InterruptedException {
    RocksDatabase.ColumnFamily cf = db.getColumnFamily(TABLE);
    for (int i = 0; i < 600; i++) {
      if (Long.parseLong(db.getProperty(cf, "rocksdb.compaction-pending").trim()) == 0
          && Long.parseLong(db.getProperty(cf, "rocksdb.num-running-compactions").trim()) == 0) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("RocksDB still compacting keyTable after 30 s");
  }
}
