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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Skip hints of one table: where the first live key was found at a seek start, so that the next seek there goes
 * straight to it instead of stepping over the deleted keys in between again.
 *
 * <p>A hint maps a start S (the prefix of a bounded iterator that ends in '/', or the empty start of a whole-table
 * iterator) to a key H such that S..H held no live key in the view of the iterator that learned it. An iterator of
 * this table asked to seek to a key in [S, H) seeks to H instead. Hints are learned from the seeks the readers make
 * anyway, and advanced when a seek that used a hint finds its first live key further on.
 *
 * <p>Why a hint never hides a live key. It rests on two properties of RocksDB as the OM opens it: an iterator
 * without a snapshot sees exactly the writes whose commit had returned when it was created (its view), and a write
 * is visible to every iterator created after its commit returned. Both hold with Ozone's options; RocksDB's
 * unordered_write breaks the second, and {@link Group#attach} refuses a store opened with it. The hint state
 * belongs to a column family of one open store ({@link RocksDatabase.ColumnFamily}), and the steps that carry the
 * proof sit where every writer of that family passes, whatever table object it holds:
 * <ul>
 *   <li>{@link #announce} runs before a put can reach RocksDB: in {@code RDBBatchOperation.put} (for a batch) and
 *       {@code RocksDatabase.put} (a direct put); {@code RocksDatabase.ingestExternalFile} announces every key.
 *       {@link #settle} runs after the put is visible: when the batch is closed (after its commit), when the direct
 *       put returned. Between the two the key is <em>pending</em>. (TypedTable also announces a cache entry and
 *       settles it when the double buffer cleans its epoch; that only retires a hint sooner: a listing reads the
 *       cache apart from RocksDB, and the batch that commits the entry announces it anyway.)
 *   <li>Both retire every hint whose [S, H) holds the key; settle also records the key, with a sequence number, in
 *       a ring of recently settled keys.
 *   <li>A reader reads the hint (and the settled sequence number) <em>before</em> RocksDB takes its iterator's view,
 *       and checks at its seek, after the view exists, that the same hint is still in the map. So a hint it uses was
 *       learned from a view no newer than its own, and no write into [S, H) announced itself before the seek.
 *   <li>A learner installs S -> H only if, after putting it in the map, no key in [S, H) is pending and no key in
 *       [S, H) settled since it read the sequence number (before its view). A put the learner's view missed
 *       committed after that view, so it was pending at some point after the view: either still pending at the
 *       check, or settled before it (then in the ring), or announced after the install (then its announce retires
 *       the hint before the put reaches RocksDB). A ring that overflowed refuses the install.
 * </ul>
 * Deletes need nothing: a deleted key never makes a dead span live. Whatever opens a new store (a restart, a
 * checkpoint install, reloading the OM state) makes new column family objects, so it starts without hints; the OM
 * gives hints only to the store its metadata manager opens in start(), so snapshot and checkpoint DBs get none.
 * A write that bypasses Ozone's framework (the raw RocksDB handle) is not seen and must not be made into a hinted
 * family. Memory: the records of cache puts are bounded ({@link #MAX_CACHED}); a batch's records last as long as
 * the batch. See docs/skip-hints.md of the repository that carries this patch for the full argument.
 */
public final class SkipHints {
  private static final Logger LOG = LoggerFactory.getLogger(SkipHints.class);

  /** Turns learning and using hints on or off (the write path keeps its records either way). Reconfigurable. */
  public static final String ENABLED_KEY = "ozone.om.list.skip.hints.enabled";
  public static final boolean ENABLED_DEFAULT = true;
  /** The most hints one table keeps; the least recently used one goes first. */
  public static final String MAX_ENTRIES_KEY = "ozone.om.list.skip.hints.max.entries";
  public static final int MAX_ENTRIES_DEFAULT = 100_000;
  /**
   * The OM tables that get hints. Not directoryTable: the OM reads it through io.ozonerc's KeyAwareDirectoryTable
   * (the trimmed-directory patch, which this one applies after), whose iterators are Ozone 2.2.0's unbounded
   * prefix iterators, never the bounded ones hints work in; its puts would be announced for no reader.
   */
  public static final List<String> TABLES = Collections.unmodifiableList(Arrays.asList(
      "keyTable", "fileTable", "openKeyTable", "openFileTable", "deletedTable",
      "deletedDirectoryTable", "multipartInfoTable"));

  private static final byte SEPARATOR = '/';
  private static final int RING_SIZE = 4096;
  /**
   * The most cache puts one table keeps pending records of: 10,000 unflushed transactions (the OM's default
   * ozone.om.unflushed.transaction.max.count) of 20 puts each. A cache put whose epoch is never cleaned (a
   * transaction a checkpoint install dropped) would otherwise stay pending for good. Past the bound the oldest
   * epochs are settled early, which is safe because the cache records carry no part of the argument (the batch
   * that commits a put announces it again). At the bound, with 60-byte keys, the records hold about 34 MB
   * (docs/facts.md of the repository that carries this patch). Batch and direct puts are not bounded: each is
   * settled when its batch is closed or its put returns, so their records last as long as the batch, which holds
   * the keys itself.
   */
  static final long MAX_CACHED = 200_000;
  private static final byte[] TABLE_START = new byte[0];

  private final String table;
  private final Settings settings;
  /** Start -> hint, in access order; guarded by this. */
  private final LinkedHashMap<Key, byte[]> hints;
  /** Mirrors hints.size() for the write path's lock-free check; written under the lock. */
  private volatile int size;
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
  private final LongAdder refused = new LongAdder();
  private final LongAdder retired = new LongAdder();
  private final LongAdder evicted = new LongAdder();

  SkipHints(String table, Settings settings) {
    this.table = table;
    this.settings = settings;
    this.hints = new LinkedHashMap<Key, byte[]>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, byte[]> eldest) {
        if (size() > SkipHints.this.settings.maxEntries) {
          evicted.increment();
          return true;
        }
        return false;
      }
    };
  }

  // ---- write path -------------------------------------------------------------------------------------------

  /**
   * A put of {@code key} is about to reach RocksDB (or the cache): it is pending until {@link #settle}. The caller
   * must not change {@code key} afterwards. Returns {@code key}.
   */
  byte[] announce(byte[] key) {
    pendingCount.incrementAndGet();
    pending.merge(key, 1, Integer::sum);
    retire(key);
    return key;
  }

  /** The put announced for {@code key} is in RocksDB (or was dropped): it is no longer pending. */
  void settle(byte[] key) {
    record(key);
    pending.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
    pendingCount.decrementAndGet();
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
   * is set no hint is used or installed (both check it under the lock), so a put that could not be announced is
   * never jumped over: a reader that checked its hint before the flag took its view before that put committed.
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

  /** Removes every hint whose span holds {@code key}: only starts that are a prefix of it can (the hint starts with S). */
  private void retire(byte[] key) {
    if (size == 0) {
      return;
    }
    synchronized (this) {
      retireAt(key, 0);
      for (int i = 0; i < key.length; i++) {
        if (key[i] == SEPARATOR) {
          retireAt(key, i + 1);
        }
      }
      size = hints.size();
    }
  }

  private void retireAt(byte[] key, int prefixLength) {
    Key start = new Key(Arrays.copyOf(key, prefixLength));
    byte[] hint = hints.get(start);
    if (hint != null && Arrays.compareUnsigned(key, hint) < 0) {
      hints.remove(start);
      retired.increment();
    }
  }

  // ---- read path --------------------------------------------------------------------------------------------

  /** What a reader takes before its iterator's view: the hint at {@code prefix} and the settled count. */
  Start start(byte[] prefix) {
    byte[] s = prefix == null ? TABLE_START : prefix;
    boolean learnable = settings.enabled && brokenBecause == null
        && (s.length == 0 || s[s.length - 1] == SEPARATOR);
    if (!learnable) {
      return new Start(s, null, 0, false);
    }
    long since = settled.get();
    byte[] hint;
    synchronized (this) {
      hint = hints.get(new Key(s));
    }
    return new Start(s, hint, since, true);
  }

  /** True if {@code start}'s hint is still in the map (called after the reader's view was taken). */
  synchronized boolean stillHolds(Start start) {
    return start.hint != null && settings.enabled && brokenBecause == null
        && hints.get(new Key(start.prefix)) == start.hint;
  }

  /** Installs prefix -> {@code found}, learned by a reader that took {@code start} before its view. */
  void learn(Start start, byte[] found) {
    if (!settings.enabled || brokenBecause != null || Arrays.equals(found, start.hint)) {
      return;
    }
    Key k = new Key(start.prefix);
    synchronized (this) {
      if (!settings.enabled || brokenBecause != null) {
        return;
      }
      // Put first, then check: a writer that saw no hints (size 0) announced before this check can see its key.
      hints.put(k, found);
      size = hints.size();
      if (conflicts(start, found)) {
        hints.remove(k);
        size = hints.size();
        refused.increment();
        return;
      }
    }
    learned.increment();
  }

  /** Whether a write may have put a key in [prefix, found) that the learner's view lacks. */
  private boolean conflicts(Start start, byte[] found) {
    if (pendingEverything.get() > 0) {
      return true;
    }
    byte[] firstPending = pending.ceilingKey(start.prefix);
    if (firstPending != null && Arrays.compareUnsigned(firstPending, found) < 0) {
      return true;
    }
    long now = settled.get();
    if (now - start.settledBefore >= RING_SIZE) {
      return true;
    }
    for (long seq = start.settledBefore + 1; seq <= now; seq++) {
      Settled e = ring.get((int) (seq % RING_SIZE));
      if (e == null || e.seq != seq || e.key == null
          || Arrays.compareUnsigned(e.key, start.prefix) >= 0 && Arrays.compareUnsigned(e.key, found) < 0) {
        return true;
      }
    }
    return false;
  }

  synchronized void clear() {
    hints.clear();
    size = 0;
  }

  /** The table these hints belong to. */
  public String table() {
    return table;
  }

  /**
   * The hints held now at {@code starts}, in order: a copy of each hint, or null where there is none. Everything in
   * [start, hint) was dead when the hint was learned. For estimating what those spans hold (a compaction service
   * sizes them instead of seeking); a span can be retired the moment this returns, so callers may estimate from
   * it, never decide what a reader sees. Looking a hint up counts as a use for the size bound's LRU order.
   */
  public synchronized byte[][] hintsAt(byte[][] starts) {
    byte[][] out = new byte[starts.length][];
    for (int i = 0; i < starts.length; i++) {
      byte[] hint = hints.get(new Key(starts[i]));
      out[i] = hint == null ? null : hint.clone();
    }
    return out;
  }

  /** Hints held now. */
  public int size() {
    return size;
  }

  /** Keys put but not yet settled (a cache entry not cleaned, a batch not closed). */
  public long pendingKeys() {
    return pendingCount.get();
  }

  /** Seeks that jumped to a hint. */
  public long used() {
    return used.sum();
  }

  /** Hints installed or advanced. */
  public long learned() {
    return learned.sum();
  }

  /** Installs refused because a put may have landed in the span. */
  public long refused() {
    return refused.sum();
  }

  /** Hints removed by a put into their span. */
  public long retired() {
    return retired.sum();
  }

  /** Hints dropped for the size bound. */
  public long evicted() {
    return evicted.sum();
  }

  private static final class Key {
    private final byte[] bytes;
    private final int hash;

    Key(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && Arrays.equals(bytes, ((Key) o).bytes);
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

  /** A reader's hint and settled count, taken before its view. */
  static final class Start {
    private final byte[] prefix;
    private final byte[] hint;
    private final long settledBefore;
    private final boolean learnable;

    Start(byte[] prefix, byte[] hint, long settledBefore, boolean learnable) {
      this.prefix = prefix;
      this.hint = hint;
      this.settledBefore = settledBefore;
      this.learnable = learnable;
    }
  }

  /**
   * A byte-array iterator whose seeks use and learn hints. Its prefix bounds it (iterate_upper_bound); with no
   * prefix it reads the whole table and is positioned at the table's first live key when made.
   */
  static final class HintedIterator extends RDBStoreByteArrayIterator {
    private final SkipHints hints;
    private final Start start;
    /** The first key after the prefix, where a bounded iterator ends; null for the whole table. */
    private final byte[] end;

    HintedIterator(ManagedRocksIterator iterator, RDBTable table, byte[] prefix, byte[] end, IteratorType type,
        SkipHints hints, Start start) {
      super(iterator, table, prefix, type, false);
      this.hints = hints;
      this.start = start;
      this.end = end;
      if (prefix == null || prefix.length == 0) {
        seek(TABLE_START);
      }
    }

    @Override
    void seek0(byte[] target) {
      boolean fromStart = Arrays.equals(target, start.prefix);
      boolean jump = start.hint != null
          && Arrays.compareUnsigned(target, start.prefix) >= 0 && Arrays.compareUnsigned(target, start.hint) < 0
          && hints.stillHolds(start);
      super.seek0(jump ? start.hint : target);
      if (jump) {
        hints.used.increment();
      }
      if (start.learnable && (fromStart || jump)) {
        byte[] found = firstFound();
        if (found != null) {
          hints.learn(start, found);
        }
      }
    }

    /**
     * The key the seek stopped at; the end of the prefix when it found none; null (learn nothing) when the
     * iterator is not valid because of an error, not because the range ended.
     */
    private byte[] firstFound() {
      ManagedRocksIterator i = getRocksDBIterator();
      if (i.get().isValid()) {
        return i.get().key();
      }
      try {
        i.get().status();
      } catch (RocksDBException e) {
        LOG.warn("Not learning a skip hint for {} after a failed seek: {}", hints.table, e.toString());
        return null;
      }
      return end;
    }
  }

  // ---- settings, the OM's tables, metrics -------------------------------------------------------------------

  /** Settings shared by the tables of one OM. */
  public static final class Settings {
    private volatile boolean enabled;
    private final int maxEntries;

    private Settings(boolean enabled, int maxEntries) {
      this.enabled = enabled;
      this.maxEntries = maxEntries;
    }

    /** Reads and checks the keys; a bad value fails naming key and value. */
    public static Settings fromConfig(ConfigurationSource conf) {
      return new Settings(parseEnabled(conf.get(ENABLED_KEY, String.valueOf(ENABLED_DEFAULT))),
          parseMaxEntries(conf.get(MAX_ENTRIES_KEY, String.valueOf(MAX_ENTRIES_DEFAULT))));
    }

    /** "true" or "false" (any case, surrounding blanks ignored); anything else fails naming the key. */
    public static boolean parseEnabled(String value) {
      String v = value == null ? "" : value.trim();
      if (v.equalsIgnoreCase("true")) {
        return true;
      }
      if (v.equalsIgnoreCase("false")) {
        return false;
      }
      throw new IllegalArgumentException("Invalid value for " + ENABLED_KEY + ": '" + value
          + "' (expected true or false)");
    }

    static int parseMaxEntries(String value) {
      try {
        int n = Integer.parseInt(value.trim());
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException | NullPointerException e) {
        // reported below
      }
      throw new IllegalArgumentException("Invalid value for " + MAX_ENTRIES_KEY + ": '" + value
          + "' (expected a whole number of hints per table, at least 1)");
    }

    public boolean isEnabled() {
      return enabled;
    }

    public int maxEntries() {
      return maxEntries;
    }
  }

  /** The hints of one OM's active store, replaced whenever the OM opens a store; also its metrics source. */
  public static final class Group implements MetricsSource, AutoCloseable {
    private final Settings settings;
    private final String sourceName;
    private volatile List<SkipHints> tables = Collections.emptyList();
    /** Why the open store has no hints although it could take them, or null. */
    private volatile String noHintsBecause;

    public Group(Settings settings) {
      this.settings = settings;
      this.sourceName = DefaultMetricsSystem.sourceName("OmSkipHints", true);
      DefaultMetricsSystem.instance().register(sourceName, "Skip hints of the OM's key tables", this);
      LOG.info("Skip hints {} (at most {} per table)", settings.enabled ? "on" : "off", settings.maxEntries);
    }

    /** Unregisters the metrics source and drops the hints. */
    @Override
    public void close() {
      DefaultMetricsSystem.instance().unregisterSource(sourceName);
      tables.forEach(SkipHints::clear);
      tables = Collections.emptyList();
    }

    /**
     * Gives the column family of every table of {@link #TABLES} in {@code store} fresh hints, which every writer
     * and reader of the family then finds through it, whatever table object it holds; the previous store's hints
     * are dropped. Call before the store takes writes.
     *
     * <p>A store whose RocksDB options let a write return before a new iterator sees it (unordered_write) gets no
     * hints, since the argument in the class comment needs the opposite: with hints on that is an error, with them
     * off the store runs without any, and turning them on later does nothing until the OM reopens its store.
     *
     * @throws IllegalStateException if hints are on and the store was opened with unordered_write
     */
    public void attach(DBStore store) {
      tables = Collections.emptyList();
      noHintsBecause = null;
      if (!(store instanceof RDBStore)) {
        LOG.info("No skip hints: the store is a {}, not an RDBStore", store.getClass().getName());
        return;
      }
      final RocksDatabase db = ((RDBStore) store).getDb();
      if (db.unorderedWrite()) {
        noHintsBecause = "Skip hints need RocksDB writes to be visible once they return, which unordered_write=true"
            + " in the OM's RocksDB options does not promise";
        if (settings.enabled) {
          throw new IllegalStateException(noHintsBecause + ": remove it, or set " + ENABLED_KEY + "=false");
        }
        LOG.info("{}: this store gets none, whatever {} is set to later", noHintsBecause, ENABLED_KEY);
        return;
      }
      List<SkipHints> attached = new ArrayList<>();
      for (String name : TABLES) {
        final RocksDatabase.ColumnFamily family = db.getColumnFamily(name);
        if (family != null) {
          SkipHints h = new SkipHints(name, settings);
          family.setSkipHints(h);
          attached.add(h);
        }
      }
      tables = Collections.unmodifiableList(attached);
      LOG.debug("Skip hints on tables {}", attached.stream().map(SkipHints::table).toArray());
    }

    /** Reconfiguration: turns hints on or off; off also drops the hints held. Returns the value in force. */
    public String reconfigureEnabled(String value) {
      boolean on = value == null ? ENABLED_DEFAULT : Settings.parseEnabled(value);
      settings.enabled = on;
      if (!on) {
        tables.forEach(SkipHints::clear);
      }
      if (on && noHintsBecause != null) {
        LOG.info("Skip hints turned on, but the open store has none: {}", noHintsBecause);
      } else {
        LOG.info("Skip hints turned {}", on ? "on" : "off");
      }
      return String.valueOf(on);
    }

    public Settings settings() {
      return settings;
    }

    public List<SkipHints> tables() {
      return tables;
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
      for (SkipHints h : tables) {
        MetricsRecordBuilder r = collector.addRecord("OmSkipHints").setContext("om")
            .tag(Interns.info("Table", "Key table"), h.table)
            .addGauge(Interns.info("Enabled", "1 if hints are learned and used"), settings.enabled ? 1 : 0)
            .addGauge(Interns.info("Entries", "Hints held"), h.size)
            .addGauge(Interns.info("MaxEntries", "Most hints held per table"), settings.maxEntries)
            .addGauge(Interns.info("PendingKeys", "Puts not yet settled"), h.pendingKeys())
            .addCounter(Interns.info("Used", "Seeks that jumped to a hint"), h.used())
            .addCounter(Interns.info("Learned", "Hints installed or advanced"), h.learned())
            .addCounter(Interns.info("Refused", "Installs refused for a write into the span"), h.refused())
            .addCounter(Interns.info("Retired", "Hints removed by a put into their span"), h.retired())
            .addCounter(Interns.info("Evicted", "Hints dropped for the size bound"), h.evicted());
        r.endRecord();
      }
    }
  }
}
