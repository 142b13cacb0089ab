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
 */
record WorkloadSpec(long totalOps, Weights weights, int liveCap, DeleteMode deleteMode, ListMode listMode,
    int listLength, int buckets, double skew, KeyNames keyNames, long seed) {

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
