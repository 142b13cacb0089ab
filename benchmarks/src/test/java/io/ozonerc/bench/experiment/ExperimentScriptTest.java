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

package io.ozonerc.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.compaction.cluster.LoopbackPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dev-support/omkeybench-experiment}: bad arguments stop it with exit code 2 before anything starts, and one
 * tiny real run (the queue variant, the range policy, 12 s of omkeybench on a fresh local cluster with real SCM and
 * OM processes) produces the run directory and the report. A second tiny run puts the product (the patched OM) against
 * off on the busy variant (the queue plus a concurrent load over 50 other buckets) and checks that each OM ran the
 * classes it was meant to, as its /prom showed, and that the report judges the product from the measured numbers.
 *
 * <p>The tiny run takes about 50 s on two shared cores (cluster start ~25 s with C1-only JVMs, omkeybench ~20 s
 * with its own start-up, stop ~5 s), the busy one (two runs) about twice that; {@code -Dlocal.cluster.it=false} skips
 * both. They hand the script this test's classpath for both the cluster and the report builder, as
 * {@code LocalClusterScriptTest} does for local-cluster, and the busy one ../ozone-om-patched/target/classes (the
 * {@code bench.test.patched.classes} property) as the patched OM.
 */
class ExperimentScriptTest {

  private static final Path ROOT = repoRoot();

