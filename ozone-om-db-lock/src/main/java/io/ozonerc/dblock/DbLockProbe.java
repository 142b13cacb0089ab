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

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells whether some process holds an om.db open for writing, without writing anything.
 *
 * <h2>What RocksDB leaves to look at</h2>
 * A read-write RocksDB open creates {@code <db>/LOCK} and takes an exclusive POSIX record lock on the whole file
 * ({@code fcntl(F_SETLK, F_WRLCK)}), held until the DB is closed; the kernel drops it when the process dies. A
 * read-only open takes no lock at all, so RocksDB itself would let this tool read a DB under a running OM. This
 * probe looks for the holder in two ways:
 * <ol>
 *   <li>{@code /proc/locks} (Linux): every record lock on this host with its type, pid, device and inode. A WRITE
 *       lock on the LOCK file's device and inode names the holder. This also sees a holder inside this very JVM,
 *       which step 2 cannot.</li>
 *   <li>A <em>shared</em> {@link FileChannel#tryLock(long, long, boolean)} on a read-only channel. The JDK on Linux
 *       uses the same classic fcntl locks as RocksDB, and a read lock conflicts with another process's write lock,
 *       so {@code null} means someone holds it. The channel is opened for reading only: no write permission is
 *       needed and the file is not touched. A read lock we got is released at once.</li>
 * </ol>
 *
 * <h2>What it cannot see</h2>
 * <ul>
 *   <li>A holder on another host sharing the directory (NFS and the like): lock state there depends on the
 *       filesystem's lock manager; {@code /proc/locks} lists only this kernel's locks.</li>
 *   <li>A holder in another PID namespace (another container) is seen as held, but {@code /proc/locks} shows its
 *       pid as 0, so the message cannot name it.</li>
 *   <li>A process that opens the DB after the probe: the answer is true at the moment of asking only. For
 *       {@code --compact} RocksDB's own read-write open takes the lock right after, and fails if someone was
 *       faster; analysis opens read-only and takes no lock, so an OM may start while the tool reads (it then reads
 *       a DB that is changing, which RocksDB tolerates, and its numbers are as of its open).</li>
 *   <li>Without {@code /proc/locks} (not Linux) a holder inside this same JVM: classic fcntl locks do not conflict
 *       within one process, and worse, closing any descriptor of the file drops the process's locks on it. The
 *       probe therefore never opens the file when {@code /proc/locks} names this process; never call it from
 *       inside a process that may hold the DB where {@code /proc/locks} is missing.</li>
 * </ul>
 *
 * <p>Shared by the project's offline tools (range compaction's CLI, the directoryTable migration), so every tool
 * refuses a held DB the same way, with the same words and exit status.
 */
public final class DbLockProbe {
  public static final String LOCK_FILE = "LOCK";
  private static final Path PROC_LOCKS = Path.of("/proc/locks");

  private DbLockProbe() { }

  /**
   * The answer.
   *
   * @param held   a process holds the DB's write lock
   * @param detail for the operator: who holds it ({@code held by process 4185}), or why the DB is free
   */
  public record State(boolean held, String detail) { }

  /** What an offline tool prints when it refuses a held DB (and exits with status 3). */
  public static String refusal(Path dbDir, State state) {
    return "Refusing to open " + dbDir + ": its RocksDB lock file " + dbDir.resolve(LOCK_FILE) + " is "
        + state.detail() + ". An Ozone Manager or another RocksDB user has this DB open; nothing was read or "
        + "written. Stop it, or run against a checkpoint copy of the DB.";
  }

  /** Probes {@code <dbDir>/LOCK}; reads only. */
  public static State probe(Path dbDir) throws IOException {
    return probe(dbDir, PROC_LOCKS);
  }

  static State probe(Path dbDir, Path procLocks) throws IOException {
    Path lock = dbDir.resolve(LOCK_FILE);
    if (!Files.exists(lock)) {
      return new State(false, "no LOCK file: no process has opened this copy read-write");
    }
    long self = ProcessHandle.current().pid();
    Optional<List<Long>> writers = writeLockHolders(lock, procLocks);
    List<Long> pids = writers.orElse(List.of());
    if (pids.contains(self)) {
      return new State(true, "held by this process (pid " + self + ")");
    }
    if (!pids.isEmpty()) {
      return new State(true, "held by " + describe(pids));
    }
    try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.READ)) {
      FileLock probe = ch.tryLock(0, Long.MAX_VALUE, true);
      if (probe == null) {
        return new State(true, "held by another process"
            + (writers.isPresent() ? " (not listed in /proc/locks: another host?)" : ""));
      }
      probe.release();
    } catch (OverlappingFileLockException e) {
      return new State(true, "held through a FileLock of this JVM");
    }
    return new State(false, "LOCK is not held by any process"
        + (writers.isPresent() ? "" : " (checked with fcntl only: /proc/locks is not readable)"));
  }

  private static String describe(List<Long> pids) {
    List<String> names = new ArrayList<>();
    for (long pid : pids) {
      // A holder in another PID namespace shows as pid 0 (OFD locks as -1): held, but not nameable from here.
      names.add(pid > 0 ? "process " + pid : "a process outside this PID namespace");
    }
    return String.join(", ", names);
  }

  /**
   * Pids of the fcntl WRITE locks {@code procLocks} lists on the file's device and inode, or empty when the file
   * cannot be read (not Linux). Lines look like {@code 4: POSIX  ADVISORY  WRITE 3921 fe:00:9987015 0 EOF};
   * a {@code ->} after the ordinal marks a waiter, not a holder. Device numbers are hex major:minor.
   */
  public static Optional<List<Long>> writeLockHolders(Path file, Path procLocks) throws IOException {
    if (!Files.isReadable(procLocks)) {
      return Optional.empty();
    }
    long inode;
    long dev;
    try {
      inode = (Long) Files.getAttribute(file, "unix:ino");
      dev = (Long) Files.getAttribute(file, "unix:dev");
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.empty();
    }
    // glibc's gnu_dev_major/minor: the kernel's dev_t split as stat(2) reports it.
    long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    List<Long> pids = new ArrayList<>();
    for (String line : Files.readAllLines(procLocks)) {
      String[] f = line.trim().split("\\s+");
      // fcntl record locks only (POSIX, and OFDLCK which conflicts with them): what RocksDB takes. flock(2)
      // locks (FLOCK) live in a separate space on Linux and say nothing about RocksDB.
      if (f.length < 6 || f[1].equals("->") || !(f[1].equals("POSIX") || f[1].equals("OFDLCK"))
          || !f[3].equals("WRITE")) {
        continue;
      }
      String[] id = f[5].split(":");
      try {
        if (id.length == 3 && Long.parseLong(id[0], 16) == major && Long.parseLong(id[1], 16) == minor
            && Long.parseLong(id[2]) == inode) {
          pids.add(Long.parseLong(f[4]));
        }
      } catch (NumberFormatException e) {
        // a line of a format we do not know: not evidence either way
      }
    }
    return Optional.of(pids);
  }
}
