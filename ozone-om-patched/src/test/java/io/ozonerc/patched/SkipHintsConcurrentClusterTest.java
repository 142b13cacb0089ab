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

package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.SkipHints;
import org.apache.hadoop.hdds.utils.db.TypedTable;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;

/**
 * Concurrent queues against a running patched OM: writers create at the tails, delete from the heads and create
 * into the dead heads (new names between old ones), while listers list from the bucket start and from random start
 * keys, OBS (keyTable) and FSO (fileTable) alike. Every listing is checked against what the clients knew: a key
 * whose create was acknowledged before the listing started, and whose delete was not sent before it ended, must be
 * listed (if it sorts inside what the listing covered); a key whose delete was acknowledged before the listing
 * started must not be in an FSO bucket, nor in an OBS bucket once the delete was in RocksDB before the listing.
 * Hints must have been used and retired many times, or the run proves nothing.
 *
 * <p>Why the two layouts differ: stock Ozone may list an OBS key whose delete it has acknowledged. The client is
 * answered once the delete is a tombstone in the table cache; the double buffer commits it later and then evicts
 * the tombstone. {@code OmMetadataManagerImpl.listKeys} (OBS) scans the cache keeping live entries only, creates
 * its RocksDB iterator, and drops a DB key only if the cache holds a tombstone for it when the key is read. An
 * iterator created before the commit still sees the key; if the tombstone is evicted before the key is read, the
 * listing returns it. FSO listings ({@code ListIterator.MinHeapIterator}) copy the cache, tombstones included,
 * before they create each table's iterator, and drop DB keys the copy holds: a tombstone is either in the copy or
 * was evicted after a commit that the later iterator sees. The patched listings keep those steps in that order. A
 * thread here waits for double-buffer flushes in a loop ({@code OzoneManager.awaitDoubleBufferFlush}: every
 * transaction applied before the call is in RocksDB when it returns); an OBS delete acknowledged before such a wait
 * began was committed when it ended, and an iterator created after that never sees the key. What this leaves
 * unchecked here, an OBS listing while the delete is still only a cache tombstone, the stock-versus-patched
 * property tests check deterministically ({@code SkipHintListCases}: deletes applied to the cache, listed, flushed
 * later).
 */
class SkipHintsConcurrentClusterTest {
  private static final String VOLUME = "vol";
  private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(25);

  /** A key's life as the clients saw it: create acknowledged, delete sent, delete acknowledged (nanoTime). */
  static final class Life {
    volatile long created = Long.MAX_VALUE;
    volatile long deleteSent = Long.MAX_VALUE;
    volatile long deleted = Long.MAX_VALUE;
  }

  record Listing(String bucket, String start, long began, long ended, List<String> keys, boolean complete) { }

  /** One wait for the double buffer: every delete acknowledged before {@code began} was in RocksDB at {@code ended}. */
  record FlushWait(long began, long ended) { }

