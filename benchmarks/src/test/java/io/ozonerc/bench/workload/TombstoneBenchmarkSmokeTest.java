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

package io.ozonerc.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * Runs the default workload (a hot queue bucket among cold buckets) at a tiny scale, a few seconds per policy, and
 * checks what it writes, plus the loud failures on bad arguments. Assertions are on structure and on counts RocksDB
 * reports (internal keys skipped per list, tombstones left, keys found), never on time. The default policies
 * include the two hint policies, so the comparison starts a real child JVM for each on ozone-om-patched's classes
 * (built before this module by the reactor; see the pom), while this JVM keeps the stock 2.2.0 classes.
 */
class TombstoneBenchmarkSmokeTest {

  @TempDir
  static Path out;

  static final long EXPIRY_KEYS = 20_000;
  /** Half of the 19,800 logs/ keys (the other 1%, 200 keys, are the kept index/ keys). */
  static final long EXPIRED = 9_900;

  static int exitCode;
  static String stdout;
  static Map<String, Map<String, String>> summary;
  static TombstoneBenchmark bench;

  /** ozone-om-patched's classes, as the pom tells this test where they are. */
  static Path patchedClasses() {
    String dir = System.getProperty("bench.test.patched.classes");
    assertTrue(dir != null, "bench.test.patched.classes not set: run through Maven (benchmarks/pom.xml sets it)");
    Path p = Path.of(dir).toAbsolutePath().normalize();
    assertTrue(Files.isRegularFile(p.resolve("org/apache/hadoop/hdds/utils/db/SkipHints.class")), p + " holds no "
        + "patched classes: build ozone-om-patched first (mvn -pl benchmarks -am test does)");
    return p;
  }

