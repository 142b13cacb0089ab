package io.ozonerc.compaction.plan;

/**
 * What one table's memtables (active and immutable) hold, from RocksDB's {@code rocksdb.num-entries-*} and
 * {@code rocksdb.num-deletes-*} properties.
 *
 * <p>Deletes in the memtable cost a reader the same skips as tombstones in SST files, but SST facts do not show
 * them and a range compaction does not reach them. On a workload that deletes what it wrote first (a queue) the
 * newest tombstones are exactly the ones a listing from the bucket start walks through.
 */
public record MemtableFacts(String table, long entries, long deletes) {

  /**
   * Flush the table first when its memtables hold at least {@code minTombstones} deletes that make at least
   * {@code tombstoneRatio} of their entries: the same test a key range must pass, applied to the memtable as a
   * whole (RocksDB gives no per-range memtable counts). After the flush the deletes are SST facts the round can
   * plan with. A table with fewer deletes is left to flush when its memtable fills, as RocksDB would anyway.
   */
  public boolean shouldFlush(PlannerSettings s) {
    return deletes > 0 && deletes >= s.minTombstones() && entries > 0
        && (double) deletes / entries >= s.tombstoneRatio();
  }
}
