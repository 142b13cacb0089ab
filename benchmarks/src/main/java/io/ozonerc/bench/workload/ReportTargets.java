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

import static io.ozonerc.bench.workload.Report.expiryP99;
import static io.ozonerc.bench.workload.Report.p99;
import static io.ozonerc.bench.workload.Report.writeP99;

import io.ozonerc.bench.workload.Report.Paired;
import io.ozonerc.bench.workload.Report.Stat;
import io.ozonerc.bench.workload.Report.Targets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoublePredicate;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The targets of one comparison, judged on a {@link Report}'s runs: range's lines and the product's, each MET or
 * MISSED with the measured ratio (median over repeats), n/a with the reason when a baseline did not run, NO VERDICT
 * when the policy under test did no work. docs/benchmark-tombstones.md gives the targets and why they are set where
 * they are.
 */
final class ReportTargets {
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
  /** With the OM's 128 MB memtable (or more); the store's own target ({@link Targets}) when that is higher. */
  static final double TARGET_PRODUCT_P99_VS_IDEAL_128MB = 1.5;
  /** Share of none's list p99 gap to ideal the product must close: (none - product) / (none - ideal). */
  static final double TARGET_PRODUCT_GAP_CLOSED = 0.8;
  /** Manual compaction cost: (product - none) / (full - none) in compaction bytes written. */
  static final double TARGET_PRODUCT_COST_VS_FULL = 0.10;
  static final double TARGET_PRODUCT_WRITE_P99_VS_NONE = 1.05;
  /**
   * The expiry listings: share of none's expiry list p99 gap to ideal the product must close, (none - product) /
   * (none - ideal); the most its expiry list p99 (and on a large store its mean) may be against ideal is the
   * store's ({@link Targets}). Listings that start inside the span a
   * lifecycle rule is deleting are what object stores serve all day; skip hints' dead spans and range compaction
   * both work on them.
   */
  static final double TARGET_PRODUCT_EXPIRY_GAP_CLOSED = 0.9;
  /**
   * {@code none} is tombstone-bound when its lists step over more than 10 internal keys per entry they return
   * (skips per list > 10 x list length): more than 90% of what a list reads is dead. Below that a list's cost is its
   * own entries, and no compaction can win 5x.
   */
  static final int TOMBSTONE_BOUND_SKIPS_PER_ENTRY = 10;

  private final Report report;
  private final int listLength;
  private final Targets targetSet;
  private final long writeBufferBytes;

  ReportTargets(Report report, int listLength, Targets targetSet, long writeBufferBytes) {
    this.report = report;
    this.listLength = listLength;
    this.targetSet = targetSet;
    this.writeBufferBytes = writeBufferBytes;
  }

