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

package io.ozonerc.compaction.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.ObjectStore;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneClientFactory;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The Grafana dashboard against a live OM, without Grafana: {@code dev-support/local-cluster} (RocksDB statistics
 * ALL), a real Prometheus scraping it every second with the job and metrics path of {@code compose/prometheus.yml}
 * (targets rewritten to the cluster's loopback ports), a workload that makes the service compact (keys, an Ozone
 * snapshot, deletes, listings), then <b>every</b> query of the dashboard runs as a range query through
 * Prometheus's HTTP API and must return at least one series; a query that matches nothing is a wrong name or label.
 * The OM must also export no {@code range_compaction_*} metric that the dashboard leaves out, and the alert rules
 * of {@code compose/range-compaction-alerts.yml}, loaded by the same Prometheus, must all evaluate without error.
 * Finally {@code dev-support/render-dashboard} draws the panels (PNG) from the same Prometheus, threshold lines
 * included.
 *
 * <p>Why each panel has data: the snapshot flushes every table's memtable, so tables the service never compacts
 * (bucketTable, volumeTable) keep a level-0 file; listings before and after the compaction make RocksDB seek and
 * skip; every counter exists from the service's start, so its rate is a (possibly zero) series.
 *
 * <p>About 60-80 s on two shared cores; skipped with {@code -Dlocal.cluster.it=false}. Prometheus comes from
 * {@code dev-support/install-test-tools}; without it a developer's run is skipped with the reason, a CI run fails.
 */
@DisabledIfSystemProperty(named = "local.cluster.it", matches = "false",
    disabledReason = "-Dlocal.cluster.it=false: real SCM, OM and Prometheus processes not started")
class DashboardQueriesClusterTest {
  private static final int KEYS = 600;
  private static final int DELETED = 570;
  /**
   * Keys left alone in a second bucket: the worst-ratio panel shows a table only while its live SST files hold at
   * least 16 KiB, and {@value #KEYS} keys less {@value #DELETED} are far below that once compacted (600 such keys
   * flush to about 22 KB). These keep keyTable above it.
   */
  private static final int KEPT = 1000;
  /** What $__rate_interval becomes: at least two scrapes (1 s) and two metrics periods (1 s) wide. */
  private static final String RATE_INTERVAL = "15s";
  /** Service metrics the dashboard deliberately leaves out, and why. */
  private static final Map<String, String> NOT_ON_DASHBOARD = Map.of(
      "range_compaction_compaction_duration_ms_num_ops", "same count as range_compaction_ranges_compacted",
      "range_compaction_compaction_duration_ms_avg_time",
      "per metrics period; the panel divides the time counter by the compaction counter instead");

