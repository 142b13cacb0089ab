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
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Replays a {@link Workload} against one store while a {@link Policy} runs in the background.
 *
 * <p>Threads. Writes (creates and deletes) are split over {@code writeThreads} by creation number, so the create and
 * the delete of one key always run on one thread, in sequence order. Lists are taken in sequence order by
 * {@code listThreads}. A list at position p waits until every write before p has completed (the writers' low-water
 * mark), so every policy lists the same logical state; writers in turn wait while they are more than
 * {@code listWindow} operations past the next list nobody has taken yet, so a slow list holds the writers back
 * instead of letting them run away from it. Waiting is never inside a timed region: latencies are of the operation
 * alone.
 *
 * <p>Sampling. Every {@code sampleMillis} a sampler thread closes an HdrHistogram interval and records one
 * {@link RunResult.Sample}: list p99 of the interval, internal keys skipped per list in the interval (RocksDB ticker
 * {@code rocksdb.number.iter.skip}, which RocksDB adds when an iterator closes), tombstones in the keyTable (SST
 * deletions plus memtable deletes), SST bytes, cumulative compaction write bytes.
 */
final class WorkloadRunner {

  static final String TICK_SKIP = "rocksdb.number.iter.skip";
  static final String TICK_COMPACT_WRITE = "rocksdb.compact.write.bytes";
  static final String TICK_COMPACT_READ = "rocksdb.compact.read.bytes";
  static final String TICK_FLUSH_WRITE = "rocksdb.flush.write.bytes";
  /** Time writes were stalled or slowed by RocksDB's write controller (STALL_MICROS). */
  static final String TICK_STALL = "rocksdb.stall.micros";

  /** Latencies up to an hour, three significant digits. */
  private static final long MAX_NANOS = 3_600_000_000_000L;

  record Options(int writeThreads, int listThreads, long sampleMillis, int listWindow) {
    Options {
      if (writeThreads < 1) {
        throw new IllegalArgumentException("--write-threads must be >= 1, got " + writeThreads);
      }
      if (listThreads < 1) {
        throw new IllegalArgumentException("--list-threads must be >= 1, got " + listThreads);
      }
      if (sampleMillis < 10) {
        throw new IllegalArgumentException("--sample-interval must be >= 10ms, got " + sampleMillis + "ms");
      }
      if (listWindow < 0) {
        throw new IllegalArgumentException("--list-window must be >= 0, got " + listWindow);
      }
    }
  }

  private final Workload w;
  private final Options options;

  WorkloadRunner(Workload w, Options options) {
    this.w = w;
    this.options = options;
  }

  /** Runs the whole sequence on {@code store} under {@code policy}; {@code progress} gets operations done. */
  RunResult run(BenchStore store, Policy policy, LongConsumer progress) throws Exception {
    return execute(store, store, policy, false, progress);
  }

  /**
   * {@code ideal}: writes into {@code store} (which already holds the cold data, if any) what the sequence leaves
   * behind: its cold puts and the final live keys of every hot bucket. Then compacts the keyTable fully (flush, then
   * every level into the bottommost) and runs the sequence's lists (same buckets, same start keys) with no writes.
   */
  RunResult runIdeal(BenchStore store, LongConsumer progress) throws Exception {
    writeEndState(store);
    return execute(store, store, new Policy.None("ideal"), true, progress);
  }

  /**
   * {@code ideal-loaded}: {@code store} gets ideal's fully compacted end state, and the sequence's lists run on it
   * while the sequence's writes (creates, deletes and the expiry's batches) run at the same time, with the same
   * threads and the same pacing as in every other run, against {@code load}, another copy of the starting store
   * under no policy. The lists read the floor; the writes make the CPU and disk as busy as the policies' runs are.
   */
  RunResult runIdealLoaded(BenchStore store, BenchStore load, LongConsumer progress) throws Exception {
    writeEndState(store);
    return execute(store, load, new Policy.None(IDEAL_LOADED), false, progress);
  }

  static final String IDEAL_LOADED = "ideal-loaded";