  /** range's targets, one line each: MET / MISSED with the measured value, NO VERDICT, or n/a with the reason. */
  String range() {
    List<String> lines = new ArrayList<>();
    List<RunResult> range = report.all("range");
    if (range == null) {
      RunResult r = report.firstRun("range");
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
    Stat vsIdeal = report.ratio("range", report.floor(), Report::p99);
    lines.add(vsIdeal == null ? "- range list p99 vs ideal: n/a (ideal not run)"
        : mark(vsIdeal, v -> v <= idealTarget, "range list p99 = %sx " + report.floorName()
            + report.idleNote("range", Report::p99, "%.2f", " idle") + " (target <= %.1fx%s)", "%.2f",
            idealTarget, om ? ", with the OM's 128 MB memtable" : ""));
    Stat gain = report.ratio("none", "range", Report::p99);
    RunResult none = report.get("none");
    if (gain != null) {
      boolean bound = none.skipsPerList() > (double) TOMBSTONE_BOUND_SKIPS_PER_ENTRY * listLength;
      Stat headroom = report.ratio("none", report.floor(), Report::p99);
      String text = "range list p99 %sx better than none (target >= %.0fx; none skips "
          + String.format(Locale.ROOT, "%,.0f", none.skipsPerList()) + " internal keys per list"
          + (headroom == null ? "" : "; the most any policy can gain here is none/" + report.floorName() + " = "
          + headroom.format("%.1f")
          + "x") + ")";
      lines.add(bound ? mark(gain, v -> v >= TARGET_LIST_GAIN_VS_NONE, text, "%.1f", TARGET_LIST_GAIN_VS_NONE)
          : "- n/a (none is not tombstone-bound: below " + TOMBSTONE_BOUND_SKIPS_PER_ENTRY + " skips per listed "
              + "entry): " + String.format(Locale.ROOT, text.replace("%sx", gain.format("%.1f") + "x"),
              TARGET_LIST_GAIN_VS_NONE));
    } else {
      lines.add("- range list p99 vs none: n/a (none not run)");
    }
    if (report.hasExpiry() && !Double.isNaN(targetSet.rangeExpiryMeanGap)) {
      lines.add(rangeExpiryGap("mean", Report::expiryMean, targetSet.rangeExpiryMeanGap));
      lines.add(rangeExpiryGap("p99", Report::expiryP99, targetSet.rangeExpiryP99Gap));
    }
    Stat vsFull = report.ratio("range", "full", RunResult::compactWriteBytes);
    lines.add(vsFull == null ? "- range compaction bytes vs full: n/a (full not run or wrote nothing)"
        : mark(vsFull, v -> v <= TARGET_COMPACT_WRITE_VS_FULL,
            "range compaction bytes written = %sx full (RocksDB's compact.write.bytes over the run, automatic "
                + "compactions included; target <= %.2fx%s)", "%.3f", TARGET_COMPACT_WRITE_VS_FULL,
            automaticCompactionFloor("full")));
    Stat vsRef = report.ratio("range", "reference", RunResult::compactWriteBytes);
    lines.add(vsRef == null ? "- range compaction bytes vs reference: n/a (reference not run or wrote nothing)"
        : mark(vsRef, v -> v <= 1.0, "range compaction bytes written = %sx reference (target <= %.2fx%s)", "%.3f",
            1.0, automaticCompactionFloor("reference")));
    for (String op : List.of("create", "delete")) {
      ToDoubleFunction<RunResult> f = op.equals("create") ? r -> writeP99(r.create()) : r -> writeP99(r.delete());
      Stat v = report.ratio("range", "none", f);
      lines.add(v == null ? "- range " + op + " p99 vs none: n/a (none not run or no " + op + "s)"
          : mark(v, x -> x <= TARGET_WRITE_P99_VS_NONE, "range " + op + " p99 = %sx none (target <= %.2fx)",
              "%.2f", TARGET_WRITE_P99_VS_NONE));
    }
    Stat stalls = report.stat("range", r -> r.stallMicros() / 1e3);
    lines.add("- " + (stalls.max() == 0 ? "MET    " : "MISSED ") + "range write stalls (rocksdb.stall.micros) = "
        + stalls.format("%.1f") + " ms (target: 0)");
    Stat seekGain = report.ratio("none", "range", r -> r.seeks().averageMicros());
    if (seekGain != null) {
      lines.add("- INFO   range DB seek average " + seekGain.format("%.1f") + "x better than none ("
          + String.format(Locale.ROOT, "%.0f -> %.0f us", report.stat("none", r -> r.seeks().averageMicros()).median(),
          report.stat("range", r -> r.seeks().averageMicros()).median()) + "); the published HDDS-12682 gains on this "
          + "metric are 20x / 27x / 158x at 1e5 / 1e6 / 1e7 operations (--scale prints them side by side)");
      String own = ownSeeks();
      if (!own.isEmpty()) {
        lines.add(own);
      }
    }
    return String.join("\n", lines);
  }

  /**
   * The share of none's expiry list gap to the floor (on {@code what}, mean or p99) that range alone closes, the
   * stock OM's only help: (none - range) / (none - floor), against {@code target}.
   */
  private String rangeExpiryGap(String what, ToDoubleFunction<RunResult> f, double target) {
    Stat v = report.paired("range", "none", report.floor(), (x, none, floor) -> {
      double gap = f.applyAsDouble(none) - f.applyAsDouble(floor);
      return !(gap > 0) ? Double.NaN : (f.applyAsDouble(none) - f.applyAsDouble(x)) / gap;
    });
    String fl = report.floorName();
    return v == null ? "- range expiry list " + what + " gap closed: n/a (none or " + fl + " not run, or none not "
        + "above it)"
        : mark(v, x -> x >= target, "range closes %s of none's expiry list " + what + " gap to " + fl + ", (none - "
            + "range) / (none - " + fl + ") (target >= %.1f, on a store of 6 million cold keys or more)", "%.2f",
            target);
  }

  /**
   * DB_SEEK counts every seek on the store, range's own head probes too (none runs the same lists and seeks only
   * for them). A probe of a live head is cheap and pulls the average down, so where range counted more seeks the
   * average alone flatters it: this line gives how many seeks were its own and the total seek time against none's,
   * the probes charged to range. Empty when the counts match or none did not run.
   */
  private String ownSeeks() {
    Stat none = report.stat("none", r -> r.seeks().count());
    Stat range = report.stat("range", r -> r.seeks().count());
    if (none == null || range == null || range.median() <= none.median()) {
      return "";
    }
    Stat total = report.ratio("none", "range", Report::seekTime);
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
    Stat floor = report.ratio("none", base, RunResult::compactWriteBytes);
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
      Stat v = report.ratio("range", "none", m.getValue());
      lines.add(v == null ? "  - range " + m.getKey() + " vs none: n/a (none not run or zero)"
          : "  " + mark(v, x -> x <= TARGET_NO_WORSE_VS_NONE, "range " + m.getKey() + " = %sx none", "%.2f"));
    }
    Stat stalls = report.stat("range", r -> r.stallMicros() / 1e3);
    Stat noneStalls = report.stat("none", r -> r.stallMicros() / 1e3);
    boolean ok = noneStalls == null ? stalls.max() == 0 : stalls.median() <= noneStalls.median();
    lines.add("  - " + (ok ? "MET    " : "MISSED ") + "range write stalls = " + stalls.format("%.1f") + " ms"
        + (noneStalls == null ? "" : ", none " + noneStalls.format("%.1f") + " ms"));
    return String.join("\n", lines);
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
      Stat v = report.all(p) == null || report.get(p).expiry() == null ? null : report.stat(p, r -> expiryP99(r) / 1e6);
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
  private record ProductTarget(String label, Function<String, Stat> value,
      DoublePredicate met, String text, String format, String unit, String naReason) {
  }

  /**
   * The product's targets: MET / MISSED with the measured value (median of per-repeat values), hints alone and
   * range alone beside each, then a verdict line naming the product. NO VERDICT when the product did nothing.
   */
  String product() {
    List<RunResult> product = report.all(PRODUCT);
    if (product == null) {
      RunResult r = report.firstRun(PRODUCT);
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
      metrics.forEach((name, f) -> targets.add(new ProductTarget(name, p -> report.ratio(p, "none", f),
          x -> x <= TARGET_NO_WORSE_VS_NONE, "%s " + name + " = %sx none", "%.2f", "x", "none not run or zero")));
    } else {
      if (idle > 0) {
        return "- NO VERDICT: " + PRODUCT + " did nothing (no compaction that removed a tombstone or took 1 ms, no "
            + "memtable flush, no seek that jumped) in " + idle + " of " + product.size() + " run(s); no target is "
            + "judged.";
      }
      boolean om = writeBufferBytes >= OM_WRITE_BUFFER;
      double idealTarget = om ? Math.max(TARGET_PRODUCT_P99_VS_IDEAL_128MB, targetSet.productListP99)
          : targetSet.productListP99;
      String fl = report.floorName();
      targets.add(new ProductTarget("list p99 vs ideal", p -> report.ratio(p, report.floor(), Report::p99),
          v -> v <= idealTarget, "%s list p99 = %sx " + fl + report.idleNote(PRODUCT, Report::p99, "%.2f", " idle")
              + " (target <= " + idealTarget + "x" + (om ? ", with a memtable of 128 MB or more" : "") + ")", "%.2f",
          "x", "ideal not run"));
      targets.add(new ProductTarget("gap to ideal closed",
          p -> report.paired(p, "none", report.floor(), ReportTargets::gapClosed),
          v -> v >= TARGET_PRODUCT_GAP_CLOSED, "%s closes %s of none's list p99 gap to " + fl + ", (none - %1$s) / "
              + "(none - " + fl + ")" + idleGap(ReportTargets::gapClosed) + " (target >= "
              + TARGET_PRODUCT_GAP_CLOSED + ")",
          "%.2f", "", "none or ideal not run, or none not above ideal"));
      targets.add(new ProductTarget("manual compaction cost",
          p -> report.paired(p, "none", "full", ReportTargets::costVsFull),
          v -> v <= TARGET_PRODUCT_COST_VS_FULL, "%s manual compaction cost = %s of full's, (%1$s - none) / "
              + "(full - none) compaction bytes written (target <= " + TARGET_PRODUCT_COST_VS_FULL + ")", "%.3f", "",
          "none or full not run, or full wrote no more than none"));
      for (String op : List.of("create", "delete")) {
        ToDoubleFunction<RunResult> f = op.equals("create") ? r -> writeP99(r.create()) : r -> writeP99(r.delete());
        targets.add(new ProductTarget(op + " p99", p -> report.ratio(p, "none", f),
            v -> v <= TARGET_PRODUCT_WRITE_P99_VS_NONE, "%s " + op + " p99 = %sx none (target <= "
                + TARGET_PRODUCT_WRITE_P99_VS_NONE + "x)", "%.2f", "x", "none not run or no " + op + "s"));
      }
    }
    if (report.hasExpiry()) {
      targets.add(new ProductTarget("expiry list p99 vs ideal", p -> report.ratio(p, report.floor(), Report::expiryP99),
          v -> v <= targetSet.productExpiryP99, "%s expiry list p99 = %sx " + report.floorName()
              + report.idleNote(PRODUCT, Report::expiryP99, "%.2f", " idle") + " (target <= "
              + targetSet.productExpiryP99 + "x)", "%.2f", "x", "ideal not run"));
      if (!Double.isNaN(targetSet.productExpiryMean)) {
        targets.add(new ProductTarget("expiry list mean vs ideal",
            p -> report.ratio(p, report.floor(), Report::expiryMean), v -> v <= targetSet.productExpiryMean,
            "%s expiry list mean = %sx " + report.floorName() + report.idleNote(PRODUCT, Report::expiryMean, "%.2f",
                " idle") + " (target <= " + targetSet.productExpiryMean + "x)", "%.2f", "x", "ideal not run"));
      }
      targets.add(new ProductTarget("expiry list p99 gap to ideal closed",
          p -> report.paired(p, "none", report.floor(), ReportTargets::expiryGapClosed),
          v -> v >= TARGET_PRODUCT_EXPIRY_GAP_CLOSED,
          "%s closes %s of none's expiry list p99 gap to " + report.floorName() + ", (none - %1$s) / (none - "
              + report.floorName() + ")" + idleGap(ReportTargets::expiryGapClosed) + " on the expiry "
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
      Stat stalls = report.stat(PRODUCT, r -> r.stallMicros() / 1e3);
      Stat noneStalls = report.stat("none", r -> r.stallMicros() / 1e3);
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
    Stat idle = report.floor().equals("ideal") ? null : report.paired(PRODUCT, "none", "ideal", f);
    return idle == null ? "" : " (" + idle.format("%.2f") + " against ideal idle)";
  }

  private String alone(String policy, ProductTarget t) {
    if (report.all(policy) == null) {
      return policy + " alone n/a (not run)";
    }
    Stat v = t.value().apply(policy);
    return policy + " alone " + (v == null ? "n/a" : v.format(t.format()) + t.unit());
  }

  private static String mark(Stat value, DoublePredicate met, String text, String valueFormat,
      Object... args) {
    Object[] all = new Object[args.length + 1];
    all[0] = value.format(valueFormat);
    System.arraycopy(args, 0, all, 1, args.length);
    return "- " + (met.test(value.median()) ? "MET    " : "MISSED ") + String.format(Locale.ROOT, text, all);
  }
}
