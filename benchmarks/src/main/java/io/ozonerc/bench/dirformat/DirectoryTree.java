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

package io.ozonerc.bench.dirformat;

import io.ozonerc.bench.dirformat.DirectoryFormats.Format;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A complete directory tree of one FSO bucket, {@code fanout} directories per level, {@code levels} levels
 * ({@code fanout + fanout^2 + ... + fanout^levels} directories), stored in one RocksDB with one column family per
 * value format ({@link Format#columnFamily()}), same keys in each.
 *
 * <p>Directories are numbered breadth-first: level-1 directories are 0..fanout-1, and the children of directory i
 * are {@code fanout*(i+1) .. fanout*(i+1)+fanout-1}. Directory i was created by Ratis transaction 1000+i, so its
 * objectId is {@code 2<<62 | (1000+i)<<8} and a reader can compute any key without touching the DB. Child c of any
 * parent is named {@code part-0000c}. Keys are {@code /volumeId/bucketId/parentId/name} as the OM writes them.
 *
 * <p>Table options follow Ozone's DBProfile (16 KiB blocks, 10-bit Bloom filter, default compression); only the
 * block cache size is a parameter. The DB is built once under {@code -Ddirformat.data=<dir>} (default
 * {@code java.io.tmpdir/dirformat-data}), flushed and fully compacted, and reused by later runs.
 */
public final class DirectoryTree implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryTree.class);
  public static final long VOLUME_ID = DirectoryFormats.ratisId(1);
  public static final long BUCKET_ID = DirectoryFormats.ratisId(2);
  static final long FIRST_TX = 1000;
  static final long CREATED = 1_732_000_000_000L;

  public final int fanout;
  public final int levels;
  public final long directories;
  private final byte[][] names;
  private final byte[] prefix;
  private final RocksDB db;
  private final List<ColumnFamilyHandle> handles;
  private final LRUCache cache;
  private final BloomFilter bloom;
  private final ColumnFamilyOptions cfOptions;
  private final DBOptions dbOptions;

  /** Parses "10x6" (fanout x levels). */
  public static int[] parseShape(String shape) {
    String[] p = shape.toLowerCase(Locale.ROOT).split("x");
    if (p.length != 2) {
      throw new IllegalArgumentException("tree shape must be <fanout>x<levels>, was " + shape);
    }
    return new int[] {Integer.parseInt(p[0]), Integer.parseInt(p[1])};
  }

  public static File dataDir() {
    return new File(System.getProperty("dirformat.data", System.getProperty("java.io.tmpdir") + "/dirformat-data"));
  }

  /** Opens (building first if needed) the tree DB with a block cache of {@code blockCacheBytes}. */
  public static DirectoryTree open(String shape, long blockCacheBytes) throws IOException, RocksDBException {
    int[] s = parseShape(shape);
    File dir = new File(dataDir(), "tree-" + s[0] + "x" + s[1]);
    File done = new File(dir, "BUILD-COMPLETE");
    if (!done.isFile()) {
      build(dir, s[0], s[1]);
      Files.writeString(done.toPath(), "built\n");
    }
    return new DirectoryTree(dir, s[0], s[1], blockCacheBytes, false);
  }

  /**
   * Opens an already built tree read-only (after {@link #open} built it): read-only opens take no LOCK, so several
   * instances, each with its own block cache, can read the same DB at once.
   */
  public static DirectoryTree openReadOnly(String shape, long blockCacheBytes) throws IOException, RocksDBException {
    open(shape, 1L << 20).close();
    int[] s = parseShape(shape);
    return new DirectoryTree(new File(dataDir(), "tree-" + s[0] + "x" + s[1]), s[0], s[1], blockCacheBytes, true);
  }

  private DirectoryTree(File dir, int fanout, int levels, long blockCacheBytes, boolean readOnly)
      throws RocksDBException {
    RocksDB.loadLibrary();
    this.fanout = fanout;
    this.levels = levels;
    this.directories = directoryCount(fanout, levels);
    this.names = childNames(fanout);
    this.prefix = ("/" + VOLUME_ID + "/" + BUCKET_ID + "/").getBytes(StandardCharsets.US_ASCII);
    this.cache = new LRUCache(blockCacheBytes);
    this.bloom = new BloomFilter(10, false);
    this.cfOptions = tableOptions(cache, bloom);
    this.dbOptions = new DBOptions().setCreateIfMissing(false).setMaxOpenFiles(-1);
    List<ColumnFamilyDescriptor> cfs = descriptors(cfOptions);
    this.handles = new ArrayList<>();
    this.db = readOnly ? RocksDB.openReadOnly(dbOptions, dir.getAbsolutePath(), cfs, handles)
        : RocksDB.open(dbOptions, dir.getAbsolutePath(), cfs, handles);
  }

  static String name(int child) {
    return String.format("part-%05d", child);
  }

  private static ColumnFamilyOptions tableOptions(LRUCache cache, BloomFilter bloom) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setBlockSize(16 * 1024)
        .setPinL0FilterAndIndexBlocksInCache(true)
        .setFilterPolicy(bloom);
    return new ColumnFamilyOptions().setTableFormatConfig(table);
  }

  private static List<ColumnFamilyDescriptor> descriptors(ColumnFamilyOptions options) {
    List<ColumnFamilyDescriptor> cfs = new ArrayList<>();
    cfs.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, options));
    for (Format f : Format.values()) {
      cfs.add(new ColumnFamilyDescriptor(f.columnFamily().getBytes(StandardCharsets.UTF_8), options));
    }
    return cfs;
  }

  public ColumnFamilyHandle handle(Format format) {
    return handles.get(1 + format.ordinal());
  }

  public RocksDB db() {
    return db;
  }

  /** objectId of breadth-first directory {@code i}. */
  public static long objectIdOf(long i) {
    return DirectoryFormats.ratisId(FIRST_TX + i);
  }

  /** Breadth-first index of child {@code c} of directory {@code i} (-1 = the bucket). */
  public long childIndex(long i, int c) {
    return fanout * (i + 1) + c;
  }

  public static OmDirectoryInfo directory(long parentId, long i, String name) {
    long tx = FIRST_TX + i;
    return DirectoryFormats.directory(name, parentId, objectIdOf(i), tx, CREATED + i, "hadoop", "hadoop",
        java.util.Map.of());
  }

  /** Writes the key of child {@code child} of {@code parentId} into {@code buf}; returns its length. */
  public int key(byte[] buf, long parentId, int child) {
    System.arraycopy(prefix, 0, buf, 0, prefix.length);
    int p = writeLong(buf, prefix.length, parentId);
    buf[p++] = '/';
    byte[] n = names[child];
    System.arraycopy(n, 0, buf, p, n.length);
    return p + n.length;
  }

  /** Longest key: prefix + 20 chars of a long + '/' + name. */
  public int maxKeyLength() {
    return prefix.length + 21 + names[fanout - 1].length;
  }

  public String keyString(long parentId, int child) {
    byte[] buf = new byte[maxKeyLength()];
    return new String(buf, 0, key(buf, parentId, child), StandardCharsets.US_ASCII);
  }

  /** Decimal ASCII of {@code v} (as Long.toString), without allocating. */
  static int writeLong(byte[] buf, int pos, long v) {
    if (v == 0) {
      buf[pos] = '0';
      return pos + 1;
    }
    int start = pos;
    if (v < 0) {
      buf[pos++] = '-';
      start = pos;
    } else {
      v = -v; // work on the negative side so that Long.MIN_VALUE works too
    }
    int end = pos;
    for (long t = v; t != 0; t /= 10) {
      end++;
    }
    for (int i = end - 1; i >= start; i--) {
      buf[i] = (byte) ('0' - (v % 10));
      v /= 10;
    }
    return end;
  }

  private static void build(File dir, int fanout, int levels) throws IOException, RocksDBException {
    RocksDB.loadLibrary();
    if (dir.exists()) {
      try (var walk = Files.walk(dir.toPath())) {
        walk.sorted(java.util.Comparator.reverseOrder()).map(java.nio.file.Path::toFile).forEach(File::delete);
      }
    }
    Files.createDirectories(dir.toPath());
    long start = System.nanoTime();
    try (LRUCache cache = new LRUCache(64L << 20);
         BloomFilter bloom = new BloomFilter(10, false);
         ColumnFamilyOptions cfOptions = tableOptions(cache, bloom);
         DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
         WriteOptions writeOptions = new WriteOptions().setDisableWAL(true)) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB db = RocksDB.open(options, dir.getAbsolutePath(), descriptors(cfOptions), handles)) {
        DirectoryTree shape = new DirectoryTree(fanout, levels);
        long written = 0;
        WriteBatch batch = new WriteBatch();
        // Breadth-first: directory i's parent is (i / fanout) - 1 (the bucket for level 1).
        for (long i = 0; i < shape.directories; i++) {
          long parentIndex = i / fanout - 1;
          long parentId = parentIndex < 0 ? BUCKET_ID : objectIdOf(parentIndex);
          int child = (int) (i % fanout);
          OmDirectoryInfo info = directory(parentId, i, name(child));
          byte[] key = shape.keyString(parentId, child).getBytes(StandardCharsets.UTF_8);
          for (Format f : Format.values()) {
            batch.put(handles.get(1 + f.ordinal()), key, f.encode(info));
          }
          if (++written % 20_000 == 0) {
            db.write(writeOptions, batch);
            batch.close();
            batch = new WriteBatch();
          }
        }
        db.write(writeOptions, batch);
        batch.close();
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
          db.flush(flush, handles);
        }
        for (ColumnFamilyHandle h : handles) {
          db.compactRange(h);
        }
        LOG.info("built {}: {} directories x {} formats in {} s", dir, shape.directories, Format.values().length,
            (System.nanoTime() - start) / 1_000_000_000L);
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }

  /** Directories below the root of a tree with {@code fanout} children per directory, {@code levels} deep. */
  private static long directoryCount(int fanout, int levels) {
    long n = 0;
    long width = 1;
    for (int l = 0; l < levels; l++) {
      width *= fanout;
      n += width;
    }
    return n;
  }

  /** The ASCII names of the {@code fanout} children every directory has. */
  private static byte[][] childNames(int fanout) {
    byte[][] out = new byte[fanout][];
    for (int c = 0; c < fanout; c++) {
      out[c] = name(c).getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /** Shape-only instance for key building during the build. */
  private DirectoryTree(int fanout, int levels) {
    this.fanout = fanout;
    this.levels = levels;
    this.directories = directoryCount(fanout, levels);
    this.names = childNames(fanout);
    this.prefix = ("/" + VOLUME_ID + "/" + BUCKET_ID + "/").getBytes(StandardCharsets.US_ASCII);
    this.db = null;
    this.handles = List.of();
    this.cache = null;
    this.bloom = null;
    this.cfOptions = null;
    this.dbOptions = null;
  }

  /** Live SST bytes of a format's column family. */
  public long sstBytes(Format format) {
    return db.getLiveFilesMetaData().stream()
        .filter(m -> new String(m.columnFamilyName(), StandardCharsets.UTF_8).equals(format.columnFamily()))
        .mapToLong(m -> m.size()).sum();
  }

  @Override
  public void close() {
    if (db == null) {
      return;
    }
    handles.forEach(ColumnFamilyHandle::close);
    db.close();
    dbOptions.close();
    cfOptions.close();
    bloom.close();
    cache.close();
  }

  /** Builds (if needed) and prints per-format SST sizes: {@code DirectoryTree 10x6}. */
  public static void main(String[] args) throws Exception {
    try (DirectoryTree tree = open(args.length > 0 ? args[0] : "10x6", 8L << 20)) {
      for (Format f : Format.values()) {
        System.out.printf("%-12s %,d directories, %,d SST bytes%n", f, tree.directories, tree.sstBytes(f));
      }
    }
  }
}