  /** The sequence's end state written into {@code store}, then flushed and fully compacted. */
  private void writeEndState(BenchStore store) throws Exception {
    // The expiry bucket's end state too: the expired keys deleted before the full compaction.
    for (int i = 0; i < w.size; i++) {
      if (w.kind[i] == Workload.CREATE && w.spec.isCold(w.bucket[i])) {
        store.putKey(w.bucket[i], w.spec.name(w.bucket[i], w.key[i]), w.key[i]);
      }
    }
    for (int b = 0; b < w.finalLive.size(); b++) {
      int storeIndex = w.spec.hotStoreIndex(b);
      for (long id : w.finalLive.get(b)) {
        store.putKey(storeIndex, w.spec.keyName(id), id);
      }
    }
    for (int i = 0; i < w.size; i++) { // the expiry's deletes, which the full compaction below then drops
      if (w.kind[i] == Workload.EXPIRE) {
        store.deleteKeys(w.bucket[i], expiryNames(i));
      }
    }
    store.db().flush();
    try (org.apache.hadoop.hdds.utils.db.managed.ManagedCompactRangeOptions o =
             new org.apache.hadoop.hdds.utils.db.managed.ManagedCompactRangeOptions()) {
      o.setBottommostLevelCompaction(
          org.apache.hadoop.hdds.utils.db.managed.ManagedCompactRangeOptions.BottommostLevelCompaction.kForce);
      store.db().compactRange(store.db().getColumnFamily(BenchStore.KEY_TABLE), null, null, o);
    }
  }

