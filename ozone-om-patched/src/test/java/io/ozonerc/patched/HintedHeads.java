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

import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.service.RangeCompactor;
import io.ozonerc.compaction.service.RoundListener;
import io.ozonerc.compaction.service.RoundResult;
import io.ozonerc.compaction.service.RoundSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;

/**
 * Main for {@link OmJvm}: the compaction service's dead-head pass on a real {@link OmMetadataManagerImpl}, after
 * one listing of a queue bucket whose first 2,500 keys are deleted. Run on the patched OM, the listing leaves a
 * skip hint and the service sizes that head from it; run on stock 2.2.0 classes, the service seeks, as it always
 * has. Two cases, one line each ({@code case=... key=value ...}), which {@link HintedHeadsTest} checks:
 * <ul>
 *   <li>{@code shared}: the queue's deletes sit in one level-0 file with 20,000 keys of two other buckets, so
 *       compacting the head rewrites ~10x its dead entries;</li>
 *   <li>{@code own}: the other buckets sort before the queue and sit in the bottom level first, so the level-0 file
 *       over the head holds only the queue's keys: the head's files are its own.</li>
 * </ul>
 */
public final class HintedHeads {
  private static final String VOLUME = "vol";
  private static final String QUEUE = "q";
  private static final int QUEUE_KEYS = 3_000;
  private static final int DELETED = 2_500;
  private static final int COLD_PER_BUCKET = 10_000;
  /**
   * Below the default (2,000): the head's 2,500 tombstones share one file with live keys, and RocksDB's approximate
   * sizes over [start, hint) count them at that file's bytes per entry, ~500 (what a probe seek's sizing reads too).
   */
  private static final long DEAD_HEAD_MIN_KEYS = 200;
  private static final Pattern DB_SEEKS = Pattern.compile("^rocksdb\\.number\\.db\\.seek COUNT : (\\d+)$",
      Pattern.MULTILINE);