  /**
   * Service metrics the dashboard already shows but the service on this branch does not export yet: a query that
   * names one of them may come back empty while the OM's /prom lacks the name; once the OM exports it, its queries
   * are checked like every other.
   */
  private static final Set<String> NOT_YET_EXPORTED = Set.of();

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void everyDashboardQueryReturnsSeries() throws Exception {
    Path root = RepoPaths.root();
    TestTools.ensureInstalled(root);
    Path work = root.resolve("ozone-om-compaction/target/dashboard-it/run-" + System.currentTimeMillis());
    Path cluster = work.resolve("cluster");
    Map<String, String> env = new HashMap<>();
    env.put("LOCAL_CLUSTER_DIR", cluster.toString());
    env.put("LOCAL_CLUSTER_PORT_BASE", Integer.toString(LocalClusterScriptTest.freePortBlock()));
    env.put("LOCAL_CLUSTER_CLASSPATH", System.getProperty("java.class.path"));
    env.put("LOCAL_CLUSTER_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
    env.put("LOCAL_CLUSTER_CONF", "ozone.metastore.rocksdb.statistics=ALL ozone.om.range.compaction.interval=1s");

    Process prometheus = null;
    boolean passed = false;
    Thread reaper = new Thread(() -> {
      try {
        LocalClusterScriptTest.script(root, cluster, env, 150, true, "stop");
      } catch (Exception e) {
        System.err.println("local-cluster stop from shutdown hook failed: " + e);
      }
    });
    Runtime.getRuntime().addShutdownHook(reaper);
    try {
      LocalClusterScriptTest.script(root, cluster, env, 240, false, "start");
      Map<String, String> ports = LocalClusterScriptTest.clusterEnv(cluster);
      int promPort = LocalClusterScriptTest.freePortBlock();
      prometheus = startPrometheus(work, promPort, ports.get("OM_HTTP_PORT"), ports.get("SCM_HTTP_PORT"));
      URI api = URI.create("http://127.0.0.1:" + promPort + "/api/v1/");
      Process running = prometheus;
      // Only the OM must be up: the dashboard reads nothing from SCM, and Ozone 2.2.0's SCM /prom becomes
      // unparseable once its RatisEvents tag holds a configuration change (raw quotes and newlines in a label
      // value), after which Prometheus marks SCM down.
      poll(60, "Prometheus scraping the OM", () -> {
        if (!running.isAlive()) {
          fail("prometheus exited: " + Files.readString(work.resolve("prometheus.log")));
        }
        return series(api, "query?query=" + enc("up{job=\"ozone\",component=\"om\"} == 1")).size() == 1;
      });
      long start = System.currentTimeMillis() / 1000;

      runWorkload("127.0.0.1:" + ports.get("OM_RPC_PORT"));
      // keyTable's deletes compacted, and Prometheus has scraped it: the rates and per-table series below have
      // data. The count is keyTable's own: creating keys leaves as many openKeyTable tombstones, whose compaction
      // alone would pass an all-tables count before the deletes are even committed, and a stock 2.2.0 listing that
      // runs while the OM commits deletes and evicts their cache tombstones can list some deleted keys.
      poll(90, "keyTable's deletes compacted, in Prometheus", () ->
          !series(api, "query?query=" + enc("range_compaction_ranges_compacted > 0")).isEmpty()
              && !series(api, "query?query=" + enc("range_compaction_table_tombstones_removed{table=\"keyTable\"} >= "
              + (DELETED - 10))).isEmpty());
      listKeys("127.0.0.1:" + ports.get("OM_RPC_PORT"), 5);
      // Two more scrapes after the last listing, so its counters are in the window of every rate.
      long listed = System.currentTimeMillis() / 1000;
      poll(30, "two scrapes after the listings", () -> {
        List<JsonNode> up = series(api, "query?query=" + enc("timestamp(up{component=\"om\"})"));
        return !up.isEmpty() && up.get(0).get("value").get(1).asDouble() >= listed + 2;
      });
      long end = System.currentTimeMillis() / 1000;

      Set<String> exported = omMetricNames(URI.create("http://127.0.0.1:" + ports.get("OM_HTTP_PORT") + "/prom"));
      List<String> empty = new ArrayList<>();
      List<String> notYet = new ArrayList<>();
      int checked = 0;
      StringBuilder all = new StringBuilder();
      for (String[] q : ComposeFilesTest.queries(root)) {
        String promql = q[1].replace("$__rate_interval", RATE_INTERVAL);
        List<JsonNode> result = series(api, "query_range?query=" + enc(promql) + "&start=" + start + "&end=" + end
            + "&step=1");
        checked++;
        all.append(String.format("%3d series  [%s] %s%n", result.size(), q[0], q[1]));
        List<String> awaited = NOT_YET_EXPORTED.stream().filter(n -> q[1].contains(n) && !exported.contains(n))
            .toList();
        if (result.isEmpty() && awaited.isEmpty()) {
          empty.add("[" + q[0] + "] " + q[1]);
        } else if (result.isEmpty()) {
          notYet.add("[" + q[0] + "] needs " + awaited);
        }
      }
      System.out.println("dashboard queries against the local cluster:\n" + all
          + (notYet.isEmpty() ? "" : "not exported by this service yet:\n  " + String.join("\n  ", notYet)));
      assertTrue(checked >= 25, "queries found: " + checked);
      assertTrue(empty.isEmpty(), empty.size() + " dashboard queries returned no series (OM exports "
          + exported.stream().filter(n -> n.startsWith("range_compaction")).toList() + "):\n"
          + String.join("\n", empty));

      String dashboardText = Files.readString(root.resolve("compose/common/grafana/dashboards/range-compaction.json"));
      List<String> missing = exported.stream().filter(n -> n.startsWith("range_compaction_"))
          .filter(n -> !dashboardText.contains(n) && !NOT_ON_DASHBOARD.containsKey(n)).toList();
      assertTrue(missing.isEmpty(), "service metrics with no panel: " + missing);

      // The alert rules evaluate against the real series without error (a rule whose vector matching fails on the
      // OM's labels would show health "err").
      JsonNode rules = json.readTree(http.send(HttpRequest.newBuilder(api.resolve("rules")).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      int evaluated = 0;
      for (JsonNode group : rules.at("/data/groups")) {
        for (JsonNode rule : group.get("rules")) {
          assertEquals("ok", rule.get("health").asText(), rule.toString());
          evaluated++;
        }
      }
      assertTrue(evaluated >= 4, "alert rules evaluated: " + rules);

      render(root, work, promPort, start, end, ComposeFilesTest.queries(root).stream().map(q -> q[0]).distinct()
          .count(), notYet.size());
      passed = true;
    } finally {
      if (prometheus != null) {
        prometheus.destroy();
        if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly();
        }
      }
      LocalClusterScriptTest.script(root, cluster, env, 150, true, "stop");
      Runtime.getRuntime().removeShutdownHook(reaper);
      if (passed) {
        LocalClusterScriptTest.script(root, cluster, env, 60, true, "clean");
      } else {
        System.err.println("logs kept in " + work);
      }
    }
  }

  /**
   * Prometheus with the compose file's job name and metrics path and the compose alert rules, one-second scrapes and
   * evaluations, targets on loopback, its own data directory and port.
   */
  private static Process startPrometheus(Path work, int port, String omHttp, String scmHttp) throws IOException {
    Map<String, Object> job = ComposeFilesTest.ozoneJob();
    String config = String.join("\n",
        "global:",
        "  scrape_interval: 1s",
        "  evaluation_interval: 1s",
        "rule_files:",
        "  - " + RepoPaths.root().resolve("compose/" + AlertRulesTest.RULES),
        "scrape_configs:",
        "  - job_name: " + job.get("job_name"),
        "    metrics_path: " + job.get("metrics_path"),
        "    static_configs:",
        "      - targets: [\"127.0.0.1:" + omHttp + "\"]",
        "        labels: {component: om}",
        "      - targets: [\"127.0.0.1:" + scmHttp + "\"]",
        "        labels: {component: scm}",
        "");
    Files.createDirectories(work);
    Files.writeString(work.resolve("prometheus.yml"), config);
    return new ProcessBuilder("prometheus", "--config.file=" + work.resolve("prometheus.yml"),
        "--storage.tsdb.path=" + work.resolve("prometheus-data"), "--web.listen-address=127.0.0.1:" + port,
        "--log.level=warn")
        .redirectErrorStream(true).redirectOutput(work.resolve("prometheus.log").toFile()).start();
  }

  /**
   * Volume, OBS bucket, {@value #KEYS} zero-size keys (and {@value #KEPT} in a bucket of their own that stay), an
   * Ozone snapshot (its checkpoint flushes every table: level-0 files), the lowest {@value #DELETED} deleted, then
   * listings that seek across the dead keys.
   */
  private static void runWorkload(String omAddress) throws Exception {
    try (OzoneClient client = client(omAddress)) {
      ObjectStore store = client.getObjectStore();
      store.createVolume("vol1");
      OzoneVolume volume = store.getVolume("vol1");
      volume.createBucket("obs", BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
      volume.createBucket("kept", BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
      OzoneBucket kept = volume.getBucket("kept");
      for (int i = 0; i < KEPT; i++) {
        kept.createKey(String.format("key-%05d", i), 0).close();
      }
      OzoneBucket bucket = volume.getBucket("obs");
      for (int i = 0; i < KEYS; i++) {
        bucket.createKey(String.format("key-%05d", i), 0).close();
      }
      store.createSnapshot("vol1", "obs", "before-deletes");
      List<String> doomed = new ArrayList<>();
      for (int i = 0; i < DELETED; i++) {
        doomed.add(String.format("key-%05d", i));
      }
      bucket.deleteKeys(doomed);
      assertEquals(KEYS - DELETED, count(bucket.listKeys("")));
    }
  }

  private static void listKeys(String omAddress, int times) throws Exception {
    try (OzoneClient client = client(omAddress)) {
      OzoneBucket bucket = client.getObjectStore().getVolume("vol1").getBucket("obs");
      for (int i = 0; i < times; i++) {
        assertEquals(KEYS - DELETED, count(bucket.listKeys("")));
      }
    }
  }

  private static OzoneClient client(String omAddress) throws IOException {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.address", omAddress);
    return OzoneClientFactory.getRpcClient(conf);
  }

  private static int count(Iterator<? extends OzoneKey> it) {
    int n = 0;
    for (; it.hasNext(); it.next()) {
      n++;
    }
    return n;
  }

  /**
   * dev-support/render-dashboard over the test's window: one PNG per panel, the grid, and no empty query but the
   * {@code awaited} ones.
   */
  private static void render(Path root, Path work, int promPort, long start, long end, long panels, int awaited)
      throws Exception {
    Path out = work.resolve("charts");
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> argv = new ArrayList<>(List.of(java, "--source", "17",
        root.resolve("dev-support/render-dashboard").toString(), "--prometheus", "http://127.0.0.1:" + promPort,
        "--start", Long.toString(start), "--end", Long.toString(end), "--step", "1", "--rate-interval",
        RATE_INTERVAL, "--out", out.toString()));
    if (awaited == 0) {
      argv.add("--require-series");
    }
    argv.add(root.resolve("compose/common/grafana/dashboards/range-compaction.json").toString());
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(work.resolve("render.log").toFile())
        .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "render-dashboard did not finish");
    String log = Files.readString(work.resolve("render.log"));
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.contains(", " + awaited + " with no data"), log);
    // The pressure thresholds are drawn (the axis reaches them), as Grafana draws them.
    assertTrue(log.contains("threshold lines: 12 (drawn) 20 (drawn)"), log);
    assertTrue(log.contains("threshold lines: 4.0 GiB (drawn)"), log);
    assertTrue(log.contains("threshold lines: 30% (drawn)"), log);
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(panels, files.filter(f -> f.getFileName().toString().matches("panel-\\d+\\.png")).count(), log);
    }
    assertTrue(Files.size(out.resolve("dashboard.png")) > 10_000, "dashboard.png");
    System.out.println("render-dashboard: " + out + "\n" + log);
  }

  private List<JsonNode> series(URI api, String query) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(api.resolve(query)).timeout(Duration.ofSeconds(10))
        .build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = json.readTree(r.body());
    if (!"success".equals(body.path("status").asText())) {
      fail("Prometheus rejected " + query + ": " + r.body());
    }
    List<JsonNode> out = new ArrayList<>();
    body.get("data").get("result").forEach(out::add);
    return out;
  }

  private Set<String> omMetricNames(URI prom) throws IOException, InterruptedException {
    String body = http.send(HttpRequest.newBuilder(prom).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Set<String> names = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^# TYPE (\\S+) ").matcher(body);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  interface Check {
    boolean done() throws Exception;
  }

  /** Polls a real condition every 500 ms until it holds; fails naming it after {@code seconds}. */
  private static void poll(int seconds, String what, Check check) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.done()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(500);
    }
    fail("no " + what + " after " + seconds + " s" + (last == null ? "" : ": " + last));
  }
}
