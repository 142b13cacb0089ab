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
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.hadoop.hdds.cli.DebugSubcommand;
import org.apache.hadoop.hdds.cli.ExtensibleParentCommand;
import org.apache.hadoop.hdds.cli.GenericCli;
import org.apache.hadoop.hdds.cli.RepairSubcommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;
import picocli.CommandLine;

/** How the command is found and driven: `ozone debug`'s ServiceLoader wiring, configuration, argument errors. */
class RangeCompactionCliCommandTest {
  @TempDir
  Path dir;

  /**
   * A parent built like Ozone 2.2.0's {@code OzoneDebug}: a GenericCli that is an ExtensibleParentCommand over
   * DebugSubcommand. It finds the command through META-INF/services and hands it its -D configuration.
   */
  @CommandLine.Command(name = "ozone debug")
  static final class DebugLikeRoot extends GenericCli implements ExtensibleParentCommand {
    @Override
    public Class<?> subcommandType() {
      return DebugSubcommand.class;
    }
  }

  @Test
  void ozoneDebugFindsTheCommandAndPassesItsConfiguration() throws IOException {
    assertTrue(ServiceLoader.load(DebugSubcommand.class).stream()
        .anyMatch(p -> p.type() == RangeCompactionCommand.class), "not registered in META-INF/services");
    Path db = CliFixtures.buildOmDb(dir);
    DebugLikeRoot root = new DebugLikeRoot();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    root.getCmd().setOut(new PrintWriter(out, true));
    root.getCmd().setErr(new PrintWriter(err, true));
    int status = root.execute(new String[] {
        "-Dozone.om.range.compaction.min.tombstones=100", "-Dozone.om.range.compaction.tombstone.ratio=0.3",
        "range-compaction", "--db", db.toString(), "--dry-run"});
    assertEquals(RangeCompactionCommand.OK, status, out + "\n" + err);
    assertTrue(out.toString().contains("settings: min.tombstones=100 tombstone.ratio=0.3 "), out.toString());
    assertTrue(out.toString().contains("  1. keyTable /vol/hot/ [/vol/hot/, /vol/hot0) "), out.toString());
  }

  /** Like Ozone 2.2.0's {@code OzoneRepair}: an ExtensibleParentCommand over RepairSubcommand. */
  @CommandLine.Command(name = "ozone repair")
  static final class RepairLikeRoot extends GenericCli implements ExtensibleParentCommand {
    @Override
    public Class<?> subcommandType() {
      return RepairSubcommand.class;
    }
  }

  /** The repair form writes by default, like Ozone's repair tools, and --dry-run keeps every file as it was. */
  @Test
  void ozoneRepairCompactsUnlessDryRun() throws IOException {
    Path db = CliFixtures.buildOmDb(dir);
    Map<String, String> before = CliFixtures.fileFacts(dir);
    StringWriter out = new StringWriter();
    int status = repair(out, "range-compaction", "--db", db.toString(), "--min-tombstones", "100", "--dry-run");
    assertEquals(RangeCompactionCommand.OK, status, out.toString());
    assertTrue(out.toString().contains("access: read-only;"), out.toString());
    assertTrue(out.toString().contains("  1. keyTable /vol/hot/ [/vol/hot/, /vol/hot0) "), out.toString());
    assertEquals(before, CliFixtures.fileFacts(dir), "repair --dry-run wrote to the DB");

    assertEquals(CommandLine.ExitCode.USAGE, repair(new StringWriter(), "range-compaction", "--db", db.toString(),
        "--compact"), "--compact belongs to the debug form only");

    StringWriter done = new StringWriter();
    status = repair(done, "range-compaction", "--db", db.toString(), "--min-tombstones", "100");
    assertEquals(RangeCompactionCommand.OK, status, done.toString());
    assertTrue(done.toString().contains("access: read-write (compacting);"), done.toString());
    assertTrue(done.toString().contains("compacted: 1 of 1 planned range"), done.toString());
    try (OmTestStore s = OmTestStore.open(dir)) {
      long tombstones = s.filesOverlapping("keyTable", Keys.utf8("/vol/hot/"), Keys.utf8("/vol/hot0")).stream()
          .mapToLong(LiveFileMetaData::numDeletions).sum();
      assertEquals(0, tombstones, "tombstones left in the hot range after ozone repair range-compaction");
    }
  }

  private static int repair(StringWriter out, String... args) {
    RepairLikeRoot root = new RepairLikeRoot();
    root.getCmd().setOut(new PrintWriter(out, true));
    root.getCmd().setErr(new PrintWriter(out, true));
    return root.execute(args);
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
