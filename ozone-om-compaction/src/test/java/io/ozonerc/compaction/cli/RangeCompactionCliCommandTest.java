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

import static io.ozonerc.compaction.cli.CliFixtures.args;
import static io.ozonerc.compaction.cli.CliFixtures.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.testsupport.OzoneParentCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.hadoop.hdds.cli.DebugSubcommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import picocli.CommandLine;

/** How the command is found and driven: `ozone debug`'s ServiceLoader wiring, configuration, argument errors. */
class RangeCompactionCliCommandTest {
  @TempDir
  Path dir;

  @Test
  void ozoneDebugFindsTheCommandAndPassesItsConfiguration() throws IOException {
    assertTrue(ServiceLoader.load(DebugSubcommand.class).stream()
        .anyMatch(p -> p.type() == RangeCompactionCommand.class), "not registered in META-INF/services");
    Path db = CliFixtures.buildOmDb(dir);
    // The parent finds the command through META-INF/services and hands it its -D configuration.
    OzoneParentCommands.Run r = OzoneParentCommands.debug(
        "-Dozone.om.range.compaction.min.tombstones=100", "-Dozone.om.range.compaction.tombstone.ratio=0.3",
        "range-compaction", "--db", db.toString(), "--dry-run");
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertTrue(r.out().contains("settings: min.tombstones=100 tombstone.ratio=0.3 "), r.out());
    assertTrue(r.out().contains("  1. keyTable /vol/hot/ [/vol/hot/, /vol/hot0) "), r.out());
  }

  /** The repair form writes by default, like Ozone's repair tools, and --dry-run keeps every file as it was. */
  @Test
  void ozoneRepairCompactsUnlessDryRun() throws IOException {
    Path db = CliFixtures.buildOmDb(dir);
    Map<String, String> before = CliFixtures.fileFacts(dir);
    OzoneParentCommands.Run dry = OzoneParentCommands.repair("range-compaction", "--db", db.toString(),
        "--min-tombstones", "100", "--dry-run");
    assertEquals(RangeCompactionCommand.OK, dry.status(), dry.toString());
    assertTrue(dry.out().contains("access: read-only;"), dry.toString());
    assertTrue(dry.out().contains("  1. keyTable /vol/hot/ [/vol/hot/, /vol/hot0) "), dry.toString());
    assertEquals(before, CliFixtures.fileFacts(dir), "repair --dry-run wrote to the DB");

    assertEquals(CommandLine.ExitCode.USAGE, OzoneParentCommands.repair("range-compaction", "--db", db.toString(),
        "--compact").status(), "--compact belongs to the debug form only");

    OzoneParentCommands.Run done = OzoneParentCommands.repair("range-compaction", "--db", db.toString(),
        "--min-tombstones", "100");
    assertEquals(RangeCompactionCommand.OK, done.status(), done.toString());
    assertTrue(done.out().contains("access: read-write (compacting);"), done.toString());
    assertTrue(done.out().contains("compacted: 1 of 1 planned range"), done.toString());
    try (OmTestStore s = OmTestStore.open(dir)) {
      long tombstones = s.filesOverlapping("keyTable", Keys.utf8("/vol/hot/"), Keys.utf8("/vol/hot0")).stream()
          .mapToLong(LiveFileMetaData::numDeletions).sum();
      assertEquals(0, tombstones, "tombstones left in the hot range after ozone repair range-compaction");
    }
  }

  @Test
  void optionsOverrideDashD() throws IOException {
    Path db = CliFixtures.buildOmDb(dir);
    CliFixtures.Run r = run(args(db, "-Dozone.om.range.compaction.min.tombstones=5000", "--min-tombstones", "100",
        "--tombstone-ratio", "0.3", "--ranges-per-run", "0", "--dry-run"));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertTrue(r.out().contains("min.tombstones=100 "), r.out());
    // ranges.per.run=0: the hot bucket qualifies but the round has no room for it.
    assertTrue(r.out().contains("plan (dry run: a round would compact these, in this order): 0 dead heads, 0 ranges"),
        r.out());
    assertTrue(r.out().contains("qualified but not planned: 1"), r.out());
    assertTrue(r.out().contains("over-budget: ranges.per.run=0 reached"), r.out());
  }

  @Test
  void invalidThresholdNamesTheKey() {
    CliFixtures.Run r = run(args(dir, "--tombstone-ratio", "1.5"));
    assertEquals(RangeCompactionCommand.USAGE, r.status(), r.toString());
    assertTrue(r.err().contains("ozone.om.range.compaction.tombstone.ratio"), r.err());
    CliFixtures.Run t = run(args(dir, "--table", "keyTable,noSuchTable"));
    assertEquals(RangeCompactionCommand.USAGE, t.status(), t.toString());
    assertTrue(t.err().contains("noSuchTable"), t.err());
  }

  @Test
  void compactAndDryRunExcludeEachOther() {
    CliFixtures.Run r = run(args(dir, "--compact", "--dry-run"));
    assertEquals(RangeCompactionCommand.USAGE, r.status(), r.toString());
  }

  /** A mistyped path is an error, never a new empty DB (RocksDB's create_if_missing would make one). */
  @Test
  void compactOnAPathWithoutDbCreatesNothing() throws IOException {
    Path missing = dir.resolve("no-such").resolve("om.db");
    CliFixtures.Run r = run(args(missing, "--compact"));
    assertEquals(RangeCompactionCommand.FAILED, r.status(), r.toString());
    assertTrue(r.err().contains("is not a RocksDB directory"), r.err());
    assertFalse(Files.exists(missing));
    Path empty = Files.createDirectories(dir.resolve("empty"));
    CliFixtures.Run e = run(args(empty, "--compact"));
    assertEquals(RangeCompactionCommand.FAILED, e.status(), e.toString());
    try (var files = Files.list(empty)) {
      assertEquals(0, files.count(), "files created in an empty directory");
    }
  }
}
