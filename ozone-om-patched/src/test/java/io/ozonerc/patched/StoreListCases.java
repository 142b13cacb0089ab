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

package io.ozonerc.patched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.OzoneConfigKeys;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.exceptions.OMException;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.ListKeysResult;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfoGroup;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;

/**
 * Main for {@link OmJvm}: random {@code listKeys} calls on a real {@link OmMetadataManagerImpl} in a temp dir,
 * written one result a line, so the same seed run on the stock and on the patched OM classes can be compared line
 * by line. Everything is drawn from the seed: buckets ({@code a0} and {@code c2} all deleted, {@code a0} first in
 * the table), keys under a few shared prefixes, deletes, and table cache entries the OM would hold before its
 * double buffer flushes (keys only in the cache, keys deleted in the cache, keys rewritten in the cache). Cases
 * draw a bucket (one that does not exist too), a prefix, a start key (existing, missing, before and after the
 * prefix) and a page size, and half of them page through to the end.
 *
 * <p>Arguments: OUT SEED CASES. Besides one {@code case} line per call it writes {@code skips-after-dead-head}:
 * internal keys RocksDB skipped for a 10-key list of {@code b1} from its start, right after the dead {@code a0}.
 */
public final class StoreListCases {
  static final String VOLUME = "vol";
  static final List<String> BUCKETS = List.of("a0", "b1", "c2", "d3", "e4");
  static final List<String> DEAD = List.of("a0", "c2");
  private static final List<String> PREFIXES = List.of("", "k-", "k-00", "k-01", "dir1/", "dir", "dir2/f0", "x/",
      "zzz", "k-0042");

