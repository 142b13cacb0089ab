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

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Turns the runs of one comparison into text and files: per-policy tables (median over repeats, with the spread
 * min..max next to it when a policy ran more than once), ratios against {@code none}, {@code ideal}, {@code full}
 * and {@code reference}, the targets marked MET / MISSED with the measured ratio, or NO VERDICT when the policy
 * under test did no work, and the files (summary CSV, time-series CSV, charts, a Markdown report). Every ratio is
 * between runs of the same process on the same machine; ratios are taken per repeat (run i of a policy against run i
 * of its baseline) and then summarised.
 */
public final class Report {

  /** Which targets apply: they differ between the workload range compaction exists for and plain random churn. */
  enum Targets {
    /** Deletes of the oldest keys (a queue): range must approach ideal at a small cost. */
    QUEUE,
    /** Random deletes: range must do no harm. */
    RANDOM_CHURN
  }

  static final double TARGET_LIST_P99_VS_IDEAL = 1.5;
  /** With the OM's own 128 MB memtable more tombstones sit in the memtable, out of reach of any compaction. */
  static final double TARGET_LIST_P99_VS_IDEAL_128MB = 2.0;
  static final long OM_WRITE_BUFFER = 128L << 20;
  static final double TARGET_LIST_GAIN_VS_NONE = 5;
  static final double TARGET_WRITE_P99_VS_NONE = 1.10;
  static final double TARGET_COMPACT_WRITE_VS_FULL = 0.10;
  /** Random churn: range may be this much above none on any metric (the noise between two runs of one policy). */
  static final double TARGET_NO_WORSE_VS_NONE = 1.10;

  /** The product: range's service on the OM patched with skip hints. Its targets are judged beside range's. */
  static final String PRODUCT = HintsPolicy.RANGE_HINTS;
  static final double TARGET_PRODUCT_P99_VS_IDEAL = 1.3;
  /** With the OM's 128 MB memtable (or more). */
  static final double TARGET_PRODUCT_P99_VS_IDEAL_128MB = 1.5;
  /** Share of none's list p99 gap to ideal the product must close: (none - product) / (none - ideal). */
  static final double TARGET_PRODUCT_GAP_CLOSED = 0.8;
  /** Manual compaction cost: (product - none) / (full - none) in compaction bytes written. */
  static final double TARGET_PRODUCT_COST_VS_FULL = 0.10;
  static final double TARGET_PRODUCT_WRITE_P99_VS_NONE = 1.05;
  /**
   * The expiry listings: share of none's expiry list p99 gap to ideal the product must close, (none - product) /
   * (none - ideal), and the most its expiry list p99 may be against ideal. Listings that start inside the span a
   * lifecycle rule is deleting are what object stores serve all day; skip hints' dead spans and range compaction
   * both work on them.
   */
  static final double TARGET_PRODUCT_EXPIRY_GAP_CLOSED = 0.9;
  static final double TARGET_PRODUCT_EXPIRY_P99_VS_IDEAL = 1.5;
  /**
   * {@code none} is tombstone-bound when its lists step over more than 10 internal keys per entry they return
   * (skips per list > 10 x list length): more than 90% of what a list reads is dead. Below that a list's cost is its
   * own entries, and no compaction can win 5x.
   */
  static final int TOMBSTONE_BOUND_SKIPS_PER_ENTRY = 10;

  private final String title;
  private final String settings;
  private final int listLength;
  private final Targets targetSet;
  private final long writeBufferBytes;
  private final Map<String, List<RunResult>> runs = new LinkedHashMap<>();

  Report(String title, String settings, int listLength, Targets targetSet, long writeBufferBytes,
      Map<String, List<RunResult>> results) {
    this.title = title;
    this.settings = settings;
    this.listLength = listLength;
    this.targetSet = targetSet;
    this.writeBufferBytes = writeBufferBytes;
    results.forEach((k, v) -> runs.put(k, List.copyOf(v)));
  }

  /** The policies of this comparison, in the order they were given. */
  java.util.Set<String> policies() {
    return runs.keySet();
  }

  /** The available runs of {@code policy} (one per repeat), or null when it was not run or is unavailable. */
  List<RunResult> all(String policy) {
    List<RunResult> r = runs.get(policy);
    return r == null || r.isEmpty() || !r.get(0).available() ? null : r;
  }

  /** The first run of {@code policy}, or null. */
  RunResult get(String policy) {
    List<RunResult> r = all(policy);
    return r == null ? null : r.get(0);
  }

  /**
   * The floor the targets are judged against: {@code ideal-loaded} (the end state's lists while the sequence's
   * writes load the machine) when it ran, else {@code ideal} (the same lists alone).
   */
  String floor() {
    return all(WorkloadRunner.IDEAL_LOADED) != null ? WorkloadRunner.IDEAL_LOADED : "ideal";
  }

  /** The floor as the target lines name it. */
  String floorName() {
    return floor().equals("ideal") ? "ideal" : "ideal-under-load";
  }

  /** f(policy) / f(floor) as a cell, then f(policy) / f(ideal) when the floor is the loaded one and ideal ran. */
  String floorCell(String policy, ToDoubleFunction<RunResult> f) {
    return cell(ratio(policy, floor(), f)) + idleNote(policy, f, "%.3gx", " idle");
  }

  /**
   * " (Rx ideal idle)" beside a ratio to the loaded floor; empty when the floor is ideal itself or ideal is missing.
   */
  String idleNote(String policy, ToDoubleFunction<RunResult> f, String format, String suffix) {
    Stat idle = floor().equals("ideal") ? null : ratio(policy, "ideal", f);
    return idle == null ? "" : " (" + idle.format(format) + (format.endsWith("x") ? "" : "x") + " ideal" + suffix
        + ")";
  }

  /** Median and spread of one quantity over repeats. */
  record Stat(double median, double min, double max, int n) {
    static Stat of(double[] values) {
      double[] v = values.clone();
      Arrays.sort(v);
      int n = v.length;
      double median = n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
      return new Stat(median, n == 0 ? Double.NaN : v[0], n == 0 ? Double.NaN : v[n - 1], n);
    }

    /** The median in {@code format}, then {@code [min..max]} when there was more than one value. */
    String format(String format) {
      String m = String.format(Locale.ROOT, format, median);
      return n <= 1 ? m : m + " [" + String.format(Locale.ROOT, format, min) + ".."
          + String.format(Locale.ROOT, format, max) + "]";
    }
  }

