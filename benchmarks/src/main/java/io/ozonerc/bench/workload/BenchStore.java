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

import io.ozonerc.compaction.rocks.RocksFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.client.BlockID;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.TableIterator;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfoGroup;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;
import org.rocksdb.LiveFileMetaData;

/**
 * One real OM metadata store ({@link OmMetadataManagerImpl}: the OM's own column families and RocksDB options) in a
 * fresh directory, with the volume and buckets the workload writes to. Everything the benchmark does to the store
 * goes through here: key writes through the OM's keyTable {@link Table}, listings through the OM's own
 * {@code listKeys}, and the RocksDB facts the report needs (statistics tickers, live SST files, memtable deletes).
 */
final class BenchStore implements AutoCloseable {

  static final String VOLUME = "vol1";
  static final String KEY_TABLE = "keyTable";

  private final Path dir;
  private final OmMetadataManagerImpl om;
  private final Table<String, OmKeyInfo> keyTable;
  private final RocksDatabase db;
  private final List<String> buckets;
  private boolean keepFiles;

  private BenchStore(Path dir, OmMetadataManagerImpl om, List<String> buckets) throws IOException {
    this.dir = dir;
    this.om = om;
    this.buckets = buckets;
    this.keyTable = om.getKeyTable(BucketLayout.OBJECT_STORE);
    this.db = ((RDBStore) om.getStore()).getDb();
  }

  /**
   * Opens a fresh store under {@code parent} with RocksDB statistics on (so tickers such as internal keys skipped
   * exist) and the given memtable size per column family, then creates one volume and {@code bucketCount} buckets.
   */
  static BenchStore create(Path parent, String name, int bucketCount, long writeBufferBytes) throws IOException {
    return create(parent, name, bucketCount, writeBufferBytes, false);
  }

  /**
   * As {@link #create(Path, String, int, long)}, with the skip hints of the patched OM classes on or off
   * ({@value #SKIP_HINTS_KEY}; stock 2.2.0 classes do not know the key and ignore it).
   */
  static BenchStore create(Path parent, String name, int bucketCount, long writeBufferBytes, boolean skipHints)
      throws IOException {
    Path dir = Files.createTempDirectory(parent, name + "-");
    OmMetadataManagerImpl om = open(dir, writeBufferBytes, skipHints);
    long now = System.currentTimeMillis();
    // The volume and bucket tables are fully cached: the OM reads them from the cache only, so the entries go to
    // both the table and its cache, as the OM's request path leaves them.
    OmVolumeArgs volume = OmVolumeArgs.newBuilder().setVolume(VOLUME).setAdminName("om").setOwnerName("bench")
        .setCreationTime(now).setObjectID(1).setUpdateID(1).build();
    om.getVolumeTable().put(om.getVolumeKey(VOLUME), volume);
    om.getVolumeTable().addCacheEntry(om.getVolumeKey(VOLUME), volume, 1);
    List<String> names = new ArrayList<>();
    for (int b = 0; b < bucketCount; b++) {
      String bucket = bucketName(b);
      names.add(bucket);
      OmBucketInfo info = OmBucketInfo.newBuilder()
          .setVolumeName(VOLUME).setBucketName(bucket).setBucketLayout(BucketLayout.OBJECT_STORE)
          .setCreationTime(now).setModificationTime(now).setObjectID(100 + b).setUpdateID(100 + b)
          .setOwner("bench").build();
      om.getBucketTable().put(om.getBucketKey(VOLUME, bucket), info);
      om.getBucketTable().addCacheEntry(om.getBucketKey(VOLUME, bucket), info, 1);
    }
    return new BenchStore(dir, om, Collections.unmodifiableList(names));
  }

  /**
   * The switch of HDDS-skip-hints-2.2.0.patch. The patched classes turn hints on by default; the benchmark sets it
   * on every store, off except for the hint policies, so that {@code --patched-list} keeps measuring the bounded
   * list iterator alone.
   */
  static final String SKIP_HINTS_KEY = "ozone.om.list.skip.hints.enabled";

  private static OmMetadataManagerImpl open(Path dir, long writeBufferBytes, boolean skipHints) throws IOException {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.db.dirs", dir.toString());
    conf.set("ozone.metastore.rocksdb.statistics", "ALL");
    conf.set("ozone.metastore.rocksdb.cf.write.buffer.size", writeBufferBytes + "B");
    conf.setBoolean(SKIP_HINTS_KEY, skipHints);
    return new OmMetadataManagerImpl(conf, null);
  }

