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

package io.ozonerc.devsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ozonerc.testsupport.RepoPaths;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Grafana dashboard against a live OM, without Grafana: a real Prometheus scraping the OM of a
 * {@code dev-support/local-cluster} (started with RocksDB statistics ALL) every second, with the job and metrics path
 * of {@code compose/prometheus.yml} (targets rewritten to the cluster's loopback ports) and the alert rules of
 * {@code compose/range-compaction-alerts.yml}. {@link LocalClusterScriptTest} drives it on its one cluster: once the
 * service has compacted and listings have sought across dead keys, <b>every</b> query of the dashboard runs as a range
 * query through Prometheus's HTTP API and must return at least one series (a query that matches nothing is a wrong
 * name or label); the OM must export no {@code range_compaction_*} metric that the dashboard leaves out; every alert
 * rule must evaluate without error; and {@code dev-support/render-dashboard} draws the panels (PNG) from the same
 * Prometheus, threshold lines included.
 *
 * <p>Why each panel has data: the workload's snapshot flushes every table's memtable, so tables the service never
 * compacts (bucketTable, volumeTable) keep a level-0 file; listings before and after the compaction make RocksDB seek
 * and skip; every counter exists from the service's start, so its rate is a (possibly zero) series. Prometheus comes
 * from {@code dev-support/install-test-tools} ({@link TestTools}).
 */
final class DashboardOnCluster implements AutoCloseable {
  /** What $__rate_interval becomes: at least two scrapes (1 s) and two metrics periods (1 s) wide. */
  private static final String RATE_INTERVAL = "15s";
  /** Service metrics the dashboard deliberately leaves out, and why. */
  private static final Map<String, String> NOT_ON_DASHBOARD = Map.of(
      "range_compaction_compaction_duration_ms_num_ops", "same count as range_compaction_ranges_compacted",
      "range_compaction_compaction_duration_ms_avg_time",
      "per metrics period; the panel divides the time counter by the compaction counter instead");

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final Path root;
  private final Path work;
  private final int promPort;
  private final URI api;
  private final String omHttpPort;
  private final Process prometheus;
  /** Epoch seconds when Prometheus first saw the OM up: the start of every range query. */
  private final long start;

  /** Starts Prometheus on the cluster whose ports {@code cluster.env} gives, and waits until it scrapes the OM. */
  DashboardOnCluster(Path root, Path work, Map<String, String> ports) throws Exception {
    this.root = root;
    this.work = work;
    this.omHttpPort = ports.get("OM_HTTP_PORT");
    this.promPort = LocalClusterScriptTest.freePortBlock();
    this.api = URI.create("http://127.0.0.1:" + promPort + "/api/v1/");
    this.prometheus = startPrometheus(work, promPort, omHttpPort, ports.get("SCM_HTTP_PORT"));
    // Only the OM must be up: the dashboard reads nothing from SCM, and Ozone 2.2.0's SCM /prom becomes
    // unparseable once its RatisEvents tag holds a configuration change (raw quotes and newlines in a label
    // value), after which Prometheus marks SCM down.
    poll(60, "Prometheus scraping the OM", () -> {
      if (!prometheus.isAlive()) {
        fail("prometheus exited: " + Files.readString(work.resolve("prometheus.log")));
      }
      return series("query?query=" + enc("up{job=\"ozone\",component=\"om\"} == 1")).size() == 1;
    });
    this.start = System.currentTimeMillis() / 1000;
  }

  /**
   * Waits until Prometheus holds keyTable's deletes compacted. The count is keyTable's own: creating keys leaves as
   * many openKeyTable tombstones, whose compaction alone would pass an all-tables count before the deletes are even
   * committed.
   */
  void awaitKeyTableCompacted(int deleted) throws Exception {
    poll(90, "keyTable's deletes compacted, in Prometheus", () ->
        !series("query?query=" + enc("range_compaction_ranges_compacted > 0")).isEmpty()
            && !series("query?query=" + enc("range_compaction_table_tombstones_removed{table=\"keyTable\"} >= "
            + (deleted - 10))).isEmpty());
  }

  /**
   * Every dashboard query over the window since Prometheus first saw the OM (after two more scrapes, so the last
   * listings' counters are in every rate's window), the dashboard's coverage of the OM's metrics, the alert rules,
   * and the rendered panels.
   */
  void checkEveryQueryAlertAndPanel() throws Exception {
    long listed = System.currentTimeMillis() / 1000;
    poll(30, "two scrapes after the listings", () -> {
      List<JsonNode> up = series("query?query=" + enc("timestamp(up{component=\"om\"})"));
      return !up.isEmpty() && up.get(0).get("value").get(1).asDouble() >= listed + 2;
    });
    long end = System.currentTimeMillis() / 1000;

    Set<String> exported = omMetricNames(URI.create("http://127.0.0.1:" + omHttpPort + "/prom"));
    List<String> empty = new ArrayList<>();
    int checked = 0;
    StringBuilder all = new StringBuilder();
    List<String[]> queries = ComposeFilesTest.queries(root);
    for (String[] q : queries) {
      String promql = q[1].replace("$__rate_interval", RATE_INTERVAL);
      List<JsonNode> result = series("query_range?query=" + enc(promql) + "&start=" + start + "&end=" + end
          + "&step=1");
      checked++;
      all.append(String.format("%3d series  [%s] %s%n", result.size(), q[0], q[1]));
      if (result.isEmpty()) {
        empty.add("[" + q[0] + "] " + q[1]);
      }
    }
    System.out.println("dashboard queries against the local cluster:\n" + all);
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

    render(end, queries.stream().map(q -> q[0]).distinct().count());
  }

  @Override
  public void close() throws InterruptedException {
    prometheus.destroy();
    if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
      prometheus.destroyForcibly();
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

  /** dev-support/render-dashboard over the window: one PNG per panel, the grid, and no empty query. */
  private void render(long end, long panels) throws Exception {
    Path out = work.resolve("charts");
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> argv = new ArrayList<>(List.of(java, "--source", "17",
        root.resolve("dev-support/render-dashboard").toString(), "--prometheus", "http://127.0.0.1:" + promPort,
        "--start", Long.toString(start), "--end", Long.toString(end), "--step", "1", "--rate-interval",
        RATE_INTERVAL, "--out", out.toString(), "--require-series",
        root.resolve("compose/common/grafana/dashboards/range-compaction.json").toString()));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(work.resolve("render.log").toFile())
        .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "render-dashboard did not finish");
    String log = Files.readString(work.resolve("render.log"));
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.contains(", 0 with no data"), log);
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

  private List<JsonNode> series(String query) throws IOException, InterruptedException {
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
