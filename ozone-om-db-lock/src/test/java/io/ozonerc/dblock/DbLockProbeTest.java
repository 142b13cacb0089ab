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

package io.ozonerc.dblock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading /proc/locks: which lines name a holder of a given file. The file is a real one (its device and inode
 * come from stat); the lock table is a fixture written next to it, so every case is exact.
 */
class DbLockProbeTest {
  @TempDir
  Path dir;

  @Test
  void onlyWriteLocksHeldOnThisDeviceAndInodeCount() throws IOException {
    Path lock = Files.createFile(dir.resolve("LOCK"));
    String id = procLocksId(lock);
    String other = procLocksId(Files.createFile(dir.resolve("OTHER")));
    Path table = Files.writeString(dir.resolve("locks"), String.join("\n",
        "1: FLOCK  ADVISORY  WRITE 11 " + id + " 0 EOF",            // flock(2), not fcntl: RocksDB does not use it
        "2: POSIX  ADVISORY  READ 12 " + id + " 0 EOF",             // a reader, not a writer
        "3: POSIX  ADVISORY  WRITE 13 " + other + " 0 EOF",         // another file
        "4: POSIX  ADVISORY  WRITE 4185 " + id + " 0 EOF",          // the holder
        "4: -> POSIX  ADVISORY  WRITE 14 " + id + " 0 EOF",         // a waiter behind it
        "5: POSIX  ADVISORY  WRITE 0 " + id + " 0 EOF",             // a holder in another PID namespace
        "6: POSIX  ADVISORY  WRITE x y 0 EOF",                      // nonsense: ignored
        ""));
    assertEquals(Optional.of(List.of(4185L, 0L)), DbLockProbe.writeLockHolders(lock, table));

    DbLockProbe.State s = DbLockProbe.probe(dir, table);
    assertTrue(s.held());
    assertEquals("held by process 4185, a process outside this PID namespace", s.detail());
  }

  @Test
  void noProcLocksFallsBackToFcntlAlone() throws IOException {
    Files.createFile(dir.resolve("LOCK"));
    DbLockProbe.State s = DbLockProbe.probe(dir, dir.resolve("no-such-proc-locks"));
    assertFalse(s.held());
    assertTrue(s.detail().contains("checked with fcntl only"), s.detail());
  }

  @Test
  void noLockFileMeansNoWriterEverOpenedThisCopy() throws IOException {
    DbLockProbe.State s = DbLockProbe.probe(dir);
    assertFalse(s.held());
    assertTrue(s.detail().startsWith("no LOCK file"), s.detail());
    assertFalse(Files.exists(dir.resolve("LOCK")), "the probe must not create the file");
  }

  /** {@code MAJOR:MINOR:INODE} as /proc/locks prints it (hex device numbers), from stat(2) via the JDK. */
  private static String procLocksId(Path p) throws IOException {
    Object dev;
    Object ino;
    try {
      dev = Files.getAttribute(p, "unix:dev");
      ino = Files.getAttribute(p, "unix:ino");
    } catch (UnsupportedOperationException e) {
      assumeTrue(false, "no unix file attributes here");
      throw e;
    }
    long d = (Long) dev;
    long major = ((d >>> 8) & 0xfff) | ((d >>> 32) & ~0xfffL);
    long minor = (d & 0xff) | ((d >>> 12) & ~0xffL);
    return String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, (Long) ino);
  }
}
