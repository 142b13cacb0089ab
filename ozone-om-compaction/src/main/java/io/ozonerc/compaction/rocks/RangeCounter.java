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
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.SstFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.managed.ManagedOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedReadOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.apache.hadoop.hdds.utils.db.managed.ManagedSlice;
import org.apache.hadoop.hdds.utils.db.managed.ManagedSstFileReader;
import org.apache.hadoop.hdds.utils.db.managed.ManagedStatistics;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.TickerType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the entries and tombstones of key ranges in their SST files ({@link RangeCount}).
 *
 * <h2>How a straddling file is counted</h2>
 * A file wholly inside a range counts by its table properties. A file that straddles the range's bounds is opened
 * on its own with RocksDB's {@code SstFileReader} (a read-only reader of one file, as Ozone's snapshot diff uses
 * it) and read over the range: seek to its start, {@code next} to its end under an upper bound. That iterator
 * returns the file's puts and steps over its tombstones, and RocksDB counts the steps: when the iterator is closed
 * it adds them to the {@code rocksdb.number.iter.skip} ticker of the reader's own statistics object, which no other
 * iterator shares. So puts = keys returned, tombstones = the ticker's rise, exactly, for that file over that range.
 * Within one file a key normally has one version, so every step over is a tombstone; when a RocksDB snapshot kept
 * older versions of a key in the same file, those are stepped over and counted too, and they are dead entries a
 * reader steps over all the same. Range deletions ({@code DeleteRange}) are not seen: the OM's key tables do not
 * use them.
 *
 * <h2>Safety and cost</h2>
 * It reads files only, never the DB's memtables, and writes nothing. The live file list is read while a guarded
 * iterator of the store is held (see {@link HeadProbe}); the readers do not use the DB handle at all. A file that
 * RocksDB deleted after the list was read (a compaction finished) cannot be opened: the ranges over it are left
 * uncounted this time (absent from the result), and so is a range over a file that fails to read (logged). A count
 * reads the range's part of each straddling file once, about what a full listing of the range reads; at most
 * {@link #OPEN_FILES} files are open at once, and a call reads at most {@link #MAX_ENTRIES_READ} entries.
 */
public final class RangeCounter {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCounter.class);

  /**
   * Entries read from straddling files in one call, after which the ranges not yet counted are left out (counted in
   * a later round): at about what a listing pays per skipped key (docs/facts.md), some 0.3 s. A range being
   * counted is finished first.
   */
  static final long MAX_ENTRIES_READ = 1_000_000;

  /**
   * Files held open at once, the least recently used closed first. Opening a file reads its index and filter blocks
   * into memory (about 1 MB for a 64 MB file), so a count over many buckets does not hold every file of the table.
   */
  static final int OPEN_FILES = 16;

  private RangeCounter() { }

  /**
   * Counts {@code ranges}, all of {@code table}, in the table's live files {@code tableFiles}. Returns a count for
   * each range it could count, in key order (the order it counts them in); a range whose straddling file was gone
   * is left out, and so are the ranges after the call read {@link #MAX_ENTRIES_READ} entries.
   */
  public static List<RangeCount> count(RocksDatabase db, String table, List<KeyRange> ranges,
      List<SstFile> tableFiles) throws IOException {
    Map<String, String> paths = new HashMap<>();
    RocksDatabase.ColumnFamily cf = db.getColumnFamily(table);
    if (cf == null) {
      throw new IOException("No column family " + table + " in " + db);
    }
    // Held while the raw handle is used: the store's close waits for it (see HeadProbe).
    try (ManagedRocksIterator guard = db.newIterator(cf, false)) {
      for (LiveFileMetaData m : db.getManagedRocksDb().get().getLiveFilesMetaData()) {
        paths.put(m.fileName(), m.path() + m.fileName());
      }
    }
    Map<String, FileReader> open = new LinkedHashMap<>(OPEN_FILES, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, FileReader> eldest) {
        if (size() > OPEN_FILES) {
          eldest.getValue().close();
          return true;
        }
        return false;
      }
    };
    List<RangeCount> out = new ArrayList<>(ranges.size());
    long read = 0;
    // In key order: neighbouring ranges straddle the same files, which stay open between them.
    List<KeyRange> inKeyOrder = new ArrayList<>(ranges);
    inKeyOrder.sort((a, b) -> Keys.compare(a.begin(), b.begin()));
    try {
      for (KeyRange r : inKeyOrder) {
        if (!r.table().equals(table)) {
          throw new IllegalArgumentException("range " + r + " is not of table " + table);
        }
        if (read >= MAX_ENTRIES_READ) {
          break;
        }
        long[] readHere = new long[1];
        RangeCount c = countOne(r, tableFiles, paths, open, readHere);
        read += readHere[0];
        if (c != null) {
          out.add(c);
        }
      }
    } finally {
      open.values().forEach(FileReader::close);
    }
    return out;
  }

  /** One range's count; null when a straddling file was gone. Adds the entries it read to {@code read[0]}. */
  private static RangeCount countOne(KeyRange r, List<SstFile> tableFiles, Map<String, String> paths,
      Map<String, FileReader> open, long[] read) {
    long entries = 0;
    long tombstones = 0;
    int filesRead = 0;
    for (SstFile f : tableFiles) {
      if (!Keys.overlaps(f.smallestKey(), f.largestKey(), r.begin(), r.end())) {
        continue;
      }
      boolean inside = Keys.compare(f.smallestKey(), r.begin()) >= 0
          && (r.end() == null || Keys.compare(f.largestKey(), r.end()) < 0);
      if (inside) {
        entries += f.entries();
        tombstones += f.deletions();
        continue;
      }
      String path = paths.get(f.name());
      FileReader reader = path == null ? null : open.get(f.name());
      if (path != null && reader == null) {
        reader = FileReader.open(path);
        reader.path = path;
        open.put(f.name(), reader);
      }
      if (reader == null || reader.failed) {
        return null; // gone since the list was read
      }
      long[] puts = reader.count(r.begin(), r.end());
      if (puts == null) {
        return null; // the file could not be read: left uncounted, as the estimate had it
      }
      entries += puts[0] + puts[1];
      tombstones += puts[1];
      read[0] += puts[0] + puts[1];
      filesRead++;
    }
    return new RangeCount(r, entries, tombstones, filesRead);
  }

  /** One SST file opened for reading, with statistics of its own. */
  private static final class FileReader {
    private final ManagedOptions options;
    private final ManagedStatistics stats;
    private final ManagedSstFileReader reader;
    private final boolean failed;
    private String path;

    private FileReader(ManagedOptions options, ManagedStatistics stats, ManagedSstFileReader reader, boolean failed) {
      this.options = options;
      this.stats = stats;
      this.reader = reader;
      this.failed = failed;
    }

    static FileReader open(String path) {
      ManagedOptions options = new ManagedOptions();
      ManagedStatistics stats = new ManagedStatistics();
      ManagedSstFileReader reader = null;
      try {
        options.setStatistics(stats);
        reader = new ManagedSstFileReader(options);
        reader.open(path);
        return new FileReader(options, stats, reader, false);
      } catch (RocksDBException e) {
        return new FileReader(options, stats, reader, true); // gone: closed with the others
      } catch (RuntimeException e) {
        if (reader != null) {
          reader.close();
        }
        options.close();
        stats.close();
        throw e;
      }
    }

    /** {puts, tombstones} of this file in [begin, end); null when the file cannot be read (logged). */
    long[] count(byte[] begin, byte[] end) {
      long skipped0 = stats.getTickerCount(TickerType.NUMBER_ITER_SKIP);
      long puts = 0;
      try (ManagedReadOptions ro = new ManagedReadOptions();
           ManagedSlice upper = end == null ? null : new ManagedSlice(end)) {
        ro.setFillCache(false);
        if (upper != null) {
          ro.setIterateUpperBound(upper);
        }
        try (SstFileReaderIterator it = reader.newIterator(ro)) {
          for (it.seek(begin); it.isValid(); it.next()) {
            puts++;
          }
          it.status();
        }
      } catch (RocksDBException e) {
        LOG.warn("Could not count {} [{}, {}): {}", path, Keys.show(begin), Keys.show(end), e.toString());
        return null;
      }
      return new long[] {puts, stats.getTickerCount(TickerType.NUMBER_ITER_SKIP) - skipped0};
    }

    void close() {
      if (reader != null) {
        reader.close();
      }
      options.close();
      stats.close();
    }
  }
}
