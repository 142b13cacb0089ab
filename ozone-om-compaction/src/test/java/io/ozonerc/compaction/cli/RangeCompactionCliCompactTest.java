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
    assertEquals("/vol/hot/", compacted.get(0).get("range").get("bucket").asText());
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
