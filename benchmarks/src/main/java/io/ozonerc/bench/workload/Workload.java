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

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The operation sequence of one {@link WorkloadSpec}, drawn up front by simulating the live key set, so that every
 * policy replays the identical sequence: the same creates, the same deletes of the same keys, lists from the same
 * start keys. Stored as three parallel arrays (about 13 bytes per operation: 130 MB at 1e7).
 *
 * <p>Draws: each step picks an operation by weight and a bucket by the Zipf skew. A create takes the next creation
 * number; once more than {@code liveCap} keys are live, it is followed by a delete of the oldest (or a random) live
 * key of the same bucket, so tombstones accumulate while the live set stays at the cap. A delete draw on an empty
 * bucket is dropped and drawn again. A list records its start key (or -1 for the bucket start).
 *
 * <p>Cold data. With {@code coldWriteShare > 0} a create draw becomes, with that probability, a put of a new key
 * (cold number {@code coldKeys + n}) into a uniformly drawn cold bucket; cold keys are never deleted or listed.
 * Buckets in the arrays are store indices ({@link WorkloadSpec#hotStoreIndex}, {@link WorkloadSpec#coldStoreIndex}).
 *
 * <p>Expiry ({@link WorkloadSpec.Expiry}). The hot sequence above is drawn first, unchanged by the expiry (same
 * draws as without it); the expiry's operations are then placed between its operations at evenly spaced positions:
 * {@link #EXPIRE} batches (key: the first creation number of the batch; the batch runs up to
 * {@code batch} keys, not past the last expired one) and {@link #EXPIRY_LIST} listings (key: the start key's
 * creation number, drawn uniformly over the bucket as loaded from a random stream of its own).
 */
final class Workload {

  static final byte CREATE = 0;
  static final byte DELETE = 1;
  static final byte LIST = 2;
  /** One delete batch of the expiry: keys {@code key} .. {@code key + batchSize(i) - 1} of the expiry bucket. */
  static final byte EXPIRE = 3;
  /** A listing of the expiry bucket from the key with creation number {@code key}. */
  static final byte EXPIRY_LIST = 4;

  final WorkloadSpec spec;
  final byte[] kind;
  final int[] bucket;
  /** Creation number of the key created or deleted, or of the list's start key (-1: bucket start). */
  final long[] key;
  final int size;
  final int lists;
  final int creates;
  final int deletes;
  /** Creation numbers of the keys live at the end, per hot bucket: what {@code ideal} loads besides cold data. */
  final List<long[]> finalLive;
  /** Creates that went to cold buckets. */
  final int coldPuts;
  /** Expiry: delete batches, keys they delete, listings of the expiry bucket. */
  final int expiryBatches;
  final long expiredKeys;
  final int expiryLists;

  private Workload(WorkloadSpec spec, byte[] kind, int[] bucket, long[] key, int size, List<long[]> finalLive) {
    this.spec = spec;
    this.kind = kind;
    this.bucket = bucket;
    this.key = key;
    this.size = size;
    this.finalLive = finalLive;
    int l = 0;
    int c = 0;
    int d = 0;
    int cold = 0;
    int eb = 0;
    long ek = 0;
    int el = 0;
    for (int i = 0; i < size; i++) {
      switch (kind[i]) {
      case LIST -> l++;
      case CREATE -> {
        c++;
        if (spec.isCold(bucket[i])) {
          cold++;
        }
      }
      case DELETE -> d++;
      case EXPIRE -> {
        eb++;
        ek += batchSize(i);
      }
      case EXPIRY_LIST -> el++;
      default -> throw new IllegalStateException("unknown operation kind " + kind[i]);
      }
    }
    this.coldPuts = cold;
    this.lists = l;
    this.creates = c;
    this.deletes = d;
    this.expiryBatches = eb;
    this.expiredKeys = ek;
    this.expiryLists = el;
  }

  /** Keys the expiry batch at position {@code i} deletes, from {@code key[i]} on. */
  int batchSize(int i) {
    WorkloadSpec.Expiry e = spec.expiry();
    return (int) Math.min(e.batch(), e.kept() + e.expired() - key[i]);
  }

  /**
   * Whether a listing of the expiry bucket from key {@code start} (a creation number) crosses the span the whole
   * expiry deletes, [kept, kept + expired): it starts inside the span, or among the kept {@code index/} keys fewer
   * than a listing's length before it, so that it reads them and steps into the span. The time to recover is judged
   * on these listings: the others never meet a dead key.
   */
  boolean crossesExpiredSpan(long start) {
    WorkloadSpec.Expiry e = spec.expiry();
    long kept = e.kept();
    return start >= kept ? start < kept + e.expired() : kept - start < spec.listLength();
  }

  /**
   * Keys the keyTable must hold at the end: the hot keys live at the end, the cold keys, the cold puts and the
   * expiry bucket's keys the expiry left.
   */
  long finalKeyCount() {
    return finalLiveCount() + spec.coldKeys() + coldPuts + spec.expiry().keys() - expiredKeys;
  }

  /**
   * A digest of the whole sequence (every operation's kind, bucket and key, and the final live keys): a child JVM
   * that regenerated the sequence from the same options checks it got the parent's.
   */
  long digest() {
    long h = size;
    for (int i = 0; i < size; i++) {
      h = mix(h * 31 + kind[i]);
      h = mix(h * 31 + bucket[i]);
      h = mix(h * 31 + key[i]);
    }
    for (long[] ids : finalLive) {
      for (long id : ids) {
        h = mix(h * 31 + id);
      }
    }
    return h;
  }

  long finalLiveCount() {
    long n = 0;
    for (long[] ids : finalLive) {
      n += ids.length;
    }
    return n;
  }

  static Workload generate(WorkloadSpec spec) {
    int n = Math.toIntExact(spec.totalOps());
    byte[] kind = new byte[n];
    int[] bucket = new int[n];
    long[] key = new long[n];
    SplittableRandom rnd = new SplittableRandom(spec.seed());
    double[] cumulative = bucketCumulative(spec.buckets(), spec.skew());
    LiveSet[] live = new LiveSet[spec.buckets()];
    for (int b = 0; b < live.length; b++) {
      live[b] = new LiveSet();
    }
    Weights w = spec.weights();
    long nextId = 0;
    long nextColdId = spec.coldKeys();
    long liveTotal = 0;
    long wastedDraws = 0;
    int i = 0;
    while (i < n) {
      int r = rnd.nextInt(w.sum());
      int b = pickBucket(cumulative, rnd.nextDouble());
      if (r < w.create()) {
        if (spec.coldWriteShare() > 0 && rnd.nextDouble() < spec.coldWriteShare()) {
          kind[i] = CREATE;
          bucket[i] = spec.coldStoreIndex(rnd.nextInt(spec.coldBuckets()));
          key[i++] = nextColdId++;
          continue;
        }
        long id = nextId++;
        live[b].add(id);
        liveTotal++;
        kind[i] = CREATE;
        bucket[i] = spec.hotStoreIndex(b);
        key[i++] = id;
        if (liveTotal > spec.liveCap() && i < n) {
          kind[i] = DELETE;
          bucket[i] = spec.hotStoreIndex(b);
          key[i++] = remove(live[b], spec.deleteMode(), rnd);
          liveTotal--;
        }
      } else if (r < w.create() + w.delete()) {
        if (live[b].size() == 0) {
          if (++wastedDraws > 100L * n) {
            break; // nothing left to delete and nothing being created: the sequence cannot grow
          }
          continue;
        }
        kind[i] = DELETE;
        bucket[i] = spec.hotStoreIndex(b);
        key[i++] = remove(live[b], spec.deleteMode(), rnd);
        liveTotal--;
      } else {
        kind[i] = LIST;
        bucket[i] = spec.hotStoreIndex(b);
        key[i++] = spec.listMode() == WorkloadSpec.ListMode.START || live[b].size() == 0
            ? -1 : live[b].pick(rnd);
      }
    }
    List<long[]> finalLive = new ArrayList<>();
    for (LiveSet s : live) {
      finalLive.add(s.toArray());
    }
    if (!spec.expiry().on()) {
      return new Workload(spec, kind, bucket, key, i, finalLive);
    }
    return withExpiry(spec, kind, bucket, key, i, finalLive);
  }

  /** Salt of the expiry's own random stream, so the hot draws stay those of the spec without expiry. */
  private static final long EXPIRY_SEED_SALT = 0x45585049524559L;

  /**
   * The hot sequence of {@code n} operations with the expiry's batches and listings placed between them: batch j of
   * B at position n * (FROM + (TO - FROM) * j / B), listing k of L at n * (FROM + (1 - FROM) * (k + 0.5) / L); at one
   * position, batches come before listings and both before the hot operation there.
   */
  private static Workload withExpiry(WorkloadSpec spec, byte[] hotKind, int[] hotBucket, long[] hotKey, int n,
      List<long[]> finalLive) {
    WorkloadSpec.Expiry e = spec.expiry();
    int batches = Math.toIntExact(e.batches());
    int lists = e.lists();
    int total = Math.addExact(n, Math.addExact(batches, lists));
    byte[] kind = new byte[total];
    int[] bucket = new int[total];
    long[] key = new long[total];
    SplittableRandom rnd = new SplittableRandom(spec.seed() ^ EXPIRY_SEED_SALT);
    int eb = spec.expiryStoreIndex();
    int j = 0;
    int k = 0;
    int out = 0;
    for (int i = 0; i <= n; i++) {
      while (j < batches && (long) (n * (WorkloadSpec.Expiry.FROM + (WorkloadSpec.Expiry.TO
          - WorkloadSpec.Expiry.FROM) * j / batches)) <= i) {
        kind[out] = EXPIRE;
        bucket[out] = eb;
        key[out++] = e.kept() + (long) j * e.batch();
        j++;
      }
      while (k < lists && (long) (n * (WorkloadSpec.Expiry.FROM + (1 - WorkloadSpec.Expiry.FROM) * (k + 0.5)
          / lists)) <= i) {
        kind[out] = EXPIRY_LIST;
        bucket[out] = eb;
        key[out++] = rnd.nextLong(e.keys());
        k++;
      }
      if (i < n) {
        kind[out] = hotKind[i];
        bucket[out] = hotBucket[i];
        key[out++] = hotKey[i];
      }
    }
    if (out != total) {
      throw new IllegalStateException("expiry placement lost operations: " + out + " of " + total);
    }
    return new Workload(spec, kind, bucket, key, total, finalLive);
  }

  private static long remove(LiveSet set, WorkloadSpec.DeleteMode mode, SplittableRandom rnd) {
    return mode == WorkloadSpec.DeleteMode.OLDEST ? set.removeOldest() : set.removeRandom(rnd);
  }

  /** Cumulative bucket probabilities for weight 1/(b+1)^skew (skew 0: uniform). */
  static double[] bucketCumulative(int buckets, double skew) {
    double[] c = new double[buckets];
    double sum = 0;
    for (int b = 0; b < buckets; b++) {
      sum += 1.0 / Math.pow(b + 1, skew);
      c[b] = sum;
    }
    for (int b = 0; b < buckets; b++) {
      c[b] /= sum;
    }
    return c;
  }

  private static int pickBucket(double[] cumulative, double u) {
    int lo = 0;
    int hi = cumulative.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** splitmix64's finalizer: a bijection on 64-bit values, so hashed key names never collide. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * Live creation numbers of one bucket in a ring buffer, oldest at the head. A random removal swaps the victim with
   * the head and pops it, so the ring is only in creation order while removals are oldest-first, which is the only
   * mode that needs the order.
   */
  static final class LiveSet {
    private long[] ring = new long[64];
    private int head;
    private int size;

    int size() {
      return size;
    }

    void add(long id) {
      if (size == ring.length) {
        long[] bigger = new long[ring.length * 2];
        for (int j = 0; j < size; j++) {
          bigger[j] = ring[(head + j) % ring.length];
        }
        ring = bigger;
        head = 0;
      }
      ring[(head + size) % ring.length] = id;
      size++;
    }

    long removeOldest() {
      long id = ring[head];
      head = (head + 1) % ring.length;
      size--;
      return id;
    }

    long removeRandom(SplittableRandom rnd) {
      int at = (head + rnd.nextInt(size)) % ring.length;
      long id = ring[at];
      ring[at] = ring[head];
      ring[head] = id;
      return removeOldest();
    }

    long pick(SplittableRandom rnd) {
      return ring[(head + rnd.nextInt(size)) % ring.length];
    }

    long[] toArray() {
      long[] out = new long[size];
      for (int j = 0; j < size; j++) {
        out[j] = ring[(head + j) % ring.length];
      }
      return out;
    }
  }
}
