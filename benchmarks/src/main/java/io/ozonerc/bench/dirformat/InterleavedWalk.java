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

import io.ozonerc.bench.dirformat.DirectoryWalkBenchmark.Reader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * The directory walk of {@link DirectoryWalkBenchmark}, same tree, same walk, same readers, but with the readers
 * <b>interleaved in time</b>: a cross-check for a shared machine, where JMH's one-trial-after-another order lets
 * load from other processes land on one reader's trial and not on another's. Each reader gets its own read-only
 * instance of the tree DB with its own block cache of the given size (so readers never share a cache); then, round
 * after round, each reader walks for one slice (threads walking concurrently), the reader order rotating every round.
 * Interference that comes and goes is spread over all readers. Prints, per cache size and thread count, the median
 * and the best slice (walks/s) of each reader and the ratio of medians against PROTOBUF. The first two rounds warm
 * up and are dropped. Not a JMH benchmark: no forks, no blackholes (the walk returns lookups, which are summed and
 * printed, so nothing is dead code).
 *
 * <p>Run: {@code nice -n 10 java -Ddirformat.data=/tmp/dirformat-data -cp <benchmarks classpath>
 * io.ozonerc.bench.dirformat.InterleavedWalk 10x6 1024,64,8 1,2 12 250}
 * (tree, cache sizes in MiB, thread counts, rounds, slice ms).
 */
public final class InterleavedWalk {
  private InterleavedWalk() {
  }

  public static void main(String[] args) throws Exception {
    String shape = args.length > 0 ? args[0] : "10x6";
    long[] cachesMiB = Arrays.stream((args.length > 1 ? args[1] : "1024,64,8").split(","))
        .mapToLong(Long::parseLong).toArray();
    int[] threadCounts = Arrays.stream((args.length > 2 ? args[2] : "1,2").split(","))
        .mapToInt(Integer::parseInt).toArray();
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 12;
    long sliceNanos = (args.length > 4 ? Long.parseLong(args[4]) : 250) * 1_000_000L;
    long checksum = 0;
    System.out.printf("tree %s, %d rounds (2 warm-up), %d ms slices, readers interleaved%n", shape, rounds,
        sliceNanos / 1_000_000);
    System.out.printf("%-6s %-3s %-12s %12s %12s %10s%n", "cache", "thr", "reader", "median/s", "best/s",
        "vs proto");
    for (long cacheMiB : cachesMiB) {
      Map<Reader, DirectoryTree> trees = new EnumMap<>(Reader.class);
      for (Reader r : Reader.values()) {
        DirectoryTree t = DirectoryTree.openReadOnly(shape, cacheMiB << 20);
        trees.put(r, t);
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = t.db().newIterator(t.handle(r.stored), ro)) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            checksum += it.value().length;
          }
        }
      }
      for (int threads : threadCounts) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Map<Reader, Walker[]> walkers = new EnumMap<>(Reader.class);
        Map<Reader, List<Double>> samples = new EnumMap<>(Reader.class);
        for (Reader r : Reader.values()) {
          Walker[] w = new Walker[threads];
          for (int i = 0; i < threads; i++) {
            w[i] = new Walker(trees.get(r), r, 42 + i);
          }
          walkers.put(r, w);
          samples.put(r, new ArrayList<>());
        }
        Reader[] order = Reader.values();
        for (int round = 0; round < rounds; round++) {
          for (int k = 0; k < order.length; k++) {
            Reader r = order[(round + k) % order.length];
            long deadline = System.nanoTime() + sliceNanos;
            long start = System.nanoTime();
            List<Future<long[]>> futures = new ArrayList<>();
            for (Walker w : walkers.get(r)) {
              futures.add(pool.submit(() -> w.walkUntil(deadline)));
            }
            long walks = 0;
            for (Future<long[]> f : futures) {
              long[] res = f.get();
              walks += res[0];
              checksum += res[1];
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (round >= 2) {
              samples.get(r).add(walks / seconds);
            }
          }
        }
        pool.shutdown();
        double protoMedian = median(samples.get(Reader.PROTOBUF));
        for (Reader r : Reader.values()) {
          List<Double> s = samples.get(r);
          double med = median(s);
          System.out.printf("%-6s %-3d %-12s %12.0f %12.0f %9.2fx%n", cacheMiB, threads, r, med,
              s.stream().mapToDouble(Double::doubleValue).max().orElse(0), med / protoMedian);
        }
      }
      trees.values().forEach(DirectoryTree::close);
    }
    System.out.println("checksum " + checksum);
  }

  private static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length == 0 ? 0 : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** One thread's walker over one reader's tree. */
  private static final class Walker {
    private final DirectoryTree tree;
    private final Reader reader;
    private final SplittableRandom random;
    private final byte[] key;
    private final DirectoryFormats.Readers readers = new DirectoryFormats.Readers();
    private final ReadOptions readOptions = new ReadOptions();

    Walker(DirectoryTree tree, Reader reader, long seed) {
      this.tree = tree;
      this.reader = reader;
      this.random = new SplittableRandom(seed);
      this.key = new byte[tree.maxKeyLength()];
    }

    /** @return {walks done, lookups done} */
    long[] walkUntil(long deadline) throws Exception {
      RocksDB db = tree.db();
      ColumnFamilyHandle cf = tree.handle(reader.stored);
      long walks = 0;
      long lookups = 0;
      do {
        for (int i = 0; i < 16; i++) {
          long parent = DirectoryTree.BUCKET_ID;
          while (true) {
            int len = tree.key(key, parent, random.nextInt(tree.fanout));
            byte[] value = db.get(cf, readOptions, key, 0, len);
            lookups++;
            if (value == null) {
              break;
            }
            parent = DirectoryWalkBenchmark.objectId(reader, value, readers);
          }
          walks++;
        }
      } while (System.nanoTime() < deadline);
      return new long[] {walks, lookups};
    }
  }
}
