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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.rocksdb.LiveFileMetaData;

/** What a test reads off a running OM: SST facts of its RocksDB and its /jmx endpoint. */
final class ClusterProbe {
  private ClusterProbe() { }

  /**
   * The service enabled with 1 s rounds and the given minimum. Rounds compact after the test's own flush, all
   * tombstones at once: with memtable.flush on, the service may compact part of them while deletes still arrive and
   * leave a tail below min.tombstones, as thresholds intend. (The memtable flush is tested on a real store in
   * RangeCompactionServiceTest.)
   */
  static OzoneConfiguration serviceConf(long minTombstones) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(RangeCompactionConfig.ENABLED_KEY, "true");
    conf.set("ozone.om.range.compaction.interval", "1s");
    conf.set("ozone.om.range.compaction.memtable.flush", "false");
    conf.set("ozone.om.range.compaction.min.tombstones", String.valueOf(minTombstones));
    return conf;
  }

  /** Tombstones RocksDB reports in the live SST files of {@code table} that overlap the range. */
  static long deletionsIn(OzoneManager om, KeyRange range) throws IOException {
    long sum = 0;
    for (LiveFileMetaData f : ((RDBStore) om.getMetadataManager().getStore()).getDb().getLiveFilesMetaData()) {
      if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(range.table())
          && Keys.overlaps(f.smallestKey(), f.largestKey(), range.begin(), range.end())) {
        sum += f.numDeletions();
      }
    }
    return sum;
  }

  /** Makes everything the OM applied visible as SST files: double buffer to RocksDB, memtables to L0. */
  static void flush(OzoneManager om) throws Exception {
    om.awaitDoubleBufferFlush();
    om.getMetadataManager().getStore().flushDB();
  }

  /** The OM's /jmx answer for one MBean query, as JSON text. */
  static String jmx(OzoneManager om, String query) throws IOException {
    return get(om, "/jmx?qry=" + java.net.URLEncoder.encode(query, StandardCharsets.UTF_8));
  }

  /** A numeric attribute from a /jmx answer (sum over the beans that have it). */
  static long jmxValue(String json, String attribute) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + attribute + "\"\\s*:\\s*(\\d+)").matcher(json);
    long sum = 0;
    while (m.find()) {
      sum += Long.parseLong(m.group(1));
    }
    return sum;
  }

  static String get(OzoneManager om, String path) throws IOException {
    InetSocketAddress a = om.getHttpServer().getHttpAddress();
    HttpURLConnection c = (HttpURLConnection) new URL("http://127.0.0.1:" + a.getPort() + path).openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(5_000);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }
}
