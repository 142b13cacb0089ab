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
import io.ozonerc.metadata.om.DirectoryValueFormat;
import io.ozonerc.metadata.om.KeyAwareDirectoryTable;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.DBStoreBuilder;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.StringCodec;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.cache.TableCache;
import org.apache.hadoop.hdds.utils.db.managed.ManagedBlockBasedTableConfig;
import org.apache.hadoop.hdds.utils.db.managed.ManagedBloomFilter;
import org.apache.hadoop.hdds.utils.db.managed.ManagedColumnFamilyOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedLRUCache;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * {@link DirectoryWalkBenchmark}'s walk (a random path from the bucket until a lookup misses) through the OM's own
 * {@code Table<String, OmDirectoryInfo>} path instead of raw RocksDB: the store opened by Ozone's
 * {@code DBStoreBuilder}, String keys, a whole {@code OmDirectoryInfo} decoded per lookup, as the OM resolves a path.
 * Paths ({@code -p path}):
 * <ul>
 *   <li>{@code STOCK_PROTOBUF}: Ozone's {@code TypedTable} with {@code OmDirectoryInfo.getCodec()} over protobuf
 *       rows, what a stock 2.2.0 OM does;</li>
 *   <li>{@code KEY_AWARE_PROTOBUF}: the patched OM's {@link KeyAwareDirectoryTable} over the same protobuf rows (a DB
 *       not migrated, or the format off): what the patch costs by itself;</li>
 *   <li>{@code KEY_AWARE_TRIMMED}: {@link KeyAwareDirectoryTable} over trimmed rows, name and parent from the key.</li>
 * </ul>
 * Each column family gets its own block cache of {@code blockCacheMiB} (16 KiB blocks, Bloom filter, as the raw
 * walk): 1024 MiB holds a whole column family of the 10x6 tree (fits), 8 MiB does not (undersized). Trial setup
 * scans the family once to load the cache.
 *
 * <p>Run: {@code dev-support/dirformat-bench.sh table} (threads 1 and 2), or
 * <pre>
 * nice -n 10 java -cp &lt;benchmarks classpath&gt; org.openjdk.jmh.Main TableWalkBenchmark -p tree=10x6 -t 1 \
 *     -f 1 -wi 2 -i 3 -w 1s -r 1s -rf json -rff table-t1.json
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TableWalkBenchmark {

  /** Which table reads which rows. */
  public enum TablePath {
    STOCK_PROTOBUF(Format.PROTOBUF), KEY_AWARE_PROTOBUF(Format.PROTOBUF), KEY_AWARE_TRIMMED(Format.TRIMMED);

    final Format stored;

    TablePath(Format stored) {
      this.stored = stored;
    }
  }

  /** The tree opened through Ozone, shared by all threads of a trial. */
  @State(Scope.Benchmark)
  public static class Store {
    @Param({"STOCK_PROTOBUF", "KEY_AWARE_PROTOBUF", "KEY_AWARE_TRIMMED"})
    public TablePath path;

    @Param({"10x6"})
    public String tree;

    /** 1024: holds a whole column family of the 10x6 tree (fits); 8: does not (undersized). */
    @Param({"1024", "8"})
    public long blockCacheMiB;

    DirectoryTree shape;
    RDBStore store;
    Table<String, OmDirectoryInfo> table;
    private ManagedLRUCache cache;
    private ManagedBloomFilter bloom;
    private ManagedColumnFamilyOptions options;

    @Setup(Level.Trial)
    public void open() throws Exception {
      try (DirectoryTree t = DirectoryTree.open(tree, 1L << 20)) { // builds the DB on first use
        shape = t; // only its key layout is used below, not its (closed) DB
      }
      cache = new ManagedLRUCache(blockCacheMiB << 20);
      bloom = new ManagedBloomFilter();
      ManagedBlockBasedTableConfig blocks = new ManagedBlockBasedTableConfig();
      blocks.setBlockCache(cache);
      blocks.setBlockSize(16 * 1024).setPinL0FilterAndIndexBlocksInCache(true).setFilterPolicy(bloom);
      options = new ManagedColumnFamilyOptions();
      options.setTableFormatConfig(blocks);
      String cf = path.stored.columnFamily();
      store = DBStoreBuilder.newBuilder(new OzoneConfiguration())
          .setName("tree-" + shape.fanout + "x" + shape.levels)
          .setPath(DirectoryTree.dataDir().toPath())
          .addTable(cf, options)
          .setCreateCheckpointDirs(false)
          .setEnableRocksDbMetrics(false)
          .build();
      table = path == TablePath.STOCK_PROTOBUF
          ? store.getTable(cf, StringCodec.get(), OmDirectoryInfo.getCodec(), TableCache.CacheType.PARTIAL_CACHE)
          : KeyAwareDirectoryTable.open(store, cf, path == TablePath.KEY_AWARE_TRIMMED
              ? DirectoryValueFormat.TRIMMED : DirectoryValueFormat.PROTOBUF);
      long rows = 0;
      try (Table.KeyValueIterator<String, OmDirectoryInfo> it = table.iterator()) { // loads the block cache
        while (it.hasNext()) {
          it.next();
          rows++;
        }
      }
      if (rows != shape.directories) {
        throw new IllegalStateException(cf + " holds " + rows + " rows, expected " + shape.directories);
      }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
      store.close();
      options.close();
      bloom.close();
      cache.close();
    }
  }

  /** Per-thread random paths. */
  @State(Scope.Thread)
  public static class Walker {
    SplittableRandom random;

    @Setup(Level.Trial)
    public void setUp(ThreadParams threads) {
      random = new SplittableRandom(42 + threads.getThreadIndex());
    }
  }

  /** @return lookups done (levels+1 for a complete tree), so the JIT cannot drop the walk */
  @Benchmark
  public int walk(Store s, Walker w) throws Exception {
    long parent = DirectoryTree.BUCKET_ID;
    int lookups = 0;
    while (true) {
      OmDirectoryInfo dir = s.table.get(s.shape.keyString(parent, w.random.nextInt(s.shape.fanout)));
      lookups++;
      if (dir == null) {
        return lookups;
      }
      parent = dir.getObjectID();
    }
  }
}
