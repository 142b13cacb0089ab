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

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One run directory written by {@code dev-support/omkeybench-experiment} ({@code runs/<variant>-<policy>/}), read
 * back: the run's settings and status ({@code run.properties}), omkeybench's per-interval and total rows
 * ({@code omkeybench.csv}), the busy variant's concurrent load ({@code load.csv}, same format) and the OM's scraped
 * {@code /prom} samples ({@code prom.tsv}).
 *
 * <p>Scrape times are seconds since omkeybench's first operation, like its CSV rows: its exit time (recorded by
 * the script) minus the run time of its last row; omkeybench's own start-up (a JVM, the bucket) comes before that.
 *
 * <p>RocksDB statistics in {@code /prom} are cumulative since the OM opened its database. Every run starts a fresh
 * cluster, so "since the database opened" is the run plus the cluster's start-up (a few hundred operations of its
 * own). Histograms ({@code rocksdb_om_db_db_seek_*}) are exported as whole-life average and percentiles only; the
 * average over one scrape interval is recovered from the seek counter: (avg2 x n2 - avg1 x n1) / (n2 - n1).
 */
public final class ExperimentRun {

  /** The RocksDB ticker and histogram names this report reads, as the OM's /prom spells them. */
  static final String SEEK_AVERAGE = "rocksdb_om_db_db_seek_average";
  static final String SEEK_P99 = "rocksdb_om_db_db_seek_percentile99";
  static final String SEEKS = "rocksdb_om_db_number_db_seek";
  static final String ITER_SKIPS = "rocksdb_om_db_number_iter_skip";
  static final String COMPACT_READ = "rocksdb_om_db_compact_read_bytes";
  static final String COMPACT_WRITE = "rocksdb_om_db_compact_write_bytes";
  static final String STALL_MICROS = "rocksdb_om_db_stall_micros";
  static final String RANGES_COMPACTED = "range_compaction_ranges_compacted";
  static final String HEAD_COMPACTIONS = "range_compaction_head_compactions";
  static final String ROUNDS_RUN = "range_compaction_rounds_run";
  static final String TOMBSTONES_REMOVED = "range_compaction_tombstones_removed";
  static final String HEAD_DEAD_REMOVED = "range_compaction_head_dead_entries_removed";
  /**
   * The patched OM's skip hints (OmSkipHints, one record per key table): only an OM running the patched classes
   * publishes them. A sample with a {@code table} label is also kept as {@code name@table}.
   */
  static final String SKIP_HINTS_ENABLED = "om_skip_hints_enabled";
  static final String SKIP_HINTS_USED_KEYTABLE = "om_skip_hints_used@keyTable";
  static final String SKIP_HINTS_LEARNED_KEYTABLE = "om_skip_hints_learned@keyTable";

  /** omkeybench's whole-run figures for one operation ({@code total} row), latencies in ms. */
  public record OpTotal(long count, double meanMs, double p50Ms, double p99Ms, double maxMs) {
  }

  /** One {@code interval} row: {@code timeS} is the end of the interval, seconds since omkeybench started. */
  public record Interval(double timeS, String op, long count, double meanMs, double p99Ms) {
  }

  /** One scrape of /prom: seconds since omkeybench started (negative before), and the kept samples. */
  public record Scrape(double timeS, Map<String, Double> values) {
    double get(String name) {
      Double v = values.get(name);
      return v == null ? Double.NaN : v;
    }
  }

  /** A point of a time series: seconds since omkeybench started, value. */
  public record Point(double timeS, double value) {
  }

  private final String variant;
  private final String policy;
  private final Properties props;
  private final Map<String, OpTotal> totals;
  private final List<Interval> intervals;
  private final List<Scrape> scrapes;
  private final int failedScrapes;
  private final Map<String, OpTotal> loadTotals;

  ExperimentRun(String variant, String policy, Properties props, Map<String, OpTotal> totals,
      List<Interval> intervals, List<Scrape> scrapes, int failedScrapes) {
    this(variant, policy, props, totals, intervals, scrapes, failedScrapes, Map.of());
  }

