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

/**
 * Everything that determines the operation sequence. Two runs with equal specs issue exactly the same operations
 * (same keys, same order, same list start keys), whatever compaction policy runs underneath.
 *
 * @param totalOps    operations in the sequence, including the deletes that keep the live set at the cap
 * @param weights     mix of create, delete and list draws
 * @param liveCap     most live keys at any time; a create above the cap is followed by a delete in its bucket
 * @param deleteMode  which live key a delete removes
 * @param listMode    where a list starts
 * @param listLength  entries a list asks for (the OM's listKeys page)
 * @param buckets     number of buckets in the volume
 * @param skew        Zipf exponent of the bucket choice: bucket b is drawn with weight 1/(b+1)^skew, 0 = uniform
 * @param keyNames    how key names sort relative to their creation order
 * @param seed        seed of the one random stream the sequence is drawn from
 * @param coldBuckets buckets of cold data around the hot ones (half sort before them, half after)
 * @param coldKeys    keys loaded into the cold buckets before the run (hashed names, never deleted)
 * @param coldWriteShare share of create draws that put a new key into a random cold bucket instead, so that
 *                    memtable flushes mix buckets as on a busy OM
 * @param expiry      the bulk lifecycle expiry in a large cold bucket of its own ({@link Expiry#NONE}: none)
 */
