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

package io.ozonerc.compaction.cli;

import static io.ozonerc.compaction.cli.CliFixtures.COLD;
import static io.ozonerc.compaction.cli.CliFixtures.HOT;
import static io.ozonerc.compaction.cli.CliFixtures.HOT_DELETED;
import static io.ozonerc.compaction.cli.CliFixtures.KEYS;
import static io.ozonerc.compaction.cli.CliFixtures.LOW_THRESHOLDS;
import static io.ozonerc.compaction.cli.CliFixtures.VOL;
import static io.ozonerc.compaction.cli.CliFixtures.args;
import static io.ozonerc.compaction.cli.CliFixtures.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * {@code --compact} really compacts: after it, RocksDB's own file facts show no tombstone left in the hot bucket's
 * range, a seek there skips next to nothing, every live key is still there, and files of ranges that were not
 * planned were not rewritten.
 */
class RangeCompactionCliCompactTest {
  private static final byte[] HOT_BEGIN = Keys.utf8("/vol/hot/");
  private static final byte[] HOT_END = Keys.utf8("/vol/hot0");
  private static final byte[] QUEUE_BEGIN = Keys.utf8("/vol/queue/");
  private static final byte[] QUEUE_END = Keys.utf8("/vol/queue0");

  @TempDir
  Path dir;

  @Test
  void compactRemovesTheHotBucketsTombstonesAndNothingElse() throws IOException {
    Path db = CliFixtures.buildOmDb(dir);
    long skipsBefore;
    Set<String> fileTableFilesBefore;
    try (OmTestStore s = OmTestStore.open(dir)) {
      assertEquals(HOT_DELETED, deletions(s.filesOverlapping("keyTable", HOT_BEGIN, HOT_END)));
      skipsBefore = s.skipsForSeek("keyTable", "/vol/hot/");
      fileTableFilesBefore = names(s, "fileTable");
    }
    // Each deleted key costs a skip for its tombstone and one for the put it hides.
    assertTrue(skipsBefore >= 2L * HOT_DELETED - 10, "skips before: " + skipsBefore);

    CliFixtures.Run r = run(args(db, concatLow("--compact", "--json")));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    JsonNode root = new ObjectMapper().readTree(r.out());
    assertEquals("read-write (compacting)", root.get("access").asText());
    JsonNode compacted = root.get("compacted");
    assertEquals(1, compacted.size(), r.out());
    assertEquals("/vol/hot/", compacted.get(0).get("range").get("label").asText());
    assertEquals("hot", compacted.get(0).get("range").get("bucket").asText());
    assertTrue(compacted.get(0).get("compacted").asBoolean(), r.out());
    assertEquals(0, compacted.get(0).get("after").get("tombstones").asLong(), r.out());

    try (OmTestStore s = OmTestStore.open(dir)) {
      List<LiveFileMetaData> hot = s.filesOverlapping("keyTable", HOT_BEGIN, HOT_END);
      assertFalse(hot.isEmpty(), "the hot bucket's live keys must still be in some file");
      assertEquals(0, deletions(hot), "tombstones left in the hot range");
      assertTrue(s.skipsForSeek("keyTable", "/vol/hot/") < 10, "a seek still skips dead keys");
      assertEquals(liveKeys(HOT_DELETED, KEYS), keysOf(s, HOT), "hot bucket's live keys");
      assertEquals(liveKeys(0, KEYS), keysOf(s, COLD), "cold bucket's keys");
      assertEquals(fileTableFilesBefore, names(s, "fileTable"), "fileTable was not planned, yet rewritten");
    }

    // A second run finds nothing left to do.
    CliFixtures.Run again = run(args(db, concatLow("--compact")));
    assertEquals(RangeCompactionCommand.OK, again.status(), again.toString());
    assertTrue(again.out().contains("compacted: 0 of 0 planned ranges"), again.out());
  }

