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

package io.ozonerc.metadata.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.cli.ExtensibleParentCommand;
import org.apache.hadoop.hdds.cli.GenericCli;
import org.apache.hadoop.hdds.cli.RepairSubcommand;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The migration tool's command line as an operator meets it: `ozone repair` finds it, bad arguments exit 2, and a
 * DB another process holds exits 3 with the holder's pid and no stack trace. The holder is a separate JVM
 * ({@link OmDbHolderMain}) that opened om.db read-write; readiness and release go over its stdout and stdin.
 */
class MigrateDirectoryTableCliTest {
  @TempDir
  Path dir;

  /** Like Ozone 2.2.0's {@code OzoneRepair}: a GenericCli that is an ExtensibleParentCommand over RepairSubcommand. */
  @CommandLine.Command(name = "ozone repair")
  static final class RepairLikeRoot extends GenericCli implements ExtensibleParentCommand {
    @Override
    public Class<?> subcommandType() {
      return RepairSubcommand.class;
    }
  }

  private Path emptyOmDb() throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    new OmMetadataManagerImpl(conf, null).stop();
    return dir.resolve("om.db");
  }

  private static int repair(StringWriter out, StringWriter err, String... args) {
    RepairLikeRoot root = new RepairLikeRoot();
    root.getCmd().setOut(new PrintWriter(out, true));
    root.getCmd().setErr(new PrintWriter(err, true));
    return root.execute(args);
  }

  @Test
  void ozoneRepairFindsTheCommandAndRunsIt() throws Exception {
    assertTrue(ServiceLoader.load(RepairSubcommand.class).stream()
        .anyMatch(p -> p.type() == MigrateDirectoryTableCommand.class), "not registered in META-INF/services");
    Path db = emptyOmDb();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = repair(out, err, "migrate-directory-table", "--db", db.toString(), "--to", "Trimmed", "--dry-run");
    assertEquals(MigrateDirectoryTableCommand.OK, status, out + "\n" + err);
    assertTrue(out.toString().startsWith("dry run, nothing written: "), out.toString());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "missing --to|--db,DB",
      "unknown format|--db,DB,--to,yaml",
      "unknown option|--db,DB,--to,trimmed,--fast",
      "batch size 0|--db,DB,--to,trimmed,--batch-size,0",
  })
  void badArgumentsExit2(String name, String args) throws Exception {
    Path db = emptyOmDb();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] argv = args.replace("DB", db.toString()).split(",");
    String[] full = new String[argv.length + 1];
    full[0] = "migrate-directory-table";
    System.arraycopy(argv, 0, full, 1, argv.length);
    assertEquals(MigrateDirectoryTableCommand.USAGE, repair(out, err, full), name + ": " + err);
    assertFalse(err.toString().isBlank(), "says what is wrong");
  }

  @Test
  void aDbHeldByAnotherProcessExits3NamingThePidWithoutAStackTrace() throws Exception {
    Path db = emptyOmDb();
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), OmDbHolderMain.class.getName(), db.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      BufferedReader lines = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      String ready;
      do {
        ready = lines.readLine();
      } while (ready != null && !ready.startsWith("READY "));
      assertTrue(ready != null, "holder did not open the DB");
      long pid = Long.parseLong(ready.substring("READY ".length()).trim());

      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int status = repair(out, err, "migrate-directory-table", "--db", db.toString(), "--to", "trimmed");
      assertEquals(MigrateDirectoryTableCommand.DB_IN_USE, status, err.toString());
      assertEquals("", out.toString());
      assertTrue(err.toString().startsWith("Refusing to open " + db + ": its RocksDB lock file "
          + db.resolve("LOCK")), err.toString());
      if (Files.isReadable(Path.of("/proc/locks"))) {
        assertTrue(err.toString().contains("held by process " + pid), err.toString());
      }
      assertFalse(err.toString().contains("\tat ") || err.toString().contains("Exception"), "no stack trace: " + err);
    } finally {
      holder.getOutputStream().close();
      if (!holder.waitFor(60, TimeUnit.SECONDS)) {
        holder.destroyForcibly();
      }
    }
  }
}