record WorkloadSpec(long totalOps, Weights weights, int liveCap, DeleteMode deleteMode, ListMode listMode,
    int listLength, int buckets, double skew, KeyNames keyNames, long seed, int coldBuckets, long coldKeys,
    double coldWriteShare, Expiry expiry) {

  /** A spec without an expiry phase. */
  WorkloadSpec(long totalOps, Weights weights, int liveCap, DeleteMode deleteMode, ListMode listMode,
      int listLength, int buckets, double skew, KeyNames keyNames, long seed, int coldBuckets, long coldKeys,
      double coldWriteShare) {
    this(totalOps, weights, liveCap, deleteMode, listMode, listLength, buckets, skew, keyNames, seed, coldBuckets,
        coldKeys, coldWriteShare, Expiry.NONE);
  }

  /** A spec without cold data: the hot buckets are the whole store. */
  WorkloadSpec(long totalOps, Weights weights, int liveCap, DeleteMode deleteMode, ListMode listMode,
      int listLength, int buckets, double skew, KeyNames keyNames, long seed) {
    this(totalOps, weights, liveCap, deleteMode, listMode, listLength, buckets, skew, keyNames, seed, 0, 0, 0);
  }

  /** Which live key a delete removes. */
  enum DeleteMode {
    /** The oldest live key of the bucket: a queue; tombstones pile up behind the live keys in creation order. */
    OLDEST,
    /** A uniformly random live key of the bucket. */
    RANDOM
  }

  /** Where a list starts. */
  enum ListMode {
    /** At a random live key of the bucket (listKeys with a startKey): what a paging client does. */
    RANDOM,
    /** At the bucket start (listKeys without a startKey): every tombstone left of the first live key is crossed. */
    START
  }

  /** How key names sort. */
  enum KeyNames {
    /** A bijective 64-bit hash of the creation number, in hex: keys land anywhere in the bucket (UUID-like names). */
    HASHED,
    /** Zero-padded creation number: names sort by age (log- or time-named objects). */
    SEQUENTIAL
  }

  /**
   * A bulk lifecycle expiry in one large cold bucket (the expiry bucket, which sorts after every other bucket). The
   * bucket is loaded with the cold data: {@link #kept()} keys under {@code index/} (a prefix the lifecycle rule does
   * not cover, sorting first), then the rest under {@code logs/}, named by creation number so they sort by age.
   * During the run the expiry deletes the oldest {@code share} of the {@code logs/} keys, oldest first, in batches
   * of {@code batch} keys (one OM batch commit each), spread evenly over {@link #FROM} to {@link #TO} of the
   * sequence; {@code lists} listings of that bucket, spread evenly from {@link #FROM} to the end, start at a random
   * key of the bucket as loaded (expired or not), so a listing that starts inside the expired span crosses the rest
   * of it. No listing starts at the bucket start, and the kept keys sit between the bucket start and the span.
   *
   * @param keys  keys of the expiry bucket (0: no expiry phase)
   * @param share share of its {@code logs/} keys the expiry deletes, in [0, 1)
   * @param batch keys per delete batch
   * @param lists listings of the expiry bucket during the run
   */
  record Expiry(long keys, double share, int batch, int lists) {
    static final Expiry NONE = new Expiry(0, 0, 1, 0);
    /** Where in the sequence the expiry starts and ends (share of the hot operations). */
    static final double FROM = 0.05;
    static final double TO = 0.30;

    Expiry {
      if (keys < 0 || keys > MAX_COLD_KEYS || keys == 1) {
        throw new IllegalArgumentException("--expiry-keys must be 0 or in [2, " + MAX_COLD_KEYS + "], got " + keys);
      }
      if (!(share >= 0 && share < 1)) {
        throw new IllegalArgumentException("--expiry-share must be in [0, 1), got " + share);
      }
      if (batch < 1) {
        throw new IllegalArgumentException("--expiry-batch must be >= 1, got " + batch);
      }
      if (lists < 0 || lists > 10_000_000) {
        throw new IllegalArgumentException("--expiry-lists must be in [0, 10000000], got " + lists);
      }
    }

    boolean on() {
      return keys > 0;
    }

    /** Keys under {@code index/}: 1% of the bucket (at least one), never expired. */
    long kept() {
      return keys == 0 ? 0 : Math.max(1, keys / 100);
    }

    /** Keys the expiry deletes: creation numbers {@code kept()} to {@code kept() + expired() - 1}. */
    long expired() {
      return Math.round((keys - kept()) * share);
    }

    /** Delete batches the expiry takes. */
    long batches() {
      return (expired() + batch - 1) / batch;
    }

    /** Name of expiry-bucket key {@code id}: sorted by creation number, the kept ones first. */
    static String name(long id, long kept) {
      String digits = Long.toString(id);
      return (id < kept ? "index/" : "logs/") + "000000000000".substring(Math.min(12, digits.length())) + digits;
    }
  }

  static final long MIN_OPS = 1;
  static final long MAX_OPS = 100_000_000L;

  WorkloadSpec {
    if (totalOps < MIN_OPS || totalOps > MAX_OPS) {
      throw new IllegalArgumentException("--ops must be in [" + MIN_OPS + ", " + MAX_OPS + "], got " + totalOps);
    }
    if (liveCap < 1) {
      throw new IllegalArgumentException("--live-cap must be >= 1, got " + liveCap);
    }
    if (listLength < 1) {
      throw new IllegalArgumentException("--list-length must be >= 1, got " + listLength);
    }
    if (buckets < 1 || buckets > 10_000) {
      throw new IllegalArgumentException("--buckets must be in [1, 10000], got " + buckets);
    }
    if (!(skew >= 0) || Double.isInfinite(skew)) {
      throw new IllegalArgumentException("--skew must be a finite number >= 0, got " + skew);
    }
    if (coldBuckets < 0 || coldBuckets + buckets > 10_000) {
      throw new IllegalArgumentException("--cold-buckets must be in [0, " + (10_000 - buckets) + "], got "
          + coldBuckets);
    }
    if (coldKeys < 0 || coldKeys > MAX_COLD_KEYS || (coldKeys > 0 && coldBuckets == 0)) {
      throw new IllegalArgumentException("--cold-keys must be in [0, " + MAX_COLD_KEYS + "] and needs "
          + "--cold-buckets > 0, got " + coldKeys + " keys in " + coldBuckets + " buckets");
    }
    if (!(coldWriteShare >= 0 && coldWriteShare < 1) || (coldWriteShare > 0 && coldBuckets == 0)) {
      throw new IllegalArgumentException("--cold-write-share must be in [0, 1) and needs --cold-buckets > 0, got "
          + coldWriteShare);
    }
    if (expiry == null) {
      throw new IllegalArgumentException("expiry must not be null (Expiry.NONE: no expiry phase)");
    }
  }

  static final long MAX_COLD_KEYS = 1_000_000_000L;

  /** Buckets the store holds: the cold ones, the hot ones and the expiry bucket, if any. */
  int storeBuckets() {
    return coldBuckets + buckets + (expiry.on() ? 1 : 0);
  }

  /** Store index of the expiry bucket: after every other bucket. */
  int expiryStoreIndex() {
    return coldBuckets + buckets;
  }

  boolean isExpiry(int storeIndex) {
    return expiry.on() && storeIndex == expiryStoreIndex();
  }

  /** Whether the store needs a loaded template: cold keys or an expiry bucket. */
  boolean hasTemplate() {
    return coldKeys > 0 || expiry.on();
  }

  /** Store index of hot bucket {@code h}: the hot buckets sit in the middle of the table, between cold ones. */
  int hotStoreIndex(int h) {
    return coldBuckets / 2 + h;
  }

  /** Store index of cold bucket {@code c}. */
  int coldStoreIndex(int c) {
    return c < coldBuckets / 2 ? c : c + buckets;
  }

  /** One of the cold buckets (never the expiry bucket, which has its own names and deletes). */
  boolean isCold(int storeIndex) {
    return storeIndex < coldBuckets / 2 || (storeIndex >= coldBuckets / 2 + buckets && !isExpiry(storeIndex));
  }

  /** Name of the key with creation number {@code id} in store bucket {@code storeIndex}. */
  String name(int storeIndex, long id) {
    return isExpiry(storeIndex) ? Expiry.name(id, expiry.kept()) : isCold(storeIndex) ? coldName(id) : keyName(id);
  }

  /**
   * Cold key names: a hash of the cold key's number, so the cold keys of a bucket and the ones added during the run
   * are spread over the whole bucket (UUID-like object names). Offset from the hot keys' numbers so the two never
   * share a hash.
   */
  static String coldName(long coldId) {
    String hex = Long.toHexString(Workload.mix(coldId + (1L << 50)));
    return "0000000000000000".substring(hex.length()) + hex;
  }

  String keyName(long id) {
    if (keyNames == KeyNames.SEQUENTIAL) {
      String digits = Long.toString(id);
      return "key-" + "000000000000".substring(Math.min(12, digits.length())) + digits;
    }
    String hex = Long.toHexString(Workload.mix(id));
    return "0000000000000000".substring(hex.length()) + hex;
  }
}
