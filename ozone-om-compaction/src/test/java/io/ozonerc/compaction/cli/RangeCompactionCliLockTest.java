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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.testing.OmTestStore;
import io.ozonerc.dblock.DbLockProbe;
import io.ozonerc.testsupport.OmDbHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI refuses a DB that a process holds, with the holder as real as it gets short of an OM: a separate JVM
 * ({@link OmDbHolder}) that opened om.db with the OM's own metadata manager. Readiness and shutdown are
 * signalled on the child's stdout and stdin; nothing waits on a clock.
 */
class RangeCompactionCliLockTest {
  private static final Path PROC_LOCKS = Path.of("/proc/locks");

  @TempDir
  Path dir;

  @Test
  void refusesADbAnotherProcessHoldsAndNamesPathAndPid() throws Exception {
    Path db = CliFixtures.buildOmDb(dir);
    try (OmDbHolder holder = OmDbHolder.start(dir)) {
      CliFixtures.Run r = run(args(db, LOW_THRESHOLDS));
      assertEquals(RangeCompactionCommand.DB_IN_USE, r.status(), r.toString());
      assertEquals("", r.out(), "nothing may be reported from a DB that was not opened");
      assertTrue(r.err().startsWith("Refusing to open " + db + ": "), r.err());
      assertTrue(r.err().contains(db.resolve("LOCK").toString()), r.err());
      if (Files.isReadable(PROC_LOCKS)) {
        assertTrue(r.err().contains("held by process " + holder.pid()), r.err());
      }

      CliFixtures.Run c = run(args(db, "--compact"));
      assertEquals(RangeCompactionCommand.DB_IN_USE, c.status(), c.toString());

      // The refusals did not disturb the holder: its lock is still there for anyone to see.
      assertTrue(DbLockProbe.probe(db).held());

      // The race the probe cannot close (an OM that starts between the check and --compact's open): RocksDB's
      // own lock refuses the read-write open, and the CLI maps that to the same exit status.
      OpenedOmDb.DbInUseException raced = assertThrows(OpenedOmDb.DbInUseException.class,
          () -> OpenedOmDb.open(db, new OzoneConfiguration(), true).close());
      assertTrue(raced.getMessage().contains(db.resolve("LOCK").toString()), raced.getMessage());
    }
    CliFixtures.Run after = run(args(db, LOW_THRESHOLDS));
    assertEquals(RangeCompactionCommand.OK, after.status(), after.toString());
    assertTrue(after.out().contains("access: read-only; LOCK is not held by any process"), after.out());
  }

  /**
   * A holder inside this JVM: fcntl locks do not conflict within a process, so only /proc/locks can see it, and
   * the probe must not even open the LOCK file (closing it would drop the holder's lock).
   */
  @Test
  void refusesADbThisProcessHoldsAndLeavesItsLockAlone() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(PROC_LOCKS), "needs /proc/locks (Linux)");
    try (OmTestStore store = OmTestStore.open(dir)) {
      Path db = dir.resolve("om.db");
      long self = ProcessHandle.current().pid();
      CliFixtures.Run r = run(args(db));
      assertEquals(RangeCompactionCommand.DB_IN_USE, r.status(), r.toString());
      assertTrue(r.err().contains("held by this process (pid " + self + ")"), r.err());
      Optional<List<Long>> holders = DbLockProbe.writeLockHolders(db.resolve("LOCK"), PROC_LOCKS);
      assertEquals(Optional.of(List.of(self)), holders, "the store's RocksDB lock must survive the probe");
    }
  }

  /** A cold copy has no LOCK file (RocksDB checkpoints do not carry one): nothing holds it, and it is readable. */
  @Test
  void readsACopyWithoutLockFile() throws IOException {
    Path db = CliFixtures.buildOmDb(dir.resolve("src"));
    Path copy = dir.resolve("copy").resolve("om.db");
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(db)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().equals("LOCK")) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    Map<String, String> before = CliFixtures.fileFacts(copy);
    CliFixtures.Run r = run(args(copy, LOW_THRESHOLDS));
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertTrue(r.out().contains("access: read-only; no LOCK file"), r.out());
    assertTrue(r.out().contains("/vol/hot/"), r.out());
    assertEquals(before, CliFixtures.fileFacts(copy), "analysis of a copy wrote to it");
    assertFalse(Files.exists(copy.resolve("LOCK")), "a read-only open must not create a LOCK file");
  }

  /**
   * The om.db of an OM killed before its last flush: its newest deletes exist only in the write-ahead log. A
   * read-only open replays them into a memtable, where the planner cannot see them; the report says so instead
   * of silently planning without them.
   */
  @Test
  void reportsDeletesThatAKilledHolderNeverFlushed() throws Exception {
    Path db = CliFixtures.buildOmDb(dir);
    OmDbHolder holder = OmDbHolder.startAfterUnflushedDeletes(dir, CliFixtures.VOL, CliFixtures.COLD,
        IntStream.range(0, 600).mapToObj(OmTestStore::keyName).toList());
    holder.kill();
    Map<String, String> before = CliFixtures.fileFacts(dir);
    CliFixtures.Run r = run(args(db, LOW_THRESHOLDS));
    assertEquals(before, CliFixtures.fileFacts(dir), "replaying the log read-only wrote to the DB");
    assertEquals(RangeCompactionCommand.OK, r.status(), r.toString());
    assertTrue(r.out().contains("  memtable (not in any SST file, not planned on): 600 entries, 600 deletes"),
        r.out());
    // The SST facts are those of the fixture: the cold bucket's 600 tombstones are not among them.
    assertTrue(r.out().contains("keyTable: 2 SST files in L0, 2950 entries, 950 tombstones"), r.out());
  }
}