  private static Path repoRoot() {
    Path p = Paths.get("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("dev-support/omkeybench-experiment"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("dev-support/omkeybench-experiment not found above " + Paths.get("")
          .toAbsolutePath());
    }
    return p;
  }

  private record Result(int exit, String output) {
  }

  private static Result script(Path out, Map<String, String> env, int timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(out.getParent());
    Path log = out.resolveSibling(out.getFileName() + ".out");
    List<String> argv = new ArrayList<>(List.of("bash", ROOT.resolve("dev-support/omkeybench-experiment").toString(),
        "--out", out.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("LOCAL_CLUSTER_") || k.startsWith("EXPERIMENT_"));
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      // SIGTERM first: the script's trap stops its cluster.
      p.destroy();
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      fail("omkeybench-experiment did not finish in " + timeoutSeconds + " s:\n" + Files.readString(log));
    }
    return new Result(p.exitValue(), Files.readString(log));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
      "--bogus | x | '--bogus'",
      "--duration | 5x | --duration: '5x'",
      "--duration | 0s | --duration: '0s'",
      "--policies | range,fast | --policies: unknown value 'fast'",
      "--variants | queue,lifo | --variants: unknown value 'lifo'",
      "--policies | product,hints | --policies: unknown value 'hints'",
      "--busy-buckets | 1 | --busy-buckets: '1'",
      "--busy-threads | 0 | --busy-threads: '0'",
      "--threads | -1 | --threads: '-1'",
      "--port-base | 80 | --port-base: '80'",
      "--scrape-interval | soon | --scrape-interval: 'soon'"})
  void badArgumentsExitTwoNamingTheOptionBeforeAnythingStarts(String option, String value, String message)
      throws Exception {
    Path out = ROOT.resolve("benchmarks/target/omkeybench-experiment-args/" + System.nanoTime());
    Result r = script(out, Map.of(), 30, option, value);
    assertEquals(2, r.exit(), r.output());
    assertTrue(r.output().contains(message), r.output());
    // Nothing built, nothing started: the results folder is not even created.
    assertFalse(Files.exists(out), "results folder created for bad arguments");
    assertFalse(r.output().contains("starting a fresh cluster"), r.output());
  }

  @Test
  void helpListsTheOptions() throws Exception {
    Path out = ROOT.resolve("benchmarks/target/omkeybench-experiment-args/help");
    Result r = script(out, Map.of(), 30, "--help");
    assertEquals(0, r.exit(), r.output());
    for (String option : List.of("--policies", "--variants", "--duration", "--threads", "--port-base",
        "--full-interval", "--busy-buckets", "--busy-threads", "product", "busy", "EXPERIMENT_PATCHED_OM_CLASSES",
        "LOCAL_CLUSTER_PATCHED_OM")) {
      assertTrue(r.output().contains(option), option + " in --help:\n" + r.output());
    }
  }

  @Test
  @DisabledIfSystemProperty(named = "local.cluster.it", matches = "false",
      disabledReason = "-Dlocal.cluster.it=false: real SCM and OM processes not started")
  void tinyRunWritesTheRunAndTheReport() throws Exception {
    Path out = ROOT.resolve("benchmarks/target/omkeybench-experiment-it/run-" + System.currentTimeMillis());
    String cp = System.getProperty("java.class.path");
    Map<String, String> env = Map.of("LOCAL_CLUSTER_CLASSPATH", cp, "EXPERIMENT_REPORT_CLASSPATH", cp,
        // C1 only: these JVMs live a minute; start-up time matters, peak speed does not.
        "LOCAL_CLUSTER_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
    Result r = script(out, env, 240, "--policies", "range", "--variants", "queue", "--duration", "12s",
        "--threads", "2", "--report-interval", "2s", "--scrape-interval", "2s",
        "--port-base", Integer.toString(freePortBlock()));
    assertEquals(0, r.exit(), r.output());

    Path run = out.resolve("runs/queue-range");
    ExperimentRun parsed = ExperimentRun.read(run);
    assertTrue(parsed.ok(), parsed.problem());
    for (String op : ExperimentReport.OPS) {
      assertTrue(parsed.total(op) != null && parsed.total(op).count() > 0, op + " counted: " + parsed.totals());
    }
    assertTrue(parsed.intervals().size() >= 3, "interval rows: " + parsed.intervals().size());
    // The script scrapes before, during and after the run (2 s apart around 12+ s of omkeybench).
    assertTrue(parsed.scrapes().size() >= 4, "scrapes: " + parsed.scrapes().size());
    assertTrue(parsed.last(ExperimentRun.SEEKS) > 0, "scraped seek counter");
    assertFalse(Double.isNaN(parsed.seekAverageMicros()), "scraped seek average");
    assertTrue(parsed.delta(ExperimentRun.ITER_SKIPS) >= 0, "scraped iterator skips");
    assertFalse(Double.isNaN(parsed.last(ExperimentRun.ROUNDS_RUN)), "range_compaction_* scraped");
    // The product defaults, not local-cluster's demo values, are what the range policy ran with.
    assertTrue(parsed.property("cluster_conf").contains("ozone.om.range.compaction.min.tombstones=10000"),
        parsed.property("cluster_conf"));
    assertTrue(Files.exists(run.resolve("cluster/logs/om.log")), "OM log kept");
    assertFalse(Files.exists(run.resolve("cluster/data")), "OM database removed");
    try (Stream<Path> pids = Files.list(run.resolve("cluster/pids"))) {
      for (Path p : pids.toList()) {
        Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(Files.readString(p).trim()));
        assertFalse(h.isPresent() && h.get().isAlive(), "cluster process still alive: " + p);
      }
    }

    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("| queue | range |"), md);
    assertTrue(md.contains("NO VERDICT queue: CREATE p99 range/off - off not run or failed"), md);
    for (String png : List.of("latency-queue.png", "seek-queue.png", "skips-queue.png")) {
      assertTrue(Files.size(out.resolve(png)) > 1000, png);
    }
    assertEquals(2, Files.readAllLines(out.resolve("summary.csv")).size());
  }

  /**
   * busy, off against product: the product's OM ran the patched classes (OmSkipHints sampled in its prom.tsv, the
   * range service's metrics too, local-cluster saw them at start) and off's the stock ones; the concurrent load
   * wrote over 50 buckets; the report has the product's lines, each MET or MISSED as its own ratio says.
   */
  @Test
  @DisabledIfSystemProperty(named = "local.cluster.it", matches = "false",
      disabledReason = "-Dlocal.cluster.it=false: real SCM and OM processes not started")
  void busyProductRunsThePatchedOmAndTheReportJudgesIt() throws Exception {
    Path out = ROOT.resolve("benchmarks/target/omkeybench-experiment-it/busy-" + System.currentTimeMillis());
    String cp = System.getProperty("java.class.path");
    String patched = System.getProperty("bench.test.patched.classes");
    assertTrue(patched != null && Files.isDirectory(Paths.get(patched)), "patched classes: " + patched);
    Map<String, String> env = Map.of("LOCAL_CLUSTER_CLASSPATH", cp, "EXPERIMENT_REPORT_CLASSPATH", cp,
        "EXPERIMENT_PATCHED_OM_CLASSES", patched, "LOCAL_CLUSTER_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
    Result r = script(out, env, 300, "--policies", "off,product", "--variants", "busy", "--duration", "10s",
        "--threads", "2", "--busy-threads", "1", "--busy-buckets", "50", "--report-interval", "2s",
        "--scrape-interval", "2s", "--port-base", Integer.toString(freePortBlock(2)));
    assertEquals(0, r.exit(), r.output());

    Path productDir = out.resolve("runs/busy-product");
    Path offDir = out.resolve("runs/busy-off");
    ExperimentRun product = ExperimentRun.read(productDir);
    ExperimentRun off = ExperimentRun.read(offDir);
    assertTrue(product.ok(), product.problem());
    assertTrue(off.ok(), off.problem());
    // What the processes showed, not what they were asked for.
    assertTrue(Files.readString(productDir.resolve("prom.tsv")).contains(" om_skip_hints_enabled{"),
        "OmSkipHints scraped from the product's OM");
    assertTrue(product.patchedOmSeen() && product.skipHintScrapes() >= 4, product.omClasses());
    assertEquals(1.0, product.last(ExperimentRun.SKIP_HINTS_ENABLED), "hints on");
    assertTrue(product.property("om_classes_at_start").startsWith("patched (/prom: OmSkipHints on"),
        product.property("om_classes_at_start"));
    assertFalse(Double.isNaN(product.last(ExperimentRun.ROUNDS_RUN)), "the patched OM ran the range service");
    assertFalse(Files.readString(offDir.resolve("prom.tsv")).contains("om_skip_hints_"), "off's OM is stock");
    assertFalse(off.patchedOmSeen(), off.omClasses());
    assertTrue(off.property("om_classes_at_start").startsWith("stock"), off.property("om_classes_at_start"));
    for (Path dir : List.of(productDir, offDir)) {
      ExperimentRun run = ExperimentRun.read(dir);
      assertTrue(run.loadTotal("CREATE") != null && run.loadTotal("CREATE").count() > 0, "load in " + dir);
      assertTrue(Files.readString(dir.resolve("load.out")).contains("spread-00..spread-49 (50 buckets)"),
          "load over 50 buckets in " + dir);
    }

    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("| OM classes (as its /prom showed) |"), md);
    assertTrue(md.contains("patched (OmSkipHints in") && md.contains("stock (no OmSkipHints in"), md);
    assertTrue(md.contains("concurrent load: CREATE count / p99 ms"), md);
    assertVerdict(md, "busy: LIST p99 off/product - ", true, 3.0);
    assertVerdict(md, "busy: CREATE p99 product/off - ", false, 1.10);
    assertVerdict(md, "busy: DELETE p99 product/off - ", false, 1.10);
    assertTrue(md.contains("NO VERDICT busy: LIST p99 off/range - range not run or failed"), md);
    List<String> summary = Files.readAllLines(out.resolve("summary.csv"));
    assertEquals(3, summary.size(), String.join("\n", summary));
    assertTrue(summary.stream().anyMatch(l -> l.startsWith("busy,product,ok,") && l.contains(",patched,")),
        String.join("\n", summary));
    assertTrue(summary.stream().anyMatch(l -> l.startsWith("busy,off,ok,") && l.contains(",stock,")),
        String.join("\n", summary));
  }

  /** The report's line for {@code target}: MET exactly when its printed ratio meets the bound. */
  private static void assertVerdict(String md, String target, boolean atLeast, double bound) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("- (MET|MISSED) +" + java.util.regex.Pattern.quote(
        target) + "([0-9.]+)x \\(").matcher(md);
    assertTrue(m.find(), target + " with a verdict and a ratio in:\n" + md);
    double ratio = Double.parseDouble(m.group(2));
    boolean met = atLeast ? ratio >= bound : ratio <= bound;
    assertEquals(met ? "MET" : "MISSED", m.group(1), target + m.group(2));
  }

  private static int freePortBlock() throws IOException {
    return freePortBlock(1);
  }

  /** 20 consecutive ports per run free on loopback now (other clusters may run on this machine). */
  private static int freePortBlock(int runs) throws IOException {
    return LoopbackPorts.freeBlock(20 * runs);
  }
}
