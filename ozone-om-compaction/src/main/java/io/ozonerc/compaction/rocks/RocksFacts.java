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

package io.ozonerc.compaction.rocks;

import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.WritePressure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.managed.ManagedCompactRangeOptions;
import org.rocksdb.CompactRangeOptions.BottommostLevelCompaction;
import org.rocksdb.LiveFileMetaData;

/**
 * The only code that reads RocksDB metadata or asks RocksDB to compact. It goes through Ozone's guarded
 * {@link RocksDatabase}, which refuses calls once the store is closing, rather than the raw {@code RocksDB}.
 */
public final class RocksFacts {
  static final String PENDING_BYTES = "rocksdb.estimate-pending-compaction-bytes";
  static final String LEVEL0_FILES = "rocksdb.num-files-at-level0";
  static final String DELAYED_RATE = "rocksdb.actual-delayed-write-rate";
  static final String WRITE_STOPPED = "rocksdb.is-write-stopped";
  static final String MEM_ENTRIES = "rocksdb.num-entries-active-mem-table";
  static final String MEM_DELETES = "rocksdb.num-deletes-active-mem-table";
  static final String IMM_ENTRIES = "rocksdb.num-entries-imm-mem-tables";
  static final String IMM_DELETES = "rocksdb.num-deletes-imm-mem-tables";

  private RocksFacts() { }

  /**
   * Live files of {@code tables}, from {@code getLiveFilesMetaData()}: level, key span, entries, deletions, size
   * and whether RocksDB is compacting the file. ({@code getPropertiesOfTablesInRange} would be finer but throws
   * IncompatibleClassChangeError in rocksdbjni 7.7.3, facebook/rocksdb#13643.)
   */
  public static List<SstFile> liveFiles(RocksDatabase db, Set<String> tables) throws IOException {
    List<SstFile> out = new ArrayList<>();
    for (LiveFileMetaData m : db.getLiveFilesMetaData()) {
      String table = new String(m.columnFamilyName(), StandardCharsets.UTF_8);
      if (tables.contains(table)) {
        out.add(new SstFile(table, m.fileName(), m.level(), m.smallestKey(), m.largestKey(), m.numEntries(),
            m.numDeletions(), m.size(), m.largestSeqno(), m.beingCompacted()));
      }
    }
    return out;
  }

  /** Entries and deletes in the active and immutable memtables of each of {@code tables}. */
  public static List<MemtableFacts> memtables(RocksDatabase db, Set<String> tables) throws IOException {
    List<MemtableFacts> out = new ArrayList<>();
    for (String table : tables) {
      RocksDatabase.ColumnFamily cf = db.getColumnFamily(table);
      if (cf == null) {
        continue;
      }
      long entries = longProperty(MEM_ENTRIES, db.getProperty(cf, MEM_ENTRIES))
          + longProperty(IMM_ENTRIES, db.getProperty(cf, IMM_ENTRIES));
      long deletes = longProperty(MEM_DELETES, db.getProperty(cf, MEM_DELETES))
          + longProperty(IMM_DELETES, db.getProperty(cf, IMM_DELETES));
      out.add(new MemtableFacts(table, entries, deletes));
    }
    return out;
  }

  /** Flushes one column family through Ozone's guarded call (waits for the flush). */
  public static void flush(RocksDatabase db, String table) throws IOException {
    if (db.getColumnFamily(table) == null) {
      throw new IOException("No column family " + table + " in " + db);
    }
    db.flush(table);
  }

  /** Worst pressure signal over every column family (a stall in one holds back writes to all). */
  public static WritePressure writePressure(RocksDatabase db) throws IOException {
    long pending = 0;
    long level0 = 0;
    for (RocksDatabase.ColumnFamily cf : db.getExtraColumnFamilies()) {
      pending = Math.max(pending, longProperty(PENDING_BYTES, db.getProperty(cf, PENDING_BYTES)));
      level0 = Math.max(level0, longProperty(LEVEL0_FILES, db.getProperty(cf, LEVEL0_FILES)));
    }
    long delayed = longProperty(DELAYED_RATE, db.getProperty(DELAYED_RATE));
    boolean stopped = longProperty(WRITE_STOPPED, db.getProperty(WRITE_STOPPED)) != 0;
    return new WritePressure(pending, level0, delayed, stopped);
  }

  /**
   * Compacts one range of one table. Never exclusive: an exclusive manual compaction blocks RocksDB's automatic
   * ones and stalled writes in production Ozone (apache/ozone#10876). One subcompaction keeps it to one
   * background thread. {@code allowWriteStall=false} makes RocksDB wait rather than push the DB into a stall.
   *
   * <p>{@code compactRange} takes its end inclusive, and flushes the memtables first when they hold any key in
   * [begin, end]. A range's end is exclusive, and for a dead head it is the first live key, where a queue's next
   * deletes land while the compaction waits to start: passed as is, those deletes make RocksDB flush the memtable
   * first, other buckets' writes and all, into a level-0 file spanning the table, which the plan did not cost. So
   * the end passed is the last key before it ({@link Keys#inclusiveEnd}).
   */
  public static void compact(RocksDatabase db, KeyRange range, boolean forceBottommost) throws IOException {
    RocksDatabase.ColumnFamily cf = db.getColumnFamily(range.table());
    if (cf == null) {
      throw new IOException("No column family " + range.table() + " in " + db);
    }
    try (ManagedCompactRangeOptions options = new ManagedCompactRangeOptions()) {
      options.setExclusiveManualCompaction(false);
      options.setMaxSubcompactions(1);
      options.setAllowWriteStall(false);
      options.setBottommostLevelCompaction(forceBottommost
          ? BottommostLevelCompaction.kForce : BottommostLevelCompaction.kIfHaveCompactionFilter);
      db.compactRange(cf, range.begin(), Keys.inclusiveEnd(range.end()), options);
    }
  }

  /** An unreadable signal is an error, not "no pressure": the round must not go on blind. */
  private static long longProperty(String name, String value) throws IOException {
    try {
      return Long.parseLong(value.trim());
    } catch (RuntimeException e) {
      throw new IOException("RocksDB property " + name + " is not a number: '" + value + "'", e);
    }
  }
}
