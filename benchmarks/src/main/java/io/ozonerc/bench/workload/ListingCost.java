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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What one page of the OM's own {@code listKeys} costs per entry it returns, and per dead internal key it steps
 * over, on a real {@code OmMetadataManagerImpl}: the two figures behind the default of {@code dead.head.min.keys}.
 *
 * <p>One store, three buckets in key order. Bucket 0 holds one live key: the table's first, where the OM's
 * iterator seeks before it seeks to the bucket listed. Bucket 1 holds {@code dead} keys written, flushed, then
 * deleted and flushed again (each delete a tombstone in a level-0 file above its value), followed by {@code page}
 * live keys. Bucket 2 holds {@code page} live keys and ends the table. A listing of bucket 2 from its start returns
 * {@code page} entries over nothing dead (the OM sets no upper bound, so a bucket before dead keys would cross them
 * after its page); one of bucket 1 returns as many after stepping over every tombstone and the value it hides
 * (RocksDB's {@code rocksdb.number.iter.skip} ticker counts them; the run fails unless it counts exactly two per
 * dead key, and none for the clean listing). The two listings alternate, after 15 s of warm-up. Per returned entry
 * = the clean listing's median time / page; per skipped key = (the dead listing's median - the clean one's) / the
 * keys skipped per dead listing.
 *
 * <p>Run: {@code dev-support/bench-listing-cost [dead keys, default 200000] [listings, default 41]}.
 */
public final class ListingCost {
  private static final int PAGE = 1_000;
  /** Warm-up, both listings alternating: the JIT compiles the OM's listing code (its protobuf parsing above all). */
  private static final long WARM_UP_NANOS = 15_000_000_000L;
  /** The tolerance of the default: a dead head may add a tenth of an ideal page's work. */
  private static final double TOLERANCE = 0.1;

  private ListingCost() { }

  public static void main(String[] args) throws Exception {
    int dead = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int listings = args.length > 1 ? Integer.parseInt(args[1]) : 41;
    if (dead <= 0 || listings <= 0) {
      throw new IllegalArgumentException("dead keys and listings must be positive: " + dead + ", " + listings);
    }
    Path parent = Files.createTempDirectory("listing-cost");
    // A memtable that holds every put at once: the puts become one level-0 file and the deletes another, below
    // RocksDB's trigger for a level-0 compaction, which would drop tombstones and values together.
    try (BenchStore store = BenchStore.create(parent, "store", 3, 512L << 20)) {
      long id = 1;
      store.putKey(0, key("b", 0), id++);
      for (int i = 0; i < PAGE; i++) {
        store.putKey(2, key("b", i), id++);
      }
      for (int i = 0; i < dead; i++) {
        store.putKey(1, key("a", i), id++);
      }
      for (int i = 0; i < PAGE; i++) {
        store.putKey(1, key("b", i), id++);
      }
      store.flush();
      List<String> batch = new ArrayList<>();
      for (int i = 0; i < dead; i++) {
        batch.add(key("a", i));
        if (batch.size() == 10_000 || i == dead - 1) {
          store.deleteKeys(1, batch);
          batch.clear();
        }
      }
      store.flush();
      int warmUps = 0;
      for (long until = System.nanoTime() + WARM_UP_NANOS; System.nanoTime() < until; warmUps++) {
        list(store, 2);
        list(store, 1);
      }
      long[] clean = new long[listings];
      long[] crossed = new long[listings];
      long skipsBefore = store.iterSkips();
      long cleanSkips = 0;
      for (int i = 0; i < listings; i++) {
        long s0 = store.iterSkips();
        clean[i] = list(store, 2);
        cleanSkips += store.iterSkips() - s0;
        crossed[i] = list(store, 1);
      }
      long skips = store.iterSkips() - skipsBefore - cleanSkips;
      if (cleanSkips != 0 || skips != 2L * dead * listings) {
        throw new IllegalStateException("the store is not laid out as measured: " + cleanSkips + " keys skipped by "
            + "clean listings (expected 0), " + skips + " by listings behind the dead keys (expected " + 2L * dead
            * listings + ": a tombstone and the value it hides per dead key)");
      }
      double skipsPerListing = (double) skips / listings;
      double cleanMs = median(clean) / 1e6;
      double crossedMs = median(crossed) / 1e6;
      double perEntryUs = cleanMs * 1000 / PAGE;
      double perSkipNs = (crossedMs - cleanMs) * 1e6 / skipsPerListing;
      System.out.printf(Locale.ROOT, "listing cost, %s, %d cores, java %s: OM listKeys pages of %d, %d dead keys "
          + "(deleted after a flush: a tombstone over each value, two internal keys skipped per dead key, "
          + "checked), %d listings each after %d of warm-up (%d s), alternating%n", Instant.now(),
          Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"), PAGE, dead, listings, warmUps,
          WARM_UP_NANOS / 1_000_000_000L);
      System.out.printf(Locale.ROOT, "clean page: median %.3f ms [%.3f..%.3f], %d internal keys skipped in all%n",
          cleanMs, min(clean) / 1e6, max(clean) / 1e6, cleanSkips);
      System.out.printf(Locale.ROOT, "page behind the dead keys: median %.3f ms [%.3f..%.3f], %.0f internal keys "
          + "skipped per listing%n", crossedMs, min(crossed) / 1e6, max(crossed) / 1e6, skipsPerListing);
      System.out.printf(Locale.ROOT, "per returned entry: %.2f us; per skipped internal key: %.1f ns%n", perEntryUs,
          perSkipNs);
      System.out.printf(Locale.ROOT, "dead keys that add %.0f%% of a clean page's work: %d x %.2f us x %.1f / "
          + "%.1f ns = %.0f%n", TOLERANCE * 100, PAGE, perEntryUs, TOLERANCE, perSkipNs,
          PAGE * perEntryUs * 1000 * TOLERANCE / perSkipNs);
    } finally {
      BenchStore.deleteRecursively(parent);
    }
  }

  private static String key(String prefix, int i) {
    return String.format(Locale.ROOT, "%s%09d", prefix, i);
  }

  /** One listing of {@code bucket} from its start; its wall time in nanoseconds. */
  private static long list(BenchStore store, int bucket) throws Exception {
    long t0 = System.nanoTime();
    int n = store.listKeys(bucket, null, PAGE);
    long t = System.nanoTime() - t0;
    if (n != PAGE) {
      throw new IllegalStateException("bucket " + bucket + " listed " + n + " keys, expected " + PAGE);
    }
    return t;
  }

  private static double median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }

  private static long min(long[] v) {
    return Arrays.stream(v).min().orElse(0);
  }

  private static long max(long[] v) {
    return Arrays.stream(v).max().orElse(0);
  }
}
