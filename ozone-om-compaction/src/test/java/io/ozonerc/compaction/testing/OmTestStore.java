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

package io.ozonerc.compaction.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.apache.hadoop.ozone.OzoneConfigKeys;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfoGroup;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksIterator;

/**
 * A real OM metadata store ({@link OmMetadataManagerImpl}, the OM's own tables and RocksDB options) in a temp dir,
 * with RocksDB statistics on so tests can read what RocksDB counts, plus the few writes tests need.
 */
public final class OmTestStore implements AutoCloseable {
  private static final Pattern TICKER = Pattern.compile("^(\\S+) COUNT : (\\d+)$", Pattern.MULTILINE);

  private final Path dir;
  private final OzoneConfiguration conf;
  private OmMetadataManagerImpl om;

  private OmTestStore(Path dir) throws IOException {
    this.dir = dir;
    this.conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    conf.set(OzoneConfigKeys.OZONE_METADATA_STORE_ROCKSDB_STATISTICS, "ALL");
    this.om = new OmMetadataManagerImpl(conf, null);
  }

  public static OmTestStore open(Path dir) throws IOException {
    return new OmTestStore(dir);
  }

  public OmMetadataManagerImpl metadata() {
    return om;
  }

  public RocksDatabase db() {
    return ((RDBStore) om.getStore()).getDb();
  }

  /** Closes the store and opens it again from disk, as an OM restart would. */
  public void reopen() throws IOException {
    om.stop();
    om = new OmMetadataManagerImpl(conf, null);
  }

  /** Stops the metadata manager but keeps the object, as the OM does before it swaps in a checkpoint. */
  public void stopInPlace() throws IOException {
    om.stop();
  }

  /** Starts the same metadata manager object again on the same directory. */
  public void startInPlace() throws IOException {
    om.start(conf);
  }

  @Override
  public void close() throws IOException {
    om.stop();
  }

  /** Adds a volume (if new) and a bucket, with the object ids the FSO tables key by. */
  public void addBucket(String volume, long volumeId, String bucket, long bucketId, BucketLayout layout)
      throws IOException {
    String volumeKey = om.getVolumeKey(volume);
    if (om.getVolumeTable().get(volumeKey) == null) {
      om.getVolumeTable().put(volumeKey, OmVolumeArgs.newBuilder().setVolume(volume).setAdminName("admin")
          .setOwnerName("owner").setObjectID(volumeId).setUpdateID(1).setCreationTime(1).build());
    }
    om.getBucketTable().put(om.getBucketKey(volume, bucket), OmBucketInfo.newBuilder().setVolumeName(volume)
        .setBucketName(bucket).setObjectID(bucketId).setUpdateID(1).setCreationTime(1)
        .setBucketLayout(layout).build());
  }

  public static String keyName(int i) {
    return String.format("key-%08d", i);
  }

