package io.ozonerc.compaction.cli;

import static io.ozonerc.compaction.cli.CliFixtures.LOW_THRESHOLDS;
import static io.ozonerc.compaction.cli.CliFixtures.args;
import static io.ozonerc.compaction.cli.CliFixtures.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's output on a small om.db built by a real OmMetadataManagerImpl (see {@link CliFixtures#buildOmDb}),
 * compared line by line with golden files under src/test/resources/cli/. The only normalisation is the temp
 * directory's path, printed as {@code <db>}. Every analysis run is also checked to leave the DB's files exactly as
 * they were: same names, sizes, mtimes and contents.
 *
 * <p>To rewrite the golden files after a deliberate output change, run with
 * {@code -Dcli.golden.update=true} from the module directory and review the diff.
 */
class RangeCompactionCliGoldenTest {
  private static final Path GOLDEN_SOURCE = Path.of("src", "test", "resources", "cli");

  @TempDir
  static Path dir;
  static Path db;
  static Map<String, String> filesAtStart;

  @BeforeAll
  static void build() throws IOException {
    db = CliFixtures.buildOmDb(dir);
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
    // The defaults (10000 tombstones) are far above this DB: nothing qualifies.
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
    JsonNode keyTable = null;
    for (JsonNode t : root.get("tables")) {
      if (t.get("table").asText().equals("keyTable")) {
        keyTable = t;
      }
    }
    assertTrue(keyTable != null, r.out());
    // What RocksDB reports for keyTable: 2 puts of 1000 keys and 950 deletes, in two level-0 files.
    assertEquals(2, keyTable.get("sstFiles").asInt());
    assertEquals(2 * CliFixtures.KEYS + CliFixtures.HOT_DELETED, keyTable.get("entries").asLong());
    assertEquals(CliFixtures.HOT_DELETED, keyTable.get("tombstones").asLong());
    JsonNode worst = keyTable.get("worstRanges").get(0);
    assertEquals("/vol/hot/", worst.get("bucket").asText());
    assertEquals(CliFixtures.HOT_DELETED, worst.get("tombstones").asLong());
    assertEquals("planned", worst.get("verdict").asText());
    JsonNode planned = root.get("plan").get("planned");
    assertEquals(1, planned.size(), r.out());
    assertEquals("/vol/hot0", planned.get(0).get("end").asText());
  }

  private static void assertUnchanged() throws IOException {
    assertEquals(filesAtStart, CliFixtures.fileFacts(dir), "an analysis run changed the DB's files");
  }

  private static void compareWithGolden(String name, String actualRaw) throws IOException {
    String actual = actualRaw.replace(db.toString(), "<db>");
    if (Boolean.getBoolean("cli.golden.update")) {
      Files.createDirectories(GOLDEN_SOURCE);
      Files.writeString(GOLDEN_SOURCE.resolve(name), actual, StandardCharsets.UTF_8);
    }
    List<String> expected = CliFixtures.golden(name).lines().toList();
    List<String> got = actual.lines().toList();
    // Line by line first, so a failure points at the first line that differs.
    for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
      assertEquals(expected.get(i), got.get(i), name + " line " + (i + 1) + "; whole output:\n" + actual);
    }
    assertEquals(expected.size(), got.size(), name + " line count; whole output:\n" + actual);
  }

  private static String[] concat(String[] head, String... tail) {
    List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }
}
