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

package io.ozonerc.compaction.minicluster;

import static io.ozonerc.compaction.minicluster.ClusterProbe.deletionsIn;
import static io.ozonerc.compaction.minicluster.ClusterProbe.flush;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmAttachment;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.service.RangeCompactionService;
import io.ozonerc.compaction.service.RoundResult.Compacted;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.conf.ReconfigurationHandler;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.ObjectStore;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.om.helpers.OzoneFileStatus;
import org.apache.ozone.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The service in a real Ozone Manager (MiniOzoneCluster: SCM + OM in-process, no datanodes; zero-size keys need
 * none), enabled through configuration, fed by real client requests. Waits are bounded polls on what the OM
 * reports, never fixed sleeps.
 */
class MiniClusterRangeCompactionTest {
  static MiniOzoneCluster cluster;
  static OzoneManager om;
  static OzoneClient client;
  static RangeCompactionService service;

  @BeforeAll
  static void startCluster() throws Exception {
    OzoneConfiguration conf = ClusterProbe.serviceConf(100);
    conf.set("ozone.directory.deleting.service.interval", "1s");
    cluster = MiniOzoneCluster.newBuilder(conf).withoutDatanodes().build();
    cluster.waitForClusterToBeReady();
    om = cluster.getOzoneManager();
    service = OmAttachment.start(om, om.getConfiguration()).orElseThrow();
    client = cluster.newClient();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.close();
    }
    if (service != null) {
      service.shutdown();
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  static OzoneBucket bucket(String volume, String name, BucketLayout layout) throws Exception {
    ObjectStore store = client.getObjectStore();
    store.createVolume(volume);
    OzoneVolume v = store.getVolume(volume);
    v.createBucket(name, BucketArgs.newBuilder().setBucketLayout(layout).build());
    return v.getBucket(name);
  }

  static void createEmptyKey(OzoneBucket b, String key) throws Exception {
    b.createKey(key, 0).close();
  }

  static Set<String> listKeys(OzoneBucket b, String prefix) throws Exception {
    Set<String> out = new TreeSet<>();
    Iterator<? extends OzoneKey> it = b.listKeys(prefix);
    while (it.hasNext()) {
      out.add(it.next().getName());
    }
    return out;
  }

  @Test
  void objectStoreBucketTombstonesAreCompactedAway() throws Exception {
    OzoneBucket b = bucket("vol1", "obs", BucketLayout.OBJECT_STORE);
    int keys = 600;
    int deleted = 570;
    for (int i = 0; i < keys; i++) {
      createEmptyKey(b, String.format("key-%05d", i));
    }
    flush(om);
    for (int i = 0; i < deleted; i++) {
      b.deleteKey(String.format("key-%05d", i));
    }
    long compactedBefore = service.getMetrics().getRangesCompacted();
    flush(om);
    KeyRange range = KeyRange.bucket("keyTable", "/vol1/obs/");

    GenericTestUtils.waitFor(() -> {
      try {
        return deletionsIn(om, range) == 0 && service.getMetrics().getRangesCompacted() > compactedBefore;
      } catch (Exception e) {
        return false;
      }
    }, 200, 60_000);

    Set<String> expected = new TreeSet<>();
    for (int i = deleted; i < keys; i++) {
      expected.add(String.format("key-%05d", i));
    }
    assertEquals(expected, listKeys(b, ""), "listKeys returns exactly the live keys");
    // The OM's own /jmx endpoint. (Its /prom is empty of Hadoop metrics in a MiniOzoneCluster: SCM and OM share
    // one metrics system, SCM registers the "prometheus" sink first and the OM's registration is dropped. /prom
    // names are checked against Ozone's sink in RangeCompactionMetricsTest and on real processes elsewhere.)
    String[] jmx = {""};
    try {
      GenericTestUtils.waitFor(() -> {
        try {
          jmx[0] = ClusterProbe.jmx(om, "Hadoop:service=*,name=RangeCompaction*");
          return ClusterProbe.jmxValue(jmx[0], "RangesCompacted") > 0;
        } catch (Exception e) {
          return false;
        }
      }, 500, 60_000);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no compacted range on the OM's /jmx: " + jmx[0], e);
    }
    assertTrue(ClusterProbe.jmxValue(jmx[0], "TombstonesRemoved") >= deleted - 10, jmx[0]);
  }

  /**
   * The service's own compactions of exactly this range removed at least {@code min} tombstones in all (the OM may
   * purge a directory tree in more than one batch, and the service may compact each as it qualifies).
   */
  static boolean compactedWithTombstones(KeyRange range, long min) {
    return service.recentCompactions().stream()
        .filter(c -> c.before().range().toString().equals(range.toString()))
        .mapToLong(c -> c.tombstonesRemoved()).sum() >= min;
  }

  @Test
  void fsoDirectoryTreeTombstonesAreCompactedAway() throws Exception {
    OzoneBucket b = bucket("vol2", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED);
    int dirs = 300;
    for (int i = 0; i < dirs; i++) {
      createEmptyKey(b, String.format("tree/d-%04d/file", i));
    }
    for (int i = 0; i < 10; i++) {
      createEmptyKey(b, "keep/file-" + i);
    }
    flush(om);
    OmBucketInfo info = om.getBucketInfo("vol2", "fso");
    long volumeId = om.getMetadataManager().getVolumeId("vol2");
    String prefix = "/" + volumeId + "/" + info.getObjectID() + "/";
    KeyRange files = KeyRange.bucket("fileTable", prefix);
    KeyRange directories = KeyRange.bucket("directoryTable", prefix);

    b.deleteDirectory("tree", true);
    // The OM's DirectoryDeletingService purges the tree in the background: wait until no file of it is left.
    GenericTestUtils.waitFor(() -> {
      try {
        return listKeys(b, "").stream().noneMatch(k -> k.startsWith("tree"))
            && om.getMetadataManager().getDeletedDirTable().isEmpty();
      } catch (Exception e) {
        return false;
      }
    }, 500, 120_000);
    flush(om);
    // The service may flush and compact as soon as the deletes land (memtable.flush), so look at what it reports
    // having done, with the tombstone counts it saw right before each compaction, not at a racy "before" state.
    GenericTestUtils.waitFor(() -> {
      try {
        return deletionsIn(om, files) == 0 && deletionsIn(om, directories) == 0
            && compactedWithTombstones(files, dirs) && compactedWithTombstones(directories, dirs);
      } catch (Exception e) {
        return false;
      }
    }, 200, 60_000);

    Set<String> expected = new TreeSet<>();
    expected.add("keep/");
    for (int i = 0; i < 10; i++) {
      expected.add("keep/file-" + i);
    }
    assertEquals(expected, listKeys(b, ""), "listing the FSO bucket returns exactly the live entries");
  }

  /**
   * A staging directory in an FSO bucket, drained oldest first through the client: a {@code listStatus} of it seeks
   * to {@code /volumeId/bucketId/stagingId/} and, before compaction, steps over every deleted child. The directory
   * is not the bucket's first (a live one comes before it), so neither the table's head nor the bucket's shows it:
   * the service finds it as a directory head and compacts that span, and the listing returns the live children.
   *
   * <p>The service is paused (reconfigured off, as an operator would) while the tree is built and drained. Running,
   * a round could see part of the deletes: a compaction flushes the memtable it overlaps, so the deletes made so
   * far become an SST file. The bucket then qualifies as a range (it has more than min.tombstones) while its
   * directory holds fewer than dead.head.min.keys dead entries; compacting it clears the first deletes, and the
   * rest never make a head. A CI run met exactly that (a bucket range compacted, no directory head in 60 s).
   * Resumed once every delete is in an SST file, the first round probes heads before it plans ranges.
   */
  @Test
  void fsoStagingDirectoryHeadIsFoundAndCompacted() throws Exception {
    OzoneBucket b = bucket("vol3", "stage", BucketLayout.FILE_SYSTEM_OPTIMIZED);
    int children = 1_300;
    int drained = 1_200; // 2,400 dead entries (value and tombstone each), above dead.head.min.keys (2,000)
    ReconfigurationHandler handler = om.getReconfigurationHandler();
    handler.reconfigureProperty(RangeCompactionConfig.ENABLED_KEY, "false"); // no compaction starts after this
    try {
      drainStagingDirectory(b, children, drained);
    } finally {
      handler.reconfigureProperty(RangeCompactionConfig.ENABLED_KEY, "true");
    }
    checkStagingDirectoryHead(b, children, drained);
  }

  /** Creates the staging directory's children and a live directory before it in key order, then drains the first. */
  private static void drainStagingDirectory(OzoneBucket b, int children, int drained) throws Exception {
    for (int i = 0; i < children; i++) {
      createEmptyKey(b, String.format("staging/part-%05d", i));
    }
    // Object ids are negative longs, so in fileTable's key order a later directory's children come first: keep/,
    // created after staging/, is the bucket's first directory (checked below), live.
    for (int i = 0; i < 10; i++) {
      createEmptyKey(b, "keep/file-" + i);
    }
    flush(om);
    List<String> batch = new ArrayList<>();
    for (int i = 0; i < drained; i++) {
      batch.add(String.format("staging/part-%05d", i));
      if (batch.size() == 100) {
        b.deleteKeys(batch);
        batch.clear();
      }
    }
    flush(om);
  }

  /** After the drain: the service compacts the staging directory's head, and a listing returns the live children. */
  private static void checkStagingDirectoryHead(OzoneBucket b, int children, int drained) throws Exception {
    long volumeId = om.getMetadataManager().getVolumeId("vol3");
    long bucketId = om.getBucketInfo("vol3", "stage").getObjectID();
    OmDirectoryInfo staging = om.getMetadataManager().getDirectoryTable()
        .get(om.getMetadataManager().getOzonePathKey(volumeId, bucketId, bucketId, "staging"));
    String prefix = "/" + volumeId + "/" + bucketId + "/" + staging.getObjectID() + "/";
    KeyRange directory = KeyRange.bucket("fileTable", prefix);
    long keepId = om.getMetadataManager().getDirectoryTable()
        .get(om.getMetadataManager().getOzonePathKey(volumeId, bucketId, bucketId, "keep")).getObjectID();
    String keepPrefix = "/" + volumeId + "/" + bucketId + "/" + keepId + "/";
    assertTrue(keepPrefix.compareTo(prefix) < 0, "the live directory comes first: " + keepPrefix + " " + prefix);

    AtomicReference<Compacted> head = new AtomicReference<>();
    try {
      GenericTestUtils.waitFor(() -> {
        service.recentCompactions().stream()
            .filter(c -> c.before().range().kind() == KeyRange.Kind.DIRECTORY_HEAD
                && Keys.compare(c.before().range().begin(), directory.begin()) == 0)
            .findFirst().ifPresent(head::set);
        return head.get() != null;
      }, 200, 60_000);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no directory head compaction at " + prefix + "; compactions: "
          + service.recentCompactions().stream().map(c -> c.before().range() + " " + c.head()).toList(), e);
    }
    Compacted done = head.get();
    assertTrue(done.head().deadBefore() >= drained, "the probe saw the drained children: " + done.head());
    assertTrue(done.head().deadAfter() < done.head().deadBefore() / 10, "the head was cleared: " + done.head());

    Set<String> expected = new TreeSet<>();
    for (int i = drained; i < children; i++) {
      expected.add(String.format("staging/part-%05d", i));
    }
    Set<String> listed = new TreeSet<>();
    for (OzoneFileStatus st : b.listStatus("staging/", false, "", 10_000)) {
      listed.add(st.getKeyInfo().getKeyName());
    }
    assertEquals(expected, listed, "listStatus of the staging directory returns exactly its live children");
    assertEquals(0, deletionsIn(om, KeyRange.bucket("fileTable", prefix)),
        "no file under the staging directory holds a tombstone");
  }
}