  Stat stat(String policy, ToDoubleFunction<RunResult> f) {
    List<RunResult> r = all(policy);
    return r == null ? null : Stat.of(r.stream().mapToDouble(f).toArray());
  }

  /** f(policy) / f(base), paired by repeat; null when either is missing or the base is 0. */
  Stat ratio(String policy, String base, ToDoubleFunction<RunResult> f) {
    List<RunResult> a = all(policy);
    List<RunResult> b = all(base);
    if (a == null || b == null) {
      return null;
    }
    int n = Math.min(a.size(), b.size());
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      double d = f.applyAsDouble(b.get(i));
      if (d == 0) {
        return null;
      }
      v[i] = f.applyAsDouble(a.get(i)) / d;
    }
    return Stat.of(v);
  }

  /** All seeks' time in microseconds: DB_SEEK's count times its average. */
  static double seekTime(RunResult r) {
    return r.seeks().count() * r.seeks().averageMicros();
  }

  static double p99(RunResult r) {
    return r.list().getValueAtPercentile(99);
  }

  static double mean(RunResult r) {
    return r.list().getMean();
  }

  static double writeP99(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99);
  }

  static String ms(Histogram h, double percentile) {
    return String.format(Locale.ROOT, "%.2f", h.getValueAtPercentile(percentile) / 1e6);
  }

  static String us(Histogram h, double percentile) {
    return String.format(Locale.ROOT, "%.0f", h.getValueAtPercentile(percentile) / 1e3);
  }

  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }

  /** One line per run, printed as each run ends. */
  static String summaryLine(RunResult r) {
    if (!r.available()) {
      return String.format(Locale.ROOT, "%-9s unavailable: %s", r.policy(), r.unavailable());
    }
    return String.format(Locale.ROOT,
        "%-9s %6.1fs  list p50/p99 %s/%s ms  DB seek avg/p99 %.0f/%.0f us  skips/list %,.0f  create p99 %s us  "
            + "delete p99 %s us  compaction write %s MB (%d manual, %.1fs)  stalls %.1f ms  tombstones left %,d  "
            + "keys %,d/%,d%s",
        r.policy(), r.wallNanos() / 1e9, ms(r.list(), 50), ms(r.list(), 99), r.seeks().averageMicros(),
        r.seeks().p99Micros(), r.skipsPerList(), writeCell(r.create(), 99), writeCell(r.delete(), 99),
        mb(r.compactWriteBytes()), r.manualCompactions(), r.manualCompactionNanos() / 1e9, r.stallMicros() / 1e3,
        r.keyTableEnd().tombstones(), r.liveKeysFound(), r.liveKeysExpected(),
        r.liveKeysFound() == r.liveKeysExpected() ? "" : "  KEY COUNT MISMATCH")
        + (r.hints() == null ? "" : String.format(Locale.ROOT, "  hint jumps %,d (learned %,d)", r.hints().used(),
            r.hints().learned()))
        + (r.expiry() == null ? "" : String.format(Locale.ROOT, "  expiry list p50/p99 %s/%s ms  expiry skips/list "
            + "%,.0f  expired %,d keys", ms(r.expiry().list(), 50), ms(r.expiry().list(), 99),
            r.expiry().skipsPerList(), r.expiry().deletedKeys()));
  }

  /** Whether the runs had an expiry phase (every run of a comparison has or has not). */
  boolean hasExpiry() {
    return runs.values().stream().flatMap(List::stream).anyMatch(r -> r.available() && r.expiry() != null);
  }

  static double expiryP99(RunResult r) {
    return r.expiry().list().getTotalCount() == 0 ? Double.NaN : r.expiry().list().getValueAtPercentile(99);
  }

  /**
   * The expiry phase's own table: the expiry bucket's listings per policy (latency, internal keys skipped per
   * listing), the keys the expiry deleted and its batch latency, and expiry list p99 against none and ideal.
   */
  String expiryTable() {
    StringBuilder s = new StringBuilder("Expiry listings (listings of the expiry bucket from a random key inside it, "
        + "apart from the queue's lists above; skips read around each listing):\n\n"
        + "| policy | expiry lists | expiry list p50 ms | expiry list p99 ms | expiry list mean ms | expiry skips/list "
        + "| keys expired | expiry batch p99 ms | expiry list p99 / none | expiry list p99 / " + floorName()
        + (floor().equals("ideal") ? "" : " (/ ideal idle)") + " |\n"
        + "|---|---|---|---|---|---|---|---|---|---|\n");
    for (String p : runs.keySet()) {
      List<RunResult> rs = all(p);
      if (rs == null || rs.get(0).expiry() == null) {
        continue;
      }
      s.append("| ").append(p)
          .append(" | ").append(stat(p, r -> r.expiry().list().getTotalCount()).format("%,.0f"))
          .append(" | ").append(stat(p, r -> r.expiry().list().getValueAtPercentile(50) / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> expiryP99(r) / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> r.expiry().list().getMean() / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> r.expiry().skipsPerList()).format("%,.0f"))
          .append(" | ").append(stat(p, r -> r.expiry().deletedKeys()).format("%,.0f"))
          .append(" | ").append(rs.get(0).expiry().batch().getTotalCount() == 0 ? "-"
              : stat(p, r -> r.expiry().batch().getValueAtPercentile(99) / 1e6).format("%.2f"))
          .append(" | ").append(cell(ratio(p, "none", Report::expiryP99)))
          .append(" | ").append(floorCell(p, Report::expiryP99))
          .append(" |\n");
    }
    return s.toString();
  }

  private int repeats() {
    int n = 1;
    for (List<RunResult> r : runs.values()) {
      n = Math.max(n, r.size());
    }
    return n;
  }

  /** The tables, the ratios and the targets, as Markdown (also readable as plain text). */
  String tables() {
    StringBuilder s = new StringBuilder();
    int repeats = repeats();
    s.append(repeats == 1 ? "One run per policy. Ratios between single runs carry run-order and JIT noise of a few "
        + "percent up to ~1.5x on a busy machine; --repeat N runs every policy N times (order rotated) and prints "
        + "median [min..max].\n\n"
        : "Median over " + repeats + " runs per policy (policy order rotated between repeats), spread [min..max].\n\n");
    s.append("| policy | list p50 ms | list p99 ms | list mean ms | DB seek avg us | DB seek p99 us | skips/list "
        + "| create p99 us | delete p99 us | compaction write MB | policy's compacted MB | write stall ms "
        + "| tombstones left | manual compactions |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<RunResult>> e : runs.entrySet()) {
      String p = e.getKey();
      if (all(p) == null) {
        s.append("| ").append(p).append(" | unavailable: ").append(e.getValue().get(0).unavailable())
            .append(" |||||||||||||\n");
        continue;
      }
      s.append("| ").append(p)
          .append(" | ").append(stat(p, r -> r.list().getValueAtPercentile(50) / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> p99(r) / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> mean(r) / 1e6).format("%.2f"))
          .append(" | ").append(stat(p, r -> r.seeks().averageMicros()).format("%.0f"))
          .append(" | ").append(stat(p, r -> r.seeks().p99Micros()).format("%.0f"))
          .append(" | ").append(stat(p, RunResult::skipsPerList).format("%,.0f"))
          .append(" | ").append(get(p).create().getTotalCount() == 0 ? "-"
              : stat(p, r -> writeP99(r.create()) / 1e3).format("%.0f"))
          .append(" | ").append(get(p).delete().getTotalCount() == 0 ? "-"
              : stat(p, r -> writeP99(r.delete()) / 1e3).format("%.0f"))
          .append(" | ").append(stat(p, r -> r.compactWriteBytes() / 1048576.0).format("%.1f"))
          .append(" | ").append(stat(p, r -> r.policyCompactedBytes() / 1048576.0).format("%.1f"))
          .append(" | ").append(stat(p, r -> r.stallMicros() / 1e3).format("%.1f"))
          .append(" | ").append(stat(p, r -> r.keyTableEnd().tombstones()).format("%,.0f"))
          .append(" | ").append(stat(p, RunResult::manualCompactions).format("%.0f"))
          .append(" |\n");
    }
    s.append("\n| policy | wall s | ops/s | keyTable SST MB | all SST MB | compaction read MB | flush write MB "
        + "| manual compaction s | seeks counted | keys found/expected |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (String p : runs.keySet()) {
      RunResult r = get(p);
      if (r == null) {
        continue;
      }
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", p,
          stat(p, x -> x.wallNanos() / 1e9).format("%.1f"), stat(p, RunResult::opsPerSecond).format("%,.0f"),
          mb(r.keyTableEnd().sstBytes()), mb(r.allSstBytesEnd()),
          stat(p, x -> x.compactReadBytes() / 1048576.0).format("%.1f"),
          stat(p, x -> x.flushWriteBytes() / 1048576.0).format("%.1f"),
          stat(p, x -> x.manualCompactionNanos() / 1e9).format("%.1f"),
          stat(p, x -> x.seeks().count()).format("%,.0f"), keysCell(p)));
    }
    if (hasExpiry()) {
      s.append('\n').append(expiryTable());
    }
    if (ExpiryTimeline.any(this)) {
      s.append('\n').append(ExpiryTimeline.table(this));
    }
    s.append('\n').append(OperatorTable.table(this));
    for (String p : runs.keySet()) {
      List<RunResult> rs = all(p);
      if (rs != null) {
        for (int i = 0; i < rs.size(); i++) {
          if (!rs.get(i).detail().isEmpty()) {
            s.append("\n").append(p).append(rs.size() > 1 ? " (run " + (i + 1) + ")" : "").append(": ")
                .append(rs.get(i).detail()).append("\n");
          }
        }
      }
    }
    s.append("\nWhat each policy did").append(repeats > 1 ? " (median over repeats)" : "").append(":\n\n")
        .append(whatEachDid()).append('\n');
    s.append("\nRatios (policy / baseline, paired by repeat; below 1 is better, except compaction bytes which are "
        + "just cost; seek gains are none / policy, the second over all seeks' time: a policy that seeks itself, as "
        + "range's head probes do, adds cheap seeks that pull the average down):\n\n");
    String fl = floorName() + (floor().equals("ideal") ? "" : " (/ ideal idle)");
    s.append("| policy | list p99 / none | list p99 / " + fl + " | list mean / none | list mean / " + fl + " "
        + "| DB seek avg gain vs none | DB seek time gain vs none | skips/list / none | create p99 / none "
        + "| delete p99 / none | compaction write / full | compaction write / reference |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (String p : runs.keySet()) {
      if (all(p) == null) {
        continue;
      }
      boolean ideal = p.startsWith("ideal");
      s.append("| ").append(p)
          .append(" | ").append(cell(ratio(p, "none", Report::p99)))
          .append(" | ").append(floorCell(p, Report::p99))
          .append(" | ").append(cell(ratio(p, "none", Report::mean)))
          .append(" | ").append(floorCell(p, Report::mean))
          .append(" | ").append(cell(ratio("none", p, r -> r.seeks().averageMicros())))
          .append(" | ").append(cell(ratio("none", p, Report::seekTime)))
          .append(" | ").append(cell(ratio(p, "none", RunResult::skipsPerList)))
          .append(" | ").append(ideal ? "-" : cell(ratio(p, "none", r -> writeP99(r.create()))))
          .append(" | ").append(ideal ? "-" : cell(ratio(p, "none", r -> writeP99(r.delete()))))
          .append(" | ").append(ideal ? "-" : cell(ratio(p, "full", RunResult::compactWriteBytes)))
          .append(" | ").append(ideal ? "-" : cell(ratio(p, "reference", RunResult::compactWriteBytes)))
          .append(" |\n");
    }
    s.append("\nTargets, checked on range (median ratio judged; spread shown when repeated):\n\n")
        .append(targets()).append('\n');
    s.append("\nTargets for the product, " + PRODUCT + " (range's service with range's settings, on the OM patched "
        + "with skip hints; median of per-repeat values judged); hints alone and range alone beside each, not "
        + "judged:\n\n").append(productTargets()).append('\n');
    return s.toString();
  }

  private String keysCell(String p) {
    List<RunResult> rs = all(p);
    long bad = rs.stream().filter(r -> r.liveKeysFound() != r.liveKeysExpected()).count();
    RunResult r = rs.get(0);
    return String.format(Locale.ROOT, "%,d/%,d%s", r.liveKeysFound(), r.liveKeysExpected(),
        bad == 0 ? "" : " MISMATCH in " + bad + " run(s)");
  }

  private static String cell(Stat s) {
    return s == null ? "n/a" : s.format("%.3gx");
  }

  private static String hintCells(RunResult.Hints h) {
    return h == null ? ",,,,," : String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%d", h.used(), h.learned(), h.refused(),
        h.retired(), h.evicted(), h.held());
  }

  private static String expiryCells(RunResult.Expiry e) {
    return e == null ? ",,,,,,," : String.format(Locale.ROOT, "%d,%s,%s,%.3f,%.1f,%d,%d,%s", e.list().getTotalCount(),
        ms(e.list(), 50), ms(e.list(), 99), e.list().getMean() / 1e6, e.skipsPerList(), e.deletedKeys(), e.batches(),
        e.batch().getTotalCount() == 0 ? "" : ms(e.batch(), 99));
  }

  private static String writeCell(Histogram h, double p) {
    return h.getTotalCount() == 0 ? "-" : us(h, p);
  }

  /** One line per target: MET / MISSED with the measured value, NO VERDICT, or n/a with the reason. */
  String targets() {
    List<String> lines = new ArrayList<>();
    List<RunResult> range = all("range");
    if (range == null) {
      RunResult r = runs.containsKey("range") ? runs.get("range").get(0) : null;
      lines.add("- all targets: n/a (range " + (r == null ? "not run" : "unavailable: " + r.unavailable()) + ")");
      return String.join("\n", lines);
    }
    long idle = range.stream().filter(r -> !r.didWork()).count();
    if (targetSet == Targets.RANDOM_CHURN) {
      return randomChurnTargets(idle, range.size());
    }
    if (idle > 0) {
      return "- NO VERDICT: range compacted nothing (no compaction, or none that removed a tombstone or took 1 ms, "
          + "and no memtable flush) in " + idle
          + " of " + range.size() + " run(s) (service: "
          + range.get(0).detail() + "). Whatever its numbers show is none's behaviour plus "
          + "run-order noise; no target is judged.";
    }
    boolean om = writeBufferBytes >= OM_WRITE_BUFFER;
    double idealTarget = om ? TARGET_LIST_P99_VS_IDEAL_128MB : TARGET_LIST_P99_VS_IDEAL;
    Stat vsIdeal = ratio("range", floor(), Report::p99);
    lines.add(vsIdeal == null ? "- range list p99 vs ideal: n/a (ideal not run)"
        : mark(vsIdeal, v -> v <= idealTarget, "range list p99 = %sx " + floorName()
            + idleNote("range", Report::p99, "%.2f", " idle") + " (target <= %.1fx%s)", "%.2f",
            idealTarget, om ? ", with the OM's 128 MB memtable" : ""));
    Stat gain = ratio("none", "range", Report::p99);
    RunResult none = get("none");
    if (gain != null) {
      boolean bound = none.skipsPerList() > (double) TOMBSTONE_BOUND_SKIPS_PER_ENTRY * listLength;
      Stat headroom = ratio("none", floor(), Report::p99);
      String text = "range list p99 %sx better than none (target >= %.0fx; none skips "
          + String.format(Locale.ROOT, "%,.0f", none.skipsPerList()) + " internal keys per list"
          + (headroom == null ? "" : "; the most any policy can gain here is none/" + floorName() + " = "
          + headroom.format("%.1f")
          + "x") + ")";
      lines.add(bound ? mark(gain, v -> v >= TARGET_LIST_GAIN_VS_NONE, text, "%.1f", TARGET_LIST_GAIN_VS_NONE)
          : "- n/a (none is not tombstone-bound: below " + TOMBSTONE_BOUND_SKIPS_PER_ENTRY + " skips per listed "
              + "entry): " + String.format(Locale.ROOT, text.replace("%sx", gain.format("%.1f") + "x"),
              TARGET_LIST_GAIN_VS_NONE));
    } else {
      lines.add("- range list p99 vs none: n/a (none not run)");
    }
    Stat vsFull = ratio("range", "full", RunResult::compactWriteBytes);
    lines.add(vsFull == null ? "- range compaction bytes vs full: n/a (full not run or wrote nothing)"
        : mark(vsFull, v -> v <= TARGET_COMPACT_WRITE_VS_FULL,
            "range compaction bytes written = %sx full (RocksDB's compact.write.bytes over the run, automatic "
                + "compactions included; target <= %.2fx%s)", "%.3f", TARGET_COMPACT_WRITE_VS_FULL,
            automaticCompactionFloor("full")));
    Stat vsRef = ratio("range", "reference", RunResult::compactWriteBytes);
    lines.add(vsRef == null ? "- range compaction bytes vs reference: n/a (reference not run or wrote nothing)"
        : mark(vsRef, v -> v <= 1.0, "range compaction bytes written = %sx reference (target <= %.2fx%s)", "%.3f",
            1.0, automaticCompactionFloor("reference")));
    for (String op : List.of("create", "delete")) {
      ToDoubleFunction<RunResult> f = op.equals("create") ? r -> writeP99(r.create()) : r -> writeP99(r.delete());
      Stat v = ratio("range", "none", f);
      lines.add(v == null ? "- range " + op + " p99 vs none: n/a (none not run or no " + op + "s)"
          : mark(v, x -> x <= TARGET_WRITE_P99_VS_NONE, "range " + op + " p99 = %sx none (target <= %.2fx)",
              "%.2f", TARGET_WRITE_P99_VS_NONE));
    }
    Stat stalls = stat("range", r -> r.stallMicros() / 1e3);
    lines.add("- " + (stalls.max() == 0 ? "MET    " : "MISSED ") + "range write stalls (rocksdb.stall.micros) = "
        + stalls.format("%.1f") + " ms (target: 0)");
    Stat seekGain = ratio("none", "range", r -> r.seeks().averageMicros());
    if (seekGain != null) {
      lines.add("- INFO   range DB seek average " + seekGain.format("%.1f") + "x better than none ("
          + String.format(Locale.ROOT, "%.0f -> %.0f us", stat("none", r -> r.seeks().averageMicros()).median(),
          stat("range", r -> r.seeks().averageMicros()).median()) + "); the published HDDS-12682 gains on this "
          + "metric are 20x / 27x / 158x at 1e5 / 1e6 / 1e7 operations (--scale prints them side by side)");
      String own = ownSeeks();
      if (!own.isEmpty()) {
        lines.add(own);
      }
    }
    return String.join("\n", lines);
  }

  /**
   * DB_SEEK counts every seek on the store, range's own head probes too (none runs the same lists and seeks only
   * for them). A probe of a live head is cheap and pulls the average down, so where range counted more seeks the
   * average alone flatters it: this line gives how many seeks were its own and the total seek time against none's,
   * the probes charged to range. Empty when the counts match or none did not run.
   */
  private String ownSeeks() {
    Stat none = stat("none", r -> r.seeks().count());
    Stat range = stat("range", r -> r.seeks().count());
    if (none == null || range == null || range.median() <= none.median()) {
      return "";
    }
    Stat total = ratio("none", "range", Report::seekTime);
    return String.format(Locale.ROOT, "- INFO   of range's %,.0f seeks counted, %,.0f more than none's %,.0f are its "
        + "own head probes (their skips count in skips/list too); all seeks together took %sx less time than "
        + "none's (below 1: more)", range.median(),
        range.median() - none.median(), none.median(), total == null ? "n/a" : total.format("%.2f"));
  }

  /**
   * About the least compaction bytes any policy can write, as a note for a bytes target against {@code base}:
   * none/base, what RocksDB's automatic compactions write with no manual compaction at all. They run under every
   * policy; a manual compaction spares them little (on the default workload reference wrote 352 MB, none 353 MB).
   * Empty when none did not run.
   */
  private String automaticCompactionFloor(String base) {
    Stat floor = ratio("none", base, RunResult::compactWriteBytes);
    return floor == null ? "" : "; none's automatic compactions alone write " + floor.format("%.3f") + "x " + base
        + " here";
  }

  /** The lines random churn judges against none, for range and for the product alike. */
  private static Map<String, ToDoubleFunction<RunResult>> noWorseLines() {
    Map<String, ToDoubleFunction<RunResult>> metrics = new LinkedHashMap<>();
    metrics.put("list p99", Report::p99);
    metrics.put("list mean", Report::mean);
    metrics.put("DB seek average", r -> r.seeks().averageMicros());
    metrics.put("create p99", r -> writeP99(r.create()));
    metrics.put("delete p99", r -> writeP99(r.delete()));
    metrics.put("compaction bytes written", RunResult::compactWriteBytes);
    return metrics;
  }

  private String randomChurnTargets(long idle, int runsOfRange) {
    List<String> lines = new ArrayList<>();
    String note = idle == runsOfRange ? " (range removed nothing: expected here, its cost is none's plus noise)"
        : idle > 0 ? " (range removed nothing in " + idle + " of " + runsOfRange + " runs)" : "";
    lines.add("- Random churn: range must be no worse than none on any metric (target: each ratio <= "
        + TARGET_NO_WORSE_VS_NONE + "x, the noise between two runs of one policy)" + note + ":");
    Map<String, ToDoubleFunction<RunResult>> metrics = noWorseLines();
    for (Map.Entry<String, ToDoubleFunction<RunResult>> m : metrics.entrySet()) {
      Stat v = ratio("range", "none", m.getValue());
      lines.add(v == null ? "  - range " + m.getKey() + " vs none: n/a (none not run or zero)"
          : "  " + mark(v, x -> x <= TARGET_NO_WORSE_VS_NONE, "range " + m.getKey() + " = %sx none", "%.2f"));
    }
    Stat stalls = stat("range", r -> r.stallMicros() / 1e3);
    Stat noneStalls = stat("none", r -> r.stallMicros() / 1e3);
    boolean ok = noneStalls == null ? stalls.max() == 0 : stalls.median() <= noneStalls.median();
    lines.add("  - " + (ok ? "MET    " : "MISSED ") + "range write stalls = " + stalls.format("%.1f") + " ms"
        + (noneStalls == null ? "" : ", none " + noneStalls.format("%.1f") + " ms"));
    return String.join("\n", lines);
  }

  /**
   * One line per policy on what it did during its runs: its own compactions and flushes, the compaction bytes
   * written (RocksDB's ticker, automatic compactions included, and the difference to none), what it removed, the
   * skip hints' work, and where its OM classes came from.
   */
  String whatEachDid() {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, List<RunResult>> run : runs.entrySet()) {
      String p = run.getKey();
      List<RunResult> rs = all(p);
      if (rs == null) {
        lines.add("- " + p + ": unavailable: " + run.getValue().get(0).unavailable());
        continue;
      }
      RunResult first = rs.get(0);
      String written = stat(p, r -> r.compactWriteBytes() / 1048576.0).format("%.1f") + " MB written by all "
          + "compactions" + overNone(p);
      String what;
      if (p.startsWith("ideal")) {
        what = "after the fact: the sequence's end state (cold data, cold puts, the final live keys"
            + (first.expiry() == null ? "" : String.format(Locale.ROOT, ", the expiry's %,d deletes",
                first.expiry().deletedKeys()))
            + ") written into a copy of the store, flushed and fully compacted (keyTable compactRange, bottommost "
            + "forced), then the " + String.format(Locale.ROOT, "%,d", first.list().getTotalCount()) + " lists"
            + (first.expiry() == null ? "" : String.format(Locale.ROOT, " and %,d expiry listings",
                first.expiry().list().getTotalCount()))
            + (p.equals("ideal") ? " alone; nothing ran during them" : ", while the sequence's writes ran at the "
                + "same time with the same threads and pacing against another copy of the starting store (no "
                + "policy): the floor under the same load as the policies' runs");
      } else if (first.hints() == null && rs.stream().allMatch(r -> r.manualCompactions() == 0
          && r.policyFlushes() == 0 && r.policyTombstonesRemoved() < 0)) {
        what = "nothing: RocksDB's automatic compactions only, " + written;
      } else {
        List<String> parts = new ArrayList<>();
        // A policy that counts what it removes (range's service) gets its counts even when they are 0.
        boolean service = rs.stream().anyMatch(r -> r.policyTombstonesRemoved() >= 0);
        if (first.hints() == null || first.manualCompactions() > 0 || first.policyFlushes() > 0 || service) {
          parts.add(stat(p, RunResult::manualCompactions).format("%,.0f") + " manual compaction(s) ("
              + stat(p, r -> r.manualCompactionNanos() / 1e9).format("%.1f") + " s)"
              + (service ? ", " + stat(p, RunResult::policyFlushes).format("%,.0f") + " memtable flush(es), "
                  + stat(p, r -> Math.max(0, r.policyTombstonesRemoved())).format("%,.0f")
                  + " tombstones removed by its own count"
                  + (rs.stream().anyMatch(r -> r.policyHeadEntriesRemoved() >= 0) ? " (and "
                  + stat(p, r -> Math.max(0, r.policyHeadEntriesRemoved())).format("%,.0f")
                  + " dead entries by its head compactions)" : "") : ""));
        } else {
          parts.add("no compaction");
        }
        parts.add(written);
        parts.add(stat(p, r -> r.keyTableEnd().tombstones()).format("%,.0f") + " tombstones left");
        if (first.hints() != null) {
          parts.add("skip hints: " + stat(p, r -> r.hints().used()).format("%,.0f") + " seeks jumped, "
              + stat(p, r -> r.hints().learned()).format("%,.0f") + " hints learned, "
              + stat(p, r -> r.hints().retired()).format("%,.0f") + " retired, "
              + stat(p, r -> r.hints().refused()).format("%,.0f") + " refused, "
              + stat(p, r -> r.hints().evicted()).format("%,.0f") + " evicted (keyTable)");
        }
        what = String.join("; ", parts);
      }
      lines.add("- " + p + ": " + what + " [OM classes: " + classes(first.omClassesFrom()) + "]");
    }
    return String.join("\n", lines);
  }

  private String overNone(String p) {
    if (p.equals("none") || all("none") == null) {
      return "";
    }
    Stat d = paired(p, "none", "none", (x, n, unused) -> (x.compactWriteBytes() - n.compactWriteBytes()) / 1048576.0);
    return d == null ? "" : " (" + (d.median() >= 0 ? "+" : "") + d.format("%.1f") + " MB vs none)";
  }

  /** A jar by its name (stock), a classes directory by its path (patched). */
  private static String classes(String location) {
    if (location == null) {
      return "?";
    }
    return location.endsWith(".jar") ? java.nio.file.Paths.get(location).getFileName().toString() : location;
  }

  /** f over runs of {@code policy} and of two baselines, paired by repeat; null when one is missing or f is NaN. */
  Stat paired(String policy, String a, String b, Paired f) {
    List<RunResult> x = all(policy);
    List<RunResult> ra = all(a);
    List<RunResult> rb = all(b);
    if (x == null || ra == null || rb == null) {
      return null;
    }
    int n = Math.min(x.size(), Math.min(ra.size(), rb.size()));
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = f.apply(x.get(i), ra.get(i), rb.get(i));
      if (!Double.isFinite(v[i])) {
        return null;
      }
    }
    return Stat.of(v);
  }

  /** A quantity of one run against two baselines' runs of the same repeat. */
  interface Paired {
    double apply(RunResult x, RunResult a, RunResult b);
  }

  /** (none - x) / (none - ideal) on list p99: the share of none's gap to the floor that x closes. */
  private static double gapClosed(RunResult x, RunResult none, RunResult ideal) {
    double gap = p99(none) - p99(ideal);
    return gap <= 0 ? Double.NaN : (p99(none) - p99(x)) / gap;
  }

  /** (none - x) / (none - ideal) on expiry list p99: the share of none's gap to the floor that x closes. */
  private static double expiryGapClosed(RunResult x, RunResult none, RunResult ideal) {
    double gap = expiryP99(none) - expiryP99(ideal);
    return !(gap > 0) ? Double.NaN : (expiryP99(none) - expiryP99(x)) / gap;
  }

  /** Expiry list p99 of the product, hints, range, none and ideal, in ms, as far as they ran. */
  private String expiryP99Text() {
    List<String> parts = new ArrayList<>();
    for (String p : List.of(PRODUCT, HintsPolicy.HINTS, "range", "none", "ideal", WorkloadRunner.IDEAL_LOADED)) {
      Stat v = all(p) == null || get(p).expiry() == null ? null : stat(p, r -> expiryP99(r) / 1e6);
      if (v != null) {
        parts.add(p + " " + v.format("%.2f") + " ms");
      }
    }
    return String.join(", ", parts);
  }

  /** (x - none) / (full - none) in compaction bytes written: x's manual compaction cost as a share of full's. */
  private static double costVsFull(RunResult x, RunResult none, RunResult full) {
    double full0 = full.compactWriteBytes() - none.compactWriteBytes();
    return full0 <= 0 ? Double.NaN : (x.compactWriteBytes() - none.compactWriteBytes()) / full0;
  }

  /** One target of the product: its value, the line, and the same value for hints and range alone. */
  private record ProductTarget(String label, java.util.function.Function<String, Stat> value,
      java.util.function.DoublePredicate met, String text, String format, String unit, String naReason) {
  }

  /**
   * The product's targets: MET / MISSED with the measured value (median of per-repeat values), hints alone and
   * range alone beside each, then a verdict line naming the product. NO VERDICT when the product did nothing.
   */
  String productTargets() {
    List<RunResult> product = all(PRODUCT);
    if (product == null) {
      RunResult r = runs.containsKey(PRODUCT) ? runs.get(PRODUCT).get(0) : null;
      return "- product targets: n/a (" + PRODUCT + " " + (r == null ? "not run" : "unavailable: " + r.unavailable())
          + ")";
    }
    long idle = product.stream().filter(r -> !r.didWork() && !r.hintsJumped()).count();
    List<ProductTarget> targets = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    String note = "";
    if (targetSet == Targets.RANDOM_CHURN) {
      note = idle == product.size() ? " (" + PRODUCT + " did nothing: no compaction, no flush, no seek that jumped; "
          + "expected here, its cost is none's plus noise)"
          : idle > 0 ? " (" + PRODUCT + " did nothing in " + idle + " of " + product.size() + " runs)" : "";
      lines.add("- Random churn: " + PRODUCT + " must be no worse than none on any line (target: each ratio <= "
          + TARGET_NO_WORSE_VS_NONE + "x none, the tolerance of range's lines above: the noise between two runs of "
          + "one policy; write stalls no more than none's)" + note + ":");
      Map<String, ToDoubleFunction<RunResult>> metrics = noWorseLines();
      metrics.forEach((name, f) -> targets.add(new ProductTarget(name, p -> ratio(p, "none", f),
          x -> x <= TARGET_NO_WORSE_VS_NONE, "%s " + name + " = %sx none", "%.2f", "x", "none not run or zero")));
    } else {
      if (idle > 0) {
        return "- NO VERDICT: " + PRODUCT + " did nothing (no compaction that removed a tombstone or took 1 ms, no "
            + "memtable flush, no seek that jumped) in " + idle + " of " + product.size() + " run(s); no target is "
            + "judged.";
      }
      boolean om = writeBufferBytes >= OM_WRITE_BUFFER;
      double idealTarget = om ? TARGET_PRODUCT_P99_VS_IDEAL_128MB : TARGET_PRODUCT_P99_VS_IDEAL;
      String fl = floorName();
      targets.add(new ProductTarget("list p99 vs ideal", p -> ratio(p, floor(), Report::p99), v -> v <= idealTarget,
          "%s list p99 = %sx " + fl + idleNote(PRODUCT, Report::p99, "%.2f", " idle") + " (target <= " + idealTarget
              + "x" + (om ? ", with a memtable of 128 MB or more" : "") + ")", "%.2f", "x", "ideal not run"));
      targets.add(new ProductTarget("gap to ideal closed", p -> paired(p, "none", floor(), Report::gapClosed),
          v -> v >= TARGET_PRODUCT_GAP_CLOSED, "%s closes %s of none's list p99 gap to " + fl + ", (none - %1$s) / "
              + "(none - " + fl + ")" + idleGap(Report::gapClosed) + " (target >= " + TARGET_PRODUCT_GAP_CLOSED + ")",
          "%.2f", "", "none or ideal not run, or none not above ideal"));
      targets.add(new ProductTarget("manual compaction cost", p -> paired(p, "none", "full", Report::costVsFull),
          v -> v <= TARGET_PRODUCT_COST_VS_FULL, "%s manual compaction cost = %s of full's, (%1$s - none) / "
              + "(full - none) compaction bytes written (target <= " + TARGET_PRODUCT_COST_VS_FULL + ")", "%.3f", "",
          "none or full not run, or full wrote no more than none"));
      for (String op : List.of("create", "delete")) {
        ToDoubleFunction<RunResult> f = op.equals("create") ? r -> writeP99(r.create()) : r -> writeP99(r.delete());
        targets.add(new ProductTarget(op + " p99", p -> ratio(p, "none", f),
            v -> v <= TARGET_PRODUCT_WRITE_P99_VS_NONE, "%s " + op + " p99 = %sx none (target <= "
                + TARGET_PRODUCT_WRITE_P99_VS_NONE + "x)", "%.2f", "x", "none not run or no " + op + "s"));
      }
    }
    if (hasExpiry()) {
      targets.add(new ProductTarget("expiry list p99 vs ideal", p -> ratio(p, floor(), Report::expiryP99),
          v -> v <= TARGET_PRODUCT_EXPIRY_P99_VS_IDEAL, "%s expiry list p99 = %sx " + floorName()
              + idleNote(PRODUCT, Report::expiryP99, "%.2f", " idle") + " (target <= "
              + TARGET_PRODUCT_EXPIRY_P99_VS_IDEAL + "x)", "%.2f", "x", "ideal not run"));
      targets.add(new ProductTarget("expiry list p99 gap to ideal closed",
          p -> paired(p, "none", floor(), Report::expiryGapClosed), v -> v >= TARGET_PRODUCT_EXPIRY_GAP_CLOSED,
          "%s closes %s of none's expiry list p99 gap to " + floorName() + ", (none - %1$s) / (none - "
              + floorName() + ")" + idleGap(Report::expiryGapClosed) + " on the expiry "
              + "bucket's listings (target >= " + TARGET_PRODUCT_EXPIRY_GAP_CLOSED + "; expiry list p99 "
              + expiryP99Text().replace("%", "%%") + ")", "%.2f", "",
          "none or ideal not run, or none's expiry list p99 not above ideal's"));
    }
    String indent = targetSet == Targets.RANDOM_CHURN ? "  " : "";
    List<String> missed = new ArrayList<>();
    int met = 0;
    int na = 0;
    for (ProductTarget t : targets) {
      Stat v = t.value().apply(PRODUCT);
      if (v == null) {
        lines.add(indent + "- " + PRODUCT + " " + t.label() + ": n/a (" + t.naReason() + ")");
        na++;
        continue;
      }
      boolean ok = t.met().test(v.median());
      if (ok) {
        met++;
      } else {
        missed.add(t.label());
      }
      lines.add(indent + "- " + (ok ? "MET    " : "MISSED ") + String.format(Locale.ROOT, t.text(), PRODUCT,
          v.format(t.format())) + "; " + alone(HintsPolicy.HINTS, t) + ", " + alone("range", t));
    }
    if (targetSet == Targets.RANDOM_CHURN) {
      Stat stalls = stat(PRODUCT, r -> r.stallMicros() / 1e3);
      Stat noneStalls = stat("none", r -> r.stallMicros() / 1e3);
      boolean ok = noneStalls == null ? stalls.max() == 0 : stalls.median() <= noneStalls.median();
      if (ok) {
        met++;
      } else {
        missed.add("write stalls");
      }
      lines.add(indent + "- " + (ok ? "MET    " : "MISSED ") + PRODUCT + " write stalls = " + stalls.format("%.1f")
          + " ms" + (noneStalls == null ? " (target: 0)" : ", none " + noneStalls.format("%.1f") + " ms"));
    }
    if (met + missed.size() == 0) { // every target n/a: the baselines it is judged against were not run
      lines.add("- NO VERDICT on the product, " + PRODUCT + ": no target could be judged (" + na + " n/a: run none, "
          + "ideal and full beside it)");
      return String.join("\n", lines);
    }
    lines.add("- VERDICT on the product, " + PRODUCT
        + (targetSet == Targets.RANDOM_CHURN ? " (no worse than none, within " + TARGET_NO_WORSE_VS_NONE + "x)" : "")
        + ": " + (missed.isEmpty() ? "MET" : "MISSED") + " (" + met + " of " + (met + missed.size()) + " targets met"
        + (missed.isEmpty() ? "" : "; missed: " + String.join(", ", missed)) + (na > 0 ? "; " + na + " n/a" : "")
        + ")");
    return String.join("\n", lines);
  }

  /** " (0.93 against ideal idle)" beside a gap closed to the loaded floor; empty when the floor is ideal. */
  private String idleGap(Paired f) {
    Stat idle = floor().equals("ideal") ? null : paired(PRODUCT, "none", "ideal", f);
    return idle == null ? "" : " (" + idle.format("%.2f") + " against ideal idle)";
  }

  private String alone(String policy, ProductTarget t) {
    if (all(policy) == null) {
      return policy + " alone n/a (not run)";
    }
    Stat v = t.value().apply(policy);
    return policy + " alone " + (v == null ? "n/a" : v.format(t.format()) + t.unit());
  }

  private static String mark(Stat value, java.util.function.DoublePredicate met, String text, String valueFormat,
      Object... args) {
    Object[] all = new Object[args.length + 1];
    all[0] = value.format(valueFormat);
    System.arraycopy(args, 0, all, 1, args.length);
    return "- " + (met.test(value.median()) ? "MET    " : "MISSED ") + String.format(Locale.ROOT, text, all);
  }

  /** Writes summary.csv, series.csv, the charts and report.md into {@code dir}. */
  void write(Path dir, PrintStream out) throws IOException {
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder("policy,ops,wall_s,ops_per_s,lists,list_p50_ms,list_p90_ms,list_p99_ms,"
        + "list_max_ms,list_mean_ms,create_p50_us,create_p99_us,create_max_us,delete_p50_us,delete_p99_us,"
        + "delete_max_us,skips_per_list,tombstones_end,keytable_sst_bytes,all_sst_bytes,compact_read_bytes,"
        + "compact_write_bytes,flush_write_bytes,manual_compactions,manual_compaction_s,live_keys_expected,"
        + "live_keys_found,unavailable,repeat,db_seek_count,db_seek_avg_us,db_seek_p99_us,stall_micros,"
        + "policy_compacted_bytes,hints_used,hints_learned,hints_refused,hints_retired,hints_evicted,hints_held,"
        + "om_classes,expiry_lists,expiry_list_p50_ms,expiry_list_p99_ms,expiry_list_mean_ms,expiry_skips_per_list,"
        + "expired_keys,expiry_batches,expiry_batch_p99_ms\n");
    for (List<RunResult> rs : runs.values()) {
      for (int i = 0; i < rs.size(); i++) {
        RunResult r = rs.get(i);
        if (!r.available()) {
          csv.append(r.policy()).append(",,,,,,,,,,,,,,,,,,,,,,,,,,,").append(r.unavailable().replace(',', ';'))
              .append(",").append(i + 1).append(",,,,,,,,,,,,,,,,,,,,\n");
          continue;
        }
        csv.append(String.format(Locale.ROOT,
            "%s,%d,%.3f,%.1f,%d,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%.1f,%d,%d,%d,%d,%d,%d,%d,%.3f,%d,%d,,%d,%d,%.1f,"
                + "%.1f,%d,%d,%s,%s,%s%n",
            r.policy(), r.ops(), r.wallNanos() / 1e9, r.opsPerSecond(), r.list().getTotalCount(), ms(r.list(), 50),
            ms(r.list(), 90), ms(r.list(), 99), ms(r.list(), 100), r.list().getMean() / 1e6,
            writeCell(r.create(), 50), writeCell(r.create(), 99), writeCell(r.create(), 100),
            writeCell(r.delete(), 50), writeCell(r.delete(), 99), writeCell(r.delete(), 100), r.skipsPerList(),
            r.keyTableEnd().tombstones(), r.keyTableEnd().sstBytes(), r.allSstBytesEnd(), r.compactReadBytes(),
            r.compactWriteBytes(), r.flushWriteBytes(), r.manualCompactions(), r.manualCompactionNanos() / 1e9,
            r.liveKeysExpected(), r.liveKeysFound(), i + 1, r.seeks().count(), r.seeks().averageMicros(),
            r.seeks().p99Micros(), r.stallMicros(), r.policyCompactedBytes(), hintCells(r.hints()),
            r.omClassesFrom() == null ? "" : r.omClassesFrom().replace(',', ';'), expiryCells(r.expiry())));
      }
    }
    Files.writeString(dir.resolve("summary.csv"), csv.toString());

    StringBuilder series = new StringBuilder("policy,repeat,elapsed_s,ops_done,lists,list_p99_ms,skips_per_list,"
        + "tombstones,keytable_sst_bytes,compact_write_bytes,l0_files,pending_compaction_bytes,stall_micros\n");
    for (List<RunResult> rs : runs.values()) {
      for (int i = 0; i < rs.size(); i++) {
        for (RunResult.Sample p : rs.get(i).series()) {
          series.append(String.format(Locale.ROOT, "%s,%d,%.2f,%d,%d,%s,%s,%d,%d,%d,%d,%d,%d%n", p.policy(), i + 1,
              p.elapsedSeconds(), p.opsDone(), p.listsInInterval(), Double.isNaN(p.listP99Millis()) ? ""
                  : String.format(Locale.ROOT, "%.3f", p.listP99Millis()), Double.isNaN(p.skipsPerList()) ? ""
                  : String.format(Locale.ROOT, "%.1f", p.skipsPerList()), p.tombstones(), p.sstBytes(),
              p.compactWriteBytes(), p.l0Files(), p.pendingCompactionBytes(), p.stallMicros()));
        }
      }
    }
    Files.writeString(dir.resolve("series.csv"), series.toString());

    ReportCharts.latencyBars(this, dir.resolve("list-latency.png"));
    ReportCharts.overOps(this, dir.resolve("skips-per-list.png"), "Internal keys skipped per list (moving average of "
        + "5 intervals)", "skips per list", RunResult.Sample::skipsPerList);
    ReportCharts.overOps(this, dir.resolve("list-p99.png"), "List p99 per interval, ms (moving average of 5 "
        + "intervals)", "list p99 ms", RunResult.Sample::listP99Millis);
    ReportCharts.overOps(this, dir.resolve("tombstones.png"), "Tombstones in the keyTable (SST deletions + memtable "
        + "deletes)", "tombstones", p -> p.tombstones());
    ReportCharts.overOps(this, dir.resolve("level-0-files.png"), "keyTable level-0 files (moving average of 5 "
        + "intervals)", "level-0 files", p -> p.l0Files() < 0 ? Double.NaN : p.l0Files());

    boolean timeline = ExpiryTimeline.any(this);
    if (timeline) {
      ExpiryTimeline.write(this, dir);
    }
    String md = "# " + title + "\n\n" + settings + "\n\n" + tables()
        + "\n![list latency per policy](list-latency.png)\n\n![skips per list over the run](skips-per-list.png)\n\n"
        + "![list p99 over the run](list-p99.png)\n\n![tombstones](tombstones.png)\n\n"
        + "![level-0 files over the run](level-0-files.png)\n\n"
        + (timeline ? "![expiry listings over time](expiry-p99.png)\n\n" : "")
        + "Files: `summary.csv` (one row per run), `series.csv` (the time series behind the charts)"
        + (timeline ? ", `expiry-series.csv` (expiry listings per interval)" : "") + ".\n";
    Files.writeString(dir.resolve("report.md"), md);
    out.println("Report: " + dir.resolve("report.md").toAbsolutePath());
  }
}
