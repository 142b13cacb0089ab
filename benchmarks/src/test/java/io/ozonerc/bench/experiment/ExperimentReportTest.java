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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.bench.experiment.ExperimentReport.State;
import io.ozonerc.bench.experiment.ExperimentReport.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report builder on small fixture run directories, written in the script's formats: every policy, both variants,
 * and the MET / MISSED / NO VERDICT logic of each target.
 */
class ExperimentReportTest {

  @TempDir
  Path dir;

  /** A run's headline figures: p99 per op (ms), seek average (µs), ranges the service compacted (-1: no service). */
  private record Fixture(double createP99, double deleteP99, double listP99, double seekAvgMicros,
      long rangesCompacted) {
  }

  /**
   * Writes runs/VARIANT-POLICY with run.properties, a CSV of 3 intervals per op plus totals, and 4 scrapes 5 s
   * apart. Skips grow by 1,000 per scrape, seeks by 100.
   */
  private void write(String variant, String policy, Fixture f) throws IOException {
    Path run = dir.resolve("runs").resolve(variant + "-" + policy);
    Files.createDirectories(run);
    boolean product = policy.equals("product");
    Files.writeString(run.resolve("run.properties"), String.join("\n", "variant=" + variant, "policy=" + policy,
        "om_classes_requested=" + (product ? "patched" : "stock"), "status=ok", "threads=4", "duration_s=15",
        "scrape_interval_s=5", "bench_start_epoch_s=1000.0",
        "bench_end_epoch_s=1016.0", "omkeybench_args=--size 0", "cluster_conf=x=y") + "\n");
    StringBuilder csv = new StringBuilder("time_s,kind,op,count,rate_per_s,skipped,mean_ms,p50_ms,p99_ms,max_ms,"
        + "live,tracked,created,deleted\n");
    Map<String, Double> p99 = Map.of("CREATE", f.createP99(), "DELETE", f.deleteP99(), "LIST", f.listP99());
    for (int i = 1; i <= 3; i++) {
      for (String op : ExperimentReport.OPS) {
        csv.append(String.format(Locale.ROOT, "%d.0,interval,%s,10,2.0,0,%.3f,%.3f,%.3f,%.3f,1,1,1,1%n", i * 5, op,
            p99.get(op) / 2, p99.get(op) / 3, p99.get(op), p99.get(op) * 2));
      }
    }
    for (String op : ExperimentReport.OPS) {
      csv.append(String.format(Locale.ROOT, "15.0,total,%s,30,2.0,0,%.3f,%.3f,%.3f,%.3f,1,1,1,1%n", op,
          p99.get(op) / 2, p99.get(op) / 3, p99.get(op), p99.get(op) * 2));
    }
    Files.writeString(run.resolve("omkeybench.csv"), csv.toString());
    StringBuilder prom = new StringBuilder();
    for (int s = 0; s < 4; s++) {
      String t = String.format(Locale.ROOT, "%.2f", 1001.0 + 5 * s);
      prom.append(t).append(" rocksdb_om_db_db_seek_average{hostname=\"h\"} ").append(f.seekAvgMicros()).append('\n')
          .append(t).append(" rocksdb_om_db_db_seek_percentile99{hostname=\"h\"} ").append(f.seekAvgMicros() * 4)
          .append('\n').append(t).append(" rocksdb_om_db_number_db_seek ").append(100 * (s + 1)).append('\n')
          .append(t).append(" rocksdb_om_db_number_iter_skip ").append(1000 * s).append('\n')
          .append(t).append(" rocksdb_om_db_compact_write_bytes ").append(1048576L * s).append('\n');
      if (product) { // only the patched OM publishes OmSkipHints
        prom.append(t).append(" om_skip_hints_enabled{table=\"keyTable\"} 1\n")
            .append(t).append(" om_skip_hints_used{table=\"keyTable\"} ").append(10 * s).append('\n');
      }
      if (f.rangesCompacted() >= 0) {
        prom.append(t).append(" range_compaction_ranges_compacted ").append(s == 3 ? f.rangesCompacted() : 0)
            .append('\n').append(t).append(" range_compaction_rounds_run 1\n");
      }
    }
    prom.append("1020.00 # scrape failed: connection refused\n");
    Files.writeString(run.resolve("prom.tsv"), prom.toString());
  }