  private HintedHeads() { }

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    List<String> lines = new ArrayList<>();
    for (String scenario : List.of("shared", "own")) {
      OmMetadataManagerImpl om = SkipHintRaces.openStore(out, scenario, "1s");
      try {
        lines.add(run(om, scenario.equals("shared")));
      } finally {
        om.stop();
      }
    }
    Files.write(out, lines);
  }

  private static String run(OmMetadataManagerImpl om, boolean shared) throws Exception {
    Table<String, OmKeyInfo> keys = om.getKeyTable(BucketLayout.OBJECT_STORE);
    RDBStore store = (RDBStore) om.getStore();
    // shared: one bucket on each side of the queue, so their file spans it; own: both before it
    List<String> cold = shared ? List.of("a", "z") : List.of("a", "c");
    addBucket(om, VOLUME, 1, null);
    for (String b : List.of(cold.get(0), cold.get(1), QUEUE)) {
      addBucket(om, VOLUME, 10 + b.charAt(0), b);
    }
    if (!shared) {
      putCold(om, keys, cold);
      store.getDb().flush("keyTable");
      store.compactDB(); // the other buckets in the bottom level, away from the queue's file
    }
    try (BatchOperation batch = store.initBatchOperation()) {
      if (shared) {
        putColdWith(om, keys, batch, cold);
      }
      for (int i = 0; i < QUEUE_KEYS; i++) {
        String name = name(i);
        keys.putWithBatch(batch, om.getOzoneKey(VOLUME, QUEUE, name), StoreListCases.keyInfo(QUEUE, name, i));
      }
      store.commitBatchOperation(batch);
    }
    try (BatchOperation batch = store.initBatchOperation()) {
      for (int i = 0; i < DELETED; i++) {
        keys.deleteWithBatch(batch, om.getOzoneKey(VOLUME, QUEUE, name(i)));
      }
      store.commitBatchOperation(batch);
    }
    store.getDb().flush("keyTable");
    String listedBefore = listed(om);

    OmCompactionStore compactionStore = new OmCompactionStore(om);
    KeyRange queue = KeyRange.bucket("keyTable", "/" + VOLUME + "/" + QUEUE + "/");
    long seeks0 = dbSeeks(store);
    HeadFacts sized = compactionStore.probeHeads("keyTable", List.of(queue),
        compactionStore.liveFiles(Set.of("keyTable"))).get(0);
    long seeks = dbSeeks(store) - seeks0;

    RangeCompactor compactor = new RangeCompactor(compactionStore, System::nanoTime, new RoundListener() { });
    RoundResult round = compactor.run(RoundSettings.offline(Set.of("keyTable"),
        PlannerSettings.defaults().withDeadHeadMinKeys(DEAD_HEAD_MIN_KEYS)), () -> false);
    String verdict = "none";
    for (RangeAssessment a : round.headPlan().plan().planned()) {
      verdict = a.range().label().equals(queue.label()) ? "planned" : verdict;
    }
    for (RangeAssessment a : round.headPlan().plan().notPlanned()) {
      verdict = a.range().label().equals(queue.label()) ? a.verdict().toString() : verdict;
    }
    long compacted = round.compacted().stream().filter(c -> c.head() != null
        && c.before().range().label().equals(queue.label())).count();
    HeadFacts after = compactionStore.probeHeads("keyTable", List.of(queue),
        compactionStore.liveFiles(Set.of("keyTable"))).get(0);
    String listedAfter = listed(om);
    return "case=" + (shared ? "shared" : "own")
        + " from-hint=" + sized.skippedByReaders()
        + " seeks=" + seeks
        + " first=" + (sized.firstLive() == null ? "none" : new String(sized.firstLive()))
        + " dead=" + sized.deadEntries()
        + " verdict=" + verdict
        + " compacted=" + compacted
        + " dead-after=" + after.deadEntries()
        + " lists-equal=" + listedBefore.equals(listedAfter)
        + " listed=" + listedBefore.split(" ").length
        + " first-listed=" + listedBefore.substring(0, listedBefore.indexOf(' '));
  }

  private static void putCold(OmMetadataManagerImpl om, Table<String, OmKeyInfo> keys, List<String> buckets)
      throws IOException {
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      putColdWith(om, keys, batch, buckets);
      om.getStore().commitBatchOperation(batch);
    }
  }

  private static void putColdWith(OmMetadataManagerImpl om, Table<String, OmKeyInfo> keys, BatchOperation batch,
      List<String> buckets) throws IOException {
    for (String b : buckets) {
      for (int i = 0; i < COLD_PER_BUCKET; i++) {
        String name = name(i);
        keys.putWithBatch(batch, om.getOzoneKey(VOLUME, b, name), StoreListCases.keyInfo(b, name, i));
      }
    }
  }

  private static void addBucket(OmMetadataManagerImpl om, String volume, long id, String bucket) throws IOException {
    if (bucket == null) {
      om.getVolumeTable().put(om.getVolumeKey(volume), OmVolumeArgs.newBuilder().setVolume(volume)
          .setAdminName("admin").setOwnerName("owner").setObjectID(id).setUpdateID(1).setCreationTime(1).build());
      return;
    }
    OmBucketInfo info = OmBucketInfo.newBuilder().setVolumeName(volume).setBucketName(bucket).setObjectID(id)
        .setUpdateID(1).setCreationTime(1).setBucketLayout(BucketLayout.OBJECT_STORE).build();
    om.getBucketTable().put(om.getBucketKey(volume, bucket), info);
    om.getBucketTable().addCacheEntry(om.getBucketKey(volume, bucket), info, id);
  }

  private static String name(int i) {
    return String.format("k-%05d", i);
  }

  /** The queue bucket's listing through the OM's own listKeys (a patched OM learns its hint here). */
  private static String listed(OmMetadataManagerImpl om) throws IOException {
    return om.listKeys(VOLUME, QUEUE, null, null, 1000).getKeys().stream().map(OmKeyInfo::getKeyName)
        .collect(Collectors.joining(" ")) + " ";
  }

  /** RocksDB's {@code rocksdb.number.db.seek} ticker: seeks made in this store so far. */
  private static long dbSeeks(RDBStore store) throws IOException {
    Matcher m = DB_SEEKS.matcher(store.getDb().getProperty("rocksdb.options-statistics"));
    if (!m.find()) {
      throw new IllegalStateException("RocksDB statistics are off");
    }
    return Long.parseLong(m.group(1));
  }
}
