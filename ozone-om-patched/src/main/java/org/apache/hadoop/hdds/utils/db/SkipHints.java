/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hadoop.hdds.utils.db;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Skip hints of one table: dead spans, key ranges [lo, hi) that held no live key when a reader crossed them, so that
 * the next reader who would cross one goes straight to its end instead of stepping over its deleted keys again.
 *
 * <p>Where spans come from. Every read that crosses dead keys teaches one, with no read added: a seek to a target T
 * that lands on the first live key F teaches [T, F) (always from the start of an iterator's prefix or of the whole
 * table, otherwise when the seek took at least the learn threshold); inside a listing, a step from a live key K to
 * the next live key F that took at least the threshold teaches (K, F), kept as [K + 0x00, F), since no key lies
 * strictly between K and K + 0x00. F is the end of the iterator's prefix when nothing live followed. Spans that
 * overlap or touch are merged into one. A seek to a target inside a span seeks to its end; a listing about to step
 * from K into a span that begins right after K seeks to the span's end instead; a seek through a span that lands
 * further on extends it. The iterator that does all this is {@link HintedIterator}.
 *
 * <p>Why a span never hides a live key. It rests on two properties of RocksDB as the OM opens it: an iterator
 * without a snapshot sees exactly the writes whose commit had returned when it was created (its view), and a write
 * is visible to every iterator created after its commit returned. Both hold with Ozone's options; RocksDB's
 * unordered_write breaks the second, and {@link SkipHintGroup#attach} refuses a store opened with it. The state
 * belongs to a column family of one open store ({@link RocksDatabase.ColumnFamily}), and the steps that carry the
 * proof sit where every writer of that family passes, whatever table object it holds:
 * <ul>
 *   <li>{@link #announce} runs before a put can reach RocksDB: in {@code RDBBatchOperation.put} (for a batch) and
 *       {@code RocksDatabase.put} (a direct put); {@code RocksDatabase.ingestExternalFile} announces every key.
 *       {@link #settle} runs after the put is visible: when the batch is closed (after its commit), when the direct
 *       put returned. Between the two the key is <em>pending</em>. (TypedTable also announces a cache entry and
 *       settles it when the double buffer cleans its epoch; that only retires a span sooner: a listing reads the
 *       cache apart from RocksDB, and the batch that commits the entry announces it anyway.)
 *   <li>Both retire the span that holds the key (spans never overlap, so there is at most one); settle also records
 *       the key, with a sequence number, in a ring of recently settled keys.
 *   <li>Views are ordered by a clock. A reader reads the clock (its use limit) and the settled sequence number
 *       <em>before</em> RocksDB takes its view, and ticks the clock <em>after</em>: the tick is the stamp of every
 *       span it learns. A reader uses a span only if the span is in the map when it looks (any time after its view)
 *       and its stamp is at most the reader's use limit, so the span was learned from a view older than its own.
 *   <li>A learner installs a span only if, after putting it in the map (merged with its neighbours), no key in the
 *       merged span is pending and no key in it settled since it read the sequence number (before its view). A put
 *       the learner's view missed committed after that view, so it was pending at some point after the view:
 *       either still pending at the check, or settled before it (then in the ring), or announced after the span
 *       was put in the map (then its announce retires the span before the put reaches RocksDB). A ring that
 *       overflowed refuses the install. Until the check passed the span is in the map but not installed, and no
 *       reader uses it.
 *   <li>Merging. Pieces that overlap or touch become one span whose stamp is the largest of theirs, so only a
 *       reader whose view is newer than every piece's uses it; each piece was dead in its own view and, being in
 *       the map until the merge, saw no put announced into it since, and the merged span is retired by a put into
 *       any of them. A newer piece may cover a key that was live in an older piece's view and deleted since: for a
 *       reader newer than both, that key is dead or was put again (and the put retired the span).
 * </ul>
 * Deletes need nothing: a deleted key never makes a dead span live. Whatever opens a new store (a restart, a
 * checkpoint install, reloading the OM state) makes new column family objects, so it starts without spans; the OM
 * gives spans only to the store its metadata manager opens in start(), so snapshot and checkpoint DBs get none.
 * A write that bypasses Ozone's framework (the raw RocksDB handle) is not seen and must not be made into a hinted
 * family. Memory: spans are bounded per table ({@link SkipHintSettings#MAX_ENTRIES_KEY}, the least recently used
 * go first); the records of cache puts are bounded ({@link #MAX_CACHED}); a batch's records last as long as the
 * batch. See docs/skip-hints.md of the repository that carries this patch for the full argument.
 */
public final class SkipHints {
  private static final Logger LOG = LoggerFactory.getLogger(SkipHints.class);

  private static final int RING_SIZE = 4096;
  /**
   * The most cache puts one table keeps pending records of: 10,000 unflushed transactions (the OM's default
   * ozone.om.unflushed.transaction.max.count) of 10 puts into the one table each. A cache put whose epoch is never
   * cleaned (a transaction a checkpoint install dropped) would otherwise stay pending for good. Past the bound the
   * oldest epochs are settled early, which is safe because the cache records carry no part of the argument (the
   * batch that commits a put announces it again). At the bound, with 60-byte keys, the records hold about 22 MB,
   * which with the spans at their default bound keeps a table under 64 MB (docs/facts.md of the repository that
   * carries this patch). Batch and direct puts are not bounded: each is
   * settled when its batch is closed or its put returns, so their records last as long as the batch, which holds
   * the keys itself.
   */
  static final long MAX_CACHED = 100_000;
  /** The start of the whole table, as a seek target and as a whole-table reader's prefix. */
  static final byte[] TABLE_START = new byte[0];

  private final String table;
  private final SkipHintSettings settings;
  /** Dead spans by their first key; disjoint and never touching. Changed under this object's lock, read without. */
  private final ConcurrentSkipListMap<byte[], DeadSpan> spans = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
  /** The spans that begin right after a key K (their lo is K + 0x00), by K: what a listing at K looks up. */
  private final ConcurrentHashMap<After, DeadSpan> byAfter = new ConcurrentHashMap<>();
  /** Mirrors spans.size() for the read path's lock-free check; written under the lock. */
  private volatile int size;
  /** The view clock: read before a reader's view (its use limit), ticked after it (its stamp). */
  private final AtomicLong views = new AtomicLong();
  private final ConcurrentSkipListMap<byte[], Integer> pending = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
  /** Puts announced and not settled (the pending map's size, which the map can only count by walking it). */
  private final AtomicLong pendingCount = new AtomicLong();
  /** Writes that may touch any key (an ingested file) in progress. */
  private final AtomicInteger pendingEverything = new AtomicInteger();
  /** Cache puts by epoch, oldest first, until the epoch is cleaned; at most about MAX_CACHED keys. */
  private final ConcurrentSkipListMap<Long, List<byte[]>> cachedByEpoch = new ConcurrentSkipListMap<>();
  private final AtomicLong cachedCount = new AtomicLong();
  private final AtomicLong settled = new AtomicLong();
  private final AtomicReferenceArray<Settled> ring = new AtomicReferenceArray<>(RING_SIZE);
  private volatile String brokenBecause;

  private final LongAdder used = new LongAdder();
  private final LongAdder learned = new LongAdder();
  private final LongAdder merged = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final LongAdder retired = new LongAdder();
  private final LongAdder evicted = new LongAdder();

  SkipHints(String table, SkipHintSettings settings) {
    this.table = table;
    this.settings = settings;
  }

  // ---- write path -------------------------------------------------------------------------------------------

  /**
   * A put of {@code key} is about to reach RocksDB (or the cache): it is pending until {@link #settle}. The caller
   * must not change {@code key} afterwards. Returns {@code key}.
   */
  byte[] announce(byte[] key) {
    pendingCount.incrementAndGet();
    pending.merge(key, 1, Integer::sum);
    VarHandle.fullFence(); // the pending mark before the look-up in retire (see retire)
    retire(key);
    return key;
  }

  /** The put announced for {@code key} is in RocksDB (or was dropped): it is no longer pending. */
  void settle(byte[] key) {
    record(key);
    pending.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    pendingCount.decrementAndGet();
    VarHandle.fullFence(); // the ring entry before the look-up in retire (see retire)
    retire(key);
  }

  /**
   * A cache put at {@code epoch}: pending until {@link #cacheCleaned} names the epoch, or until the records pass
   * {@link #MAX_CACHED} and its epoch is among the oldest.
   */
  void announceCached(byte[] key, long epoch) {
    announce(key);
    cachedByEpoch.computeIfAbsent(epoch, e -> Collections.synchronizedList(new ArrayList<>())).add(key);
    if (cachedCount.incrementAndGet() > MAX_CACHED) {
      Map.Entry<Long, List<byte[]>> oldest = cachedByEpoch.pollFirstEntry();
      if (oldest != null) {
        settleAll(oldest.getValue());
      }
    }
  }

  void cacheCleaned(List<Long> epochs) {
    for (Long epoch : epochs) {
      List<byte[]> keys = cachedByEpoch.remove(epoch);
      if (keys != null) {
        settleAll(keys);
      }
    }
  }

  private void settleAll(List<byte[]> cached) {
    synchronized (cached) {
      cached.forEach(this::settle);
      cachedCount.addAndGet(-cached.size());
    }
  }

  /** Some write that may add any key (loading a file) starts; {@link #settleEverything} when it ended. */
  void announceEverything() {
    pendingEverything.incrementAndGet();
    clear();
  }

  void settleEverything() {
    record(null);
    pendingEverything.decrementAndGet();
    clear();
  }

  /**
   * Stops hints on this table for good (until a new table object is built), logging why. From the moment the flag
   * is set no span is used or installed (both check it), so a put that could not be announced is never jumped
   * over: a reader that checked before the flag took its view before that put committed.
   */
  void breakFor(String reason) {
    synchronized (this) {
      if (brokenBecause == null) {
        brokenBecause = reason;
        LOG.warn("Skip hints off for {} until the OM reopens its store: {}", table, reason);
      }
    }
    clear();
  }

  /** The bytes from {@code buffer}'s position to its limit; the buffer is left as it was. */
  static byte[] bytesOf(java.nio.ByteBuffer buffer) {
    final java.nio.ByteBuffer d = buffer.duplicate();
    final byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }

  private void record(byte[] key) {
    long seq = settled.incrementAndGet();
    ring.set((int) (seq % RING_SIZE), new Settled(seq, key));
  }

  /**
   * Removes the span that holds {@code key}, if any. The look-up needs no lock: the caller wrote its pending mark
   * or ring entry before it, and a learner puts its span in the map before it reads those, each side with a full
   * fence between its write and its read, so one of the two sees the other: the writer finds the span, or the
   * learner finds the mark and refuses. A look-up during a merge (the pieces removed, the merged span not yet put)
   * finds nothing; the learner then checks the whole merged span, not only its own piece, and finds the mark.
   */
  private void retire(byte[] key) {
    if (holding(key) == null) {
      return;
    }
    synchronized (this) {
      final DeadSpan s = holding(key);
      if (s != null) {
        remove(s);
        size = spans.size();
        retired.increment();
      }
    }
  }

  /** The span that holds {@code key} now, or null. */
  private DeadSpan holding(byte[] key) {
    final Map.Entry<byte[], DeadSpan> e = spans.floorEntry(key);
    return e != null && Arrays.compareUnsigned(key, e.getValue().hi) < 0 ? e.getValue() : null;
  }

  // ---- read path --------------------------------------------------------------------------------------------

  /** What a reader takes before its iterator's view: the view clock (its use limit) and the settled count. */
  Start start(byte[] prefix) {
    final byte[] s = prefix == null ? TABLE_START : prefix;
    final boolean learnable = settings.isEnabled() && brokenBecause == null;
    return new Start(s, views.get(), settled.get(), learnable);
  }

  /** Called after the reader's view was taken: the stamp of the spans it learns. */
  long viewTaken() {
    return views.incrementAndGet();
  }

  /**
   * The span holding {@code target} that a reader which took {@code start} may use, or null: installed (its learner
   * checked it; a span in the map but still being checked may yet be refused) and learned from an older view.
   */
  DeadSpan usableAt(byte[] target, Start start) {
    if (size == 0 || !settings.isEnabled() || brokenBecause != null) {
      return null;
    }
    final DeadSpan s = holding(target);
    return s != null && s.installed && s.stamp <= start.useLimit ? s : null;
  }

  /**
   * The span that begins right after {@code key} (nothing can lie between them) that a reader which took
   * {@code start} may use, or null: installed, still in the map (checked after the index, which a removal updates
   * after the map) and learned from an older view.
   */
  DeadSpan usableAfter(byte[] key, Start start) {
    if (size == 0 || !settings.isEnabled() || brokenBecause != null) {
      return null;
    }
    final DeadSpan s = byAfter.get(new After(key, key.length));
    return s != null && s.installed && s.stamp <= start.useLimit && spans.get(s.lo) == s ? s : null;
  }

  void used(DeadSpan s) {
    s.lastUsed = views.get();
    used.increment();
  }

  /** Learns [{@code found}'s span) from a reader that took {@code start} before its view: [prefix, found). */
  void learn(Start start, byte[] found) {
    learn(start, viewTaken(), start.prefix, found);
  }

  /**
   * Installs [lo, hi), learned by a reader that took {@code start} before its view and {@code stamp} after it,
   * merged with every span it overlaps or touches.
   */
  void learn(Start start, long stamp, byte[] lo, byte[] hi) {
    if (!settings.isEnabled() || brokenBecause != null || Arrays.compareUnsigned(lo, hi) >= 0) {
      return;
    }
    synchronized (this) {
      if (!settings.isEnabled() || brokenBecause != null) {
        return;
      }
      final DeadSpan within = holding(lo);
      if (within != null && Arrays.compareUnsigned(hi, within.hi) <= 0) {
        return; // known already, from a view at least as old
      }
      byte[] mergedLo = lo;
      byte[] mergedHi = hi;
      long mergedStamp = stamp;
      final List<DeadSpan> absorbed = new ArrayList<>();
      final Map.Entry<byte[], DeadSpan> before = spans.floorEntry(lo);
      if (before != null && Arrays.compareUnsigned(before.getValue().hi, lo) >= 0) {
        absorbed.add(before.getValue());
        mergedLo = before.getValue().lo;
      }
      for (DeadSpan s : spans.tailMap(lo, true).values()) {
        if (Arrays.compareUnsigned(s.lo, mergedHi) > 0) {
          break;
        }
        if (!absorbed.contains(s)) {
          absorbed.add(s);
        }
      }
      for (DeadSpan s : absorbed) {
        if (Arrays.compareUnsigned(s.hi, mergedHi) > 0) {
          mergedHi = s.hi;
        }
        mergedStamp = Math.max(mergedStamp, s.stamp);
        remove(s);
      }
      // Put first, then check: a writer whose look-up found no span announced before this check can see its key.
      // The check covers the whole merged span: a writer that looked while the pieces were out of the map found
      // none of them. Readers ignore the span until it is installed.
      final DeadSpan span = new DeadSpan(mergedLo, mergedHi, mergedStamp, views.get());
      add(span);
      size = spans.size();
      VarHandle.fullFence(); // the span in the map before reading the pending marks and the ring (see retire)
      if (conflicts(start, mergedLo, mergedHi)) {
        remove(span);
        size = spans.size();
        refused.increment();
        return;
      }
      span.installed = true;
      learned.increment();
      merged.add(absorbed.size());
      if (size > settings.maxEntries()) {
        evict();
      }
    }
  }

  private void add(DeadSpan s) {
    spans.put(s.lo, s);
    if (s.lo.length > 0 && s.lo[s.lo.length - 1] == 0) {
      byAfter.put(new After(s.lo, s.lo.length - 1), s);
    }
  }

  /** Removes from the map first, then from the index, which {@link #usableAfter} checks against the map. */
  private void remove(DeadSpan s) {
    spans.remove(s.lo, s);
    if (s.lo.length > 0 && s.lo[s.lo.length - 1] == 0) {
      byAfter.remove(new After(s.lo, s.lo.length - 1), s);
    }
  }

  /**
   * Drops the least recently used spans, down to 15/16 of the bound, so that the cost of choosing them (a sort of
   * the use times) is paid once per sixteenth of the bound learned.
   */
  private void evict() {
    final int drop = spans.size() - settings.maxEntries() + settings.maxEntries() / 16;
    final long[] times = new long[spans.size()];
    int i = 0;
    for (DeadSpan s : spans.values()) {
      times[i++] = s.lastUsed;
    }
    Arrays.sort(times, 0, i);
    final long oldest = times[Math.min(i, Math.max(drop, 1)) - 1];
    int dropped = 0;
    for (DeadSpan s : new ArrayList<>(spans.values())) {
      if (dropped < drop && s.lastUsed <= oldest) {
        remove(s);
        dropped++;
      }
    }
    size = spans.size();
    evicted.add(dropped);
  }

  /** Whether a write may have put a key in [lo, hi) that the learner's view lacks. */
  private boolean conflicts(Start start, byte[] lo, byte[] hi) {
    if (pendingEverything.get() > 0) {
      return true;
    }
    byte[] firstPending = pending.ceilingKey(lo);
    if (firstPending != null && Arrays.compareUnsigned(firstPending, hi) < 0) {
      return true;
    }
    long now = settled.get();
    if (now - start.settledBefore >= RING_SIZE) {
      return true;
    }
    for (long seq = start.settledBefore + 1; seq <= now; seq++) {
      Settled e = ring.get((int) (seq % RING_SIZE));
      if (e == null || e.seq != seq || e.key == null
          || Arrays.compareUnsigned(e.key, lo) >= 0 && Arrays.compareUnsigned(e.key, hi) < 0) {
        return true;
      }
    }
    return false;
  }

  synchronized void clear() {
    spans.clear();
    byAfter.clear();
    size = 0;
  }

  /** The table these hints belong to. */
  public String table() {
    return table;
  }

  /**
   * The end of the span holding each of {@code starts} now, in order: a copy, or null where no span holds it.
   * Everything in [start, end) was dead when the span was learned. For estimating what those spans hold (a
   * compaction service sizes them instead of seeking); a span can be retired the moment this returns, so callers
   * may estimate from it, never decide what a reader sees. A look-up counts as a use for the size bound.
   */
  public byte[][] hintsAt(byte[][] starts) {
    byte[][] out = new byte[starts.length][];
    for (int i = 0; i < starts.length; i++) {
      final DeadSpan s = holding(starts[i]);
      final boolean known = s != null && s.installed;
      if (known) {
        s.lastUsed = views.get();
      }
      out[i] = known ? s.hi.clone() : null;
    }
    return out;
  }

  /** Spans held now. */
  public int size() {
    return size;
  }

  /** The learn threshold in nanoseconds. */
  long learnThresholdNanos() {
    return settings.learnThresholdNanos();
  }

  /** Keys put but not yet settled (a cache entry not cleaned, a batch not closed). */
  public long pendingKeys() {
    return pendingCount.get();
  }

  /** Seeks and listing steps that jumped to the end of a span. */
  public long used() {
    return used.sum();
  }

  /** Spans installed, extended or merged. */
  public long learned() {
    return learned.sum();
  }

  /** Spans merged into a newly learned one. */
  public long merged() {
    return merged.sum();
  }

  /** Installs refused because a put may have landed in the span. */
  public long refused() {
    return refused.sum();
  }

  /** Spans removed by a put into them. */
  public long retired() {
    return retired.sum();
  }

  /** Spans dropped for the size bound. */
  public long evicted() {
    return evicted.sum();
  }

  /** The first {@code length} bytes of an array, as a hash key (a span's lo without its trailing 0x00). */
  private static final class After {
    private final byte[] bytes;
    private final int length;
    private final int hash;

    After(byte[] bytes, int length) {
      this.bytes = bytes;
      this.length = length;
      int h = 1;
      for (int i = 0; i < length; i++) {
        h = 31 * h + bytes[i];
      }
      this.hash = h;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof After)) {
        return false;
      }
      final After a = (After) o;
      return Arrays.equals(bytes, 0, length, a.bytes, 0, a.length);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static final class Settled {
    private final long seq;
    /** Null: a write that may have touched any key. */
    private final byte[] key;

    Settled(long seq, byte[] key) {
      this.seq = seq;
      this.key = key;
    }
  }

  /** What a reader took before its view: its prefix, its use limit and the settled count. */
  static final class Start {
    private final byte[] prefix;
    private final long useLimit;
    private final long settledBefore;
    private final boolean learnable;

    Start(byte[] prefix, long useLimit, long settledBefore, boolean learnable) {
      this.prefix = prefix;
      this.useLimit = useLimit;
      this.settledBefore = settledBefore;
      this.learnable = learnable;
    }

    byte[] prefix() {
      return prefix;
    }

    boolean learnable() {
      return learnable;
    }
  }
}
