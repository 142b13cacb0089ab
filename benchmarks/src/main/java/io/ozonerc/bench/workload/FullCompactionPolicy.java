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

package io.ozonerc.bench.workload;

import java.time.Duration;
import java.util.List;
import org.apache.hadoop.ozone.om.service.CompactDBUtil;

/**
 * {@code full}: what Ozone's own {@code CompactionService} does when enabled, every {@code interval}: a whole-column-
 * family compaction of each table in its default list ({@code ozone.om.compaction.service.columnfamilies}), through
 * the OM's {@link CompactDBUtil#compactTable} itself (exclusive manual compaction, bottommost level forced).
 */
final class FullCompactionPolicy extends PeriodicPolicy {

  /** The default of ozone.om.compaction.service.columnfamilies in Ozone 2.2.0. */
  static final List<String> TABLES = List.of("keyTable", "fileTable", "directoryTable", "deletedTable",
      "deletedDirectoryTable", "multipartInfoTable", "multipartPartsTable");

  FullCompactionPolicy(Duration interval) {
    super(interval);
  }

  @Override
  public String name() {
    return "full";
  }

  @Override
  void round(BenchStore store) throws Exception {
    for (String table : TABLES) {
      if (store.db().getColumnFamily(table) != null) {
        timed(() -> CompactDBUtil.compactTable(store.metadataManager(), table));
      }
    }
  }
}
