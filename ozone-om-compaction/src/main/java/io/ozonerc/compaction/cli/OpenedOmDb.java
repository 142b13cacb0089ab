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

import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.rocks.RocksFacts;
import io.ozonerc.dblock.DbLockProbe;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;

/**
 * An om.db (or a checkpoint copy of one) opened by the CLI through Ozone's own metadata manager, so column
 * families, codecs and RocksDB options are the OM's: read-only for analysis, read-write only for {@code --compact}.
 *
 * <p>It uses the metadata manager's checkpoint constructor: no compaction DAG, no checkpoint or snapshot
 * directories created next to the DB, no OM lock manager. Two settings differ from an OM's checkpoint open:
 * <ul>
 *   <li>{@code max_open_files = -1}: RocksDB fills a file's entry and deletion counts from its table properties
 *       when it opens the file; with a bounded table cache it loads only about 20 files per version and reports
 *       0 for the rest, which would make tombstones invisible to the planner. -1 opens every file at start.</li>
 *   <li>no RocksDB metrics source: a short-lived tool has no one to report to.</li>
 * </ul>
 */
final class OpenedOmDb implements AutoCloseable {

  private final OmMetadataManagerImpl metadata;
  private final OmCompactionStore store;

  private OpenedOmDb(OmMetadataManagerImpl metadata) {
    this.metadata = metadata;
    this.store = new OmCompactionStore(metadata);
  }

  /**
   * Opens {@code dbDir}; refuses a directory that is not a RocksDB (no {@code CURRENT}), so a mistyped path is an
   * error and never a new empty DB.
   */
  static OpenedOmDb open(Path dbDir, OzoneConfiguration base, boolean readWrite) throws IOException {
    if (!Files.isDirectory(dbDir) || !Files.isRegularFile(dbDir.resolve("CURRENT"))) {
      throw new NotAnOmDbException(dbDir + " is not a RocksDB directory (no CURRENT file); point --db at om.db "
          + "or a checkpoint copy of it");
    }
    OzoneConfiguration conf = new OzoneConfiguration(base);
    conf.setInt(OMConfigKeys.OZONE_OM_SNAPSHOT_DB_MAX_OPEN_FILES, -1);
    Path abs = dbDir.toAbsolutePath().normalize();
    Path parent = abs.getParent();
    Path name = abs.getFileName();
    if (parent == null || name == null) {
      throw new NotAnOmDbException(dbDir + " has no parent directory");
    }
    try {
      return new OpenedOmDb(new ToolMetadataManager(conf, parent.toFile(), name.toString(),
          !readWrite));
    } catch (IOException e) {
      if (readWrite && causedByLock(e)) {
        throw new DbInUseException("RocksDB could not take " + abs.resolve(DbLockProbe.LOCK_FILE)
            + ": a process opened the DB after the lock check", e);
      }
      throw e;
    }
  }

  /** RocksDB's read-write open reports a held lock as {@code IO error: While lock file: <db>/LOCK: ...}. */
  private static boolean causedByLock(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("lock file")) {
        return true;
      }
    }
    return false;
  }

  OmCompactionStore store() {
    return store;
  }

  RocksDatabase db() {
    return ((RDBStore) metadata.getStore()).getDb();
  }

  /**
   * Per table, {entries, deletes} still in memtables: a read-only open replays the write-ahead log into one, so
   * writes the OM never flushed are here and not in the SST facts the planner sees.
   */
  Map<String, long[]> memtableCounts(Set<String> tables) throws IOException {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (MemtableFacts m : RocksFacts.memtables(db(), tables)) {
      out.put(m.table(), new long[] {m.entries(), m.deletes()});
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    metadata.stop();
  }

  /** Another process holds the DB's RocksDB lock. */
  static final class DbInUseException extends IOException {
    DbInUseException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The path given is not an OM RocksDB. */
  static final class NotAnOmDbException extends IOException {
    NotAnOmDbException(String message) {
      super(message);
    }
  }

  /** Reaches the checkpoint constructor that can leave RocksDB metrics off. */
  private static final class ToolMetadataManager extends OmMetadataManagerImpl {
    ToolMetadataManager(OzoneConfiguration conf, File dir, String name, boolean readOnly) throws IOException {
      super(conf, dir, name, readOnly, false);
    }
  }
}
