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
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.SkipHints;
import org.apache.hadoop.hdds.utils.db.TypedTable;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.MiniOzoneHAClusterImpl;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.ozone.test.GenericTestUtils;
import org.junit.jupiter.api.Test;

/**
 * Skip hints across a leader change: three OMs apply the same writes; a follower learns hints by its own local
 * listings (as follower reads would), becomes leader, and a key created into the dead head it has hinted is listed by
 * the new leader and by every OM.
 */
class SkipHintsHaClusterTest {
  private static final String VOLUME = "vol";
  private static final String QUEUE = "queue";

  @Test
  void aFollowerThatBecomesLeaderListsKeysCreatedIntoItsHintedSpan() throws Exception {
    OzoneConfiguration conf = OmCluster.quietConf();
    // Each OM would bind the S3 gRPC server's fixed port; three OMs share this JVM.
    conf.setBoolean(OMConfigKeys.OZONE_OM_S3_GPRC_SERVER_ENABLED, false);
    // The client must fail over: to find the leader at first, and to the new one after the transfer.
    conf.setInt("ozone.client.failover.max.attempts", 100);
    // Every seek learns its span, so the follower's listing from a marker inside the dead head teaches one.
    conf.set("ozone.om.list.skip.hints.learn.threshold", "0");
    MiniOzoneHAClusterImpl.Builder builder = MiniOzoneCluster.newHABuilder(conf);
    builder.setOMServiceId("om-service").setNumOfOzoneManagers(3);
    builder.withoutDatanodes();
    MiniOzoneHAClusterImpl cluster = builder.build();
    try (OzoneClient client = clientOnceLeaderIsUp(cluster)) {
      client.getObjectStore().createVolume(VOLUME);
      client.getObjectStore().getVolume(VOLUME).createBucket(QUEUE,
          BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
      OzoneBucket bucket = client.getObjectStore().getVolume(VOLUME).getBucket(QUEUE);
      List<String> dead = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        String name = String.format("k-%04d", i);
        bucket.createKey(name, 0).close();
        if (i < 200) {
          dead.add(name);
        }
      }
      bucket.deleteKeys(dead);
      for (OzoneManager om : cluster.getOzoneManagersList()) {
        awaitKey(om, "k-0299", true);
        awaitKey(om, "k-0199", false);
        om.awaitDoubleBufferFlush();
      }

      OzoneManager follower = cluster.getOzoneManagersList().stream()
          .filter(om -> om != cluster.getOMLeader()).findFirst().orElseThrow();
      assertEquals("k-0200", localList(follower, 1));
      assertEquals("k-0200", localList(follower, 1));
      assertEquals("k-0200", localListFrom(follower, "k-0100", 1), "from a marker inside the dead head");
      assertEquals("k-0200", localListFrom(follower, "k-0150", 1), "from inside the span the marker taught");
      SkipHints hints = keyHints(follower);
      assertTrue(hints.used() > 0 && hints.size() > 0, "the follower learned and used a hint");

      cluster.getOMLeader().transferLeadership(follower.getOMNodeId());
      GenericTestUtils.waitFor(follower::isLeaderReady, 100, 60_000);
      long retired = hints.retired();
      bucket = client.getObjectStore().getVolume(VOLUME).getBucket(QUEUE);
      bucket.createKey("k-0042", 0).close();
      assertEquals("k-0042", clientList(client, 1), "the new leader lists the key created into its hinted span");
      assertTrue(hints.retired() > retired, "the create retired the new leader's hint");
      assertEquals("k-0200", clientListFrom(client, "k-0150", 1), "the new leader learns [k-0150, k-0200)");
      long retiredBefore = hints.retired();
      bucket.createKey("k-0160", 0).close();
      assertEquals("k-0160 k-0200", clientListFrom(client, "k-0150", 2),
          "the new leader lists the key created into the span a marker taught it");
      assertTrue(hints.retired() > retiredBefore, "the create retired the marker's span");
      for (OzoneManager om : cluster.getOzoneManagersList()) {
        awaitKey(om, "k-0042", true);
        om.awaitDoubleBufferFlush();
        assertEquals("k-0042", localList(om, 1), om.getOMNodeId());
        awaitKey(om, "k-0160", true);
        om.awaitDoubleBufferFlush();
        assertEquals("k-0042 k-0160 k-0200", localList(om, 3), om.getOMNodeId());
        assertEquals("k-0160 k-0200", localListFrom(om, "k-0100", 2), om.getOMNodeId());
      }
    } finally {
      cluster.shutdown();
    }
  }

  private static OzoneClient clientOnceLeaderIsUp(MiniOzoneHAClusterImpl cluster) throws Exception {
    cluster.waitForClusterToBeReady();
    cluster.waitForLeaderOM();
    return cluster.newClient();
  }

  private static SkipHints keyHints(OzoneManager om) {
    return ((TypedTable<?, ?>) om.getMetadataManager().getKeyTable(BucketLayout.OBJECT_STORE)).getSkipHints();
  }

  private static void awaitKey(OzoneManager om, String name, boolean present) throws Exception {
    String dbKey = om.getMetadataManager().getOzoneKey(VOLUME, QUEUE, name);
    GenericTestUtils.waitFor(() -> {
      try {
        OmKeyInfo k = om.getMetadataManager().getKeyTable(BucketLayout.OBJECT_STORE).get(dbKey);
        return (k != null) == present;
      } catch (Exception e) {
        return false;
      }
    }, 50, 60_000);
  }

  /** A listing on one OM's own store, as a local (follower) read makes it. */
  private static String localList(OzoneManager om, int n) throws Exception {
    return localListFrom(om, null, n);
  }

  /** The same after a start key (a client's start-after marker); null: from the start. */
  private static String localListFrom(OzoneManager om, String startKey, int n) throws Exception {
    return om.getMetadataManager().listKeys(VOLUME, QUEUE, startKey, null, n).getKeys().stream()
        .map(OmKeyInfo::getKeyName).collect(Collectors.joining(" "));
  }

  private static String clientList(OzoneClient client, int n) throws Exception {
    return clientListFrom(client, null, n);
  }

  private static String clientListFrom(OzoneClient client, String startKey, int n) throws Exception {
    List<String> names = new ArrayList<>();
    Iterator<? extends OzoneKey> it = client.getObjectStore().getVolume(VOLUME).getBucket(QUEUE)
        .listKeys("", startKey);
    while (it.hasNext() && names.size() < n) {
      names.add(it.next().getName());
    }
    return String.join(" ", names);
  }
}
