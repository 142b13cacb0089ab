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
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Path resolution in an FSO bucket: starting at the bucket, look up a random child at each level until a lookup
 * misses, reading only the objectId of each value to build the next key. In a tree of L levels that is L+1 point
 * lookups per operation (the last one misses below a leaf), the pattern of the OM resolving
 * {@code /vol/bucket/a/b/c/...} for a key or file request. One op = one walk.
 *
 * <p>The tree ({@link DirectoryTree}, {@code -p tree=<fanout>x<levels>}, default 10x6 = 1,111,110 directories; the
 * study used ~12M entries, this is scaled to a 2-core machine) is stored once per value format; all formats see the
 * same keys and the same random paths (per-thread seed = 42 + thread index); trial setup scans the column family
 * once to load the block cache. Readers:
 * <ul>
 *   <li>{@code PROTOBUF}: {@code DirectoryInfo.parseFrom(value).getObjectID()} (generated protobuf, the cheapest
 *       honest protobuf read);</li>
 *   <li>{@code OZONE_CODEC}: protobuf values through Ozone's {@code OmDirectoryInfo.getCodec()}, what the OM's
 *       {@code Table.get} does today;</li>
 *   <li>{@code FLATBUFFERS}: {@code getRootAsDirectoryInfo(ByteBuffer.wrap(value), reused).objectId()};</li>
 *   <li>{@code TRIMMED}: ours, {@code view.wrap(value).objectId()} with a per-thread view.</li>
 * </ul>
 * Every lookup is {@code RocksDB.get(cf, readOptions, key, 0, len)} returning a new {@code byte[]}, the JNI path
 * Ozone's RDBTable uses, with a reused key buffer. {@code blockCacheMiB}: 1024 holds every format's whole column
 * family (fits); 64 and 8 do not (undersized; 64 MiB holds a fair part of the trimmed family and less of the
 * others). Misses read blocks through the OS page cache (the SST files are small next to RAM), so an undersized cache
 * measures block fetch, checksum and decompression, not disk.
 *
 * <p>Run: {@code dev-support/dirformat-bench.sh walk} (threads 1 and 2), or
 * <pre>
 * nice -n 10 java -cp &lt;benchmarks classpath&gt; org.openjdk.jmh.Main DirectoryWalkBenchmark -p tree=10x6 -t 2 \
 *     -f 1 -wi 2 -i 3 -w 1s -r 1s -rf json -rff walk-t2.json
 * </pre>
 * The first run builds the DB (about a minute for 10x6) under {@code -Ddirformat.data}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DirectoryWalkBenchmark {

  /** How objectIds are read from values. */
  public enum Reader {
    PROTOBUF(Format.PROTOBUF), OZONE_CODEC(Format.PROTOBUF), FLATBUFFERS(Format.FLATBUFFERS),
    TRIMMED(Format.TRIMMED);

    final Format stored;

    Reader(Format stored) {
      this.stored = stored;
    }
  }

  /** The opened tree, shared by all threads of a trial. */
  @State(Scope.Benchmark)
  public static class Tree {
    @Param({"PROTOBUF", "OZONE_CODEC", "FLATBUFFERS", "TRIMMED"})
    public Reader reader;

    @Param({"10x6"})
    public String tree;

    /** 1024: holds a whole column family of the 10x6 tree (fits); 64 and 8: do not (undersized). */
    @Param({"1024", "64", "8"})
    public long blockCacheMiB;

    DirectoryTree db;
    ColumnFamilyHandle cf;
    ReadOptions readOptions;

    @Setup(Level.Trial)
    public void open() throws Exception {
      db = DirectoryTree.open(tree, blockCacheMiB << 20);
      cf = db.handle(reader.stored);
      readOptions = new ReadOptions();
      // One full scan loads every block the cache can hold, so "fits" starts warm instead of warming during the
      // measurement; an undersized cache simply keeps the last blocks scanned.
      long entries = 0;
      try (RocksIterator it = db.db().newIterator(cf, readOptions)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          entries++;
        }
      }
      if (entries != db.directories) {
        throw new IllegalStateException(reader.stored + " holds " + entries + " rows, expected " + db.directories);
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      readOptions.close();
      db.close();
    }
  }

  /** Per-thread walker state: its own random paths, key buffer and reusable readers. */
  @State(Scope.Thread)
  public static class Walker {
    SplittableRandom random;
    byte[] key;
    DirectoryFormats.Readers readers;

    @Setup(Level.Trial)
    public void setUp(Tree tree, ThreadParams threads) {
      random = new SplittableRandom(42 + threads.getThreadIndex());
      key = new byte[tree.db.maxKeyLength()];
      readers = new DirectoryFormats.Readers();
    }
  }

  /** @return lookups done (L+1 for a complete tree), so the JIT cannot drop the walk */
  @Benchmark
  public int walk(Tree t, Walker w) throws RocksDBException, java.io.IOException {
    RocksDB db = t.db.db();
    long parent = DirectoryTree.BUCKET_ID;
    int lookups = 0;
    while (true) {
      int len = t.db.key(w.key, parent, w.random.nextInt(t.db.fanout));
      byte[] value = db.get(t.cf, t.readOptions, w.key, 0, len);
      lookups++;
      if (value == null) {
        return lookups;
      }
      parent = objectId(t.reader, value, w.readers);
    }
  }

  static long objectId(Reader reader, byte[] value, DirectoryFormats.Readers readers) throws java.io.IOException {
    if (reader == Reader.OZONE_CODEC) {
      OmDirectoryInfo info = OmDirectoryInfo.getCodec().fromPersistedFormat(value);
      return info.getObjectID();
    }
    return readers.objectId(reader.stored, value);
  }
}