  private ExperimentReport report() throws IOException {
    return ExperimentReport.read(dir.resolve("runs"));
  }

  private static Map<String, State> states(List<Verdict> verdicts) {
    return verdicts.stream().collect(Collectors.toMap(v -> v.variant() + ": " + v.target(), Verdict::state));
  }

  @Test
  void allTargetsMetWhenRangeMatchesOffOnWritesAndWinsOnReads() throws IOException {
    for (String v : List.of("published", "queue")) {
      write(v, "range", new Fixture(100, 50, v.equals("queue") ? 10 : 30, 20, 5));
      write(v, "off", new Fixture(95, 50, v.equals("queue") ? 40 : 29, 300, -1));
      write(v, "full", new Fixture(300, 150, 30, 100, -1));
    }
    List<Verdict> verdicts = report().verdicts();
    assertEquals(8, verdicts.size(), verdicts.toString());
    verdicts.forEach(v -> assertEquals(State.MET, v.state(), v.line()));
    Map<String, State> s = states(verdicts);
    assertTrue(s.containsKey("queue: LIST p99 off/range"), s.toString());
  }

  @Test
  void missedWhenWritesRegressOrTheQueueGainIsSmall() throws IOException {
    write("published", "range", new Fixture(120, 50, 35, 400, 3));
    write("published", "off", new Fixture(100, 50, 30, 300, -1));
    write("queue", "range", new Fixture(100, 50, 20, 20, 3));
    write("queue", "off", new Fixture(100, 50, 40, 300, -1));
    Map<String, State> s = states(report().verdicts());
    assertEquals(State.MISSED, s.get("published: CREATE p99 range/off"));          // 1.20x > 1.10x
    assertEquals(State.MET, s.get("published: DELETE p99 range/off"));
    assertEquals(State.MISSED, s.get("published: LIST p99 range/off (no worse, 10% noise allowance)")); // 1.17x
    assertEquals(State.MISSED, s.get("published: OM DB seek average off/range (improved)"));          // worse
    assertEquals(State.MISSED, s.get("queue: LIST p99 off/range"));                 // 2x < 3x
    assertEquals(State.MET, s.get("queue: OM DB seek average off/range (improved)"));
  }

  /** busy: the product judged against off (patched classes seen in its /prom), range alone shown beside it. */
  @Test
  void theBusyVariantJudgesTheProductAndShowsRange() throws IOException {
    write("busy", "off", new Fixture(95, 50, 40, 300, -1));
    write("busy", "range", new Fixture(100, 50, 20, 20, 3));    // 2x: short of 3x
    write("busy", "product", new Fixture(100, 60, 10, 20, 3));  // 4x; delete 1.2x off
    Map<String, State> s = states(report().verdicts());
    assertEquals(State.MET, s.get("busy: LIST p99 off/product"), s.toString());
    assertEquals(State.MET, s.get("busy: CREATE p99 product/off"), s.toString());     // 1.053x
    assertEquals(State.MISSED, s.get("busy: DELETE p99 product/off"), s.toString());  // 1.20x > 1.10x
    assertEquals(State.MISSED, s.get("busy: LIST p99 off/range"), s.toString());
  }

  /** A product run whose OM showed no OmSkipHints ran stock classes: its targets get no verdict. */
  @Test
  void aProductRunOnStockClassesIsNotJudged() throws IOException {
    write("busy", "off", new Fixture(95, 50, 40, 300, -1));
    write("busy", "product", new Fixture(100, 50, 10, 20, 3));
    Path prom = dir.resolve("runs/busy-product/prom.tsv");
    Files.writeString(prom, String.join("\n", Files.readAllLines(prom).stream()
        .filter(l -> !l.contains("om_skip_hints_")).toList()) + "\n");
    Map<String, State> s = states(report().verdicts());
    assertEquals(State.NO_VERDICT, s.get("busy: LIST p99 off/product"), s.toString());
  }

