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

import java.io.IOException;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.OzoneConfigKeys;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.ozone.test.GenericTestUtils;

/**
 * A MiniOzoneCluster for the patched-vs-stock comparisons: SCM and one OM in this JVM, no datanodes (zero-size keys
 * need none), RocksDB statistics on so {@link #iterSkips()} can read what the OM's iterators stepped over, and the
 * OM's background services slowed to once an hour so only the test's own requests iterate the tables. Which OM
 * classes it runs is decided by the class path: patched in this module's tests and {@link OmJvm#patched()},
 * stock in {@link OmJvm#stock()}.
 */
public final class OmCluster implements AutoCloseable {
  static {
    // A JVM that OmJvm runs beside another takes its cluster's ports from its own range (see OmJvm).
    Integer base = Integer.getInteger(OmJvm.PORT_BASE);
    if (base != null) {
      GenericTestUtils.PortAllocator.NEXT_PORT.set(base);
    }
  }

  private static final String GRPC_PORT = "ozone.om.grpc.port";
  private static final int GRPC_PORT_DEFAULT = 8981;

  private final MiniOzoneCluster cluster;
  private final OzoneClient client;

  private OmCluster(MiniOzoneCluster cluster) throws IOException {
    this.cluster = cluster;
    this.client = cluster.newClient();
  }

  /** The configuration every comparison starts from; callers add their own keys before {@link #start}. */
  public static OzoneConfiguration quietConf() {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OzoneConfigKeys.OZONE_METADATA_STORE_ROCKSDB_STATISTICS, "ALL");
    for (String key : new String[] {"ozone.block.deleting.service.interval",
        "ozone.directory.deleting.service.interval", "ozone.om.open.key.cleanup.service.interval",
        "ozone.om.mpu.cleanup.service.interval", "ozone.snapshot.deleting.service.interval",
        "ozone.om.snapshot.directory.service.interval", "ozone.om.lease.hard.limit"}) {
      conf.set(key, "1h");
    }
    // A request the OM rejects fails at once instead of being retried against the only OM for minutes.
    conf.setInt("ozone.client.failover.max.attempts", 1);
    return conf;
  }

  public static OmCluster start(OzoneConfiguration conf) throws Exception {
    // The OM's gRPC server is the one port MiniOzoneCluster leaves at its fixed default.
    if (conf.getInt(GRPC_PORT, GRPC_PORT_DEFAULT) == GRPC_PORT_DEFAULT) {
      conf.setInt(GRPC_PORT, GenericTestUtils.PortAllocator.getFreePort());
    }
    MiniOzoneCluster c = MiniOzoneCluster.newBuilder(conf).withoutDatanodes().build();
    try {
      c.waitForClusterToBeReady();
      return new OmCluster(c);
    } catch (Exception e) {
      c.shutdown();
      throw e;
    }
  }

  public OzoneManager om() {
    return cluster.getOzoneManager();
  }

  public OzoneClient client() {
    return client;
  }

  public MiniOzoneCluster cluster() {
    return cluster;
  }

  /** Waits until the OM applied every request to RocksDB (its double buffer is empty). */
  public void awaitApplied() throws Exception {
    om().awaitDoubleBufferFlush();
  }

  /** Flushes the OM's memtables to L0 SST files. */
  public void flush() throws IOException {
    om().getMetadataManager().getStore().flushDB();
  }

  /**
   * RocksDB's {@code rocksdb.number.iter.skip} so far: internal keys (tombstones, overwritten versions) the OM's
   * iterators stepped over. RocksDB adds an iterator's skips when the iterator is closed.
   */
  public long iterSkips() throws IOException {
    return IterSkips.read(om().getMetadataManager());
  }

  @Override
  public void close() throws IOException {
    try {
      client.close();
    } finally {
      cluster.shutdown();
    }
  }
}