  @BeforeAll
  static void runTinyComparison() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    bench = new TombstoneBenchmark();
    bench.stdout = new PrintStream(buf, true, StandardCharsets.UTF_8);
    exitCode = new CommandLine(bench).execute(
        // The default hot-queue workload at toy size: 20,000 cold keys in 10 buckets (a fifth of the creates go
        // there too), one hot bucket used as a queue (oldest keys deleted, names sorted by age, lists from the
        // bucket start), so every list crosses the tombstones left of the first live key; a 1 MB memtable so they
        // reach SST files quickly. The expiry bucket at toy size too: 20,000 keys, half of its 19,800 logs/ keys
        // (9,900) expired in batches of 1,000, 100 listings of it from random keys inside it.
        "--cold-keys", "20000", "--cold-buckets", "10", "--ops", "50000", "--live-cap", "2000",
        "--expiry-keys", String.valueOf(EXPIRY_KEYS), "--expiry-lists", "100",
        "--list-length", "100", "--write-buffer", "1MB", "--min-tombstones", "100", "--interval", "50ms",
        "--full-interval", "1s", "--sample-interval", "200ms", "--warmup-ops", "0", "--no-progress",
        "--patched-classes", patchedClasses().toString(), "--out", out.toString(),
        "--readme", readme().toString());
    stdout = buf.toString(StandardCharsets.UTF_8);
    summary = readSummary(out.resolve("summary.csv"));
  }

  /** A README stand-in with the short table's markers and text on both sides of them. */
  private static Path readme() throws IOException {
    Path f = out.resolve("readme-standin.md");
    Files.createDirectories(f.getParent());
    Files.writeString(f, "# before\n\n" + ReadmeTable.BEGIN + "\nan old table\n" + ReadmeTable.END + "\n\n# after\n");
    return f;
  }

  /** --readme wrote the short table, a row per policy, between the markers and nowhere else. */
  @Test
  void readmeGetsTheShortTableBetweenItsMarkers() throws Exception {
    assertEquals(0, exitCode, stdout);
    String text = Files.readString(out.resolve("readme-standin.md"));
    assertTrue(text.startsWith("# before\n\n" + ReadmeTable.BEGIN + "\nAs `dev-support/bench-tombstones "), text);
    assertTrue(text.endsWith(ReadmeTable.END + "\n\n# after\n"), text);
    assertFalse(text.contains("an old table"), text);
    assertTrue(text.contains("| policy | queue list p99 ms | / ideal-under-load | expiry list p99 ms |"), text);
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      assertTrue(text.contains("\n| " + policy + " | "), "no row for " + policy + " in\n" + text);
    }
  }

  private static Map<String, Map<String, String>> readSummary(Path csv) throws Exception {
    Map<String, Map<String, String>> rows = new HashMap<>();
    if (!Files.exists(csv)) {
      return rows;
    }
    List<String> lines = Files.readAllLines(csv);
    String[] header = lines.get(0).split(",", -1);
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], i < cells.length ? cells[i] : "");
      }
      rows.put(cells[0], row);
    }
    return rows;
  }

  @Test
  void writesEveryReportFileWithEveryPolicy() throws Exception {
    assertEquals(0, exitCode, stdout);
    for (String f : List.of("report.md", "summary.csv", "series.csv", "list-latency.png", "skips-per-list.png",
        "list-p99.png", "tombstones.png", "expiry-series.csv", "expiry-p99.png", "level-0-files.png")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f + " missing or empty");
    }
    String md = Files.readString(out.resolve("report.md"));
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      assertTrue(md.contains("| " + policy + " |"), "report.md has no row for " + policy);
      assertTrue(summary.containsKey(policy), "summary.csv has no row for " + policy);
      assertTrue(stdout.contains(String.format("%-9s ", policy)), "no summary line for " + policy);
    }
    for (String column : List.of("DB seek avg us", "DB seek p99 us", "skips/list", "write stall ms",
        "policy's compacted MB", "list p99 / ideal", "compaction write / full", "compaction write / reference",
        "DB seek avg gain vs none", "DB seek time gain vs none")) {
      assertTrue(md.contains(column), "report.md has no column '" + column + "'");
    }
    assertTrue(md.contains("Cold data: 20,000 keys"), "cold data not described");
    // The expiry's timeline: every policy that ran the expiry has a last batch time and a time to recover (or not).
    assertTrue(md.contains("| policy | last expiry batch ended at s | intervals after it | worst interval p99 after "
        + "it ms | listings after it crossing the span | time to recover | judged on all expiry listings |"), md);
    // Two figures: on the listings that cross the span, and on all of them.
    String recovered = "(\\d+\\.\\d s|not recovered within the run)";
    assertTrue(md.lines().anyMatch(l -> l.matches("\\| range\\+hints \\| .* \\| " + recovered + " \\| " + recovered
        + " \\|")), "no time to recover for range+hints");
    assertTrue(md.lines().anyMatch(l -> l.startsWith("| ideal | - (no batch in the run) |")), md);
    // The operators' table: a row beside none for every policy that wrote into the store it listed, none for ideal.
    assertTrue(md.contains("| policy | create p99 us | delete p99 us | level-0 files max |"), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("| range | ") && l.contains("x none) |")), md);
    // The floors: targets judged against ideal under load, the ratio to ideal idle beside.
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- ideal-loaded: after the fact") && l.contains("while the "
        + "sequence's writes ran at the same time")), md);
    assertTrue(md.lines().anyMatch(l -> l.contains("range list p99 = ") && l.contains("x ideal-under-load (")
        && l.contains("x ideal idle)")), md);
    // Every target line of the queue workload is judged (range compacted here) and shows its measured value.
    for (String target : List.of("range list p99 = ", "better than none", "range compaction bytes written = ",
        "x reference", "range create p99 = ", "range delete p99 = ", "range write stalls", "DB seek average")) {
      assertTrue(md.lines().anyMatch(l -> l.contains(target) && (l.startsWith("- MET") || l.startsWith("- MISSED")
          || l.startsWith("- INFO") || l.startsWith("- n/a"))), "no judged target line for '" + target + "'");
    }
    assertTrue(!md.contains("NO VERDICT"), "range compacted, so a verdict is due");
    List<String> series = Files.readAllLines(out.resolve("series.csv"));
    assertTrue(series.get(0).startsWith("policy,repeat,elapsed_s,ops_done,lists,list_p99_ms"), series.get(0));
    for (String policy : List.of("none", "ideal")) {
      assertTrue(series.stream().anyMatch(l -> l.startsWith(policy + ",")), "no time series for " + policy);
    }
  }

  @Test
  void everyPolicyEndsWithExactlyTheSequencesLiveKeys() {
    for (Map.Entry<String, Map<String, String>> e : summary.entrySet()) {
      if (e.getValue().get("unavailable").isEmpty()) {
        assertEquals(e.getValue().get("live_keys_expected"), e.getValue().get("live_keys_found"), e.getKey());
      }
    }
  }

  @Test
  void noneListsCrossTombstonesAndIdealCrossesNone() {
    assertTrue(skipsPerList("none") > 100, "none should skip tombstones: " + summary.get("none"));
    assertEquals(0.0, skipsPerList("ideal"), "ideal is fully compacted");
  }

  /**
   * The expiry deleted exactly its keys in every run (and every run ends with exactly the keys the sequence leaves,
   * checked above); under none its listings crossed the tombstones it left, counted by RocksDB's skip ticker around
   * each listing, and so did hints' (no listing of the expiry bucket starts at its start, so no hint is learned
   * there); ideal's crossed none.
   */
  @Test
  void expiryDeletesItsKeysAndItsListingsCrossTombstones() throws Exception {
    assertEquals(0, exitCode, stdout);
    assertTrue(stdout.contains("expiry: 10 delete batches removing 9,900 keys, 100 listings of the expiry bucket"),
        stdout);
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      Map<String, String> row = summary.get(policy);
      assertEquals(EXPIRED, Long.parseLong(row.get("expired_keys")), policy);
      assertEquals(100, Long.parseLong(row.get("expiry_lists")), policy);
      assertEquals(policy.equals("ideal") ? 0 : 10, Long.parseLong(row.get("expiry_batches")), policy);
    }
    // At this size RocksDB's own compactions drop the expiry's tombstones within seconds (a compaction out of level
    // 0 goes straight to the bottom level here), so only the listings during and just after the expiry cross them:
    // a few hundred internal keys per listing on average (704 for none in one run). WorkloadRunnerExpiryTest checks
    // the count per listing exactly, on a store where nothing compacts them away.
    assertTrue(expirySkipsPerList("none") > 0, "none's expiry listings crossed no tombstone: " + summary.get("none"));
    assertTrue(expirySkipsPerList("hints") > 0, "hints' expiry listings crossed no tombstone: "
        + summary.get("hints"));
    assertEquals(0.0, expirySkipsPerList("ideal"), "ideal is fully compacted");
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("| policy | expiry lists | expiry list p50 ms | expiry list p99 ms |"), md);
    assertTrue(md.lines().anyMatch(l -> (l.startsWith("- MET") || l.startsWith("- MISSED"))
        && l.contains("range+hints closes ") && l.contains("of none's expiry list p99 gap to ideal")
        && l.contains("; hints alone ") && l.contains(", range alone ")), "no judged expiry target line");
  }

  private static double expirySkipsPerList(String policy) {
    return Double.parseDouble(summary.get(policy).get("expiry_skips_per_list"));
  }

  /** RocksDB's DB_SEEK histogram is read for every run: each list seeks at least once. */
  @Test
  void everyRunReportsRocksDbSeeks() {
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      Map<String, String> row = summary.get(policy);
      assertTrue(Long.parseLong(row.get("db_seek_count")) >= Long.parseLong(row.get("lists")), row.toString());
      assertTrue(Double.parseDouble(row.get("db_seek_avg_us")) > 0, row.toString());
    }
  }

  /** Both range policies compacted, and their lists crossed fewer internal keys than none's. */
  @ParameterizedTest
  @CsvSource({"range", "reference"})
  void rangePoliciesCompactAndLowerSkipsPerList(String policy) {
    Map<String, String> row = summary.get(policy);
    assertTrue(Long.parseLong(row.get("manual_compactions")) > 0, row.toString());
    assertTrue(skipsPerList(policy) < skipsPerList("none"),
        policy + " " + skipsPerList(policy) + " vs none " + skipsPerList("none"));
  }

  /**
   * The service under test removed dead entries (its own counts: tombstones from SST facts, dead head entries from
   * its seeks) and held fewer tombstones than none over the run (mean of the sampled counts). Not the count at the
   * last instant: none's own compactions can drop a batch of tombstones just before the run ends while range's
   * newest deletes still sit below min.tombstones, so a single reading compares where each store happened to be in
   * its flush cycle. (Not asserted for reference, whose whole-bucket compactions at this size land wherever the
   * cycle puts them.)
   */
  @Test
  void rangeRemovesTombstonesAndHoldsFewerThanNoneOverTheRun() throws Exception {
    String md = Files.readString(out.resolve("report.md"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "tombstones removed ([0-9,]+), head compactions [0-9]+ \\(dead entries removed ([0-9,]+),").matcher(md);
    assertTrue(m.find(), "no service removal counts in report.md");
    long removed = Long.parseLong(m.group(1).replace(",", "")) + Long.parseLong(m.group(2).replace(",", ""));
    assertTrue(removed > 0, "range's service removed nothing: " + m.group());
    double range = meanSampledTombstones("range");
    double none = meanSampledTombstones("none");
    assertTrue(range < none, "mean sampled tombstones: range " + range + " vs none " + none);
  }

  private static double meanSampledTombstones(String policy) throws Exception {
    List<String> lines = Files.readAllLines(out.resolve("series.csv"));
    int col = List.of(lines.get(0).split(",")).indexOf("tombstones");
    assertTrue(col > 0, "series.csv has no tombstones column: " + lines.get(0));
    double[] counts = lines.stream().skip(1).filter(l -> l.startsWith(policy + ","))
        .mapToDouble(l -> Double.parseDouble(l.split(",")[col])).toArray();
    assertTrue(counts.length >= 3, "too few samples for " + policy + ": " + counts.length);
    return java.util.Arrays.stream(counts).average().orElseThrow();
  }

  /**
   * hints and range+hints ran in child JVMs on the patched classes, and their runs came back to the report; every
   * other policy ran in this JVM on the stock 2.2.0 classes. Checked by where each run's JVM loaded
   * OmMetadataManagerImpl from, and by the hint counters only the patched classes have.
   */
  @Test
  void hintPoliciesRanInChildJvmsOnThePatchedClassesAndTheRestOnStock() throws Exception {
    assertEquals(0, exitCode, stdout);
    Report report = bench.reports.get(0);
    Path patched = patchedClasses();
    Path stockJar = Path.of(org.apache.hadoop.ozone.om.OmMetadataManagerImpl.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    assertTrue(stockJar.getFileName().toString().matches("ozone-manager-2\\.2\\.0\\.jar"),
        "this JVM must load the stock OM: " + stockJar);
    assertTrue(!SkipHintCounters.loaded(), "the parent JVM must not see the skip hints patch");
    RunResult none = report.get("none");
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      RunResult r = report.get(policy);
      assertTrue(r != null, "no run of " + policy + " in the report");
      assertEquals(none.liveKeysExpected(), r.liveKeysExpected(), policy + ": another sequence");
      assertEquals(r.liveKeysExpected(), r.liveKeysFound(), policy);
      assertEquals(none.list().getTotalCount(), r.list().getTotalCount(), policy + ": lists");
      if (TombstoneBenchmark.HINT_POLICIES.contains(policy)) {
        assertEquals(patched, Path.of(r.omClassesFrom()).toAbsolutePath().normalize(), policy);
        assertEquals(none.ops(), r.ops(), policy);
        assertTrue(r.hints() != null, policy + " brought no hint counters back");
        assertTrue(r.hints().used() > 0, policy + ": no seek jumped: " + r.hints());
        assertTrue(r.hints().learned() > 0, policy + ": no hint learned: " + r.hints());
        assertTrue(r.skipsPerList() < none.skipsPerList(), policy + " skips/list " + r.skipsPerList() + " vs none "
            + none.skipsPerList());
      } else {
        assertEquals(stockJar, Path.of(r.omClassesFrom()), policy + " must run on the stock classes");
        assertTrue(r.hints() == null, policy + " has hint counters");
      }
    }
    assertTrue(report.get(HintsPolicy.RANGE_HINTS).detail().startsWith("service metrics: rounds "),
        "range+hints runs range's service");
    assertEquals(patched.toString(), summary.get("hints").get("om_classes"));
  }

  /** One line per policy on what it did, and the product's targets judged beside hints alone and range alone. */
  @Test
  void reportSaysWhatEachPolicyDidAndJudgesTheProduct() throws Exception {
    String md = Files.readString(out.resolve("report.md"));
    for (String policy : TombstoneBenchmark.ALL_POLICIES) {
      assertTrue(md.lines().filter(l -> l.startsWith("- " + policy + ": ")).count() == 1,
          "no single 'what it did' line for " + policy);
    }
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- none: nothing: RocksDB's automatic compactions only")), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- ideal: after the fact")), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- hints: no compaction;") && l.contains("seeks jumped")), md);
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- range+hints: ") && l.contains("tombstones removed by its "
        + "own count") && l.contains("seeks jumped")), md);
    for (String target : List.of("range+hints list p99 = ", "of none's list p99 gap to ideal",
        "range+hints manual compaction cost = ", "range+hints create p99 = ", "range+hints delete p99 = ")) {
      assertTrue(md.lines().anyMatch(l -> (l.startsWith("- MET") || l.startsWith("- MISSED")) && l.contains(target)
          && l.contains("; hints alone ") && l.contains(", range alone ")), "no judged product line '" + target
          + "'");
    }
    assertTrue(md.lines().anyMatch(l -> l.startsWith("- VERDICT on the product, range+hints: ")), md);
  }

  @Test
  void rangeReportsTheServicesOwnMetrics() throws Exception {
    assertTrue(Files.readString(out.resolve("report.md")).contains("range: service metrics: rounds "));
  }

  /** A run with no deletes leaves range nothing to compact: the report must refuse every verdict on it. */
  @Test
  void noVerdictWhenRangeHadNothingToDo() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    TombstoneBenchmark fresh = new TombstoneBenchmark();
    fresh.stdout = new PrintStream(buf, true, StandardCharsets.UTF_8);
    Path dir = out.resolve("idle");
    int code = new CommandLine(fresh).execute("--workload", "queue", "--weights", "create:4,list:1", "--ops", "3000",
        "--list-length", "100", "--write-buffer", "1MB", "--interval", "50ms", "--policies", "none,range,ideal",
        "--warmup-ops", "0", "--no-progress", "--out", dir.toString());
    String text = buf.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    String md = Files.readString(dir.resolve("report.md"));
    assertTrue(md.contains("- NO VERDICT: range compacted nothing"), md);
    assertTrue(md.lines().noneMatch(l -> l.startsWith("- MET") || l.startsWith("- MISSED")), md);
  }

  private static double skipsPerList(String policy) {
    return Double.parseDouble(summary.get(policy).get("skips_per_list"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "--weights=create:0,delete:0,list:0 | sum to zero",
      "--weights=create:x                 | not an integer",
      "--weights=make:3                   | unknown operation 'make'",
      "--ops=-5                           | --ops must be in",
      "--live-cap=-1                      | --live-cap must be >= 1",
      "--write-threads=-2                 | --write-threads must be >= 1",
      "--policies=none,bogus              | unknown policy 'bogus'",
      "--interval=soon                    | cannot parse duration",
      "--delete-mode=newest               | unknown value 'newest'",
      "--tombstone-ratio=1.5              | --tombstone-ratio must be in (0, 1]",
      "--range-conf=ozone.om.range.compaction.ranges.per.run=-3 | ozone.om.range.compaction.ranges.per.run",
      "--range-conf=ozone.om.foo=1        | only ozone.om.range.compaction.* keys",
      "--workload=lifo                    | unknown preset 'lifo'",
      "--repeat=0                         | --repeat must be in [1, 100]",
      "--cold-keys=-1                     | --cold-keys must be in",
      "--cold-write-share=1.5             | --cold-write-share must be in [0, 1)",
      "--expiry-keys=-1                   | --expiry-keys must be 0 or in [2, ",
      "--expiry-share=1                   | --expiry-share must be in [0, 1)",
      "--expiry-batch=0                   | --expiry-batch must be >= 1",
      "--expiry-lists=-3                  | --expiry-lists must be in [0, 10000000]",
      "--patched-list                     | --patched-list: the OM classes on the class path are stock",
      "--policies=none,hints              | hints: no patched OM classes given",
      "--policies=range+hints             | range+hints: no patched OM classes given",
      "--patched-classes=target/no-such-dir | hints, range+hints: --patched-classes target/no-such-dir holds no",
      "--readme=target/no-such-readme.md  | --readme target/no-such-readme.md: no such file",
      "--readme=pom.xml                   | --readme pom.xml has no line <!-- main-job-table:begin --> followed by",
  })
  void badArgumentsFailLoudly(String arg, String message) {
    StringWriter err = new StringWriter();
    TombstoneBenchmark fresh = new TombstoneBenchmark();
    CommandLine cmd = new CommandLine(fresh);
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(arg, "--no-progress", "--out", out.resolve("bad").toString());
    assertNotEquals(0, code, arg);
    assertTrue(err.toString().contains(message), "for " + arg + ": " + err);
    assertTrue(fresh.reports.isEmpty(), "nothing may run on bad arguments");
  }

  /**
   * A bad --scale-ops is a usage error (exit 2) naming the option and the value, raised before any comparison is
   * planned: --repeat=0, which the planning of the first comparison rejects with another message, is given too, so
   * a bad value that slipped through would fail here on that message instead of starting a run.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "--scale --scale-ops=1e8              | --scale-ops: unknown operation count '1e8' in '1e8'",
      "--scale --scale-ops=1e5,500000       | --scale-ops: unknown operation count '500000' in '1e5,500000'",
      "--scale --scale-ops=1e5,,1e7         | in '1e5,,1e7'; known: 100000 (1e5), 1000000 (1e6), 10000000 (1e7)",
      "--scale --scale-ops=                 | --scale-ops is empty",
      "--scale --scale-ops=1e6,1000000      | --scale-ops: 1000000 (1e6) given twice in '1e6,1000000'",
      "--scale-ops=1e6                      | --scale-ops '1e6' needs --scale",
      "--scale --readme=pom.xml             | --readme writes one comparison's short table; --scale runs several",
  })
  void badScaleOpsFailBeforeAnythingRuns(String args, String message) {
    StringWriter err = new StringWriter();
    TombstoneBenchmark fresh = new TombstoneBenchmark();
    CommandLine cmd = new CommandLine(fresh);
    cmd.setErr(new PrintWriter(err));
    List<String> argv = new java.util.ArrayList<>(List.of(args.split(" ")));
    argv.addAll(List.of("--repeat=0", "--no-progress", "--out", out.resolve("bad-scale").toString()));
    int code = cmd.execute(argv.toArray(new String[0]));
    assertEquals(2, code, args + ": " + err);
    assertTrue(err.toString().contains(message), "for " + args + ": " + err);
    assertTrue(fresh.reports.isEmpty(), "nothing may run on a bad --scale-ops");
  }

  /**
   * --scale-ops picks steps in either spelling, runs them smallest first, and keeps each next to its published gain.
   */
  @Test
  void scaleOpsSelectsPublishedStepsInOrder() {
    TombstoneBenchmark fresh = new TombstoneBenchmark();
    new CommandLine(fresh).parseArgs("--scale", "--scale-ops", "10000000, 1E6");
    List<TombstoneBenchmark.ScaleStep> steps = fresh.scaleSteps();
    assertEquals(List.of(1_000_000L, 10_000_000L), steps.stream().map(TombstoneBenchmark.ScaleStep::ops).toList());
    assertEquals(List.of("27x", "158x"), steps.stream().map(TombstoneBenchmark.ScaleStep::published).toList());
    assertEquals("1e6 and 1e7 operations (one comparison each)", ScaleSeries.stepsText(steps));
    // A step whose comparison yielded no none/range pair still prints its own published gain, not the first one's.
    String table = ScaleSeries.table(steps.subList(0, 1),
        List.of(new Report("t", "s", 1000, Report.Targets.QUEUE, 4 << 20, Map.of())));
    assertTrue(table.contains("| 1,000,000 | n/a (none or range not available) |||||| 27x |||"), table);

    TombstoneBenchmark all = new TombstoneBenchmark();
    new CommandLine(all).parseArgs("--scale");
    assertEquals(TombstoneBenchmark.SCALE_STEPS, all.scaleSteps());
    assertEquals("1e5, 1e6 and 1e7 operations (one comparison each)",
        ScaleSeries.stepsText(all.scaleSteps()));
    TombstoneBenchmark one = new TombstoneBenchmark();
    new CommandLine(one).parseArgs("--scale", "--scale-ops=100000");
    assertEquals("1e5 operations (one comparison)", ScaleSeries.stepsText(one.scaleSteps()));
  }
}
