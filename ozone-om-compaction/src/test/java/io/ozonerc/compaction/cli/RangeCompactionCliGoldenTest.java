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

import static io.ozonerc.compaction.cli.CliFixtures.LOW_THRESHOLDS;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * The CLI's output on a small om.db built by a real OmMetadataManagerImpl (see {@link CliFixtures#buildOmDb}),
 * compared line by line with golden files under src/test/resources/cli/. Every analysis run is also checked to
 * leave the DB's files exactly as they were: same names, sizes, mtimes and contents.
 *
 * <p>Two things are normalised before the comparison: the temp directory's path (printed as {@code <db>}), and
 * byte counts (printed as {@code <bytes>}). RocksDB writes the creating host's name into every SST file's
 * properties ({@code rocksdb.creating.host.identity}), so file sizes differ between machines by the length of
 * the host name. The byte counts are instead checked exactly against the sizes RocksDB reports for the same files
 * ({@link #bytesAreWhatRocksDbReports}).
 *
 * <p>To rewrite the golden files after a deliberate output change, run with
 * {@code -Dcli.golden.update=true} from the module directory and review the diff.
 */
class RangeCompactionCliGoldenTest {
  @TempDir
  static Path dir;
  static Path db;
  static Map<String, String> filesAtStart;

  /** Live SST files of keyTable, from RocksDB itself, read before any CLI run. */
  static List<LiveFileMetaData> keyTableFiles;

  @BeforeAll
  static void build() throws IOException {
    db = CliFixtures.buildOmDb(dir);
    try (OmTestStore s = OmTestStore.open(dir)) {
      keyTableFiles = s.filesOverlapping("keyTable", new byte[0], null);
    }
    filesAtStart = CliFixtures.fileFacts(dir);
  }

  @Test
  void textWithDryRunMatchesGolden() throws IOException {
    CliFixtures.Run r = run(args(db, concat(LOW_THRESHOLDS, "--dry-run")));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertEquals("", r.err(), r.toString());
    compareWithGolden("dry-run.txt", r.out());
    assertUnchanged();
  }

  @Test
  void jsonWithDryRunMatchesGolden() throws IOException {
    CliFixtures.Run r = run(args(db, concat(LOW_THRESHOLDS, "--dry-run", "--json")));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    compareWithGolden("dry-run.json", r.out());
    assertUnchanged();
  }

  @Test
  void defaultThresholdsPlanNothingAndTopLimitsTheList() throws IOException {
    // The default thresholds (10000 tombstones) are far above this DB: nothing qualifies.
    CliFixtures.Run r = run(args(db, "--dry-run", "--top", "1", "--table", "keyTable"));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    compareWithGolden("defaults-top1-keyTable.txt", r.out());
    assertUnchanged();
  }

  /** The JSON carries the same numbers as the text, and the planner's own reading of the hot bucket. */
  @Test
  void jsonNamesTheHotBucketFirst() throws IOException {
    CliFixtures.Run r = run(args(db, concat(LOW_THRESHOLDS, "--json", "--dry-run")));
    JsonNode root = new ObjectMapper().readTree(r.out());
    JsonNode keyTable = table(root, "keyTable");
    // What RocksDB reports for keyTable: 2 puts of 1000 keys and 950 deletes, in two level-0 files.
    assertEquals(2, keyTable.get("sstFiles").asInt());
    assertEquals(2 * CliFixtures.KEYS + CliFixtures.HOT_DELETED, keyTable.get("entries").asLong());
    assertEquals(CliFixtures.HOT_DELETED, keyTable.get("tombstones").asLong());
    JsonNode worst = keyTable.get("worstRanges").get(0);
    assertEquals("/vol/hot/", worst.get("label").asText());
    assertEquals("vol", worst.get("volume").asText());
    assertEquals("hot", worst.get("bucket").asText());
    // An FSO bucket is named, not numbered; its keys still show the ids.
    JsonNode fso = table(root, "fileTable").get("worstRanges").get(0);
    assertEquals("/vol/fso/", fso.get("label").asText());
    assertEquals("fso", fso.get("bucket").asText());
    assertEquals("/" + CliFixtures.VOL_ID + "/" + CliFixtures.FSO_BUCKET_ID + "/", fso.get("begin").asText());
    assertEquals(CliFixtures.HOT_DELETED, worst.get("tombstones").asLong());
    assertEquals("planned", worst.get("verdict").asText());
    JsonNode planned = root.get("plan").get("planned");
    assertEquals(1, planned.size(), r.out());
    assertEquals("/vol/hot0", planned.get(0).get("end").asText());
  }

  /** The byte counts the golden comparison masks, checked against RocksDB's own file sizes. */
  @Test
  void bytesAreWhatRocksDbReports() throws IOException {
    CliFixtures.Run r = run(args(db, concat(LOW_THRESHOLDS, "--json", "--dry-run")));
    JsonNode keyTable = table(new ObjectMapper().readTree(r.out()), "keyTable");
    long all = keyTableFiles.stream().mapToLong(LiveFileMetaData::size).sum();
    long hot = keyTableFiles.stream().filter(f -> Keys.overlaps(f.smallestKey(), f.largestKey(),
        Keys.utf8("/vol/hot/"), Keys.utf8("/vol/hot0"))).mapToLong(LiveFileMetaData::size).sum();
    assertEquals(all, keyTable.get("bytes").asLong(), r.out());
    assertEquals(hot, keyTable.get("worstRanges").get(0).get("fileBytes").asLong(), r.out());
    assertEquals(hot, new ObjectMapper().readTree(r.out()).get("plan").get("plannedBytes").asLong(), r.out());
    CliFixtures.Run text = run(args(db, concat(LOW_THRESHOLDS, "--dry-run")));
    assertTrue(text.out().contains(", " + all + " bytes; "), text.out());
    assertTrue(text.out().contains(" range, " + hot + " file bytes"), text.out());
  }

  private static JsonNode table(JsonNode root, String name) {
    for (JsonNode t : root.get("tables")) {
      if (t.get("table").asText().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("no table " + name + " in " + root);
  }

  /**
   * Replaces byte counts with {@code <bytes>} (see the class comment). In text tables the file-bytes cell is
   * right-aligned under its header, which is wider than any count below 10 GB, so masking it keeps the layout.
   */
  static String maskBytes(String out) {
    String s = out.replaceAll("(\"(?:bytes|fileBytes|plannedBytes)\" : )\\d+", "$1\"<bytes>\"")
        .replaceAll(", \\d+ bytes; ", ", <bytes> bytes; ")
        .replaceAll(", \\d+ file bytes", ", <bytes> file bytes")
        .replaceAll(" bytes=\\d+ ", " bytes=<bytes> ");
    List<String> lines = new ArrayList<>();
    int cellEnd = -1;
    for (String line : s.split("\n", -1)) {
      int header = line.indexOf("  file-bytes  ");
      if (header >= 0) {
        cellEnd = header + "  file-bytes".length();
      } else if (cellEnd > 0 && line.matches("  \\d+ .*") && line.length() > cellEnd) {
        int cellStart = cellEnd - "file-bytes".length();
        line = line.substring(0, cellStart) + String.format("%10s", "<bytes>") + line.substring(cellEnd);
      } else {
        cellEnd = -1;
      }
      lines.add(line);
    }
    return String.join("\n", lines);
  }

  private static void assertUnchanged() throws IOException {
    assertEquals(filesAtStart, CliFixtures.fileFacts(dir), "an analysis run changed the DB's files");
  }

  private static void compareWithGolden(String name, String actualRaw) throws IOException {
    CliFixtures.assertGolden(name, maskBytes(actualRaw.replace(db.toString(), "<db>")));
  }

  private static String[] concat(String[] head, String... tail) {
    List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }
}
