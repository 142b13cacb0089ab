package io.ozonerc.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dev-support/omkeybench-experiment}: bad arguments stop it with exit code 2 before anything starts, and one
 * tiny real run (the queue variant, the range policy, 12 s of omkeybench on a fresh local cluster with real SCM and
 * OM processes) produces the run directory and the report.
 *
 * <p>The tiny run takes about 50 s on two shared cores (cluster start ~25 s with C1-only JVMs, omkeybench ~20 s
 * with its own start-up, stop ~5 s); {@code -Dlocal.cluster.it=false} skips it. It hands the script this test's
 * classpath for both the cluster and the report builder, as {@code LocalClusterScriptTest} does for local-cluster.
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
        "--full-interval")) {
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

  /** A block of 20 consecutive ports free on loopback now (other clusters may run on this machine). */
  private static int freePortBlock() throws IOException {
    InetAddress lo = InetAddress.getLoopbackAddress();
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(20000, 60000 - 20);
      int p = base;
      while (p < base + 20 && bindable(lo, p)) {
        p++;
      }
      if (p == base + 20) {
        return base;
      }
    }
    throw new IOException("no block of 20 free loopback ports found");
  }

  private static boolean bindable(InetAddress lo, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(lo, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
