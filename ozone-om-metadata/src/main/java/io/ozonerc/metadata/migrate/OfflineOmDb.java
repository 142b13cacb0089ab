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

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.DBStoreBuilder;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.ozone.om.codec.OMDBDefinition;

/**
 * Opens an existing {@code om.db} for an offline tool, the way the OM opens it (all column families of
 * {@link OMDBDefinition}, extra ones kept), but without creating anything: no new DB, no checkpoint dirs.
 *
 * <p>RocksDB takes an exclusive lock on {@code <db>/LOCK} when it opens a DB, released when it closes; a running OM
 * holds it for its whole life. We never probe that file from Java: POSIX record locks belong to the process, so a
 * probe from inside a process that holds the DB would succeed and, on close, drop RocksDB's own lock. We let RocksDB
 * try, and turn its lock failure into {@link LockedException}.
 */
public final class OfflineOmDb {
  private OfflineOmDb() {
  }

  /** The DB is in use: RocksDB could not take its LOCK file. */
  public static final class LockedException extends IOException {
    private static final long serialVersionUID = 1L;

    LockedException(File db, Throwable cause) {
      super("refusing to open " + db + ": its RocksDB LOCK is held, so an Ozone Manager (or another tool) is running"
          + " on it. Stop that process first; this tool only works on an offline om.db.", cause);
    }
  }

  /**
   * @param omDb the {@code om.db} directory (holding CURRENT, LOCK, *.sst)
   * @throws LockedException when another process or another open in this process holds the DB
   * @throws IOException when the directory is not a RocksDB or cannot be opened
   */
  public static RDBStore open(File omDb) throws IOException {
    if (!new File(omDb, "CURRENT").isFile()) {
      throw new IOException(omDb + " is not a RocksDB directory (no CURRENT file)");
    }
    OzoneConfiguration conf = new OzoneConfiguration();
    try {
      return DBStoreBuilder.newBuilder(conf, OMDBDefinition.get(), omDb.getName(),
              omDb.getAbsoluteFile().getParentFile().toPath())
          .setOpenReadOnly(false)
          .setCreateCheckpointDirs(false)
          .setEnableRocksDbMetrics(false)
          .build();
    } catch (IOException | RuntimeException e) {
      if (isLockFailure(e)) {
        throw new LockedException(omDb, e);
      }
      throw e;
    }
  }

  /** RocksDB reports "lock hold by current process" (same process) or "While lock file: .../LOCK" (another). */
  static boolean isLockFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && (m.contains("/LOCK") || m.contains("lock hold by current process"))) {
        return true;
      }
    }
    return false;
  }
}