  @Test
  void noListingMissesAKeyTheClientsKnewWasLive() throws Exception {
    OzoneConfiguration conf = OmCluster.quietConf();
    // Every seek and every listing step learns its span (no timing decides what is learned), and clients page in
    // sevens: listings start from markers (live and deleted keys) and each page after the first starts after the
    // last key of the one before, so spans are learned and used from markers, from steps and across pages.
    conf.set("ozone.om.list.skip.hints.learn.threshold", "0");
    conf.setInt("ozone.client.list.cache", 7);
    try (OmCluster c = OmCluster.start(conf)) {
      c.client().getObjectStore().createVolume(VOLUME);
      OzoneVolume v = c.client().getObjectStore().getVolume(VOLUME);
      List<String> names = List.of("obs-a", "obs-b", "fso-c");
      for (String b : names) {
        v.createBucket(b, BucketArgs.newBuilder().setBucketLayout(b.startsWith("fso")
            ? BucketLayout.FILE_SYSTEM_OPTIMIZED : BucketLayout.OBJECT_STORE).build());
      }
      Map<String, Map<String, Life>> lives = new ConcurrentHashMap<>();
      names.forEach(b -> lives.put(b, new ConcurrentHashMap<>()));
      List<Listing> listings = Collections.synchronizedList(new ArrayList<>());
      List<FlushWait> flushWaits = Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<?>> tasks = new ArrayList<>();
      long end = System.nanoTime() + RUN_NANOS;
      tasks.add(pool.submit(() -> {
        while (System.nanoTime() < end) {
          long began = System.nanoTime();
          c.om().awaitDoubleBufferFlush();
          flushWaits.add(new FlushWait(began, System.nanoTime()));
        }
        return null;
      }));
      for (int w = 0; w < names.size(); w++) {
        String b = names.get(w);
        OzoneBucket bucket = v.getBucket(b);
        long seed = 100 + w;
        tasks.add(pool.submit(() -> {
          queueWriter(bucket, lives.get(b), new Random(seed), end);
          return null;
        }));
      }
      for (int l = 0; l < 2; l++) {
        long seed = 200 + l;
        tasks.add(pool.submit(() -> {
          lister(v, names, lives, listings, new Random(seed), end);
          return null;
        }));
      }
      for (Future<?> t : tasks) {
        t.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();

      List<String> violations = new ArrayList<>();
      long obsDeadChecked = 0;
      long fsoDeadChecked = 0;
      for (Listing ls : listings) {
        if (ls.bucket().startsWith("fso")) {
          fsoDeadChecked += check(ls, ls.began(), lives.get(ls.bucket()), violations);
        } else {
          obsDeadChecked += check(ls, committedBefore(flushWaits, ls.began()), lives.get(ls.bucket()), violations);
        }
      }
      assertEquals(List.of(), violations.subList(0, Math.min(20, violations.size())),
          violations.size() + " violations in " + listings.size() + " listings");
      assertTrue(listings.size() > 200, "only " + listings.size() + " listings");
      assertTrue(flushWaits.size() > 100, "only " + flushWaits.size() + " double-buffer flushes waited for");
      assertTrue(obsDeadChecked > 1000 && fsoDeadChecked > 1000, "deletes inside a listing's span checked: OBS "
          + obsDeadChecked + ", FSO " + fsoDeadChecked);

      SkipHints keys = hints(c, BucketLayout.OBJECT_STORE);
      SkipHints files = hints(c, BucketLayout.FILE_SYSTEM_OPTIMIZED);
      System.out.printf("concurrent skip hints: %d listings, deletes inside them checked OBS %d FSO %d, %d flush "
          + "waits; keyTable used %d learned %d retired %d refused %d; fileTable used %d learned %d retired %d "
          + "refused %d%n", listings.size(), obsDeadChecked, fsoDeadChecked, flushWaits.size(), keys.used(),
          keys.learned(),
          keys.retired(), keys.refused(), files.used(), files.learned(), files.retired(), files.refused());
      assertTrue(keys.used() > 50 && files.used() > 10, "hints used: keyTable " + keys.used() + ", fileTable "
          + files.used());
      assertTrue(keys.retired() + files.retired() > 10, "no create into a dead head retired a hint");
    }
  }

  private static SkipHints hints(OmCluster c, BucketLayout layout) {
    return ((TypedTable<?, ?>) c.om().getMetadataManager().getKeyTable(layout)).getSkipHints();
  }

  /** Creates at the tail, deletes from the head, sometimes creates into the dead head. */
  private static void queueWriter(OzoneBucket bucket, Map<String, Life> lives, Random random, long end)
      throws Exception {
    List<String> live = new ArrayList<>(); // in name order
    int next = 0;
    int head = 0; // number of the oldest key still possibly live
    while (System.nanoTime() < end) {
      int r = random.nextInt(10);
      if (r < 4 || live.size() < 20) {
        String name = String.format("k-%05d", next++);
        create(bucket, lives, name);
        live.add(name);
      } else if (r < 8) {
        String name = live.remove(0);
        Life life = lives.get(name);
        life.deleteSent = System.nanoTime();
        bucket.deleteKey(name);
        life.deleted = System.nanoTime();
        head = Integer.parseInt(name.substring(2, 7));
      } else {
        // A new name inside the dead head: between two deleted keys.
        String name = String.format("k-%05d-r%d", random.nextInt(Math.max(1, head)), random.nextInt(1_000_000));
        if (!lives.containsKey(name)) {
          create(bucket, lives, name);
          live.add(0, name);
          Collections.sort(live);
        }
      }
    }
  }

  private static void create(OzoneBucket bucket, Map<String, Life> lives, String name) throws Exception {
    Life life = new Life();
    lives.put(name, life);
    bucket.createKey(name, 0).close();
    life.created = System.nanoTime();
  }

  private static void lister(OzoneVolume v, List<String> names, Map<String, Map<String, Life>> lives,
      List<Listing> out, Random random, long end) throws Exception {
    while (System.nanoTime() < end) {
      String b = names.get(random.nextInt(names.size()));
      String start = null;
      if (random.nextInt(3) == 0) {
        List<String> known = new ArrayList<>(lives.get(b).keySet());
        if (!known.isEmpty()) {
          start = known.get(random.nextInt(known.size()));
        }
      }
      int limit = 1 + random.nextInt(40);
      long began = System.nanoTime();
      Iterator<? extends OzoneKey> it = v.getBucket(b).listKeys("", start);
      List<String> keys = new ArrayList<>();
      while (it.hasNext() && keys.size() < limit) {
        keys.add(it.next().getName());
      }
      boolean complete = !it.hasNext();
      out.add(new Listing(b, start, began, System.nanoTime(), keys, complete));
    }
  }

  /**
   * The latest time before {@code listingBegan} by which every delete acknowledged had been committed to RocksDB: the
   * start of the last flush wait that ended before the listing began (waits are recorded in order, one at a time).
   */
  static long committedBefore(List<FlushWait> waits, long listingBegan) {
    long horizon = Long.MIN_VALUE;
    for (FlushWait w : waits) {
      if (w.ended() < listingBegan) {
        horizon = Math.max(horizon, w.began());
      }
    }
    return horizon;
  }

  /**
   * A listing covers the names after its start key up to its last name (to the end when it read everything):
   * every key surely live throughout must be in it, no key whose delete was acknowledged before {@code deadBefore}
   * may be.
   *
   * @return how many keys of the second kind the listing covered
   */
  private static int check(Listing ls, long deadBefore, Map<String, Life> lives, List<String> violations) {
    int deadChecked = 0;
    String last = ls.keys().isEmpty() ? null : ls.keys().get(ls.keys().size() - 1);
    for (Map.Entry<String, Life> e : lives.entrySet()) {
      String name = e.getKey();
      Life life = e.getValue();
      boolean afterStart = ls.start() == null || name.compareTo(ls.start()) > 0;
      boolean beforeEnd = ls.complete() || (last != null && name.compareTo(last) <= 0);
      if (!afterStart || !beforeEnd) {
        continue;
      }
      boolean surelyLive = life.created < ls.began() && life.deleteSent > ls.ended();
      boolean surelyDead = life.deleted < deadBefore;
      deadChecked += surelyDead ? 1 : 0;
      boolean listed = ls.keys().contains(name);
      if (surelyLive && !listed) {
        violations.add("missing " + ls.bucket() + "/" + name + " in listing from " + ls.start() + ": "
            + ls.keys());
      } else if (surelyDead && listed) {
        violations.add("deleted " + ls.bucket() + "/" + name + " listed from " + ls.start());
      }
    }
    return deadChecked;
  }
}