  private StoreListCases() { }

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    int cases = Integer.parseInt(args[2]);
    Path dir = Files.createTempDirectory(out.toAbsolutePath().getParent(), "om-store");
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    conf.set(OzoneConfigKeys.OZONE_METADATA_STORE_ROCKSDB_STATISTICS, "ALL");
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf, null);
    List<String> lines = new ArrayList<>();
    try {
      List<String> names = fill(om, random);
      long before = IterSkips.read(om);
      om.listKeys(VOLUME, "b1", null, null, 10);
      lines.add("skips-after-dead-head " + (IterSkips.read(om) - before));
      for (int i = 0; i < cases; i++) {
        String bucket = random.nextInt(20) == 0 ? "nobucket" : BUCKETS.get(random.nextInt(BUCKETS.size()));
        String prefix = PREFIXES.get(random.nextInt(PREFIXES.size()));
        String start = startKey(random, names, prefix);
        int page = 1 + random.nextInt(random.nextBoolean() ? 5 : 60);
        boolean all = random.nextBoolean();
        lines.add("case " + i + " " + bucket + " prefix=" + prefix + " start=" + start + " page=" + page
            + (all ? " all" : "") + " -> " + list(om, bucket, prefix, start, page, all));
      }
    } finally {
      om.stop();
    }
    Files.write(out, lines);
  }

  /** Writes buckets, keys, deletes and cache entries; returns every key name used, for start keys. */
  static List<String> fill(OmMetadataManagerImpl om, Random random) throws Exception {
    om.getVolumeTable().put(om.getVolumeKey(VOLUME), OmVolumeArgs.newBuilder().setVolume(VOLUME)
        .setAdminName("admin").setOwnerName("owner").setObjectID(1).setUpdateID(1).setCreationTime(1).build());
    TreeSet<String> names = new TreeSet<>();
    Table<String, OmKeyInfo> keys = om.getKeyTable(BucketLayout.OBJECT_STORE);
    long epoch = 1;
    List<List<String>> written = new ArrayList<>();
    // All puts, one flush, all deletes: two L0 files, below RocksDB's L0 compaction trigger (4), so no compaction
    // drops a tombstone with the value it hides before the lists run.
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int b = 0; b < BUCKETS.size(); b++) {
        String bucket = BUCKETS.get(b);
        OmBucketInfo info = OmBucketInfo.newBuilder().setVolumeName(VOLUME).setBucketName(bucket)
            .setObjectID(10 + b).setUpdateID(1).setCreationTime(1).setBucketLayout(BucketLayout.OBJECT_STORE)
            .build();
        // The bucket table is fully cached: the OM reads it from the cache only, so put it in both.
        om.getBucketTable().put(om.getBucketKey(VOLUME, bucket), info);
        om.getBucketTable().addCacheEntry(om.getBucketKey(VOLUME, bucket), info, epoch++);
        int count = bucket.equals("a0") ? 3000 : 100 + random.nextInt(300);
        List<String> names0 = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          String name = keyName(random, i);
          names0.add(name);
          keys.putWithBatch(batch, om.getOzoneKey(VOLUME, bucket, name), keyInfo(bucket, name, i));
        }
        written.add(names0);
        names.addAll(names0);
      }
      om.getStore().commitBatchOperation(batch);
    }
    om.getStore().flushDB();
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int b = 0; b < BUCKETS.size(); b++) {
        boolean dead = DEAD.contains(BUCKETS.get(b));
        for (String name : written.get(b)) {
          if (dead || random.nextInt(10) < 3) {
            keys.deleteWithBatch(batch, om.getOzoneKey(VOLUME, BUCKETS.get(b), name));
          }
        }
      }
      om.getStore().commitBatchOperation(batch);
    }
    // What the table cache holds between a request and its double-buffer flush.
    for (int b = 0; b < BUCKETS.size(); b++) {
      String bucket = BUCKETS.get(b);
      if (DEAD.contains(bucket)) {
        continue;
      }
      List<String> inBucket = written.get(b);
      for (int i = 0; i < 40; i++) {
        String name = random.nextBoolean() ? inBucket.get(random.nextInt(inBucket.size()))
            : keyName(random, 5000 + i);
        names.add(name);
        String dbKey = om.getOzoneKey(VOLUME, bucket, name);
        if (random.nextInt(3) == 0) {
          keys.addCacheEntry(dbKey, epoch++);
        } else {
          keys.addCacheEntry(dbKey, keyInfo(bucket, name, 100_000 + i), epoch++);
        }
      }
    }
    om.getStore().flushDB();
    return new ArrayList<>(names);
  }

  private static String keyName(Random random, int i) {
    switch (random.nextInt(4)) {
    case 0:
      return String.format("dir%d/f%03d", random.nextInt(3), i);
    case 1:
      return String.format("x/y%04d", i);
    default:
      return String.format("k-%04d", i);
    }
  }

  private static String startKey(Random random, List<String> names, String prefix) {
    switch (random.nextInt(6)) {
    case 0:
      return "";
    case 1:
      return names.get(random.nextInt(names.size()));
    case 2:
      return names.get(random.nextInt(names.size())) + "~"; // not a key, sorts after one
    case 3:
      return "a"; // before every prefix
    case 4:
      return "zzzz"; // after every key
    default:
      return prefix + "0";
    }
  }

  static OmKeyInfo keyInfo(String bucket, String name, long id) {
    return new OmKeyInfo.Builder().setVolumeName(VOLUME).setBucketName(bucket).setKeyName(name)
        .setReplicationConfig(RatisReplicationConfig.getInstance(HddsProtos.ReplicationFactor.THREE))
        .setObjectID(1_000_000L + id).setUpdateID(id).setCreationTime(1_700_000_000_000L + id)
        .setModificationTime(1_700_000_000_000L + id).setDataSize(id).setOwnerName("owner")
        .setOmKeyLocationInfos(Collections.singletonList(new OmKeyLocationInfoGroup(0, new ArrayList<>())))
        .build();
  }

  /** One list call, or all pages from the start key; each key with its size (cache versions differ in it). */
  static String list(OmMetadataManagerImpl om, String bucket, String prefix, String start, int page,
      boolean all) {
    StringBuilder s = new StringBuilder();
    try {
      String from = start;
      while (true) {
        ListKeysResult r = om.listKeys(VOLUME, bucket, from, prefix, page);
        for (OmKeyInfo k : r.getKeys()) {
          s.append(k.getKeyName()).append(':').append(k.getDataSize()).append(' ');
        }
        s.append(r.isTruncated() ? "| " : "|end");
        if (!all || !r.isTruncated() || r.getKeys().isEmpty()) {
          return s.toString();
        }
        from = r.getKeys().get(r.getKeys().size() - 1).getKeyName();
      }
    } catch (OMException e) {
      return s + "error " + e.getResult();
    } catch (Exception e) {
      return s + "error " + e;
    }
  }
}