  /**
   * Replays the sequence: lists on {@code store}, writes on {@code writes} (the same store, except for
   * ideal-loaded); {@code listsOnly}: no writes at all (ideal).
   */
  // Longer than checkstyle's 150 lines: the writer and list threads it starts, its sampling loop and the result it
  // builds all share its locals (positions, counters, histograms, the expiry timeline).
  @SuppressWarnings("checkstyle:MethodLength")
  private RunResult execute(BenchStore store, BenchStore writes, Policy policy, boolean listsOnly,
      LongConsumer progress) throws Exception {
    final int n = w.size;
    final int[] listPos = new int[w.lists + w.expiryLists]; // the queue's lists and the expiry bucket's
    for (int i = 0, k = 0; i < n; i++) {
      if (w.kind[i] == Workload.LIST || w.kind[i] == Workload.EXPIRY_LIST) {
        listPos[k++] = i;
      }
    }
    final int writers = options.writeThreads();
    final AtomicLongArray writerDone = new AtomicLongArray(writers); // all of writer t's ops before this are done
    if (listsOnly) {
      for (int t = 0; t < writers; t++) {
        writerDone.set(t, n);
      }
    }
    final AtomicInteger listCursor = new AtomicInteger();
    final AtomicLong opsDone = new AtomicLong(); // ideal: sequence position of the latest list done
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Recorder listRec = new Recorder(MAX_NANOS, 3);
    final Recorder createRec = new Recorder(MAX_NANOS, 3);
    final Recorder deleteRec = new Recorder(MAX_NANOS, 3);
    // The expiry's own histograms, each guarded by its monitor (several list or writer threads may record).
    final Histogram expiryList = new Histogram(MAX_NANOS, 3);
    final Histogram expiryBatch = new Histogram(MAX_NANOS, 3);
    final AtomicLong expirySkips = new AtomicLong();
    final AtomicLong expiredKeys = new AtomicLong();
    // Each expiry listing's start (nanoseconds after the run's start), latency and whether it crosses the expired
    // span, and the last batch's end.
    final long[] expiryAt = new long[w.expiryLists];
    final long[] expiryTook = new long[w.expiryLists];
    final boolean[] expiryCrosses = new boolean[w.expiryLists];
    final AtomicInteger expirySlot = new AtomicInteger();
    final AtomicLong lastBatchEnd = new AtomicLong(-1);
    final long[] runStart = new long[1];
    final int listLength = w.spec.listLength();

    Map<String, Long> t0 = store.tickers();
    final long writeStall0 = writes.tickers().getOrDefault(TICK_STALL, 0L);
    BenchStore.SeekHistogram seek0 = store.seekHistogram();
    List<Thread> threads = new ArrayList<>();
    if (!listsOnly) {
      for (int t = 0; t < writers; t++) {
        final int me = t;
        threads.add(new Thread(() -> {
          try {
            for (int i = 0; i < n && failure.get() == null; i++) {
              byte k = w.kind[i];
              if (k == Workload.LIST || k == Workload.EXPIRY_LIST || Math.floorMod(w.key[i], writers) != me) {
                continue;
              }
              writerDone.set(me, i);
              while (true) { // hold back while too far past the next untaken list
                int c = listCursor.get();
                if (c >= listPos.length || i <= listPos[c] + options.listWindow() || failure.get() != null) {
                  break;
                }
                LockSupport.parkNanos(20_000);
              }
              if (k == Workload.EXPIRE) {
                List<String> names = expiryNames(i);
                long s = System.nanoTime();
                writes.deleteKeys(w.bucket[i], names);
                long took = System.nanoTime() - s;
                lastBatchEnd.accumulateAndGet(s + took - runStart[0], Math::max);
                synchronized (expiryBatch) {
                  expiryBatch.recordValue(Math.min(MAX_NANOS, took));
                }
                expiredKeys.addAndGet(names.size());
                opsDone.incrementAndGet();
                continue;
              }
              String name = w.spec.name(w.bucket[i], w.key[i]);
              long s = System.nanoTime();
              if (k == Workload.CREATE) {
                writes.putKey(w.bucket[i], name, w.key[i]);
                createRec.recordValue(Math.min(MAX_NANOS, System.nanoTime() - s));
              } else {
                writes.deleteKey(w.bucket[i], name);
                deleteRec.recordValue(Math.min(MAX_NANOS, System.nanoTime() - s));
              }
              opsDone.incrementAndGet();
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          } finally {
            writerDone.set(me, n);
          }
        }, "bench-writer-" + t));
      }
    }
    for (int t = 0; t < options.listThreads(); t++) {
      threads.add(new Thread(() -> {
        try {
          while (failure.get() == null) {
            int c = listCursor.getAndIncrement();
            if (c >= listPos.length) {
              return;
            }
            int i = listPos[c];
            while (lowWater(writerDone) < i && failure.get() == null) {
              LockSupport.parkNanos(20_000);
            }
            if (w.kind[i] == Workload.EXPIRY_LIST) {
              String start = w.spec.name(w.bucket[i], w.key[i]);
              long skips0 = store.iterSkips();
              long s = System.nanoTime();
              store.listKeys(w.bucket[i], start, listLength);
              long took = System.nanoTime() - s;
              expirySkips.addAndGet(store.iterSkips() - skips0);
              synchronized (expiryList) {
                expiryList.recordValue(Math.min(MAX_NANOS, took));
              }
              int slot = expirySlot.getAndIncrement();
              if (slot < expiryAt.length) {
                expiryAt[slot] = s - runStart[0];
                expiryTook[slot] = took;
                expiryCrosses[slot] = w.crossesExpiredSpan(w.key[i]);
              }
            } else {
              String start = w.key[i] < 0 ? null : w.spec.keyName(w.key[i]);
              long s = System.nanoTime();
              store.listKeys(w.bucket[i], start, listLength);
              listRec.recordValue(Math.min(MAX_NANOS, System.nanoTime() - s));
            }
            if (listsOnly) {
              opsDone.accumulateAndGet(i + 1, Math::max);
            } else {
              opsDone.incrementAndGet();
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "bench-list-" + t));
    }

    Histogram list = new Histogram(MAX_NANOS, 3);
    Histogram create = new Histogram(MAX_NANOS, 3);
    Histogram delete = new Histogram(MAX_NANOS, 3);
    List<RunResult.Sample> series = new ArrayList<>();
    policy.start(store);
    long start = System.nanoTime();
    runStart[0] = start; // written before the threads start, which makes it visible to them
    for (Thread t : threads) {
      t.setDaemon(true);
      t.start();
    }
    Histogram interval = null;
    long lastSkips = t0.getOrDefault(TICK_SKIP, 0L); // less the expiry listings' skips, as read below
    long nextSample = start + options.sampleMillis() * 1_000_000L;
    boolean running = true;
    while (running) {
      running = false;
      for (Thread t : threads) {
        long waitMs = Math.max(1, (nextSample - System.nanoTime()) / 1_000_000L);
        t.join(Math.min(waitMs, 200));
        running |= t.isAlive();
        if (System.nanoTime() >= nextSample) {
          break;
        }
      }
      progress.accept(opsDone.get());
      if (System.nanoTime() >= nextSample || !running) {
        interval = listRec.getIntervalHistogram(interval);
        list.add(interval);
        create.add(createRec.getIntervalHistogram());
        delete.add(deleteRec.getIntervalHistogram());
        Map<String, Long> tick = store.tickers();
        long skips = tick.getOrDefault(TICK_SKIP, 0L) - expirySkips.get(); // the queue lists' own
        BenchStore.TableFacts facts = store.keyTableFacts();
        long lists = interval.getTotalCount();
        // What the writes meet (ideal-loaded: the load's store): level-0 files, pending compaction, stalls so far.
        Map<String, Long> writeTick = writes == store ? tick : writes.tickers();
        series.add(new RunResult.Sample(policy.name(), (System.nanoTime() - start) / 1e9, opsDone.get(), lists,
            lists == 0 ? Double.NaN : interval.getValueAtPercentile(99) / 1e6,
            lists == 0 ? Double.NaN : (double) (skips - lastSkips) / lists,
            facts.tombstones(), facts.sstBytes(), tick.getOrDefault(TICK_COMPACT_WRITE, 0L),
            writes.keyTableLong(BenchStore.L0_FILES), writes.keyTableLong(BenchStore.PENDING_COMPACTION_BYTES),
            writeTick.getOrDefault(TICK_STALL, 0L) - writeStall0));
        lastSkips = skips;
        nextSample = System.nanoTime() + options.sampleMillis() * 1_000_000L;
      }
    }
    long wall = System.nanoTime() - start;
    policy.close();
    if (failure.get() != null) {
      throw new IllegalStateException(policy.name() + ": workload failed: " + failure.get(), failure.get());
    }
    if (policy.failure() != null) {
      throw new IllegalStateException(policy.name() + ": a background compaction round failed: "
          + policy.failure(), policy.failure());
    }
    Map<String, Long> t1 = store.tickers();
    BenchStore.SeekHistogram seek1 = store.seekHistogram(); // before content(), whose own seek is not the run's
    BenchStore.TableFacts end = store.keyTableFacts();
    long sstAll = store.allSstBytes();
    BenchStore.Content content = store.content();
    long seeks = seek1.count() - seek0.count();
    // Average over the run's seeks alone; p99 is over the store's life, which before the run holds only the few
    // seeks of opening the OM metadata manager (seek0.count(), printed beside it).
    RunResult.Seeks seekFacts = new RunResult.Seeks(seeks, seeks == 0 ? 0
        : (double) (seek1.sumMicros() - seek0.sumMicros()) / seeks, seek1.p99Micros(), seek0.count());
    RunResult.Expiry expiry = null;
    if (w.spec.expiry().on()) {
      synchronized (expiryList) {
        synchronized (expiryBatch) {
          // ideal's expiry ran before its lists (its end state was written before the full compaction)
          int k = Math.min(expirySlot.get(), expiryAt.length);
          expiry = new RunResult.Expiry(expiryList.copy(), expirySkips.get(),
              listsOnly ? w.expiredKeys : expiredKeys.get(), listsOnly ? 0 : w.expiryBatches, expiryBatch.copy(),
              java.util.Arrays.copyOf(expiryAt, k), java.util.Arrays.copyOf(expiryTook, k),
              java.util.Arrays.copyOf(expiryCrosses, k), lastBatchEnd.get());
        }
      }
    }
    return new RunResult(policy.name(), null, list, create, delete, listsOnly ? w.lists + w.expiryLists : n, wall,
        delta(t0, t1, TICK_SKIP), delta(t0, t1, TICK_COMPACT_READ), delta(t0, t1, TICK_COMPACT_WRITE),
        delta(t0, t1, TICK_FLUSH_WRITE), policy.compactions(), policy.compactionNanos(), end, sstAll,
        w.finalKeyCount(), content.keys(), policy.detail(), series, seekFacts, delta(t0, t1, TICK_STALL),
        policy.compactedBytes(), policy.tombstonesRemoved(), policy.flushes(), policy.headEntriesRemoved(),
        policy.hints(),
        RunResult.omClassesHere(), expiry);
  }

  /** The key names the expiry batch at sequence position {@code i} deletes. */
  private List<String> expiryNames(int i) {
    int count = w.batchSize(i);
    List<String> names = new ArrayList<>(count);
    for (long id = w.key[i]; id < w.key[i] + count; id++) {
      names.add(w.spec.name(w.bucket[i], id));
    }
    return names;
  }

  private static long lowWater(AtomicLongArray done) {
    long min = Long.MAX_VALUE;
    for (int t = 0; t < done.length(); t++) {
      min = Math.min(min, done.get(t));
    }
    return min;
  }

  private static long delta(Map<String, Long> a, Map<String, Long> b, String ticker) {
    return b.getOrDefault(ticker, 0L) - a.getOrDefault(ticker, 0L);
  }
}
