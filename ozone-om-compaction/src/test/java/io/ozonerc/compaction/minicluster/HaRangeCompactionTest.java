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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.om.OmAttachment;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.service.RangeCompactionService;
import io.ozonerc.compaction.service.RoundResult;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.MiniOzoneHAClusterImpl;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.ObjectStore;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.ozone.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three OMs in one Ratis ring, each compacting its own RocksDB with {@code leader.policy=skip}: followers compact,
 * the leader (which serves client reads) does not; after a leadership transfer the old leader, now a follower,
 * catches up, and every replica still holds the same keys.
 */
class HaRangeCompactionTest {
  static MiniOzoneHAClusterImpl cluster;
  static OzoneClient client;
  static final Map<OzoneManager, RangeCompactionService> SERVICES = new LinkedHashMap<>();

  @BeforeAll
  static void startCluster() throws Exception {
    OzoneConfiguration conf = ClusterProbe.serviceConf(200);
    conf.set("ozone.om.range.compaction.leader.policy", "skip");
    conf.setBoolean("ozone.om.s3.grpc.server_enabled", false); // every HA mini OM would bind the same gRPC port
    cluster = (MiniOzoneHAClusterImpl) MiniOzoneCluster.newHABuilder(conf).setOMServiceId("om-range")
        .setNumOfOzoneManagers(3).withoutDatanodes().build();
    cluster.waitForClusterToBeReady();
    cluster.waitForLeaderOM();
    for (OzoneManager om : cluster.getOzoneManagersList()) {
      SERVICES.put(om, OmAttachment.start(om, om.getConfiguration()).orElseThrow());
    }
    client = cluster.newClient();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.close();
    }
    SERVICES.values().forEach(RangeCompactionService::shutdown);
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void followersCompactTheLeaderWaitsAndALeaderChangeDoesNoHarm() throws Exception {
    ObjectStore store = client.getObjectStore();
    store.createVolume("havol");
    store.getVolume("havol").createBucket("bkt", BucketArgs.newBuilder()
        .setBucketLayout(BucketLayout.OBJECT_STORE).build());
    OzoneBucket b = store.getVolume("havol").getBucket("bkt");
    for (int i = 0; i < 500; i++) {
      b.createKey(String.format("k-%05d", i), 0).close();
    }
    for (OzoneManager om : SERVICES.keySet()) {
      flush(om);
    }
    for (int i = 0; i < 475; i++) {
      b.deleteKey(String.format("k-%05d", i));
    }
    // Every replica applies the deletes; make each one's tombstones visible as SST files.
    GenericTestUtils.waitFor(() -> SERVICES.keySet().stream().allMatch(om -> liveKeys(om).size() == 25),
        200, 60_000);
    for (OzoneManager om : SERVICES.keySet()) {
      flush(om);
    }
    KeyRange range = KeyRange.bucket("keyTable", "/havol/bkt/");
    OzoneManager leader = cluster.getOMLeader();

    GenericTestUtils.waitFor(() -> SERVICES.keySet().stream().filter(om -> om != leader)
        .allMatch(om -> deletions(om, range) == 0), 200, 60_000);
    RangeCompactionService leaderService = SERVICES.get(leader);
    GenericTestUtils.waitFor(() -> leaderService.getLastRound() != null
        && leaderService.getLastRound().outcome() == RoundResult.Outcome.LEADER_SKIPPED, 200, 30_000);
    assertEquals(0, leaderService.getMetrics().getRangesCompacted(), "the leader compacted nothing");
    assertTrue(deletions(leader, range) >= 475, "the leader's own RocksDB still holds the tombstones");
    for (OzoneManager om : SERVICES.keySet()) {
      if (om != leader) {
        assertTrue(SERVICES.get(om).getMetrics().getRangesCompacted() >= 1, om.getOMNodeId());
      }
    }

    OzoneManager newLeader = cluster.transferOMLeadershipToAnotherNode(leader);
    assertNotEquals(leader.getOMNodeId(), newLeader.getOMNodeId());
    // The old leader is a follower now: its service starts compacting its own store.
    GenericTestUtils.waitFor(() -> deletions(leader, range) == 0, 200, 60_000);
    assertTrue(leaderService.getMetrics().getRangesCompacted() >= 1);

    Map<String, Long> first = null;
    for (OzoneManager om : SERVICES.keySet()) {
      Map<String, Long> keys = liveKeys(om);
      assertEquals(25, keys.size(), om.getOMNodeId());
      if (first == null) {
        first = keys;
      }
      assertEquals(first, keys, "every replica holds the same keys: " + om.getOMNodeId());
      assertEquals(0, SERVICES.get(om).getMetrics().getRoundsFailed(), om.getOMNodeId());
    }
    Set<String> listed = new TreeSet<>();
    Iterator<? extends OzoneKey> it = b.listKeys("");
    while (it.hasNext()) {
      listed.add(it.next().getName());
    }
    assertEquals(first.keySet().stream().map(k -> k.substring("/havol/bkt/".length()))
        .collect(java.util.stream.Collectors.toCollection(TreeSet::new)), listed);
  }

  /** The keys of the bucket as one replica's RocksDB holds them, with their update ids. */
  static Map<String, Long> liveKeys(OzoneManager om) {
    Map<String, Long> out = new TreeMap<>();
    try (Table.KeyValueIterator<String, OmKeyInfo> it = om.getMetadataManager()
        .getKeyTable(BucketLayout.OBJECT_STORE).iterator("/havol/bkt/")) {
      while (it.hasNext()) {
        Table.KeyValue<String, OmKeyInfo> kv = it.next();
        out.put(kv.getKey(), kv.getValue().getObjectID());
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  static long deletions(OzoneManager om, KeyRange range) {
    try {
      return deletionsIn(om, range);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
