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
