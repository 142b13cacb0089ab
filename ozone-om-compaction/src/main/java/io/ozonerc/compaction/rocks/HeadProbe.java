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

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.SstFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.managed.ManagedReadOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.apache.hadoop.hdds.utils.db.managed.ManagedSlice;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Range;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SizeApproximationFlag;
import org.rocksdb.Status;

/**
 * Measures dead heads: for each range, one bounded seek finds the first live key; RocksDB's approximate sizes and
 * a count of the memtable's entries size the span before it.
 *
 * <h2>Why a seek and a size, not a count of the whole span</h2>
 * A reader pays for the internal keys between where it seeks and the first live key. RocksDB can tell us the
 * first live key cheaply (one seek, which itself steps over the dead head once) but not how many keys it stepped
 * over: the skip ticker is global and off by default in the OM, and 7.7.3's Java API has no per-iterator perf
 * context. So the span [begin, firstLive) is sized instead: {@code getApproximateSizes} gives its SST bytes
 * (exact for files wholly inside, block-granular for the files at its ends), converted to entries with the
 * entries-per-byte of the SST files overlapping it; memtable-only seeks count the memtable entries in it (see
 * {@link MemtableSpan#count}). Every internal key in the span is dead, so entries in the span = skips of a seek at
 * {@code begin}.
 *
 * <h2>Safety</h2>
 * The seek needs read options Ozone's iterator API does not expose (an upper bound, so a probe never crawls into
 * the next bucket; a skip cap; no block-cache fill), so it runs on the raw {@code RocksDB}. It does so only while
 * holding a guarded iterator from {@link RocksDatabase#newIterator}: that iterator holds the store's close guard,
 * and {@link RocksDatabase#close} waits for every guard to be released before freeing the native handle. A store
 * closing under a probe therefore waits for the probe rather than crashing the JVM: per range, one seek of at most
 * {@link #MAX_SKIPS} skips, and the count of the span's memtable part, up to about 18 times that in skip-list steps
 * ({@link MemtableSpan#count}). A probe never writes.
 */
public final class HeadProbe {
  /**
   * Most internal keys one seek steps over before giving up on finding the first live key (RocksDB's
   * {@code max_skippable_internal_keys}): 1e6 skips is about 0.3 s at the per-skip cost of docs/facts.md, the
   * price of one slow listing. A dead head that long is compacted whole-range anyway.
   */
  static final long MAX_SKIPS = 1_000_000;

