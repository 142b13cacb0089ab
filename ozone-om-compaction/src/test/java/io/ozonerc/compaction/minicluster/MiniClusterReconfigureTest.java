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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmAttachment;
import io.ozonerc.compaction.service.RangeCompactionService;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.ReconfigurationException;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.conf.ReconfigurationHandler;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.ozone.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Operators retune and pause the service of a running OM through the OM's {@link ReconfigurationHandler}, the
 * object {@code ozone admin reconfig --service=OM} reaches over RPC. The test calls the handler's synchronous
 * {@code reconfigureProperty}, as Ozone's own reconfiguration tests do: the RPC form re-reads {@code ozone-site.xml}
 * from the classpath, which a test cannot change for one OM. The OM's {@code /conf} is read over HTTP.
 */
class MiniClusterReconfigureTest {
  static final String P = RangeCompactionConfig.PREFIX;
  static MiniOzoneCluster cluster;
  static OzoneManager om;
  static RangeCompactionService service;

  @BeforeAll
  static void startCluster() throws Exception {
    OzoneConfiguration conf = ClusterProbe.serviceConf(100);
    conf.set(P + ".interval", "1h"); // one round at start, then none for an hour unless reconfigured
    cluster = MiniOzoneCluster.newBuilder(conf).withoutDatanodes().build();
    cluster.waitForClusterToBeReady();
    om = cluster.getOzoneManager();
    service = OmAttachment.start(om, om.getConfiguration()).orElseThrow();
  }

  @AfterAll
  static void stopCluster() {
    if (service != null) {
      service.shutdown();
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void everyKeyIsReconfigurable() throws Exception {
    List<String> listed = om.getReconfigurationHandler().listReconfigureProperties();
    for (String key : RangeCompactionConfig.keys()) {
      assertTrue(listed.contains(key), key + " in " + listed);
    }
  }

  @Test
  void badValueIsRefusedNamingKeyAndValueAndTheOldValueStays() {
    ReconfigurationHandler handler = om.getReconfigurationHandler();
    Duration before = service.getConfig().getInterval();
    ReconfigurationException e = assertThrows(ReconfigurationException.class,
        () -> handler.reconfigureProperty(P + ".interval", "500us"));
    String msg = e.getMessage() + " / " + e.getCause().getMessage();
    assertTrue(msg.contains(P + ".interval") && msg.contains("500us"), msg);
    assertEquals(before, service.getConfig().getInterval());
    assertEquals(om.getConfiguration().get(P + ".interval"), handler.getConf().get(P + ".interval"));
    assertFalse("500us".equals(om.getConfiguration().get(P + ".interval")));

    assertThrows(ReconfigurationException.class, () -> handler.reconfigureProperty(P + ".tables", "keyTable,x"));
    assertEquals(RangeCompactionConfig.KNOWN_TABLES, List.copyOf(service.getConfig().tableSet()));
  }

  @Test
  void thresholdsBudgetAndPressureLimitsReachTheService() throws Exception {
    ReconfigurationHandler handler = om.getReconfigurationHandler();
    handler.reconfigureProperty(P + ".min.tombstones", "7");
    handler.reconfigureProperty(P + ".tombstone.ratio", "0.5");
    handler.reconfigureProperty(P + ".ranges.per.run", "3");
    handler.reconfigureProperty(P + ".bytes.per.run", "1GB");
    handler.reconfigureProperty(P + ".timeout", "30s");
    handler.reconfigureProperty(P + ".pressure.level0.files", "9");
    handler.reconfigureProperty(P + ".pressure.pending.compaction.bytes", "2GB");
    RangeCompactionConfig c = service.getConfig();
    assertEquals(7, c.plannerSettings().minTombstones());
    assertEquals(0.5, c.plannerSettings().tombstoneRatio());
    assertEquals(3, c.plannerSettings().rangesPerRun());
    assertEquals(1L << 30, c.plannerSettings().maxBytesPerRun());
    assertEquals(Duration.ofSeconds(30), c.getTimeout());
    assertEquals(9, c.getPressureLevel0Files());
    assertEquals(2L << 30, c.getPressurePendingCompactionBytes());
    assertEquals("7", om.getConfiguration().get(P + ".min.tombstones"), "the OM's configuration shows it");
  }

  @Test
  void pauseResumeAndANewIntervalTakeEffectWithoutRestart() throws Exception {
    ReconfigurationHandler handler = om.getReconfigurationHandler();
    // Started with interval=1h: two more scheduled rounds within the poll below can only come from the new one.
    handler.reconfigureProperty(P + ".interval", "1s");
    long runs = service.getMetrics().getRoundsRun();
    GenericTestUtils.waitFor(() -> service.getMetrics().getRoundsRun() >= runs + 2, 100, 30_000);

    handler.reconfigureProperty(RangeCompactionConfig.ENABLED_KEY, "false");
    assertFalse(service.getConfig().isEnabled());
    assertTrue(service.getTasks().isEmpty(), "paused: the scheduler gets no round");
    assertTrue(service.getExecutorService().getQueue().size() > 0 && !service.getExecutorService().isShutdown(),
        "the thread stays, ready to resume");

    handler.reconfigureProperty(RangeCompactionConfig.ENABLED_KEY, "true");
    long resumed = service.getMetrics().getRoundsRun();
    GenericTestUtils.waitFor(() -> service.getMetrics().getRoundsRun() > resumed, 100, 30_000);
  }

  @Test
  void theOmConfServletListsOurKeysWithTheirDefaults() throws Exception {
    String conf = ClusterProbe.get(om, "/conf");
    for (String key : List.of(P + ".backoff.max", P + ".bottommost.mode", P + ".max.compaction.entries")) {
      assertTrue(conf.contains("<name>" + key + "</name>"), key + " in /conf");
    }
    assertTrue(conf.contains("<name>" + P + ".backoff.max</name><value>1h</value>"), "backoff.max default in /conf");
  }
}
