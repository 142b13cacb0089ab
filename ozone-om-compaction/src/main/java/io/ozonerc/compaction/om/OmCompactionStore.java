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

package io.ozonerc.compaction.om;

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.WritePressure;
import io.ozonerc.compaction.rocks.HeadProbe;
import io.ozonerc.compaction.rocks.RangeCounter;
import io.ozonerc.compaction.rocks.RocksFacts;
import io.ozonerc.compaction.service.CompactionStore;
import io.ozonerc.compaction.service.StoreUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.hdds.utils.db.DBStore;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;

/**
 * The OM's metadata store as the service sees it: SST facts and compactions through {@link RocksFacts}, bucket
 * prefixes from the OM's bucket and volume tables.
 *
 * <p>The store is looked up on every call, never cached: when a follower installs a Ratis checkpoint the OM stops
 * its metadata manager and creates a new one ({@code OzoneManager.reloadOMState}), and a handle kept from before
 * would point at a closed database. Hence a supplier, e.g. {@code om::getMetadataManager}.
 */
public final class OmCompactionStore implements CompactionStore {
  /** Tables keyed {@code /volume/bucket/...}. */
  static final Set<String> NAME_KEYED = Set.of("keyTable", "openKeyTable", "deletedTable", "multipartInfoTable");

  private final Supplier<OMMetadataManager> metadataSupplier;

  /** For a metadata manager that lives as long as the service (tests, tools). */
  public OmCompactionStore(OMMetadataManager metadata) {
    this(() -> metadata);
  }

  /** For a running OM: the supplier is asked on every call, so a replaced metadata manager is picked up. */
  public OmCompactionStore(Supplier<OMMetadataManager> metadataSupplier) {
    this.metadataSupplier = metadataSupplier;
  }

  private OMMetadataManager metadata() throws StoreUnavailableException {
    OMMetadataManager m = metadataSupplier.get();
    if (m == null) {
      throw new StoreUnavailableException("OM metadata manager not available");
    }
    return m;
  }

  /** The live database, or {@link StoreUnavailableException} while the OM has it closed or is replacing it. */
  RocksDatabase db() throws IOException {
    DBStore store = metadata().getStore();
    if (!(store instanceof RDBStore rdb)) {
      throw new StoreUnavailableException("OM metadata store is " + (store == null ? "not open" : store.getClass()));
    }
    RocksDatabase db = rdb.getDb();
    if (db == null || db.isClosed()) {
      throw new StoreUnavailableException("OM metadata store is closed");
    }
    return db;
  }

  /** A RocksDB call on the current store; a failure because the store closed meanwhile means "unavailable". */
  private <T> T onDb(DbCall<T> call) throws IOException {
    RocksDatabase db = db();
    try {
      return call.apply(db);
    } catch (IOException e) {
      if (db.isClosed()) {
        throw new StoreUnavailableException("OM metadata store closed during the call: " + e.getMessage());
      }
      throw e;
    }
  }

  private interface DbCall<T> {
    T apply(RocksDatabase db) throws IOException;
  }

  @Override
  public List<SstFile> liveFiles(Set<String> tables) throws IOException {
    return onDb(db -> RocksFacts.liveFiles(db, tables));
  }

  /**
   * One range per bucket per table: {@code /vol/bucket/} for the tables keyed by name, {@code /volId/bucketId/}
   * for the FSO tables. Every bucket is listed for every table; ranges without data are dropped by the planner.
   * Every range is labelled {@code /vol/bucket/}, the FSO ones too: operators read names, not object ids (the
   * ids stay visible in the range's keys).
   */
  @Override
  public Map<String, List<KeyRange>> bucketRanges(Set<String> tables) throws IOException {
    db(); // fail fast while the store is being replaced
    OMMetadataManager metadata = metadata();
    // Volume ids from the table on disk, not getVolumeId(): that reads the table cache, which only the OM's
    // request path fills. A volume or bucket newer than the last double-buffer flush has no keys on disk yet.
    Map<String, Long> volumeIds = new HashMap<>();
    try (Table.KeyValueIterator<String, OmVolumeArgs> it = metadata.getVolumeTable().iterator()) {
      while (it.hasNext()) {
        OmVolumeArgs v = it.next().getValue();
        volumeIds.put(v.getVolume(), v.getObjectID());
      }
    }
    List<String[]> prefixes = new ArrayList<>(); // {name prefix, id prefix}
    try (Table.KeyValueIterator<String, OmBucketInfo> it = metadata.getBucketTable().iterator()) {
      while (it.hasNext()) {
        OmBucketInfo b = it.next().getValue();
        String idPrefix = volumeIds.containsKey(b.getVolumeName())
            ? "/" + volumeIds.get(b.getVolumeName()) + "/" + b.getObjectID() + "/" : null;
        prefixes.add(new String[] {"/" + b.getVolumeName() + "/" + b.getBucketName() + "/", idPrefix});
      }
    }
    Map<String, List<KeyRange>> out = new LinkedHashMap<>();
    for (String table : tables) {
      List<KeyRange> ranges = new ArrayList<>(prefixes.size());
      for (String[] p : prefixes) {
        if (NAME_KEYED.contains(table)) {
          ranges.add(KeyRange.bucket(table, p[0]));
        } else if (p[1] != null) { // a bucket without its volume: its FSO keys fall in a (no bucket) range
          KeyRange ids = KeyRange.bucket(table, p[1]);
          ranges.add(new KeyRange(table, KeyRange.Kind.BUCKET, p[0], ids.begin(), ids.end()));
        }
      }
      out.put(table, ranges);
    }
    return out;
  }

  /**
   * One bounded seek per range plus RocksDB's size estimates ({@link HeadProbe}); a range whose start has a skip
   * hint in a patched OM is sized from the hint instead, without a seek ({@link SkipHintSpans}).
   */
  @Override
  public List<HeadFacts> probeHeads(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
      throws IOException {
    Map<ByteBuffer, byte[]> hints = SkipHintSpans.of(metadata(), table, ranges);
    return onDb(db -> HeadProbe.probe(db, table, ranges, tableFiles, hints));
  }

  /** Files wholly inside by their properties, straddling files read over the range ({@link RangeCounter}). */
  @Override
  public List<RangeCount> countRanges(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
      throws IOException {
    return onDb(db -> RangeCounter.count(db, table, ranges, tableFiles));
  }

  @Override
  public List<MemtableFacts> memtables(Set<String> tables) throws IOException {
    return onDb(db -> RocksFacts.memtables(db, tables));
  }

  @Override
  public void flush(String table) throws IOException {
    onDb(db -> {
      RocksFacts.flush(db, table);
      return null;
    });
  }

  @Override
  public WritePressure writePressure() throws IOException {
    return onDb(RocksFacts::writePressure);
  }

  @Override
  public void compact(KeyRange range, boolean forceBottommost) throws IOException {
    onDb(db -> {
      RocksFacts.compact(db, range, forceBottommost);
      return null;
    });
  }
}