  ExperimentRun(String variant, String policy, Properties props, Map<String, OpTotal> totals,
      List<Interval> intervals, List<Scrape> scrapes, int failedScrapes, Map<String, OpTotal> loadTotals) {
    this.variant = variant;
    this.policy = policy;
    this.props = props;
    this.totals = Collections.unmodifiableMap(new LinkedHashMap<>(totals));
    this.intervals = List.copyOf(intervals);
    this.scrapes = List.copyOf(scrapes);
    this.failedScrapes = failedScrapes;
    this.loadTotals = Collections.unmodifiableMap(new LinkedHashMap<>(loadTotals));
  }

  /** Reads a run directory; missing files leave their parts empty (a run that failed early). */
  public static ExperimentRun read(Path dir) throws IOException {
    Properties props = new Properties();
    Path propsFile = dir.resolve("run.properties");
    if (Files.exists(propsFile)) {
      try (Reader r = Files.newBufferedReader(propsFile, StandardCharsets.UTF_8)) {
        props.load(r);
      }
    }
    String name = dir.getFileName().toString();
    int dash = name.indexOf('-');
    String variant = props.getProperty("variant", dash > 0 ? name.substring(0, dash) : name);
    String policy = props.getProperty("policy", dash > 0 ? name.substring(dash + 1) : "");

    Map<String, OpTotal> totals = new LinkedHashMap<>();
    List<Interval> intervals = new ArrayList<>();
    List<Double> totalTimes = new ArrayList<>();
    readCsv(dir.resolve("omkeybench.csv"), totals, intervals, totalTimes);
    Map<String, OpTotal> loadTotals = new LinkedHashMap<>();
    readCsv(dir.resolve("load.csv"), loadTotals, new ArrayList<>(), new ArrayList<>());

    // omkeybench's clock starts when its first operation does, after its JVM started and the bucket exists: its
    // start is the moment it exited minus its own run time (the last total row), else when the script launched it.
    double start = Double.parseDouble(props.getProperty("bench_start_epoch_s", "0"));
    double end = Double.parseDouble(props.getProperty("bench_end_epoch_s", "0"));
    if (end > 0 && !totalTimes.isEmpty()) {
      start = end - totalTimes.get(totalTimes.size() - 1);
    }
    List<Scrape> scrapes = new ArrayList<>();
    int failed = 0;
    Path prom = dir.resolve("prom.tsv");
    if (Files.exists(prom)) {
      String epoch = null;
      Map<String, Double> values = new LinkedHashMap<>();
      for (String line : Files.readAllLines(prom, StandardCharsets.UTF_8)) {
        int sp = line.indexOf(' ');
        if (sp <= 0) {
          continue;
        }
        String t = line.substring(0, sp);
        String rest = line.substring(sp + 1);
        if (rest.startsWith("#")) {
          failed++;
          continue;
        }
        if (!t.equals(epoch)) {
          if (epoch != null) {
            scrapes.add(new Scrape(Double.parseDouble(epoch) - start, values));
          }
          epoch = t;
          values = new LinkedHashMap<>();
        }
        int brace = rest.indexOf('{');
        int space = rest.lastIndexOf(' ');
        if (space <= 0) {
          continue;
        }
        String metric = rest.substring(0, brace > 0 && brace < space ? brace : space).trim();
        try {
          double value = Double.parseDouble(rest.substring(space + 1));
          values.putIfAbsent(metric, value);
          String table = brace > 0 && brace < space ? label(rest.substring(brace, space), "table") : null;
          if (table != null) {
            values.putIfAbsent(metric + "@" + table, value);
          }
        } catch (NumberFormatException e) {
          // NaN or another token Prometheus allows and we do not use
        }
      }
      if (epoch != null) {
        scrapes.add(new Scrape(Double.parseDouble(epoch) - start, values));
      }
    }
    return new ExperimentRun(variant, policy, props, totals, intervals, scrapes, failed, loadTotals);
  }

  /** The value of label {@code name} in {@code {a="x",b="y"}}, or null. */
  static String label(String labels, String name) {
    int at = labels.indexOf(name + "=\"");
    while (at > 0 && labels.charAt(at - 1) != '{' && labels.charAt(at - 1) != ',') {
      at = labels.indexOf(name + "=\"", at + 1);
    }
    if (at < 0) {
      return null;
    }
    int from = at + name.length() + 2;
    int to = labels.indexOf('"', from);
    return to < 0 ? null : labels.substring(from, to);
  }

