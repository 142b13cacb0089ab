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

package io.ozonerc.patched;

import io.ozonerc.metadata.migrate.DirectoryTableMigrator;
import io.ozonerc.metadata.migrate.OfflineOmDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * The downgrade check, run in a stock JVM by {@link TrimmedDirectoryClusterTest}: the stock
 * {@code OmMetadataManagerImpl} opens a DB the patched OM wrote and reads its directoryTable; then the offline tool
 * migrates the table back to protobuf and the stock OM reads it again. Writes {@code read ...} and
 * {@code migrated ...} lines.
 *
 * <p>Arguments: output file, the directory holding {@code om.db}.
 */
public final class StockOmReadsDirectories {
  private StockOmReadsDirectories() {
  }

  public static void main(String[] args) throws Exception {
    Path dbDir = Path.of(args[1]);
    List<String> out = new ArrayList<>();
    out.add("read before migration " + readAll(dbDir));
    try (RDBStore store = OfflineOmDb.open(dbDir.resolve("om.db").toFile())) {
      DirectoryTableMigrator.Result r = new DirectoryTableMigrator(store, 100)
          .migrate(DirectoryTableMigrator.Target.PROTOBUF, false);
      out.add("migrated rows=" + r.rows + " digest equal=" + r.digestBefore.equals(r.digestAfter));
    }
    out.add("read after migration " + readAll(dbDir));
    Files.write(Path.of(args[0]), out);
  }

  /** Every directoryTable row through the stock OM's own table: "rows=N" or the failure it raised. */
  private static String readAll(Path dbDir) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dbDir.toString());
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf, null);
    int rows = 0;
    try (Table.KeyValueIterator<String, OmDirectoryInfo> it = om.getDirectoryTable().iterator()) {
      while (it.hasNext()) {
        it.next();
        rows++;
      }
      return "rows=" + rows;
    } catch (RuntimeException | java.io.IOException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      return "failed after rows=" + rows + ": " + e.getClass().getSimpleName() + ": " + e.getMessage()
          + " | root cause " + root.getClass().getName() + ": " + root.getMessage();
    } finally {
      om.stop();
    }
  }
}