  /**
   * Opens a copy of the closed store in {@code template} under {@code parent}: SST files hard-linked (RocksDB never
   * changes an SST file, it only adds and deletes them), every other file copied. Every policy starts from an
   * identical store this way, without loading the cold data again. Statistics start at zero with the new process
   * handle.
   */
  static BenchStore openCopy(Path template, Path parent, String name, int bucketCount, long writeBufferBytes)
      throws IOException {
    return openCopy(template, parent, name, bucketCount, writeBufferBytes, false);
  }

  /** As {@link #openCopy(Path, Path, String, int, long)}, with skip hints on or off ({@link #SKIP_HINTS_KEY}). */
  static BenchStore openCopy(Path template, Path parent, String name, int bucketCount, long writeBufferBytes,
      boolean skipHints) throws IOException {
    Path dir = Files.createTempDirectory(parent, name + "-");
    try (Stream<Path> walk = Files.walk(template)) {
      for (Path src : (Iterable<Path>) walk::iterator) {
        Path dst = dir.resolve(template.relativize(src).toString());
        if (Files.isDirectory(src)) {
          Files.createDirectories(dst);
        } else if (src.getFileName().toString().endsWith(".sst")) {
          Files.createLink(dst, src);
        } else {
          Files.copy(src, dst);
        }
      }
    }
    List<String> names = new ArrayList<>();
    for (int b = 0; b < bucketCount; b++) {
      names.add(bucketName(b));
    }
    return new BenchStore(dir, open(dir, writeBufferBytes, skipHints), Collections.unmodifiableList(names));
  }

  /**
   * Loads the spec's cold keys (hashed names, {@code coldKeys / coldBuckets} per cold bucket) and the expiry
   * bucket's keys, if any, with the OM's batch writes, bucket by bucket in key order, then flushes and waits until
   * RocksDB has no compaction pending or running: the settled shape of data that has not changed for a long time.
   * Reports keys loaded to {@code progress}.
   */
  void loadCold(WorkloadSpec spec, java.util.function.LongConsumer progress) throws Exception {
    int cb = spec.coldBuckets();
    long loaded = 0;
    WorkloadSpec.Expiry expiry = spec.expiry();
    if (expiry.on()) {
      // The expiry bucket: names sort by creation number (index/ before logs/), so the batches go in key order.
      String bucket = buckets.get(spec.expiryStoreIndex());
      for (long from = 0; from < expiry.keys(); from += COLD_BATCH) {
        long to = Math.min(expiry.keys(), from + COLD_BATCH);
        try (org.apache.hadoop.hdds.utils.db.BatchOperation batch = om.getStore().initBatchOperation()) {
          for (long id = from; id < to; id++) {
            String name = WorkloadSpec.Expiry.name(id, expiry.kept());
            keyTable.putWithBatch(batch, om.getOzoneKey(VOLUME, bucket, name), keyInfo(bucket, name, id));
          }
          om.getStore().commitBatchOperation(batch);
        }
        loaded += to - from;
        progress.accept(loaded);
      }
    }
    for (int c = 0; c < cb; c++) {
      long count = spec.coldKeys() / cb + (c < spec.coldKeys() % cb ? 1 : 0);
      String[] names = new String[Math.toIntExact(count)];
      Map<String, Long> ids = new HashMap<>();
      for (int k = 0; k < count; k++) {
        long id = c + (long) k * cb;
        names[k] = WorkloadSpec.coldName(id);
        ids.put(names[k], id);
      }
      java.util.Arrays.sort(names);
      int storeIndex = spec.coldStoreIndex(c);
      for (int from = 0; from < names.length; from += COLD_BATCH) {
        try (org.apache.hadoop.hdds.utils.db.BatchOperation batch = om.getStore().initBatchOperation()) {
          for (int k = from; k < Math.min(names.length, from + COLD_BATCH); k++) {
            String bucket = buckets.get(storeIndex);
            keyTable.putWithBatch(batch, om.getOzoneKey(VOLUME, bucket, names[k]),
                keyInfo(bucket, names[k], ids.get(names[k])));
          }
          om.getStore().commitBatchOperation(batch);
        }
        loaded += Math.min(names.length, from + COLD_BATCH) - from;
        progress.accept(loaded);
      }
    }
    db.flush();
    awaitCompactions();
  }

  private static final int COLD_BATCH = 10_000;

