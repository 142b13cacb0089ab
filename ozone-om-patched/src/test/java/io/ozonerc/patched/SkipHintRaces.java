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

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.SkipHints;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.Table.KeyValue;
import org.apache.hadoop.hdds.utils.db.TableIterator;
import org.apache.hadoop.hdds.utils.db.cache.CacheKey;
import org.apache.hadoop.hdds.utils.db.cache.CacheValue;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.apache.hadoop.ozone.OzoneConfigKeys;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;
import org.apache.hadoop.ozone.om.helpers.RepeatedOmKeyInfo;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDBException;

/**
 * Main for {@link OmJvm}: the interleavings of a listing and a write that a skip hint must survive, each run step
 * by step on a real {@link OmMetadataManagerImpl} whose key tables have hints, with the OM's own write steps (cache
 * entry at apply, batch put, commit, batch close, cache clean-up of the epoch, eviction). Each scenario writes one
 * line: {@code ok NAME ...} or {@code FAIL NAME ...}. {@link SkipHintRacesTest} runs it on the patch as built and
 * on copies with one safety step removed.
 *
 * <p>Every scenario starts from bucket {@code vol/q} holding {@code k-000..k-099} with {@code k-000..k-049}
 * deleted (the dead head of a queue). The race scenarios end by checking that the key they created into the dead
 * head is returned by a listing and by a plain iterator read made after the write; the table-start scenarios do
 * the same for a whole-table iterator of {@code deletedTable} and {@code openKeyTable}; the failed-seek scenario
 * checks that a seek RocksDB could not complete teaches no hint.
 */
public final class SkipHintRaces {
  static final String VOLUME = "vol";
  private static final String BUCKET = "q";
  private static final String PREFIX = "/" + VOLUME + "/" + BUCKET + "/";
  private static final String INTO_DEAD_HEAD = "k-010";

  private final OmMetadataManagerImpl om;
  private final Table<String, OmKeyInfo> keys;
  private long epoch = 1;

