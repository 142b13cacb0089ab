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

import io.ozonerc.testsupport.LoopbackPorts;
import io.ozonerc.testsupport.RepoPaths;
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
 * small real run puts the product (the patched OM) against off on the busy variant (the queue plus a concurrent load
 * over 50 other buckets, 10 s of omkeybench each on a fresh local cluster with real SCM and OM processes). It checks
 * what every run directory holds (counts, intervals, scrapes, the OM's counters, the log kept, the database and the
 * processes gone), that each OM ran the classes it was meant to, as its /prom showed, that the product's range
 * service ran with the product's defaults, and that the report judges the product from the measured numbers.
 *
 * <p>The real run takes about 100 s on two shared cores (per policy: cluster start ~25 s with C1-only JVMs,
 * omkeybench ~20 s with its own start-up, stop ~5 s); {@code -Dlocal.cluster.it=false} skips it. The range and full
 * policies differ from the product only in the configuration line the script writes for the OM, so no real run of
 * their own is paid for here. The test hands the script its classpath for both the
 * cluster and the report builder, as {@code LocalClusterScriptTest} does for local-cluster, and
 * ../ozone-om-patched/target/classes (the {@code bench.test.patched.classes} property) as the patched OM.
 */
class ExperimentScriptTest {

  private static final Path ROOT = RepoPaths.root();

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
      assertRunDirectory(run, dir);
    }
    // The product's range service ran with the product defaults, not local-cluster's demo values.
    assertTrue(product.property("cluster_conf").contains("ozone.om.range.compaction.min.tombstones=10000"),
        product.property("cluster_conf"));

    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("| OM classes (as its /prom showed) |"), md);
    assertTrue(md.contains("patched (OmSkipHints in") && md.contains("stock (no OmSkipHints in"), md);
    assertTrue(md.contains("concurrent load: CREATE count / p99 ms"), md);
    assertVerdict(md, "busy: LIST p99 off/product - ", true, 3.0);
    assertVerdict(md, "busy: CREATE p99 product/off - ", false, 1.10);
    assertVerdict(md, "busy: DELETE p99 product/off - ", false, 1.10);
    assertTrue(md.contains("NO VERDICT busy: LIST p99 off/range - range not run or failed"), md);
    for (String png : List.of("latency-busy.png", "seek-busy.png", "skips-busy.png")) {
      assertTrue(Files.size(out.resolve(png)) > 1000, png);
    }
    List<String> summary = Files.readAllLines(out.resolve("summary.csv"));
    assertEquals(3, summary.size(), String.join("\n", summary));
    assertTrue(summary.stream().anyMatch(l -> l.startsWith("busy,product,ok,") && l.contains(",patched,")),
        String.join("\n", summary));
    assertTrue(summary.stream().anyMatch(l -> l.startsWith("busy,off,ok,") && l.contains(",stock,")),
        String.join("\n", summary));
  }

  /**
   * What every run directory holds: each operation counted, interval rows, scrapes before, during and after the run
   * (2 s apart around 10+ s of omkeybench), the OM's seek, skip and range-compaction counters, the OM log kept, its
   * database removed, and no cluster process left alive.
   */
  private static void assertRunDirectory(ExperimentRun run, Path dir) throws IOException {
    assertTrue(run.ok(), run.problem());
    for (String op : ExperimentReport.OPS) {
      assertTrue(run.total(op) != null && run.total(op).count() > 0, op + " counted in " + dir + ": " + run.totals());
    }
    assertTrue(run.intervals().size() >= 3, "interval rows in " + dir + ": " + run.intervals().size());
    assertTrue(run.scrapes().size() >= 4, "scrapes in " + dir + ": " + run.scrapes().size());
    assertTrue(run.last(ExperimentRun.SEEKS) > 0, "scraped seek counter in " + dir);
    assertFalse(Double.isNaN(run.seekAverageMicros()), "scraped seek average in " + dir);
    assertTrue(run.delta(ExperimentRun.ITER_SKIPS) >= 0, "scraped iterator skips in " + dir);
    assertTrue(Files.exists(dir.resolve("cluster/logs/om.log")), "OM log kept in " + dir);
    assertFalse(Files.exists(dir.resolve("cluster/data")), "OM database removed in " + dir);
    try (Stream<Path> pids = Files.list(dir.resolve("cluster/pids"))) {
      for (Path p : pids.toList()) {
        Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(Files.readString(p).trim()));
        assertFalse(h.isPresent() && h.get().isAlive(), "cluster process still alive: " + p);
      }
    }
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

  /** 20 consecutive ports per run free on loopback now (other clusters may run on this machine). */
  private static int freePortBlock(int runs) throws IOException {
    return LoopbackPorts.freeBlock(20 * runs);
  }
}