  /** Waits (bounded: 30 minutes) until the keyTable has no compaction pending and none running. */
  void awaitCompactions() throws Exception {
    RocksDatabase.ColumnFamily cf = db.getColumnFamily(KEY_TABLE);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(30);
    while (!"0".equals(db.getProperty(cf, "rocksdb.compaction-pending").trim())
        || !"0".equals(db.getProperty("rocksdb.num-running-compactions").trim())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("keyTable compactions still pending after 30 minutes of loading");
      }
      Thread.sleep(100);
    }
  }

  /** Flushes every memtable to level 0. */
  void flush() throws IOException {
    db.flush();
  }

  /** Flushes, closes the store and keeps its files (a template for {@link #openCopy}); returns its directory. */
  Path closeKeepingFiles() throws Exception {
    db.flush();
    keepFiles = true;
    close();
    return dir;
  }

  static String bucketName(int b) {
    return String.format("bucket-%04d", b);
  }

  OmMetadataManagerImpl metadataManager() {
    return om;
  }

  RocksDatabase db() {
    return db;
  }

  /** The keyTable the workload writes and lists (a {@code TypedTable}; the patched one may carry skip hints). */
  Table<String, OmKeyInfo> keyTable() {
    return keyTable;
  }

  List<String> buckets() {
    return buckets;
  }

  /** Writes a realistic key record (one 4 MB block on a Ratis/THREE pipeline, owner ACLs, two metadata tags). */
  void putKey(int bucket, String keyName, long objectId) throws IOException {
    keyTable.put(om.getOzoneKey(VOLUME, buckets.get(bucket), keyName), keyInfo(buckets.get(bucket), keyName,
        objectId));
  }

  void deleteKey(int bucket, String keyName) throws IOException {
    keyTable.delete(om.getOzoneKey(VOLUME, buckets.get(bucket), keyName));
  }

  /**
   * One batch of a bulk expiry: deletes the named keys of {@code bucket} in one batch commit, as the OM's double
   * buffer commits the keyTable deletes of a DeleteKeys request (the deletedTable entries it would write beside
   * them are left out: the benchmark measures the keyTable).
   */
  void deleteKeys(int bucket, List<String> keyNames) throws IOException {
    try (org.apache.hadoop.hdds.utils.db.BatchOperation batch = om.getStore().initBatchOperation()) {
      for (String keyName : keyNames) {
        keyTable.deleteWithBatch(batch, om.getOzoneKey(VOLUME, buckets.get(bucket), keyName));
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  /** RocksDB's count of internal keys iterators skipped ({@value WorkloadRunner#TICK_SKIP}) so far. */
  long iterSkips() throws IOException {
    return tickers().getOrDefault(WorkloadRunner.TICK_SKIP, 0L);
  }

  /**
   * One page of the OM's own {@code listKeys}: seek to the start key (or the bucket start when {@code startKey} is
   * null) and read up to {@code maxKeys} entries of the bucket. Returns the number of keys listed.
   */
  int listKeys(int bucket, String startKey, int maxKeys) throws IOException {
    return om.listKeys(VOLUME, buckets.get(bucket), startKey, null, maxKeys).getKeys().size();
  }

  static OmKeyInfo keyInfo(String bucket, String keyName, long objectId) {
    long now = 1_763_000_000_000L + objectId; // fixed epoch: values are identical across policies and runs
    OmKeyLocationInfo block = new OmKeyLocationInfo.Builder()
        .setBlockID(new BlockID(1 + objectId / 1000, objectId))
        .setLength(4L << 20).setOffset(0).build();
    return new OmKeyInfo.Builder()
        .setVolumeName(VOLUME).setBucketName(bucket).setKeyName(keyName)
        .setOmKeyLocationInfos(Collections.singletonList(
            new OmKeyLocationInfoGroup(0, Collections.singletonList(block))))
        .setCreationTime(now).setModificationTime(now).setDataSize(4L << 20)
        .setReplicationConfig(RatisReplicationConfig.getInstance(HddsProtos.ReplicationFactor.THREE))
        .setOwnerName("bench")
        .addAcl(OzoneAcl.of(ACLIdentityType.USER, "bench", AclScope.ACCESS, ACLType.ALL))
        .addAcl(OzoneAcl.of(ACLIdentityType.GROUP, "users", AclScope.ACCESS, ACLType.READ, ACLType.LIST))
        .addMetadata("content-type", "application/octet-stream")
        .addMetadata("etag", Long.toHexString(objectId * 0x9E3779B97F4A7C15L))
        .setObjectID(objectId).setUpdateID(objectId)
        .build();
  }

  /** RocksDB statistics tickers (the {@code COUNT} lines of {@code rocksdb.options-statistics}). */
  Map<String, Long> tickers() throws IOException {
    return parseTickers(db.getProperty("rocksdb.options-statistics"));
  }

  static Map<String, Long> parseTickers(String statistics) {
    Map<String, Long> out = new HashMap<>();
    if (statistics == null) {
      return out;
    }
    for (String line : statistics.split("\n")) {
      int at = line.indexOf(" COUNT : ");
      if (at > 0) {
        String rest = line.substring(at + 9).trim();
        int space = rest.indexOf(' ');
        out.put(line.substring(0, at).trim(), Long.parseLong(space < 0 ? rest : rest.substring(0, space)));
      }
    }
    return out;
  }

  /** RocksDB's DB_SEEK histogram ({@code rocksdb.db.seek.micros}): every iterator seek of the DB, in microseconds. */
  record SeekHistogram(double p99Micros, long count, long sumMicros) {
    double averageMicros() {
      return count == 0 ? 0 : (double) sumMicros / count;
    }
  }

  /**
   * The DB_SEEK histogram since the store was opened, read from the same statistics object Ozone exports (its
   * {@code rocksdb.options-statistics} text: {@code P99 : x ... COUNT : n SUM : s}).
   */
  SeekHistogram seekHistogram() throws IOException {
    return parseSeekHistogram(db.getProperty("rocksdb.options-statistics"));
  }

  static SeekHistogram parseSeekHistogram(String statistics) {
    if (statistics != null) {
      for (String line : statistics.split("\n")) {
        if (line.startsWith(DB_SEEK_HISTOGRAM + " ")) {
          return new SeekHistogram(Double.parseDouble(field(line, "P99")), (long) Double.parseDouble(
              field(line, "COUNT")), (long) Double.parseDouble(field(line, "SUM")));
        }
      }
    }
    return new SeekHistogram(0, 0, 0);
  }

  static final String DB_SEEK_HISTOGRAM = "rocksdb.db.seek.micros";

  private static String field(String line, String name) {
    int at = line.indexOf(" " + name + " : ");
    if (at < 0) {
      throw new IllegalStateException("no " + name + " in statistics line: " + line);
    }
    String rest = line.substring(at + name.length() + 4).trim();
    int space = rest.indexOf(' ');
    return space < 0 ? rest : rest.substring(0, space);
  }

  /** A point-in-time picture of the keyTable: what the time series and the report print. */
  record TableFacts(long sstTombstones, long memtableTombstones, long sstEntries, long sstBytes, int sstFiles)
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    long tombstones() {
      return sstTombstones + memtableTombstones;
    }
  }

  TableFacts keyTableFacts() throws IOException {
    long deletions = 0;
    long entries = 0;
    long bytes = 0;
    int files = 0;
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      if (KEY_TABLE.equals(new String(f.columnFamilyName(), java.nio.charset.StandardCharsets.UTF_8))) {
        deletions += f.numDeletions();
        entries += f.numEntries();
        bytes += f.size();
        files++;
      }
    }
    long mem = RocksFacts.memtables(db, java.util.Set.of(KEY_TABLE)).get(0).deletes();
    return new TableFacts(deletions, mem, entries, bytes, files);
  }

  static final String L0_FILES = "rocksdb.num-files-at-level0";
  static final String PENDING_COMPACTION_BYTES = "rocksdb.estimate-pending-compaction-bytes";

  /** An integer property of the keyTable column family (e.g. {@link #L0_FILES}), or -1 when unreadable. */
  long keyTableLong(String property) {
    try {
      return Long.parseLong(db.getProperty(db.getColumnFamily(KEY_TABLE), property).trim());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Total size of every live SST file of every column family. */
  long allSstBytes() throws IOException {
    long bytes = 0;
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      bytes += f.size();
    }
    return bytes;
  }

  /** Number of keys and an order-independent digest of their names, read back from the keyTable. */
  record Content(long keys, long digest) {
  }

  Content content() throws IOException {
    long n = 0;
    long digest = 0;
    try (TableIterator<String, String> it = keyTable.keyIterator()) {
      while (it.hasNext()) {
        String key = it.next();
        digest += Workload.mix(key.hashCode());
        n++;
      }
    }
    return new Content(n, digest);
  }

  @Override
  public void close() throws Exception {
    try {
      om.stop();
    } finally {
      if (!keepFiles) {
        deleteRecursively(dir);
      }
    }
  }

  static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
