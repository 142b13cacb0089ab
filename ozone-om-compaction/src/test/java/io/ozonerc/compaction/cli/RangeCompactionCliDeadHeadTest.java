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

import static io.ozonerc.compaction.cli.CliFixtures.VOL;
import static io.ozonerc.compaction.cli.CliFixtures.args;
import static io.ozonerc.compaction.cli.CliFixtures.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue bucket whose head is dead, under the default thresholds: the range test misses it (9,000 tombstones are
 * below {@code min.tombstones=10000}), the dead-head test does not (18,000 dead entries >= 2,000). Analysis and
 * the dry run show the head with the count the round's probe measured, which is what RocksDB's own skip ticker
 * counts for a seek there; {@code --compact} compacts it, and a seek afterwards skips next to nothing.
 */
class RangeCompactionCliDeadHeadTest {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactionCliDeadHeadTest.class);
  static final int QUEUE_KEYS = 30_000;
  static final int QUEUE_DELETED = 9_000; // the oldest: a contiguous run at the bucket's start
  static final String QUEUE = "/vol/queue/";

  @TempDir
  Path dir;

  /**
   * om.db with a live bucket /vol/a/ (so the table head is live) and a queue bucket /vol/queue/: puts in one flush,
   * the queue's oldest 9,000 deleted in a second. Returns the internal keys RocksDB skips for a seek at the queue.
   */
  private long buildQueueDb() throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket(VOL, CliFixtures.VOL_ID, "a", 300, BucketLayout.OBJECT_STORE);
      s.addBucket(VOL, CliFixtures.VOL_ID, "queue", 301, BucketLayout.OBJECT_STORE);
      s.putKeys(VOL, "a", 0, 100);
      s.putKeys(VOL, "queue", 0, QUEUE_KEYS);
      s.flush();
      s.deleteKeys(VOL, "queue", 0, QUEUE_DELETED);
      s.flush();
      return s.skipsForSeek("keyTable", QUEUE);
    }
  }

  private Path db() {
    return dir.resolve("om.db");
  }

  @Test
  void analysisAndDryRunShowTheDeadHeadWithTheCountRocksDbReports() throws IOException {
    long skips = buildQueueDb();
    assertTrue(skips >= 2L * QUEUE_DELETED, "tombstone + put per deleted key: " + skips);
    Map<String, String> filesBefore = CliFixtures.fileFacts(dir);

    CliFixtures.Run json = run(args(db(), "--dry-run", "--json", "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, json.status(), json.toString());
    JsonNode root = new ObjectMapper().readTree(json.out());
    JsonNode head = root.get("deadHeads").get("heads").get(0);
    assertEquals(QUEUE, head.get("label").asText(), json.out());
    assertEquals("bucket head", head.get("kind").asText());
    assertEquals("planned", head.get("verdict").asText());
    assertEquals(QUEUE + OmTestStore.keyName(QUEUE_DELETED), head.get("firstLiveKey").asText());
    long dead = head.get("deadEntries").asLong();
    // The probe counts what its bounded seek steps over and sizes the rest by RocksDB's approximate sizes.
    assertTrue(Math.abs(dead - skips) <= skips / 100, "probe " + dead + " vs RocksDB's skip ticker " + skips);
    JsonNode plan = root.get("plan");
    assertEquals(0, plan.get("planned").size(), "the range test misses the queue: " + json.out());
    assertEquals(1, plan.get("deadHeads").size(), json.out());
    assertEquals(QUEUE + OmTestStore.keyName(QUEUE_DELETED), plan.get("deadHeads").get(0).get("end").asText(),
        "just the dead span");
    assertEquals(dead, plan.get("deadHeads").get(0).get("deadEntries").asLong());

    CliFixtures.Run text = run(args(db(), "--dry-run", "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, text.status(), text.toString());
    LOG.info("dry run on a queue bucket, RocksDB's skip ticker for a seek there: {}\n{}", skips, text.out());
    assertTrue(text.out().contains("  1  keyTable  " + QUEUE + "  " + dead + "  "), text.out());
    assertTrue(text.out().contains("): 1 dead head, 0 ranges, "), text.out());
    assertTrue(text.out().contains("  1. dead head keyTable " + QUEUE + " [" + QUEUE + ", " + QUEUE
        + OmTestStore.keyName(QUEUE_DELETED) + ") "), text.out());
    assertTrue(text.out().contains("planned: dead head " + dead + " >= 2000 "), text.out());
    compareWithGolden("queue-dead-head-dry-run.txt", headsAndPlan(text.out()), dead);

    CliFixtures.Run analysis = run(args(db(), "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, analysis.status(), analysis.toString());
    assertTrue(analysis.out().contains("  1  keyTable  " + QUEUE + "  " + dead + "  "), analysis.out());
    assertTrue(!analysis.out().contains("plan ("), "analysis prints no plan: " + analysis.out());
    assertEquals(filesBefore, CliFixtures.fileFacts(dir), "an analysis run changed the DB's files");
  }

  @Test
  void compactCompactsTheDeadHeadAndASeekThenSkipsNextToNothing() throws IOException {
    long skips = buildQueueDb();
    CliFixtures.Run r = run(args(db(), "--compact", "--json", "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    LOG.info("--compact on a queue bucket:\n{}", r.out());
    JsonNode root = new ObjectMapper().readTree(r.out());
    JsonNode heads = root.get("compactedDeadHeads");
    assertEquals(1, heads.size(), r.out());
    JsonNode c = heads.get(0);
    assertTrue(c.get("compacted").asBoolean(), r.out());
    assertEquals(QUEUE, c.get("range").get("label").asText());
    assertTrue(Math.abs(c.get("deadEntriesBefore").asLong() - skips) <= skips / 100, r.out());
    assertTrue(c.get("deadEntriesAfter").asLong() <= 10, r.out());
    assertEquals(0, root.get("compacted").size(), "no range qualifies: " + r.out());

    try (OmTestStore s = OmTestStore.open(dir)) {
      long after = s.skipsForSeek("keyTable", QUEUE);
      assertTrue(after <= 10, "a seek at the queue still skips " + after);
      long deletions = s.filesOverlapping("keyTable", Keys.utf8(QUEUE),
          Keys.utf8(QUEUE + OmTestStore.keyName(QUEUE_DELETED))).stream()
          .mapToLong(LiveFileMetaData::numDeletions).sum();
      assertEquals(0, deletions, "deletions RocksDB reports in files over the dead span");
    }

    CliFixtures.Run again = run(args(db(), "--compact", "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, again.status(), again.toString());
    assertTrue(again.out().contains("dead heads compacted: 0 of 0 planned"), again.out());
  }

  /** From the dead heads' block to the end: the lines this test is about. */
  private static String headsAndPlan(String out) {
    return out.substring(out.indexOf("dead heads: "));
  }

  /**
   * The golden comparison, with the probe's count masked by as many {@code ~} (so columns keep their places): it
   * sizes the head from SST bytes, which vary by host.
   */
  private void compareWithGolden(String name, String actualRaw, long dead) throws IOException {
    String masked = actualRaw.replace(db().toString(), "<db>")
        .replaceAll("(?<=\\s)" + dead + "(?=\\s)", "~".repeat(String.valueOf(dead).length()));
    CliFixtures.assertGolden(name, RangeCompactionCliGoldenTest.maskBytes(masked));
  }
}
