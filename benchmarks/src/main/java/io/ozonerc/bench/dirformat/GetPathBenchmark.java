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
import io.ozonerc.metadata.DirectoryValue;
import io.ozonerc.metadata.DirectoryValueCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.DBStoreBuilder;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.StringCodec;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.cache.TableCache;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * One point lookup of an existing directory, four ways to get the value out of RocksDB (the RocksDB Java get-copy
 * study), over the walk benchmark's tree ({@link DirectoryTree}), then reading the objectId from it:
 * <ul>
 *   <li>{@code getNewArray}: {@code RocksDB.get(cf, key)} returns a new {@code byte[]} (JNI allocates and copies);</li>
 *   <li>{@code getIntoArray}: {@code RocksDB.get(cf, readOptions, key, value)} into a per-thread preallocated
 *       {@code byte[]} (JNI copies into it; value length returned);</li>
 *   <li>{@code getIntoDirect}: {@code RocksDB.get(cf, readOptions, keyBuffer, valueBuffer)} with per-thread direct
 *       buffers (one native copy, no JNI array pinning); the key is copied into the direct buffer each time;</li>
 *   <li>{@code tableGet}: Ozone's {@code TypedTable.get(String)} on the same store opened through Ozone's
 *       {@code DBStoreBuilder} (its DISK profile: 256 MiB block cache, fits this dataset), with Ozone's String key
 *       codec, a PARTIAL table cache as the OM's directoryTable has, and as value codec Ozone's
 *       {@code OmDirectoryInfo.getCodec()} (PROTOBUF) or our {@code DirectoryValueCodec} (TRIMMED): a whole decoded
 *       object per get, as the OM uses it today.</li>
 * </ul>
 * Keys: 65,536 existing directories drawn at random across all levels. For the raw paths the objectId is read with
 * each format's cheapest reader (protobuf parse; our view). Models the OM's single-directory lookups (e.g. a
 * getFileStatus on a directory).
 *
 * <p>Run: {@code dev-support/dirformat-bench.sh getpath}, or
 * <pre>
 * nice -n 10 java -cp &lt;benchmarks classpath&gt; org.openjdk.jmh.Main GetPathBenchmark -p tree=10x6 \
 *     -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc -rf json -rff getpath.json
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class GetPathBenchmark {
  private static final int KEYS = 1 << 16;

  /** The store, opened through Ozone, and the sampled keys. */
  @State(Scope.Benchmark)
  public static class Store {
    @Param({"PROTOBUF", "TRIMMED"})
    public Format format;

    @Param({"10x6"})
    public String tree;

    RDBStore store;
    RocksDB rocks;
    ColumnFamilyHandle cf;
    ReadOptions readOptions;
    Table<String, ?> table;
    byte[][] keys;
    String[] keyStrings;

    @Setup(Level.Trial)
    public void open() throws Exception {
      int maxKey;
      try (DirectoryTree t = DirectoryTree.open(tree, 8L << 20)) { // builds the DB on first use
        SplittableRandom random = new SplittableRandom(7);
        keys = new byte[KEYS][];
        keyStrings = new String[KEYS];
        for (int k = 0; k < KEYS; k++) {
          long i = random.nextLong(t.directories);
          long parentIndex = i / t.fanout - 1;
          long parentId = parentIndex < 0 ? DirectoryTree.BUCKET_ID : DirectoryTree.objectIdOf(parentIndex);
          keyStrings[k] = t.keyString(parentId, (int) (i % t.fanout));
          keys[k] = keyStrings[k].getBytes(StandardCharsets.UTF_8);
        }
        maxKey = t.maxKeyLength();
      }
      int[] shape = DirectoryTree.parseShape(tree);
      OzoneConfiguration conf = new OzoneConfiguration();
      store = DBStoreBuilder.newBuilder(conf)
          .setName("tree-" + shape[0] + "x" + shape[1])
          .setPath(DirectoryTree.dataDir().toPath())
          .addTable(format.columnFamily())
          .setCreateCheckpointDirs(false)
          .setEnableRocksDbMetrics(false)
          .build();
      rocks = store.getDb().getManagedRocksDb().get();
      cf = store.getDb().getColumnFamily(format.columnFamily()).getHandle();
      readOptions = new ReadOptions();
      table = format == Format.PROTOBUF
          ? store.getTable(format.columnFamily(), StringCodec.get(), OmDirectoryInfo.getCodec(),
              TableCache.CacheType.PARTIAL_CACHE)
          : store.getTable(format.columnFamily(), StringCodec.get(), DirectoryValueCodec.get(),
              TableCache.CacheType.PARTIAL_CACHE);
      try (RocksIterator it = rocks.newIterator(cf, readOptions)) { // load the block cache before measuring
        for (it.seekToFirst(); it.isValid(); it.next()) {
          it.key();
        }
      }
      if (maxKey > 256) {
        throw new IllegalStateException("keys longer than the 256-byte key buffer");
      }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
      readOptions.close();
      store.close();
    }
  }

  /** Per-thread buffers and key cursor. */
  @State(Scope.Thread)
  public static class Buffers {
    byte[] value = new byte[512];
    ByteBuffer directKey = ByteBuffer.allocateDirect(256);
    ByteBuffer directValue = ByteBuffer.allocateDirect(512);
    DirectoryFormats.Readers readers = new DirectoryFormats.Readers();
    int next;
  }

  @Benchmark
  public long getNewArray(Store s, Buffers b) throws RocksDBException {
    byte[] value = s.rocks.get(s.cf, s.keys[b.next++ & (KEYS - 1)]);
    return b.readers.objectId(s.format, value);
  }

  @Benchmark
  public long getIntoArray(Store s, Buffers b) throws RocksDBException {
    byte[] key = s.keys[b.next++ & (KEYS - 1)];
    int len = s.rocks.get(s.cf, s.readOptions, key, b.value);
    if (len > b.value.length) { // never for this dataset; kept so the path is complete
      b.value = new byte[len];
      len = s.rocks.get(s.cf, s.readOptions, key, b.value);
    }
    return b.readers.objectId(s.format, b.value, len);
  }

  @Benchmark
  public long getIntoDirect(Store s, Buffers b) throws RocksDBException {
    b.directKey.clear();
    b.directKey.put(s.keys[b.next++ & (KEYS - 1)]).flip();
    b.directValue.clear();
    int len = s.rocks.get(s.cf, s.readOptions, b.directKey, b.directValue);
    if (len > b.directValue.capacity()) {
      throw new IllegalStateException("value of " + len + " bytes exceeds the direct buffer");
    }
    return b.readers.objectId(s.format, b.directValue);
  }

  @Benchmark
  public long tableGet(Store s, Buffers b) throws Exception {
    Object v = s.table.get(s.keyStrings[b.next++ & (KEYS - 1)]);
    return v instanceof OmDirectoryInfo ? ((OmDirectoryInfo) v).getObjectID() : ((DirectoryValue) v).getObjectId();
  }
}
