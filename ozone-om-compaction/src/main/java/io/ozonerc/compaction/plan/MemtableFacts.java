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