  /** An end beyond every OM key (they are text; none starts with 0xFF), for spans that run to a table's end. */
  private static final byte[] PAST_ANY_OM_KEY = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};

  private HeadProbe() { }

  /**
   * Probes {@code ranges}, all of {@code table}, in order. {@code tableFiles} are the table's live SST files, used
   * to turn approximate bytes into entries.
   */
  public static List<HeadFacts> probe(RocksDatabase db, String table, List<KeyRange> ranges,
      List<SstFile> tableFiles) throws IOException {
    return probe(db, table, ranges, tableFiles, Map.of());
  }

  /**
   * Probes {@code ranges} like {@link #probe(RocksDatabase, String, List, List)}, except that a range whose start
   * has a skip hint in {@code hints} (start to hint, from the OM's read path) is not sought: the hint is where
   * listings from its start jump to, so [begin, hint) is the span they skip, and it is sized the same way. Its
   * facts say {@link HeadFacts#skippedByReaders()}.
   */
  public static List<HeadFacts> probe(RocksDatabase db, String table, List<KeyRange> ranges,
      List<SstFile> tableFiles, Map<ByteBuffer, byte[]> hints) throws IOException {
    RocksDatabase.ColumnFamily cf = db.getColumnFamily(table);
    if (cf == null) {
      throw new IOException("No column family " + table + " in " + db);
    }
    List<HeadFacts> out = new ArrayList<>(ranges.size());
    // Held open for the whole probe: it is the close guard for the raw calls below (see the class comment).
    try (ManagedRocksIterator guard = db.newIterator(cf, false)) {
      RocksDB raw = db.getManagedRocksDb().get();
      for (KeyRange r : ranges) {
        if (!r.table().equals(table)) {
          throw new IllegalArgumentException("range " + r + " is not of table " + table);
        }
        out.add(probeOne(raw, cf.getHandle(), r, tableFiles, hints.get(ByteBuffer.wrap(r.begin()))));
      }
    } catch (RocksDBException e) {
      throw new IOException("dead-head probe of " + table + " failed: " + e.getMessage(), e);
    }
    return out;
  }

  private static HeadFacts probeOne(RocksDB raw, ColumnFamilyHandle cf, KeyRange r, List<SstFile> tableFiles,
      byte[] hint) throws RocksDBException {
    if (hint != null) {
      // A hint at or past the range's end: no live key in the range when it was learned (a bucket emptied).
      byte[] firstLive = r.end() != null && Keys.compare(hint, r.end()) >= 0 ? null : hint;
      return sizeSpan(raw, cf, r, tableFiles, firstLive, false, true);
    }
    Seek found = seekFirstLive(raw, cf, r);
    return sizeSpan(raw, cf, r, tableFiles, found.firstLive(), found.truncated(), false);
  }

  /** What a seek found: the first live key (null: none), or that it gave up at the skip cap. */
  private record Seek(byte[] firstLive, boolean truncated) { }

  /** One bounded seek from the range's start. */
  private static Seek seekFirstLive(RocksDB raw, ColumnFamilyHandle cf, KeyRange r) throws RocksDBException {
    byte[] firstLive = null;
    boolean truncated = false;
    try (ManagedReadOptions options = new ManagedReadOptions();
         ManagedSlice upper = r.end() == null ? null : new ManagedSlice(r.end())) {
      options.setFillCache(false); // a probe reads dead blocks a reader will not want cached
      options.setMaxSkippableInternalKeys(MAX_SKIPS);
      if (upper != null) {
        options.setIterateUpperBound(upper);
      }
      try (RocksIterator it = raw.newIterator(cf, options)) {
        it.seek(r.begin());
        if (it.isValid()) {
          firstLive = it.key();
        } else {
          try {
            it.status();
          } catch (RocksDBException e) {
            if (e.getStatus() == null || e.getStatus().getCode() != Status.Code.Incomplete) {
              throw e;
            }
            truncated = true; // more than MAX_SKIPS dead keys from begin on
          }
        }
      }
    }
    return new Seek(firstLive, truncated);
  }

  /**
   * Sizes [begin, firstLive) (the whole range when there is no live key) from approximate sizes. A probed head's
   * memtable share is counted in the memtable itself ({@link MemtableSpan#count}); a head readers skip takes
   * RocksDB's estimate as it is: it costs space only, so its size need not be exact, and sizing it reads no key.
   */
  private static HeadFacts sizeSpan(RocksDB raw, ColumnFamilyHandle cf, KeyRange r, List<SstFile> tableFiles,
      byte[] firstLive, boolean truncated, boolean skippedByReaders) throws RocksDBException {
    byte[] spanEnd = firstLive != null ? firstLive : r.end(); // null: to the end of the table
    if (spanEnd != null && Keys.compare(spanEnd, r.begin()) <= 0) {
      return new HeadFacts(r, firstLive, 0, 0, truncated, 0, 0, skippedByReaders);
    }
    long bytes;
    long memEntries;
    try (ManagedSlice from = new ManagedSlice(r.begin());
         ManagedSlice to = new ManagedSlice(spanEnd == null ? PAST_ANY_OM_KEY : spanEnd)) {
      Range span = new Range(from, to);
      bytes = raw.getApproximateSizes(cf, List.of(span), SizeApproximationFlag.INCLUDE_FILES)[0];
      memEntries = Math.max(0, raw.getApproximateMemTableStats(cf, span).count);
    }
    // A compactRange of the head flushes the memtable first when it holds any key of [begin, spanEnd) (the span's
    // end left out, RocksFacts.compact); the flushed file spans every key the memtable holds, so what it holds
    // outside this range widens the compaction.
    if (!skippedByReaders) {
      memEntries = MemtableSpan.count(raw, cf, r.begin(), spanEnd, memEntries);
    }
    long memOutside = memEntries > 0 ? memtableOutside(raw, cf, r, !skippedByReaders) : 0;
    long sstEntries = entriesIn(tableFiles, r.begin(), spanEnd, bytes);
    return new HeadFacts(r, firstLive, sstEntries + memEntries, Math.max(0, bytes), truncated, memEntries,
        memOutside, skippedByReaders);
  }

  /**
   * Memtable entries of the table before {@code r.begin()} and at or after {@code r.end()}: RocksDB's estimates,
   * {@link MemtableSpan#checked} when {@code check}.
   */
  private static long memtableOutside(RocksDB raw, ColumnFamilyHandle cf, KeyRange r, boolean check)
      throws RocksDBException {
    long outside = 0;
    if (r.begin().length > 0) {
      try (ManagedSlice from = new ManagedSlice(new byte[0]); ManagedSlice to = new ManagedSlice(r.begin())) {
        long n = Math.max(0, raw.getApproximateMemTableStats(cf, new Range(from, to)).count);
        outside += check ? MemtableSpan.checked(n, MemtableSpan.holdsAny(raw, cf, new byte[0], r.begin())) : n;
      }
    }
    if (r.end() != null) {
      try (ManagedSlice from = new ManagedSlice(r.end()); ManagedSlice to = new ManagedSlice(PAST_ANY_OM_KEY)) {
        long n = Math.max(0, raw.getApproximateMemTableStats(cf, new Range(from, to)).count);
        outside += check ? MemtableSpan.checked(n, MemtableSpan.holdsAny(raw, cf, r.end(), null)) : n;
      }
    }
    return outside;
  }

  /**
   * SST entries in [begin, end) given RocksDB's approximate bytes of it. Files wholly inside count their own
   * entries, exactly; the bytes left over come from the files that straddle an end of the span and are converted
   * at those files' own entries per byte. One rate for all files would not do: a dead head is mostly small
   * tombstones in upper files over large values below, and a blended rate undercounts it (a queue head of 40,000
   * skips estimated at 31,700 that way; 40,000 this way).
   */
  static long entriesIn(List<SstFile> tableFiles, byte[] begin, byte[] end, long approximateBytes) {
    long insideEntries = 0;
    long insideBytes = 0;
    long straddlingEntries = 0;
    long straddlingBytes = 0;
    for (SstFile f : tableFiles) {
      if (!Keys.overlaps(f.smallestKey(), f.largestKey(), begin, end)) {
        continue;
      }
      if (Keys.compare(f.smallestKey(), begin) >= 0 && (end == null || Keys.compare(f.largestKey(), end) < 0)) {
        insideEntries += f.entries();
        insideBytes += f.sizeBytes();
      } else {
        straddlingEntries += f.entries();
        straddlingBytes += f.sizeBytes();
      }
    }
    long leftover = Math.max(0, approximateBytes - insideBytes);
    return insideEntries + (straddlingBytes == 0 ? 0 : Math.round((double) leftover * straddlingEntries
        / straddlingBytes));
  }
}
