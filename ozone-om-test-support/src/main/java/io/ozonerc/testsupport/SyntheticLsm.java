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

package io.ozonerc.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * SST file facts and bucket ranges shaped like a large OM's keyTable, for planning without a store: the planner
 * benchmark times plans of it, and the planner's equivalence test compares their digests with recorded ones.
 *
 * <p>The key space is {@code buckets} buckets of {@value #KEYS_PER_BUCKET} keys each, {@code /vol/bNNNNNN/kNNNNNNNN}.
 * Levels 1..6 partition it into consecutive, non-overlapping files whose counts grow 10x per level (RocksDB's
 * default level size ratio), so level 6 holds ~90% of the files. Level 0 holds up to 12 files, each a flush that
 * touched every bucket: it spans nearly the whole key space (a busy OM's memtable holds every bucket's writes).
 * One bucket in 100 is tombstone-heavy: files of levels 1..5 over it carry 60% deletions, as do level-0 files.
 * Seeded, so a run is repeatable.
 *
 * <p>The facts are plain values, keys as strings: each user makes the planner's file and range objects of them, with
 * its own file names and sizes.
 */
public final class SyntheticLsm {
  public static final String TABLE = "keyTable";
  public static final int KEYS_PER_BUCKET = 1_000;

  /** One SST file of {@link #TABLE}; {@code seq} numbers the files 1, 2, ... in the order they are listed. */
  public record Sst(int level, String smallest, String largest, long entries, long deletions, long seq) { }

  private final List<Sst> files = new ArrayList<>();
  private final List<String> bucketPrefixes = new ArrayList<>();

  public SyntheticLsm(int fileCount, int bucketCount, long seed) {
    Random rnd = new Random(seed);
    for (int b = 0; b < bucketCount; b++) {
      bucketPrefixes.add(bucketPrefix(b));
    }
    long keySpace = (long) bucketCount * KEYS_PER_BUCKET;
    int level0 = Math.min(12, Math.max(1, fileCount / 100));
    int rest = fileCount - level0;
    double weightSum = 0;
    for (int l = 1; l <= 6; l++) {
      weightSum += Math.pow(10, l - 1);
    }
    long seq = 1;
    int made = 0;
    for (int l = 6; l >= 1; l--) {
      int n = l == 1 ? rest - made : (int) Math.max(1, Math.round(rest * Math.pow(10, l - 1) / weightSum));
      n = (int) Math.max(1, Math.min(n, keySpace / 2));
      made += n;
      long per = keySpace / n;
      for (int i = 0; i < n; i++) {
        long lo = i * per;
        long hi = (i == n - 1 ? keySpace : (i + 1) * per) - 1;
        long entries = Math.max(1, (hi - lo + 1) / (7 - l)); // upper levels hold fewer versions per key
        boolean hot = hotBucket((int) (lo / KEYS_PER_BUCKET)) || hotBucket((int) (hi / KEYS_PER_BUCKET));
        long deletions = l < 6 && hot ? entries * 6 / 10 : entries / 100;
        files.add(new Sst(l, key(lo), key(hi), entries, deletions, seq++));
      }
    }
    for (int i = 0; i < level0; i++) {
      long lo = (long) (rnd.nextDouble() * keySpace * 0.01);
      long hi = keySpace - 1 - (long) (rnd.nextDouble() * keySpace * 0.01);
      long entries = 50_000 + rnd.nextInt(50_000);
      files.add(new Sst(0, key(lo), key(hi), entries, entries * 6 / 10, seq++));
    }
  }

  /** Levels 6 down to 1, then level 0. */
  public List<Sst> files() {
    return files;
  }

  /** Every bucket's key prefix, {@code /vol/bNNNNNN/}, in key order. */
  public List<String> bucketPrefixes() {
    return bucketPrefixes;
  }

  /** One bucket in 100 is churned. */
  private static boolean hotBucket(int b) {
    return b % 100 == 37;
  }

  private static String bucketPrefix(int b) {
    return String.format("/vol/b%06d/", b);
  }

  private static String key(long global) {
    return bucketPrefix((int) (global / KEYS_PER_BUCKET)) + String.format("k%08d", global % KEYS_PER_BUCKET);
  }
}