  private SkipHintRaces(OmMetadataManagerImpl om) {
    this.om = om;
    this.keys = om.getKeyTable(BucketLayout.OBJECT_STORE);
  }

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    List<String> lines = new ArrayList<>();
    // Further arguments name the scenarios to run (a copy without one step needs only the scenario it fails).
    List<String> chosen = args.length > 1 ? List.of(args).subList(1, args.length) : SCENARIOS;
    for (String scenario : chosen) {
      // The prefix-start scenarios learn from seeks at a prefix start only (no step is slow enough for 1 s); the
      // span scenarios learn from every seek and step (threshold 0), so what they learn does not depend on timing.
      OmMetadataManagerImpl om = openStore(out, scenario, SPAN_SCENARIOS.contains(scenario) ? "0" : "1s");
      try {
        SkipHintRaces r = new SkipHintRaces(om);
        r.queueWithDeadHead();
        lines.add((String) SkipHintRaces.class.getDeclaredMethod(scenario).invoke(r));
      } finally {
        om.stop();
      }
    }
    Files.write(out, lines);
  }

  /** Scenarios about spans learned anywhere (markers, listing steps, merges): run with the learn threshold 0. */
  static final List<String> SPAN_SCENARIOS = List.of("markerInsideDeadSpan", "stepIntoDeadSpan",
      "stepSpanFromNewerView", "mergedSpanFromNewerView", "stepViewThenCommit");
  static final List<String> SCENARIOS = java.util.stream.Stream.concat(Stream.of("learnsAndSkips",
      "viewThenCommit", "appliedNotCommitted", "retireOnCreate", "hintFromNewerView", "tableStartDeletedTable",
      "tableStartOpenKeyTable", "failedSeekLearnsNothing"), SPAN_SCENARIOS.stream()).collect(Collectors.toList());

  /**
   * A new store in a temp directory next to {@code out}, with RocksDB statistics on (the counts the scenarios read).
   * Its {@code start()} gives the key tables their hints, as it does in the OM; slow seeks and steps learn after
   * {@code learnThreshold}.
   */
  static OmMetadataManagerImpl openStore(Path out, String name, String learnThreshold) throws Exception {
    Path dir = Files.createTempDirectory(out.toAbsolutePath().getParent(), "om-" + name);
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    conf.set(OzoneConfigKeys.OZONE_METADATA_STORE_ROCKSDB_STATISTICS, "ALL");
    conf.set("ozone.om.list.skip.hints.learn.threshold", learnThreshold);
    return new OmMetadataManagerImpl(conf, null);
  }

  /** A list after the first one jumps over the dead head: RocksDB skips almost nothing. */
  String learnsAndSkips() throws Exception {
    long s0 = IterSkips.read(om);
    String first = listed();
    long s1 = IterSkips.read(om);
    String second = listed();
    long s2 = IterSkips.read(om);
    long used = keyHints().size();
    boolean ok = first.equals(second) && first.startsWith("k-050 ") && s1 - s0 >= 50 && s2 - s1 < 5 && used == 1;
    return (ok ? "ok" : "FAIL") + " learnsAndSkips first-skips=" + (s1 - s0) + " second-skips=" + (s2 - s1)
        + " hints=" + used + " first=" + head(first) + " second=" + head(second);
  }

  /**
   * The known race: a listing takes its view, a create into the dead head commits after it, then the listing
   * seeks and would install a hint past the new key.
   */
  String viewThenCommit() throws Exception {
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> learner = keys.boundedIterator(PREFIX)) {
      create(INTO_DEAD_HEAD);                 // apply, commit, close, clean-up, eviction: all after the view
      learner.seek(PREFIX);                   // finds k-050 in its old view; must not install it
    }
    return verdict("viewThenCommit");
  }

  /** A create applied to the cache and put in a batch, but not committed, while a listing learns. */
  String appliedNotCommitted() throws Exception {
    long e = epoch++;
    String dbKey = om.getOzoneKey(VOLUME, BUCKET, INTO_DEAD_HEAD);
    OmKeyInfo info = StoreListCases.keyInfo(BUCKET, INTO_DEAD_HEAD, e);
    keys.addCacheEntry(new CacheKey<>(dbKey), CacheValue.get(e, info));
    String readerSaw;
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      keys.putWithBatch(batch, dbKey, info);
      listed();                               // learns from a view without the key
      om.getStore().commitBatchOperation(batch);
      // Committed, not yet closed: a reader of RocksDB alone (the OM's background scans) must see the key.
      readerSaw = firstByIterator();
    }
    keys.cleanupCache(List.of(e));
    awaitEvicted(dbKey);
    String v = verdict("appliedNotCommitted");
    boolean ok = v.startsWith("ok") && readerSaw.equals(INTO_DEAD_HEAD);
    return (ok ? "ok" : "FAIL") + v.substring(v.indexOf(' ')) + " reader-between-commit-and-close=" + readerSaw;
  }

  /** A hint is learned, then a create lands in its span. */
  String retireOnCreate() throws Exception {
    listed();
    boolean learned = keyHints().size() == 1;
    create(INTO_DEAD_HEAD);
    String v = verdict("retireOnCreate");
    return (learned && v.startsWith("ok") ? "ok" : "FAIL") + v.substring(v.indexOf(' ')) + " learned=" + learned;
  }

  /**
   * A reader's view holds a key; the key is deleted and a newer listing learns a hint past it; the older reader
   * then seeks: it must return the key its view holds, as a reader without hints does.
   */
  String hintFromNewerView() throws Exception {
    create(INTO_DEAD_HEAD);
    String sawFirst;
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> old = keys.boundedIterator(PREFIX)) {
      delete(INTO_DEAD_HEAD);
      listed();                               // learns k-050 from a view without k-010
      KeyValue<String, OmKeyInfo> kv = old.seek(PREFIX);
      sawFirst = kv == null ? "none" : name(kv.getKey());
    }
    boolean ok = sawFirst.equals(INTO_DEAD_HEAD) && keyHints().size() == 1;
    return (ok ? "ok" : "FAIL") + " hintFromNewerView old-reader-first=" + sawFirst + " hints=" + keyHints().size();
  }

  /**
   * A listing from a marker inside the dead head (a paging client's start-after, a lifecycle scan resuming) learns
   * [marker, first live key); a later listing from a marker inside that span jumps over it; a create into the span
   * retires it and is listed.
   */
  String markerInsideDeadSpan() throws Exception {
    String first = listedFrom("k-020");
    long s0 = IterSkips.read(om);
    long used0 = keyHints().used();
    String second = listedFrom("k-030");
    long skips = IterSkips.read(om) - s0;
    long used = keyHints().used() - used0;
    create("k-040");
    String third = listedFrom("k-030");
    boolean ok = first.startsWith("k-050 ") && second.startsWith("k-050 ") && skips < 5 && used >= 1
        && third.startsWith("k-040 k-050 ");
    return (ok ? "ok" : "FAIL") + " markerInsideDeadSpan first=" + head(first) + " second-skips=" + skips
        + " used=" + used + " after-create=" + head(third);
  }

  /**
   * A listing reads a live key before a dead run and steps over the run: it learns (k-005, k-050). The next listing
   * from the start and a page that starts after k-005 both seek over the run instead of stepping; a create into it
   * retires the span and is listed.
   */
  String stepIntoDeadSpan() throws Exception {
    create("k-005");
    String first = listed();
    long s0 = IterSkips.read(om);
    String second = listed();
    long skipsFromStart = IterSkips.read(om) - s0;
    long s1 = IterSkips.read(om);
    String page = listedFrom("k-005");
    long skipsPaging = IterSkips.read(om) - s1;
    create("k-030");
    String third = listed();
    String pageAfter = listedFrom("k-005");
    boolean ok = first.startsWith("k-005 k-050 ") && second.equals(first) && skipsFromStart < 5
        && page.startsWith("k-050 ") && skipsPaging < 5 && third.startsWith("k-005 k-030 k-050 ")
        && pageAfter.startsWith("k-030 k-050 ");
    return (ok ? "ok" : "FAIL") + " stepIntoDeadSpan first=" + head(first) + " second-skips=" + skipsFromStart
        + " page-after-k-005=" + head(page) + " page-skips=" + skipsPaging + " after-create=" + head(third)
        + " page-after-create=" + head(pageAfter);
  }

  /**
   * A reader's view holds k-030 between k-005 and the dead run; k-030 is deleted and a newer listing learns the
   * step span (k-005, k-050) past it; the older reader then steps from k-005: it must return k-030, as a reader
   * without spans does (the span's stamp is newer than the reader's view).
   */
  String stepSpanFromNewerView() throws Exception {
    create("k-005");
    create("k-030");
    String stepped;
    int spans;
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> old = keys.boundedIterator(PREFIX)) {
      old.seek(PREFIX);                       // at k-005
      delete("k-030");
      listed();                               // learns (k-005, k-050) from a view without k-030
      spans = keyHints().size();
      old.next();                             // returns k-005, then steps from it
      stepped = old.hasNext() ? name(old.next().getKey()) : "none";
    }
    boolean ok = stepped.equals("k-030") && spans >= 1;
    return (ok ? "ok" : "FAIL") + " stepSpanFromNewerView old-reader-after-k-005=" + stepped + " spans=" + spans;
  }

  /**
   * Two pieces from two views merge: [k-020, k-050) from a view where k-050 is live, then, after k-050..k-059 are
   * deleted, [k-050, k-060) from a newer one. A reader whose view lies between them holds k-050, and must not
   * jump over it through the merged span (its stamp is the newer piece's).
   */
  String mergedSpanFromNewerView() throws Exception {
    listedFrom("k-020");                      // [k-020, k-050)
    String sawFirst;
    long merged0 = keyHints().merged();
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> old = keys.boundedIterator(PREFIX)) {
      for (int i = 50; i < 60; i++) {
        delete(String.format("k-%03d", i));
      }
      listedFrom("k-050");                    // [k-050, k-060), merged into [k-020, k-060)
      KeyValue<String, OmKeyInfo> kv = old.seek(om.getOzoneKey(VOLUME, BUCKET, "k-030"));
      sawFirst = kv == null ? "none" : name(kv.getKey());
    }
    long merged = keyHints().merged() - merged0;
    String fresh = listedFrom("k-030");
    boolean ok = sawFirst.equals("k-050") && merged >= 1 && fresh.startsWith("k-060 ");
    return (ok ? "ok" : "FAIL") + " mergedSpanFromNewerView old-reader-at-k-030=" + sawFirst + " merged=" + merged
        + " new-listing=" + head(fresh);
  }

  /**
   * The known race, inside a listing: an iterator sits at k-005, a create into the dead run after it commits after
   * the iterator's view, then the iterator steps over the run (in its view) and would learn (k-005, k-050) past the
   * new key. The ring refuses it.
   */
  String stepViewThenCommit() throws Exception {
    create("k-005");
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> learner = keys.boundedIterator(PREFIX)) {
      learner.seek(PREFIX);                   // at k-005
      create("k-030");                        // after the view
      learner.next();                         // steps from k-005 to k-050 in its view
    }
    String list = listedFrom("k-005");
    boolean ok = list.startsWith("k-030 k-050 ");
    return (ok ? "ok" : "FAIL") + " stepViewThenCommit page-after-k-005=" + head(list);
  }

  /**
   * The deleted-key scan's head seeks ({@code deletedTable.iterator("")} and its {@code seekToFirst()}, as
   * KeyManagerImpl's pending-deletion scan opens it): the first full iteration steps over the dead start of the table
   * and learns where the live entries begin, the second steps over nothing, and an entry put into the dead start (as a
   * key delete's response puts it, in a batch) is the first entry of the next iteration.
   */
  String tableStartDeletedTable() throws Exception {
    Table<String, RepeatedOmKeyInfo> table = om.getDeletedTable();
    return tableStart("tableStartDeletedTable", table, () -> {
      // KeyManagerImpl.getTableEntries seeks to the first entry again after making the iterator.
      TableIterator<String, ? extends KeyValue<String, RepeatedOmKeyInfo>> i = table.iterator("");
      i.seekToFirst();
      return i;
    },
        (dbKey, id) -> new RepeatedOmKeyInfo(StoreListCases.keyInfo(BUCKET, name(dbKey), id), 10), false);
  }

  /**
   * The same on openKeyTable ({@code iterator()}, as the open-key scans open it), the new entry written the way a
   * key open is: cache entry at apply, batch put, commit, close, clean-up of its epoch.
   */
  String tableStartOpenKeyTable() throws Exception {
    Table<String, OmKeyInfo> table = om.getOpenKeyTable(BucketLayout.OBJECT_STORE);
    return tableStart("tableStartOpenKeyTable", table, table::iterator,
        (dbKey, id) -> StoreListCases.keyInfo(BUCKET, name(dbKey), id), true);
  }

  private <V> String tableStart(String scenario, Table<String, V> table, IteratorOpener<V> opener,
      BiFunction<String, Long, V> value, boolean cached) throws Exception {
    // The entries go into one SST file and their deletes into another, so each dead entry is a tombstone over a
    // put: two internal keys a seek from the table start steps over.
    final int dead = 400;
    final int live = 20;
    List<String> all = new ArrayList<>();
    for (int i = 0; i < dead + live; i++) {
      all.add(PREFIX + String.format("t-%04d", i) + "/" + (5000 + i));
    }
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = 0; i < all.size(); i++) {
        table.putWithBatch(batch, all.get(i), value.apply(all.get(i), (long) i));
      }
      om.getStore().commitBatchOperation(batch);
    }
    om.getStore().flushDB();
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = 0; i < dead; i++) {
        table.deleteWithBatch(batch, all.get(i));
      }
      om.getStore().commitBatchOperation(batch);
    }
    om.getStore().flushDB();
    List<String> liveKeys = all.subList(dead, all.size());
    SkipHints hints = ((org.apache.hadoop.hdds.utils.db.TypedTable<?, ?>) table).getSkipHints();

    long s0 = IterSkips.read(om);
    List<String> first = iterateAll(opener);
    long s1 = IterSkips.read(om);
    int hintsAfterFirst = hints.size();
    long usedBefore = hints.used();
    List<String> second = iterateAll(opener);
    long s2 = IterSkips.read(om);
    long usedBySecond = hints.used() - usedBefore;

    // Into the dead start of the table: before the hint, after nothing live.
    String created = PREFIX + "t-0005/9999";
    long retiredBefore = hints.retired();
    long e = epoch++;
    V v = value.apply(created, e);
    if (cached) {
      table.addCacheEntry(new CacheKey<>(created), CacheValue.get(e, v));
    }
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      table.putWithBatch(batch, created, v);
      om.getStore().commitBatchOperation(batch);
    }
    if (cached) {
      table.cleanupCache(List.of(e));
      awaitEvicted(table, created);
    }
    long retiredByPut = hints.retired() - retiredBefore;
    List<String> third = iterateAll(opener);
    List<String> expectedThird = new ArrayList<>();
    expectedThird.add(created);
    expectedThird.addAll(liveKeys);

    boolean ok = first.equals(liveKeys) && second.equals(liveKeys) && third.equals(expectedThird)
        && s1 - s0 >= dead && s2 - s1 < 5 && hintsAfterFirst == 1 && usedBySecond >= 1;
    return (ok ? "ok" : "FAIL") + " " + scenario + " first-skips=" + (s1 - s0) + " second-skips=" + (s2 - s1)
        + " hints-after-first=" + hintsAfterFirst + " used-by-second=" + usedBySecond
        + " retired-by-put=" + retiredByPut + " entries=" + first.size() + "/" + second.size() + "/" + third.size()
        + " third-first=" + (third.isEmpty() ? "none" : name(third.get(0)));
  }

  /** Opens a whole-table iterator the way one of the OM's scans does. */
  @FunctionalInterface
  private interface IteratorOpener<V> {
    TableIterator<String, ? extends KeyValue<String, V>> open() throws Exception;
  }

  private static <V> List<String> iterateAll(IteratorOpener<V> opener) throws Exception {
    List<String> keys = new ArrayList<>();
    try (TableIterator<String, ? extends KeyValue<String, V>> i = opener.open()) {
      while (i.hasNext()) {
        keys.add(i.next().getKey());
      }
    }
    return keys;
  }

  /**
   * A listing whose seek fails must not learn that the span is empty. The bucket's keys are flushed into one SST
   * file of keyTable, whose first data block is then damaged on disk: RocksDB's checksum check makes the listing's
   * seek end not valid with status Corruption (what a bad disk block gives a running OM). The block is repaired
   * and the next listing must return every live key.
   */
  String failedSeekLearnsNothing() throws Exception {
    om.getStore().flushDB();
    RocksDatabase db = ((RDBStore) om.getStore()).getDb();
    List<LiveFileMetaData> files = new ArrayList<>();
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals("keyTable")) {
        files.add(f);
      }
    }
    if (files.size() != 1) {
      return "FAIL failedSeekLearnsNothing expected one keyTable SST file, found " + files.size();
    }
    Path sst = Path.of(files.get(0).path(), files.get(0).fileName());
    long learnedBefore = keyHints().learned();
    String status;
    String during;
    int hintsAfterFailure;
    // Damage the first 64 bytes: the start of the first data block, which holds the bucket's first entries.
    ByteBuffer original = ByteBuffer.allocate(64);
    try (FileChannel ch = FileChannel.open(sst, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.read(original, 0);
      original.flip();
      ByteBuffer damaged = ByteBuffer.allocate(64);
      for (int i = 0; i < 64; i++) {
        damaged.put((byte) (original.get(i) ^ 0xFF));
      }
      damaged.flip();
      ch.write(damaged, 0);
      try {
        status = seekStatus(db);
        try {
          during = "[" + listed().trim() + "]";
        } catch (Exception e) {
          during = e.getClass().getSimpleName();
        }
        hintsAfterFailure = keyHints().size();
      } finally {
        ch.write(original, 0);
      }
    }
    long learnedByFailure = keyHints().learned() - learnedBefore;
    String statusAfterRepair = seekStatus(db);
    String after = listed();
    int hintsAfterRepair = keyHints().size();
    boolean ok = status.equals("Corruption") && hintsAfterFailure == 0 && learnedByFailure == 0
        && statusAfterRepair.equals("valid") && after.startsWith("k-050 ") && count(after) == 50
        && hintsAfterRepair == 1;
    return (ok ? "ok" : "FAIL") + " failedSeekLearnsNothing seek-status=" + status + " listing-during=" + during
        + " hints-after-failure=" + hintsAfterFailure + " learned-by-failure=" + learnedByFailure
        + " after-repair=" + statusAfterRepair + " list=" + head(after) + " listed=" + count(after)
        + " hints-after-repair=" + hintsAfterRepair;
  }

  /** A plain RocksDB iterator of keyTable seeking to the bucket: "valid", or the status code of its failure. */
  private static String seekStatus(RocksDatabase db) throws Exception {
    try (ManagedRocksIterator i = db.newIterator(db.getColumnFamily("keyTable"), false)) {
      i.get().seek(PREFIX.getBytes(StandardCharsets.UTF_8));
      if (i.get().isValid()) {
        return "valid";
      }
      try {
        i.get().status();
        return "ended";
      } catch (RocksDBException e) {
        return e.getStatus() == null ? e.toString() : e.getStatus().getCode().name();
      }
    }
  }

  private String verdict(String name) throws Exception {
    String list = listed();
    String first = firstByIterator();
    boolean ok = list.startsWith(INTO_DEAD_HEAD + " ") && first.equals(INTO_DEAD_HEAD);
    return (ok ? "ok" : "FAIL") + " " + name + " list=" + head(list) + " iterator-first=" + first;
  }

  private void queueWithDeadHead() throws Exception {
    om.getVolumeTable().put(om.getVolumeKey(VOLUME), OmVolumeArgs.newBuilder().setVolume(VOLUME)
        .setAdminName("admin").setOwnerName("owner").setObjectID(1).setUpdateID(1).setCreationTime(1).build());
    OmBucketInfo bucket = OmBucketInfo.newBuilder().setVolumeName(VOLUME).setBucketName(BUCKET).setObjectID(10)
        .setUpdateID(1).setCreationTime(1).setBucketLayout(BucketLayout.OBJECT_STORE).build();
    om.getBucketTable().put(om.getBucketKey(VOLUME, BUCKET), bucket);
    om.getBucketTable().addCacheEntry(om.getBucketKey(VOLUME, BUCKET), bucket, epoch++);
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = 0; i < 100; i++) {
        String name = String.format("k-%03d", i);
        keys.putWithBatch(batch, om.getOzoneKey(VOLUME, BUCKET, name), StoreListCases.keyInfo(BUCKET, name, i));
      }
      om.getStore().commitBatchOperation(batch);
    }
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int i = 0; i < 50; i++) {
        keys.deleteWithBatch(batch, om.getOzoneKey(VOLUME, BUCKET, String.format("k-%03d", i)));
      }
      om.getStore().commitBatchOperation(batch);
    }
  }

  /** The OM's steps for a key create: cache entry, batch put, commit, close, clean-up, eviction. */
  private void create(String name) throws Exception {
    long e = epoch++;
    String dbKey = om.getOzoneKey(VOLUME, BUCKET, name);
    OmKeyInfo info = StoreListCases.keyInfo(BUCKET, name, e);
    keys.addCacheEntry(new CacheKey<>(dbKey), CacheValue.get(e, info));
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      keys.putWithBatch(batch, dbKey, info);
      om.getStore().commitBatchOperation(batch);
    }
    keys.cleanupCache(List.of(e));
    awaitEvicted(dbKey);
  }

  private void delete(String name) throws Exception {
    long e = epoch++;
    String dbKey = om.getOzoneKey(VOLUME, BUCKET, name);
    keys.addCacheEntry(new CacheKey<>(dbKey), CacheValue.get(e));
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      keys.deleteWithBatch(batch, dbKey);
      om.getStore().commitBatchOperation(batch);
    }
    keys.cleanupCache(List.of(e));
    awaitEvicted(dbKey);
  }

  /** Eviction runs on the cache's own thread; afterwards a key is found only in RocksDB. */
  private void awaitEvicted(String dbKey) throws InterruptedException {
    awaitEvicted(keys, dbKey);
  }

  private static void awaitEvicted(Table<String, ?> table, String dbKey) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (table.getCacheValue(new CacheKey<>(dbKey)) != null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the cache did not evict " + dbKey + " in 30 s");
      }
      Thread.sleep(5);
    }
  }

  private String listed() throws Exception {
    return listedFrom(null);
  }

  /** The OM's listKeys of the bucket after {@code startKey} (null: from the start). */
  private String listedFrom(String startKey) throws Exception {
    return om.listKeys(VOLUME, BUCKET, startKey, null, 1000).getKeys().stream().map(OmKeyInfo::getKeyName)
        .collect(Collectors.joining(" ")) + " ";
  }

  /** The first key a fresh bounded iterator over the bucket reads from RocksDB (no cache involved). */
  private String firstByIterator() throws Exception {
    try (TableIterator<String, ? extends KeyValue<String, OmKeyInfo>> i = keys.boundedIterator(PREFIX)) {
      return i.hasNext() ? name(i.next().getKey()) : "none";
    }
  }

  private SkipHints keyHints() {
    return ((org.apache.hadoop.hdds.utils.db.TypedTable<?, ?>) keys).getSkipHints();
  }

  private static String name(String dbKey) {
    return dbKey.substring(PREFIX.length());
  }

  private static int count(String list) {
    return list.isBlank() ? 0 : list.trim().split(" ").length;
  }

  private static String head(String list) {
    return list.length() > 24 ? list.substring(0, 24) + "..." : list.trim();
  }
}