  /**
   * A queue-style bucket: puts and deletes flushed into one level-0 file with nothing below. RocksDB moves that file
   * to the bottom without rewriting it; one {@code --compact} run must still leave no tombstone, and say that it
   * took a second, bottommost-forced pass.
   */
  @Test
  void aTrivialMoveIsFinishedInTheSameRun() throws IOException {
    Path db = buildQueueDb();
    try (OmTestStore s = OmTestStore.open(dir)) {
      assertEquals(1200, deletions(s.filesOverlapping("keyTable", QUEUE_BEGIN, QUEUE_END)));
      assertEquals(1, s.filesOverlapping("keyTable", QUEUE_BEGIN, QUEUE_END).size(), "one level-0 file");
    }

    // The range round's second pass is the subject: dead heads off (the queue's 2,400 dead entries would make it a
    // dead head, compacted first; RangeCompactionCliDeadHeadTest covers that).
    CliFixtures.Run r = run(args(db, concatLow("--compact", "--json", "--dead-head-min-keys", "0")));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    JsonNode compacted = new ObjectMapper().readTree(r.out()).get("compacted");
    assertEquals(1, compacted.size(), r.out());
    JsonNode c = compacted.get(0);
    assertEquals("/vol/queue/", c.get("range").get("label").asText());
    assertTrue(c.get("secondPass").asBoolean(), r.out());
    assertEquals(1200, c.get("afterFirstPass").get("tombstones").asLong(), r.out());
    assertEquals(0, c.get("after").get("tombstones").asLong(), r.out());
    try (OmTestStore s = OmTestStore.open(dir)) {
      assertEquals(0, deletions(s.filesOverlapping("keyTable", QUEUE_BEGIN, QUEUE_END)), "RocksDB's own count");
      assertEquals(liveKeys(1200, 2000), keysOf(s, "queue"));
    }
  }

  /** The text form of the same run names the second pass. */
  @Test
  void theTextSaysASecondPassWasNeeded() throws IOException {
    CliFixtures.Run r = run(args(buildQueueDb(), concatLow("--compact", "--dead-head-min-keys", "0")));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertTrue(r.out().contains("compacted: 1 of 1 planned range"), r.out());
    assertTrue(r.out().contains("tombstones 1200 -> 1200"), r.out());
    assertTrue(r.out().contains("second pass, bottommost=force: tombstones 1200 -> 0"), r.out());
  }

  /** om.db with one queue-style bucket: 2000 puts and the oldest 1200 deleted, flushed together into one file. */
  private Path buildQueueDb() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket(VOL, CliFixtures.VOL_ID, "queue", 300, BucketLayout.OBJECT_STORE);
      s.putKeys(VOL, "queue", 0, 2000);
      s.deleteKeys(VOL, "queue", 0, 1200);
      s.flush();
    }
    return dir.resolve("om.db");
  }

  private static String[] concatLow(String... more) {
    return java.util.stream.Stream.concat(java.util.Arrays.stream(LOW_THRESHOLDS), java.util.Arrays.stream(more))
        .toArray(String[]::new);
  }

  private static long deletions(List<LiveFileMetaData> files) {
    return files.stream().mapToLong(LiveFileMetaData::numDeletions).sum();
  }

  private static Set<String> names(OmTestStore s, String table) throws IOException {
    return s.filesOverlapping(table, new byte[0], null).stream().map(LiveFileMetaData::fileName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> liveKeys(int from, int to) {
    Set<String> out = new TreeSet<>();
    for (int i = from; i < to; i++) {
      out.add(OmTestStore.keyName(i));
    }
    return out;
  }

  private static Set<String> keysOf(OmTestStore s, String bucket) throws IOException {
    Set<String> out = new TreeSet<>();
    Table<String, OmKeyInfo> t = s.metadata().getKeyTable(BucketLayout.OBJECT_STORE);
    String prefix = "/" + VOL + "/" + bucket + "/";
    try (Table.KeyValueIterator<String, OmKeyInfo> it = t.iterator(prefix)) {
      while (it.hasNext()) {
        out.add(it.next().getValue().getKeyName());
      }
    }
    return out;
  }
}
