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
 * under test did no work ({@link ReportTargets}), and the files (summary CSV and time-series CSV, {@link ReportCsv};
 * charts; a Markdown report). Every ratio is between runs of the same process on the same machine; ratios are taken
 * per repeat (run i of a policy against run i of its baseline) and then summarised.
 */
public final class Report {

  /**
   * Which targets apply: they differ between the workload range compaction exists for and plain random churn, and
   * between the default store and one four or more times its size, where the same expiry leaves four times the
   * dead keys in the span a listing crosses before any compaction can reach them.
   */
  enum Targets {
    /** Deletes of the oldest keys (a queue) on the default store: range must approach ideal at a small cost. */
    QUEUE(1.3, 1.5, Double.NaN, Double.NaN, Double.NaN),
    /**
     * The same on a store of {@link #LARGE_STORE_COLD_KEYS} cold keys or more ({@code --size 4} and up): the
     * product's list p99 within 1.5x the floor, its expiry list p99 within 2x and mean within 1.3x; range alone
     * (the stock OM's only help) closes 0.8 of none's expiry mean gap and 0.5 of its p99 gap.
     */
    LARGE_QUEUE(1.5, 2.0, 1.3, 0.8, 0.5),
    /** Random deletes: range must do no harm. */
    RANDOM_CHURN(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /** Cold keys from which a queue is judged as {@link #LARGE_QUEUE}: four times the default store's 1.5 million. */
    static final long LARGE_STORE_COLD_KEYS = 6_000_000;

    /** The product's list p99 / the floor (with a memtable under 128 MB). */
    final double productListP99;
    /** The product's expiry list p99 / the floor. */
    final double productExpiryP99;
    /** The product's expiry list mean / the floor; NaN: not judged. */
    final double productExpiryMean;
    /** Share of none's expiry list mean gap to the floor range alone closes; NaN: not judged. */
    final double rangeExpiryMeanGap;
    /** Share of none's expiry list p99 gap to the floor range alone closes; NaN: not judged. */
    final double rangeExpiryP99Gap;

    Targets(double productListP99, double productExpiryP99, double productExpiryMean, double rangeExpiryMeanGap,
        double rangeExpiryP99Gap) {
      this.productListP99 = productListP99;
      this.productExpiryP99 = productExpiryP99;
      this.productExpiryMean = productExpiryMean;
      this.rangeExpiryMeanGap = rangeExpiryMeanGap;
      this.rangeExpiryP99Gap = rangeExpiryP99Gap;
    }

    /** The queue's targets for a store of {@code coldKeys} cold keys. */
    static Targets queue(long coldKeys) {
      return coldKeys >= LARGE_STORE_COLD_KEYS ? LARGE_QUEUE : QUEUE;
    }
  }

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

  /** The first run of {@code policy} even when it was unavailable, or null when it was not run. */
  RunResult firstRun(String policy) {
    return runs.containsKey(policy) ? runs.get(policy).get(0) : null;
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

  static double expiryMean(RunResult r) {
    return r.expiry().list().getTotalCount() == 0 ? Double.NaN : r.expiry().list().getMean();
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

  /**
   * The short table a newcomer reads first (the README's): per policy that ran, the queue's and the expiry's list
   * p99 against the floor, create p99 and the compaction it wrote. The whole report says the rest.
   */
  String shortTable() {
    StringBuilder s = new StringBuilder("| policy | queue list p99 ms | / " + floorName() + " | expiry list p99 ms | / "
        + floorName() + " | create p99 us | compaction write MB |\n|---|---|---|---|---|---|---|\n");
    for (String p : runs.keySet()) {
      if (all(p) == null) {
        continue;
      }
      boolean expiry = get(p).expiry() != null;
      s.append("| ").append(p)
          .append(" | ").append(stat(p, r -> p99(r) / 1e6).format("%.2f"))
          .append(" | ").append(cell(ratio(p, floor(), Report::p99)))
          .append(" | ").append(expiry ? stat(p, r -> expiryP99(r) / 1e6).format("%.2f") : "-")
          .append(" | ").append(expiry ? cell(ratio(p, floor(), Report::expiryP99)) : "-")
          .append(" | ").append(get(p).create().getTotalCount() == 0 ? "-"
              : stat(p, r -> writeP99(r.create()) / 1e3).format("%.0f"))
          .append(" | ").append(stat(p, r -> r.compactWriteBytes() / 1048576.0).format("%.1f"))
          .append(" |\n");
    }
    return s.toString();
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
    s.append("\nTargets for the product, " + ReportTargets.PRODUCT + " (range's service with range's settings, on the "
        + "OM patched with skip hints; median of per-repeat values judged); hints alone and range alone beside each, "
        + "not judged:\n\n").append(productTargets()).append('\n');
    return s.toString();
  }

  /** range's targets, one line each ({@link ReportTargets#range}). */
  String targets() {
    return judge().range();
  }

  /** The product's targets and its verdict ({@link ReportTargets#product}). */
  String productTargets() {
    return judge().product();
  }

  private ReportTargets judge() {
    return new ReportTargets(this, listLength, targetSet, writeBufferBytes);
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

  static String writeCell(Histogram h, double p) {
    return h.getTotalCount() == 0 ? "-" : us(h, p);
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

  /** Writes summary.csv, series.csv, the charts and report.md into {@code dir}. */
  void write(Path dir, PrintStream out) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("summary.csv"), ReportCsv.summary(runs.values()));
    Files.writeString(dir.resolve("series.csv"), ReportCsv.series(runs.values()));

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