  /** Puts keys [from, to) of a bucket into keyTable with realistic OmKeyInfo values, in one batch. */
  public void putKeys(String volume, String bucket, int from, int to) throws IOException {
    Table<String, OmKeyInfo> t = om.getKeyTable(BucketLayout.OBJECT_STORE);
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = from; i < to; i++) {
        t.putWithBatch(batch, om.getOzoneKey(volume, bucket, keyName(i)), keyInfo(volume, bucket, keyName(i), i));
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  public static OmKeyInfo keyInfo(String volume, String bucket, String key, long id) {
    return keyInfoBuilder(volume, bucket, key, id).build();
  }

  static OmKeyInfo.Builder keyInfoBuilder(String volume, String bucket, String key, long id) {
    return new OmKeyInfo.Builder().setVolumeName(volume).setBucketName(bucket).setKeyName(key)
        .setReplicationConfig(RatisReplicationConfig.getInstance(HddsProtos.ReplicationFactor.THREE))
        .setObjectID(1_000_000L + id).setUpdateID(id).setCreationTime(1_700_000_000_000L + id)
        .setModificationTime(1_700_000_000_000L + id).setDataSize(0).setOwnerName("owner")
        .setOmKeyLocationInfos(Collections.singletonList(new OmKeyLocationInfoGroup(0, new ArrayList<>())));
  }

  /** Deletes keys [from, to) of a bucket from keyTable, in one batch. */
  public void deleteKeys(String volume, String bucket, int from, int to) throws IOException {
    Table<String, OmKeyInfo> t = om.getKeyTable(BucketLayout.OBJECT_STORE);
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = from; i < to; i++) {
        t.deleteWithBatch(batch, om.getOzoneKey(volume, bucket, keyName(i)));
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  /** Puts files [from, to) under one parent directory of an FSO bucket into fileTable, in one batch. */
  public void putFiles(long volumeId, long bucketId, long parentId, int from, int to) throws IOException {
    Table<String, OmKeyInfo> t = om.getKeyTable(BucketLayout.FILE_SYSTEM_OPTIMIZED);
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = from; i < to; i++) {
        OmKeyInfo info = keyInfoBuilder("vol", "fso", keyName(i), i).setParentObjectID(parentId).setFile(true).build();
        t.putWithBatch(batch, om.getOzonePathKey(volumeId, bucketId, parentId, keyName(i)), info);
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  /** Deletes files [from, to) of one parent directory of an FSO bucket from fileTable, in one batch. */
  public void deleteFiles(long volumeId, long bucketId, long parentId, int from, int to) throws IOException {
    Table<String, OmKeyInfo> t = om.getKeyTable(BucketLayout.FILE_SYSTEM_OPTIMIZED);
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = from; i < to; i++) {
        t.deleteWithBatch(batch, om.getOzonePathKey(volumeId, bucketId, parentId, keyName(i)));
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  /**
   * A busy OM in miniature: {@code cold} buckets {@code /v/cNNN/} and one queue bucket {@code /v/hot/}, written
   * together for {@code rounds} flushes, so every flush (and every L0 file) straddles all of them. Each round puts
   * 50 keys in every cold bucket and {@code perRound} at the queue's tail, and from the sixth round on deletes the
   * queue's {@code perRound} oldest. Waits for RocksDB's own compactions to settle, and returns the number of
   * queue keys deleted (the first live one is {@code keyName} of it).
   */
  public int hotQueueAmongColdBuckets(int cold, int rounds, int perRound) throws IOException {
    for (int b = 0; b < cold; b++) {
      addBucket("v", 1, String.format("c%03d", b), 10 + b, BucketLayout.OBJECT_STORE);
    }
    addBucket("v", 1, "hot", 5, BucketLayout.OBJECT_STORE);
    int head = 0;
    for (int round = 0; round < rounds; round++) {
      for (int b = 0; b < cold; b++) {
        putKeys("v", String.format("c%03d", b), round * 50, round * 50 + 50);
      }
      putKeys("v", "hot", round * perRound, (round + 1) * perRound);
      if (round >= 5) {
        deleteKeys("v", "hot", head, head + perRound);
        head += perRound;
      }
      flush();
    }
    awaitNoBackgroundCompaction("keyTable");
    return head;
  }

  /** Bounded poll until RocksDB reports no file of {@code table} being compacted (at most 30 s). */
  public void awaitNoBackgroundCompaction(String table) throws IOException {
    for (int i = 0; i < 300; i++) {
      if (filesOverlapping(table, new byte[0], null).stream().noneMatch(LiveFileMetaData::beingCompacted)) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    throw new IllegalStateException("RocksDB still compacting " + table + " after 30 s");
  }

  /**
   * Buckets {@code b0000}.. of volume {@code v}, each with {@code coldKeys} keys ({@code hotKeys} for bucket
   * {@code hot}) in the bottom level; then one flush holding a new key of every bucket and the deletes of the
   * first {@code deleted} keys of bucket {@code hot}: one level-0 file spanning every bucket, with one bucket's
   * deletes among every bucket's puts (a flush on a busy OM).
   */
  public void oneBucketsDeletesAmongEveryBucketsPuts(int buckets, int hot, int hotKeys, int coldKeys, int deleted)
      throws IOException {
    for (int b = 0; b < buckets; b++) {
      addBucket("v", 1, bucketName(b), 10 + b, BucketLayout.OBJECT_STORE);
      putKeys("v", bucketName(b), 0, b == hot ? hotKeys : coldKeys);
    }
    flush();
    om.getStore().compactDB();
    for (int b = 0; b < buckets; b++) {
      int next = b == hot ? hotKeys : coldKeys;
      putKeys("v", bucketName(b), next, next + 1);
    }
    deleteKeys("v", bucketName(hot), 0, deleted);
    flush();
  }

  /** Name of the bucket numbered {@code b}: {@code b0042}. */
  public static String bucketName(int b) {
    return String.format("b%04d", b);
  }

  public void flush() throws IOException {
    om.getStore().flushDB();
  }

  /** RocksDB's statistics tickers, e.g. {@code rocksdb.number.iter.skip}, {@code rocksdb.compact.write.bytes}. */
  public Map<String, Long> tickers() throws IOException {
    String stats = db().getProperty("rocksdb.options-statistics");
    Map<String, Long> out = new TreeMap<>();
    Matcher m = TICKER.matcher(stats);
    while (m.find()) {
      out.put(m.group(1), Long.parseLong(m.group(2)));
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("RocksDB statistics are off: " + stats);
    }
    return out;
  }

  /**
   * Internal keys RocksDB skipped to serve one seek to {@code prefix} in {@code table} and read the first live key
   * (what a listKeys from the bucket start does first). RocksDB adds an iterator's skips to the
   * {@code rocksdb.number.iter.skip} ticker when the iterator is closed.
   */
  public long skipsForSeek(String table, String prefix) throws IOException {
    long before = tickers().get("rocksdb.number.iter.skip");
    try (ManagedRocksIterator it = db().newIterator(db().getColumnFamily(table))) {
      RocksIterator raw = it.get();
      raw.seek(prefix.getBytes(StandardCharsets.UTF_8));
      if (raw.isValid()) {
        raw.key();
      }
    }
    return tickers().get("rocksdb.number.iter.skip") - before;
  }

  /** Live SST files of a table that overlap [begin, end). */
  public List<LiveFileMetaData> filesOverlapping(String table, byte[] begin, byte[] end) throws IOException {
    List<LiveFileMetaData> out = new ArrayList<>();
    for (LiveFileMetaData f : db().getLiveFilesMetaData()) {
      if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(table)
          && io.ozonerc.compaction.plan.Keys.overlaps(f.smallestKey(), f.largestKey(), begin, end)) {
        out.add(f);
      }
    }
    return out;
  }

  /** SHA-256 over every live key and value of every column family, in order: equal digests, equal contents. */
  public String digest() throws IOException {
    return digest(key -> true);
  }

  /** Like {@link #digest()}, over the keys {@code include} accepts. */
  public String digest(java.util.function.Predicate<String> include) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    List<RocksDatabase.ColumnFamily> families = new ArrayList<>(db().getExtraColumnFamilies());
    families.sort((a, b) -> a.getName().compareTo(b.getName()));
    for (RocksDatabase.ColumnFamily cf : families) {
      md.update(cf.getName().getBytes(StandardCharsets.UTF_8));
      try (ManagedRocksIterator it = db().newIterator(cf)) {
        RocksIterator raw = it.get();
        for (raw.seekToFirst(); raw.isValid(); raw.next()) {
          if (include.test(new String(raw.key(), StandardCharsets.UTF_8))) {
            md.update(raw.key());
            md.update((byte) 0);
            md.update(raw.value());
          }
        }
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  public Path dir() {
    return dir;
  }
}