  /** omkeybench's CSV rows: total rows into {@code totals} (and their times), interval rows into {@code intervals}. */
  private static void readCsv(Path csv, Map<String, OpTotal> totals, List<Interval> intervals,
      List<Double> totalTimes) throws IOException {
    List<String> lines = Files.exists(csv) ? Files.readAllLines(csv, StandardCharsets.UTF_8) : List.of();
    if (lines.isEmpty()) {
      return; // omkeybench failed before its first row: the run has no totals, and says so
    }
    Map<String, Integer> col = header(lines.isEmpty() ? "" : lines.get(0));
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length < col.size()) {
        continue;
      }
      String op = f[col.get("op")];
      long count = Long.parseLong(f[col.get("count")]);
      double mean = number(f[col.get("mean_ms")]);
      double p99 = number(f[col.get("p99_ms")]);
      if ("total".equals(f[col.get("kind")])) {
        totalTimes.add(number(f[col.get("time_s")]));
        totals.put(op, new OpTotal(count, mean, number(f[col.get("p50_ms")]), p99, number(f[col.get("max_ms")])));
      } else {
        intervals.add(new Interval(number(f[col.get("time_s")]), op, count, mean, p99));
      }
    }
  }

  private static Map<String, Integer> header(String line) {
    Map<String, Integer> col = new LinkedHashMap<>();
    String[] names = line.split(",", -1);
    for (int i = 0; i < names.length; i++) {
      col.put(names[i].trim(), i);
    }
    for (String needed : List.of("time_s", "kind", "op", "count", "mean_ms", "p50_ms", "p99_ms", "max_ms")) {
      if (!col.containsKey(needed)) {
        throw new IllegalArgumentException("omkeybench.csv: no column '" + needed + "' in header '" + line + "'");
      }
    }
    return col;
  }

  private static double number(String s) {
    return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
  }

  public String variant() {
    return variant;
  }

  public String policy() {
    return policy;
  }

  public String property(String key) {
    return props.getProperty(key, "");
  }

  /** The run finished and omkeybench reported totals. */
  public boolean ok() {
    return "ok".equals(props.getProperty("status")) && !totals.isEmpty();
  }

  /** Why the run has no results ("" when it has). */
  public String problem() {
    if (ok()) {
      return "";
    }
    String status = props.getProperty("status", "no status (run did not finish)");
    return "ok".equals(status) ? "no omkeybench totals" : status;
  }

  public Map<String, OpTotal> totals() {
    return totals;
  }

  /** Whole-run figures of {@code op} in the busy variant's concurrent load ({@code load.csv}), or null. */
  public OpTotal loadTotal(String op) {
    OpTotal t = loadTotals.get(op);
    return t == null || t.count() == 0 ? null : t;
  }

  /** Scrapes in which the OM published its skip hints (OmSkipHints): only the patched classes do. */
  public long skipHintScrapes() {
    return scrapes.stream().filter(s -> !Double.isNaN(s.get(SKIP_HINTS_ENABLED))).count();
  }

  /** The OM ran the patched classes: its /prom showed OmSkipHints in at least one scrape. */
  public boolean patchedOmSeen() {
    return skipHintScrapes() > 0;
  }

  /** The run asked for the patched OM (policy product). */
  public boolean patchedOmRequested() {
    return property("om_classes_requested").startsWith("patched");
  }

  /**
   * Which classes the OM used, as its /prom showed them during the run, and whether that is what was asked for:
   * "patched (...)" or "stock (...)", with "MISMATCH" when the run asked for the other.
   */
  public String omClasses() {
    long seen = skipHintScrapes();
    String what;
    if (seen > 0) {
      what = String.format(java.util.Locale.ROOT, "patched (OmSkipHints in %d of %d scrapes, enabled=%.0f, "
          + "keyTable hints learned %.0f / used %.0f)", seen, scrapes.size(), last(SKIP_HINTS_ENABLED),
          last(SKIP_HINTS_LEARNED_KEYTABLE), last(SKIP_HINTS_USED_KEYTABLE));
    } else {
      what = "stock (no OmSkipHints in " + scrapes.size() + " scrapes)";
    }
    boolean asked = patchedOmRequested();
    return (seen > 0) == asked ? what : "MISMATCH: asked for " + (asked ? "patched" : "stock") + ", ran " + what;
  }

  /** Whole-run figures of {@code op}, or null when the op never ran. */
  public OpTotal total(String op) {
    OpTotal t = totals.get(op);
    return t == null || t.count() == 0 ? null : t;
  }

  public List<Interval> intervals() {
    return intervals;
  }

  public List<Scrape> scrapes() {
    return scrapes;
  }

  public int failedScrapes() {
    return failedScrapes;
  }

  /** Total operations omkeybench counted. */
  public long operations() {
    return totals.values().stream().mapToLong(OpTotal::count).sum();
  }

  /** The metric in the last scrape that has it; NaN when no scrape has it. */
  public double last(String metric) {
    for (int i = scrapes.size() - 1; i >= 0; i--) {
      double v = scrapes.get(i).get(metric);
      if (!Double.isNaN(v)) {
        return v;
      }
    }
    return Double.NaN;
  }

  /** The metric in the last scrape at or before {@code timeS}; NaN when none. */
  double at(String metric, double timeS) {
    double v = Double.NaN;
    for (Scrape s : scrapes) {
      if (s.timeS() > timeS) {
        break;
      }
      double x = s.get(metric);
      if (!Double.isNaN(x)) {
        v = x;
      }
    }
    return v;
  }

  /** The metric's growth from the start of omkeybench to the last scrape (counters); NaN when unknown. */
  public double delta(String metric) {
    double first = at(metric, 0);
    if (Double.isNaN(first)) {
      first = scrapes.isEmpty() ? Double.NaN : scrapes.get(0).get(metric);
    }
    return last(metric) - first;
  }

  /**
   * Internal keys RocksDB stepped over per LIST during the run: the growth of {@code number_iter_skip} over the
   * LIST count. The ticker counts every iterator of the OM (Ozone's background services iterate too), so this is
   * an upper bound of what the lists alone paid; it is the one tombstone measure every policy exposes.
   */
  public double skipsPerList() {
    OpTotal list = total("LIST");
    double skips = delta(ITER_SKIPS);
    return list == null || Double.isNaN(skips) ? Double.NaN : skips / list.count();
  }

  /** The OM DB's seek average since it opened (µs); NaN when not scraped. */
  public double seekAverageMicros() {
    return last(SEEK_AVERAGE);
  }

  public double seekP99Micros() {
    return last(SEEK_P99);
  }

  /** Per-interval p99 of {@code op} over time (ms). */
  public List<Point> p99Series(String op) {
    List<Point> out = new ArrayList<>();
    for (Interval i : intervals) {
      if (i.op().equals(op) && i.count() > 0 && !Double.isNaN(i.p99Ms())) {
        out.add(new Point(i.timeS(), i.p99Ms()));
      }
    }
    return out;
  }

  /** Mean seek time per scrape interval (µs), from the cumulative average and the seek counter. */
  public List<Point> seekAverageSeries() {
    List<Point> out = new ArrayList<>();
    Scrape prev = null;
    for (Scrape s : scrapes) {
      double avg = s.get(SEEK_AVERAGE);
      double n = s.get(SEEKS);
      if (Double.isNaN(avg) || Double.isNaN(n)) {
        continue;
      }
      if (prev != null && n > prev.get(SEEKS) && s.timeS() >= 0) {
        double mean = (avg * n - prev.get(SEEK_AVERAGE) * prev.get(SEEKS)) / (n - prev.get(SEEKS));
        out.add(new Point(s.timeS(), Math.max(0, mean)));
      }
      prev = s;
    }
    return out;
  }

  /** Skips per LIST per omkeybench interval: the ticker's growth over the interval (nearest scrapes) / its lists. */
  public List<Point> skipsPerListSeries() {
    List<Point> out = new ArrayList<>();
    double prevTime = 0;
    for (Interval i : intervals) {
      if (!i.op().equals("LIST")) {
        continue;
      }
      double skips = at(ITER_SKIPS, i.timeS()) - at(ITER_SKIPS, prevTime);
      if (i.count() > 0 && !Double.isNaN(skips)) {
        out.add(new Point(i.timeS(), skips / i.count()));
      }
      prevTime = i.timeS();
    }
    return out;
  }
}
