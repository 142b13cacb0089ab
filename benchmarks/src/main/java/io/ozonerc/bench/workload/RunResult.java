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

import java.io.Serializable;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one policy's run measured. Latency histograms are in nanoseconds. Byte and skip counts are RocksDB's own
 * statistics tickers over the run (the store is fresh, so they start near zero and are read as differences).
 * Serializable: a run made in a child JVM ({@link ChildRun}) comes back to the parent as this object.
 */
record RunResult(
    String policy,
    String unavailable,
    Histogram list,
    Histogram create,
    Histogram delete,
    long ops,
    long wallNanos,
    long iterSkips,
    long compactReadBytes,
    long compactWriteBytes,
    long flushWriteBytes,
    long manualCompactions,
    long manualCompactionNanos,
    BenchStore.TableFacts keyTableEnd,
    long allSstBytesEnd,
    /** Keys the keyTable must hold at the end (hot keys live, cold keys, cold puts). */
    long liveKeysExpected,
    long liveKeysFound,
    String detail,
    List<Sample> series,
    Seeks seeks,
    long stallMicros,
    long policyCompactedBytes,
    long policyTombstonesRemoved,
    long policyFlushes,
    /** Dead entries the policy's head compactions removed, as it counts them (the range service), or -1. */
    long policyHeadEntriesRemoved,
    /** The keyTable's skip hint counters over the run, or null when the store had none (stock classes, or off). */
    Hints hints,
    /** Where the JVM that ran this loaded {@code OmMetadataManagerImpl} from (a jar, or a classes directory). */
    String omClassesFrom,
    /** The expiry phase's own measurements, or null when the run had no expiry phase. */
    Expiry expiry) implements Serializable {

  private static final long serialVersionUID = 2L;

  /** A run without an expiry phase. */
  RunResult(String policy, String unavailable, Histogram list, Histogram create, Histogram delete, long ops,
      long wallNanos, long iterSkips, long compactReadBytes, long compactWriteBytes, long flushWriteBytes,
      long manualCompactions, long manualCompactionNanos, BenchStore.TableFacts keyTableEnd, long allSstBytesEnd,
      long liveKeysExpected, long liveKeysFound, String detail, List<Sample> series, Seeks seeks, long stallMicros,
      long policyCompactedBytes, long policyTombstonesRemoved, long policyFlushes, long policyHeadEntriesRemoved,
      Hints hints, String omClassesFrom) {
    this(policy, unavailable, list, create, delete, ops, wallNanos, iterSkips, compactReadBytes, compactWriteBytes,
        flushWriteBytes, manualCompactions, manualCompactionNanos, keyTableEnd, allSstBytesEnd, liveKeysExpected,
        liveKeysFound, detail, series, seeks, stallMicros, policyCompactedBytes, policyTombstonesRemoved,
        policyFlushes, policyHeadEntriesRemoved, hints, omClassesFrom, null);
  }

  /**
   * The expiry phase of a run: latency of the expiry bucket's listings (nanoseconds), the internal keys RocksDB
   * skipped in them (the skip ticker read around each listing: exact with one list thread, except for iterators a
   * policy closes meanwhile, as range's head probes), the keys the run's expiry deleted, its delete batches and their
   * latency (nanoseconds). The queue's list columns ({@link #list}, {@link #skipsPerList}) leave the expiry listings
   * out. Per listing, in the same order: its start (nanoseconds after the run's start), its latency, and whether it
   * crosses the span the whole expiry deletes ({@link Workload#crossesExpiredSpan}).
   */
  record Expiry(Histogram list, long skips, long deletedKeys, long batches, Histogram batch, long[] listStartNanos,
      long[] listNanos, boolean[] listCrossesSpan, long lastBatchEndNanos) implements Serializable {
    private static final long serialVersionUID = 3L;

    /** Without the listings' timeline (no listing times, no batch end). */
    Expiry(Histogram list, long skips, long deletedKeys, long batches, Histogram batch) {
      this(list, skips, deletedKeys, batches, batch, new long[0], new long[0], new boolean[0], -1);
    }

    double skipsPerList() {
      return list.getTotalCount() == 0 ? 0 : (double) skips / list.getTotalCount();
    }
  }

  /** A run without skip hints, measured in this JVM. */
  RunResult(String policy, String unavailable, Histogram list, Histogram create, Histogram delete, long ops,
      long wallNanos, long iterSkips, long compactReadBytes, long compactWriteBytes, long flushWriteBytes,
      long manualCompactions, long manualCompactionNanos, BenchStore.TableFacts keyTableEnd, long allSstBytesEnd,
      long liveKeysExpected, long liveKeysFound, String detail, List<Sample> series, Seeks seeks, long stallMicros,
      long policyCompactedBytes, long policyTombstonesRemoved, long policyFlushes) {
    this(policy, unavailable, list, create, delete, ops, wallNanos, iterSkips, compactReadBytes, compactWriteBytes,
        flushWriteBytes, manualCompactions, manualCompactionNanos, keyTableEnd, allSstBytesEnd, liveKeysExpected,
        liveKeysFound, detail, series, seeks, stallMicros, policyCompactedBytes, policyTombstonesRemoved,
        policyFlushes, -1, null, omClassesHere(), null);
  }

  /** Where this JVM loaded {@code OmMetadataManagerImpl} from. */
  static String omClassesHere() {
    java.security.CodeSource cs = org.apache.hadoop.ozone.om.OmMetadataManagerImpl.class.getProtectionDomain()
        .getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return "?";
    }
    try {
      return java.nio.file.Paths.get(cs.getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return cs.getLocation().toString();
    }
  }

  /**
   * The skip hint counters of the keyTable ({@code org.apache.hadoop.hdds.utils.db.SkipHints} of the patched
   * classes) over the run: seeks that jumped ({@code used}), hints learned, installs refused for a write into the
   * span, hints retired by a put into their span, evicted for the size bound, and hints held at the end.
   */
  record Hints(long used, long learned, long refused, long retired, long evicted, long held) implements Serializable {
    private static final long serialVersionUID = 1L;

    Hints minus(Hints before) {
      return new Hints(used - before.used, learned - before.learned, refused - before.refused,
          retired - before.retired, evicted - before.evicted, held);
    }
  }

  /**
   * RocksDB's DB_SEEK histogram for the run: seeks counted, their average (run only) and p99 (the store's life; the
   * seeks before the run, {@code before}, are the few of opening the store).
   */
  record Seeks(long count, double averageMicros, double p99Micros, long before) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Whether the policy did any work of its own: it asked for compactions (none and ideal never do), and either its
   * own count says they removed tombstones, or they took measurable time. The service's count compares its planner's
   * estimates before and after, which can read 0 for a real compaction; a compactRange that rewrites nothing (a
   * range with no file to compact) returns in under a millisecond, the resolution of the service's time metric. A
   * service reporting "12 ranges compacted, 0 tombstones removed, 0 ms" did nothing a reader can feel. Memtable
   * flushes the policy asked for are work too: they move deletes into level 0 and start RocksDB's own compactions.
   */
  boolean didWork() {
    return (manualCompactions > 0 && (policyTombstonesRemoved > 0 || manualCompactionNanos >= 1_000_000L))
        || policyFlushes > 0;
  }

  /**
   * One point of the time series: the interval that ended {@code elapsedSeconds} after the run started; the last
   * three are what the writes met at its end: keyTable level-0 files and RocksDB's estimate of pending compaction
   * bytes (-1: unreadable), and the write stall time since the run started (microseconds).
   */
  record Sample(String policy, double elapsedSeconds, long opsDone, long listsInInterval, double listP99Millis,
      double skipsPerList, long tombstones, long sstBytes, long compactWriteBytes, long l0Files,
      long pendingCompactionBytes, long stallMicros) implements Serializable {
    private static final long serialVersionUID = 2L;
  }

  /** Whether the store's skip hints made any seek jump (the work of {@code hints}, its share of the product's). */
  boolean hintsJumped() {
    return hints != null && hints.used() > 0;
  }

  boolean available() {
    return unavailable == null;
  }

  /** Internal keys skipped per queue listing: the run's skips less those of the expiry listings. */
  double skipsPerList() {
    long own = iterSkips - (expiry == null ? 0 : expiry.skips());
    return list == null || list.getTotalCount() == 0 ? 0 : (double) own / list.getTotalCount();
  }

  double opsPerSecond() {
    return wallNanos == 0 ? 0 : ops * 1e9 / wallNanos;
  }
}
