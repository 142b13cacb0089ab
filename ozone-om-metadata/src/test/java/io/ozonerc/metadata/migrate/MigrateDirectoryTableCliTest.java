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

import static io.ozonerc.testsupport.OzoneParentCommands.repair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.OmDbHolder;
import io.ozonerc.testsupport.OzoneParentCommands.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.apache.hadoop.hdds.cli.RepairSubcommand;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The migration tool's command line as an operator meets it: `ozone repair` finds it, bad arguments exit 2, and a
 * DB another process holds exits 3 with the holder's pid and no stack trace. The holder is a separate JVM
 * ({@link OmDbHolder}) that opened om.db read-write; readiness and release go over its stdout and stdin.
 */
class MigrateDirectoryTableCliTest {
  @TempDir
  Path dir;

  private Path emptyOmDb() throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    new OmMetadataManagerImpl(conf, null).stop();
    return dir.resolve("om.db");
  }

  @Test
  void ozoneRepairFindsTheCommandAndRunsIt() throws Exception {
    assertTrue(ServiceLoader.load(RepairSubcommand.class).stream()
        .anyMatch(p -> p.type() == MigrateDirectoryTableCommand.class), "not registered in META-INF/services");
    Path db = emptyOmDb();
    Run r = repair("migrate-directory-table", "--db", db.toString(), "--to", "Trimmed", "--dry-run");
    assertEquals(MigrateDirectoryTableCommand.OK, r.status(), r.toString());
    assertTrue(r.out().startsWith("dry run, nothing written: "), r.out());
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
    String[] argv = args.replace("DB", db.toString()).split(",");
    String[] full = new String[argv.length + 1];
    full[0] = "migrate-directory-table";
    System.arraycopy(argv, 0, full, 1, argv.length);
    Run r = repair(full);
    assertEquals(MigrateDirectoryTableCommand.USAGE, r.status(), name + ": " + r.err());
    assertFalse(r.err().isBlank(), "says what is wrong");
  }

  @Test
  void aDbHeldByAnotherProcessExits3NamingThePidWithoutAStackTrace() throws Exception {
    Path db = emptyOmDb();
    try (OmDbHolder holder = OmDbHolder.start(dir)) {
      Run r = repair("migrate-directory-table", "--db", db.toString(), "--to", "trimmed");
      assertEquals(MigrateDirectoryTableCommand.DB_IN_USE, r.status(), r.err());
      assertEquals("", r.out());
      assertTrue(r.err().startsWith("Refusing to open " + db + ": its RocksDB lock file "
          + db.resolve("LOCK")), r.err());
      if (Files.isReadable(Path.of("/proc/locks"))) {
        assertTrue(r.err().contains("held by process " + holder.pid()), r.err());
      }
      assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
    }
  }
}