  @Test
  void noVerdictWithoutOffOrWithoutCompactions() throws IOException {
    // published: off never ran (only range and full); queue: range compacted nothing.
    write("published", "range", new Fixture(100, 50, 30, 20, 5));
    write("published", "full", new Fixture(100, 50, 30, 20, -1));
    write("queue", "range", new Fixture(100, 50, 10, 20, 0));
    write("queue", "off", new Fixture(100, 50, 40, 300, -1));
    List<Verdict> verdicts = report().verdicts();
    Map<String, State> s = states(verdicts);
    verdicts.stream().filter(v -> v.variant().equals("published"))
        .forEach(v -> assertEquals(State.NO_VERDICT, v.state(), v.line()));
    assertEquals(State.NO_VERDICT, s.get("queue: LIST p99 off/range"));
    assertEquals(State.NO_VERDICT, s.get("queue: OM DB seek average off/range (improved)"));
    // Writes are judged even when the service found nothing to do: its rounds still run beside them.
    assertEquals(State.MET, s.get("queue: CREATE p99 range/off"));
    assertTrue(verdicts.stream().anyMatch(v -> v.text().contains("compacted nothing")), verdicts.toString());
  }

  @Test
  void aFailedRunIsReportedNotJudged() throws IOException {
    write("queue", "range", new Fixture(100, 50, 10, 20, 5));
    Path off = dir.resolve("runs/queue-off");
    Files.createDirectories(off);
    Files.writeString(off.resolve("run.properties"), "variant=queue\npolicy=off\nstatus=failed: cluster did not "
        + "start (start.out, cluster/logs)\n");
    ExperimentReport report = report();
    assertTrue(report.verdicts().stream().allMatch(v -> v.state() == State.NO_VERDICT));
    assertTrue(report.table("queue").contains("off: failed: cluster did not start"), report.table("queue"));
  }

  @Test
  void writesTablesRatiosAndChartsFromTheFixtures() throws IOException {
    for (String p : List.of("range", "off", "full")) {
      write("queue", p, new Fixture(100, 50, p.equals("range") ? 10 : 40, p.equals("off") ? 300 : 20,
          p.equals("range") ? 4 : -1));
    }
    ExperimentRun range = ExperimentRun.read(dir.resolve("runs/queue-range"));
    // Ticker growth over the run: 3,000 skips over 30 lists; the failed scrape is counted, not parsed.
    assertEquals(100.0, range.skipsPerList(), 1e-9);
    assertEquals(4, range.scrapes().size());
    assertEquals(1, range.failedScrapes());
    assertEquals(3, range.p99Series("LIST").size());
    // Per-interval seek mean from the cumulative average: constant 20 µs stays 20 µs.
    range.seekAverageSeries().forEach(p -> assertEquals(20.0, p.value(), 1e-9));

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    report().write(dir, new PrintStream(printed, true, StandardCharsets.UTF_8));
    String md = Files.readString(dir.resolve("report.md"));
    assertTrue(md.contains("| queue | range | off | full |"), md);
    assertTrue(md.contains("| LIST p99 | 0.25x | 1.00x |"), md);
    assertTrue(md.contains("| CREATE p99 ms | 1,092 / 245 (4.46x) | n/a | 100 / 100 (1.00x) |"), md);
    assertTrue(printed.toString(StandardCharsets.UTF_8).contains("MET        queue: LIST p99 off/range - 4.000x"),
        printed.toString(StandardCharsets.UTF_8));
    for (String png : List.of("latency-queue.png", "seek-queue.png", "skips-queue.png")) {
      assertTrue(Files.size(dir.resolve(png)) > 1000, png);
      assertTrue(md.contains("(" + png + ")"), png);
    }
    List<String> summary = Files.readAllLines(dir.resolve("summary.csv"));
    assertEquals(4, summary.size(), String.join("\n", summary));
  }
}
