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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.TableIterator;
import org.apache.hadoop.hdds.utils.db.managed.ManagedCompactRangeOptions;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.rocksdb.LiveFileMetaData;

/**
 * Our re-implementation, for comparison only, of the range compaction design published as HDDS-12682
 * (apache/ozone#8178), as that design describes itself:
 * <ul>
 *   <li>one range per bucket of the keyTable, {@code [/vol/bucket/, successor)};</li>
 *   <li>per range, sum entries and deletions of the SST files that overlap it, leaving out any SST whose entries
 *       exceed {@code maxEntriesPerSst} (such files are skipped, not split);</li>
 *   <li>compact the range when deletions >= {@code minTombstones} and deletions / entries >= {@code ratio}
 *       (10,000 and 0.3 in the design);</li>
 *   <li>no ranking: ranges are compacted in bucket-table order, all that qualify, every round;</li>
 *   <li>exclusive manual compaction with the bottommost level forced ({@code kForce}).</li>
 * </ul>
 * It reads SST facts from {@link RocksDatabase#getLiveFilesMetaData()} (the original used
 * getPropertiesOfTablesInRange, which is broken in rocksdbjni 7.7.3).
 */
final class ReferenceRangeCompactor {

  private final OMMetadataManager om;
  private final RocksDatabase db;
  private final long minTombstones;
  private final double ratio;
  private final long maxEntriesPerSst;

  ReferenceRangeCompactor(OMMetadataManager om, RocksDatabase db, long minTombstones, double ratio,
      long maxEntriesPerSst) {
    this.om = om;
    this.db = db;
    this.minTombstones = minTombstones;
    this.ratio = ratio;
    this.maxEntriesPerSst = maxEntriesPerSst;
  }

  /** The design's trigger: enough tombstones, and enough of them relative to all entries of the range. */
  static boolean qualifies(long entries, long deletions, long minTombstones, double ratio) {
    return entries > 0 && deletions >= minTombstones && deletions >= ratio * entries;
  }

  /** A bucket's keyTable range and the totals of the SSTs counted for it. */
  record RangeFacts(String bucketKey, byte[] begin, byte[] end, long entries, long deletions) {
  }

  /** Facts of every bucket's range, in bucket-table order. */
  List<RangeFacts> rangeFacts() throws Exception {
    List<LiveFileMetaData> files = db.getLiveFilesMetaData();
    List<RangeFacts> out = new ArrayList<>();
    try (TableIterator<String, ? extends Table.KeyValue<String, OmBucketInfo>> it =
             om.getBucketTable().iterator()) {
      while (it.hasNext()) {
        OmBucketInfo b = it.next().getValue();
        byte[] begin = om.getBucketKeyPrefix(b.getVolumeName(), b.getBucketName()).getBytes(StandardCharsets.UTF_8);
        byte[] end = successor(begin);
        long entries = 0;
        long deletions = 0;
        for (LiveFileMetaData f : files) {
          if (!BenchStore.KEY_TABLE.equals(new String(f.columnFamilyName(), StandardCharsets.UTF_8))
              || f.numEntries() > maxEntriesPerSst
              || Arrays.compareUnsigned(f.smallestKey(), end) >= 0
              || Arrays.compareUnsigned(f.largestKey(), begin) < 0) {
            continue;
          }
          entries += f.numEntries();
          deletions += f.numDeletions();
        }
        out.add(new RangeFacts(om.getBucketKey(b.getVolumeName(), b.getBucketName()), begin, end, entries,
            deletions));
      }
    }
    return out;
  }

  /** One round: compact every qualifying range, in order. */
  void runRound(PeriodicPolicy timer) throws Exception {
    RocksDatabase.ColumnFamily family = db.getColumnFamily(BenchStore.KEY_TABLE);
    for (RangeFacts r : rangeFacts()) {
      if (qualifies(r.entries(), r.deletions(), minTombstones, ratio)) {
        timer.timed(() -> {
          try (ManagedCompactRangeOptions options = new ManagedCompactRangeOptions()) {
            options.setExclusiveManualCompaction(true);
            options.setBottommostLevelCompaction(ManagedCompactRangeOptions.BottommostLevelCompaction.kForce);
            db.compactRange(family, r.begin(), r.end(), options);
          }
        });
      }
    }
  }

  /** The smallest byte string greater than every string starting with {@code prefix}. */
  static byte[] successor(byte[] prefix) {
    byte[] s = prefix.clone();
    for (int i = s.length - 1; i >= 0; i--) {
      if (s[i] != (byte) 0xFF) {
        s[i]++;
        return Arrays.copyOf(s, i + 1);
      }
    }
    throw new IllegalArgumentException("prefix of 0xFF bytes has no successor");
  }
}
