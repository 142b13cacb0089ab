package io.ozonerc.bench.workload;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns the runs of one comparison into text: the per-policy tables, the ratio table against {@code none} and
 * {@code ideal}, the targets marked met or missed, and the files (summary CSV, time-series CSV, two PNG
 * charts, a Markdown report). Every ratio is between runs of the same process on the same machine.
 */
final class Report {

  /** Targets of the issue, checked on {@code range}. */
  static final double TARGET_LIST_P99_VS_IDEAL = 1.5;
  static final double TARGET_LIST_GAIN_VS_NONE = 20;
  static final double TARGET_WRITE_P99_VS_NONE = 1.10;
  static final double TARGET_COMPACT_WRITE_VS_FULL = 0.10;
  /**
   * {@code none} is tombstone-bound when its lists step over more than 10 internal keys per entry they return
   * (skips per list > 10 x list length): more than 90% of what a list reads is dead. Below that a list's cost is its
   * own entries, and no compaction can win 20x.
   */
  static final int TOMBSTONE_BOUND_SKIPS_PER_ENTRY = 10;

  private final String title;
  private final String settings;
  private final int listLength;
  private final Map<String, RunResult> runs = new LinkedHashMap<>();

  Report(String title, String settings, int listLength, List<RunResult> results) {
    this.title = title;
    this.settings = settings;
    this.listLength = listLength;
    for (RunResult r : results) {
      runs.put(r.policy(), r);
    }
  }

  RunResult get(String policy) {
    RunResult r = runs.get(policy);
    return r != null && r.available() ? r : null;
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

  /** One line per policy, printed as each run ends. */
  static String summaryLine(RunResult r) {
    if (!r.available()) {
      return String.format(Locale.ROOT, "%-9s unavailable: %s", r.policy(), r.unavailable());
    }
    return String.format(Locale.ROOT,
        "%-9s %6.1fs  list p50/p99 %s/%s ms  skips/list %,.0f  create p99 %s us  delete p99 %s us  "
            + "compaction write %s MB (%d manual, %.1fs)  tombstones left %,d  live keys %,d/%,d%s",
        r.policy(), r.wallNanos() / 1e9, ms(r.list(), 50), ms(r.list(), 99), r.skipsPerList(),
        r.create().getTotalCount() == 0 ? "-" : us(r.create(), 99),
        r.delete().getTotalCount() == 0 ? "-" : us(r.delete(), 99), mb(r.compactWriteBytes()),
        r.manualCompactions(), r.manualCompactionNanos() / 1e9, r.keyTableEnd().tombstones(), r.liveKeysFound(),
        r.liveKeysExpected(), r.liveKeysFound() == r.liveKeysExpected() ? "" : "  LIVE KEY MISMATCH");
  }

  /** The per-policy tables, the ratio table and the targets, as Markdown (also readable as plain text). */
  String tables() {
    StringBuilder s = new StringBuilder();
    s.append("| policy | list p50 ms | p90 | p99 | max | mean | create p50 us | p99 | max | delete p50 us | p99 "
        + "| max | ops/s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (RunResult r : runs.values()) {
      if (!r.available()) {
        s.append("| ").append(r.policy()).append(" | unavailable: ").append(r.unavailable())
            .append(" |||||||||||\n");
        continue;
      }
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %,.0f |%n",
          r.policy(), ms(r.list(), 50), ms(r.list(), 90), ms(r.list(), 99), ms(r.list(), 100),
          r.list().getMean() / 1e6, writeCell(r.create(), 50), writeCell(r.create(), 99),
          writeCell(r.create(), 100), writeCell(r.delete(), 50), writeCell(r.delete(), 99),
          writeCell(r.delete(), 100), r.opsPerSecond()));
    }
    s.append("\n| policy | skips/list | tombstones at end | keyTable SST MB | all SST MB | compaction read MB "
        + "| compaction write MB | flush write MB | manual compactions | manual compaction s | live keys |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (RunResult r : runs.values()) {
      if (!r.available()) {
        continue;
      }
      s.append(String.format(Locale.ROOT, "| %s | %,.0f | %,d | %s | %s | %s | %s | %s | %d | %.1f | %,d/%,d |%n",
          r.policy(), r.skipsPerList(), r.keyTableEnd().tombstones(), mb(r.keyTableEnd().sstBytes()),
          mb(r.allSstBytesEnd()), mb(r.compactReadBytes()), mb(r.compactWriteBytes()), mb(r.flushWriteBytes()),
          r.manualCompactions(), r.manualCompactionNanos() / 1e9, r.liveKeysFound(), r.liveKeysExpected()));
    }
    for (RunResult r : runs.values()) {
      if (r.available() && !r.detail().isEmpty()) {
        s.append("\n").append(r.policy()).append(": ").append(r.detail()).append("\n");
      }
    }
    s.append("\nRatios (policy / baseline; below 1 is better, except compaction bytes where it is just cost):\n\n");
    s.append("| policy | list p99 / none | list p99 / ideal | list mean / none | list mean / ideal | skips/list / none "
        + "| create p99 / none | delete p99 / none | compaction write / full |\n"
        + "|---|---|---|---|---|---|---|---|---|\n");
    RunResult none = get("none");
    RunResult ideal = get("ideal");
    RunResult full = get("full");
    for (RunResult r : runs.values()) {
      if (!r.available()) {
        continue;
      }
      s.append("| ").append(r.policy())
          .append(" | ").append(ratio(r, none, x -> x.list().getValueAtPercentile(99)))
          .append(" | ").append(ratio(r, ideal, x -> x.list().getValueAtPercentile(99)))
          .append(" | ").append(ratio(r, none, x -> x.list().getMean()))
          .append(" | ").append(ratio(r, ideal, x -> x.list().getMean()))
          .append(" | ").append(ratio(r, none, RunResult::skipsPerList))
          .append(" | ").append(writeRatio(r, none, RunResult::create))
          .append(" | ").append(writeRatio(r, none, RunResult::delete))
          .append(" | ").append(r.policy().equals("ideal") ? "-" : ratio(r, full, x -> x.compactWriteBytes()))
          .append(" |\n");
    }
    s.append("\nTargets (issue 4), checked on range:\n\n").append(targets()).append('\n');
    return s.toString();
  }

  private static String writeCell(Histogram h, double p) {
    return h.getTotalCount() == 0 ? "-" : us(h, p);
  }

  private static String ratio(RunResult r, RunResult base, ToDoubleFunction<RunResult> f) {
    if (base == null) {
      return "n/a";
    }
    double b = f.applyAsDouble(base);
    if (b == 0) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%.3gx", f.applyAsDouble(r) / b);
  }

  private static String writeRatio(RunResult r, RunResult base, java.util.function.Function<RunResult, Histogram> h) {
    if (base == null || h.apply(r).getTotalCount() == 0 || h.apply(base).getTotalCount() == 0) {
      return "-";
    }
    return ratio(r, base, x -> h.apply(x).getValueAtPercentile(99));
  }

  /** One line per target: value, threshold, met/missed, or why it cannot be judged. */
  String targets() {
    RunResult range = get("range");
    RunResult none = get("none");
    RunResult ideal = get("ideal");
    RunResult full = get("full");
    List<String> lines = new ArrayList<>();
    if (range == null) {
      RunResult r = runs.get("range");
      lines.add("- all targets: n/a (range " + (r == null ? "not run" : "unavailable: " + r.unavailable()) + ")");
      return String.join("\n", lines);
    }
    if (ideal != null) {
      double v = p99(range) / p99(ideal);
      lines.add(mark(String.format(Locale.ROOT, "range list p99 = %.2fx ideal (target <= %.1fx)", v,
          TARGET_LIST_P99_VS_IDEAL), v <= TARGET_LIST_P99_VS_IDEAL));
    } else {
      lines.add("- range list p99 vs ideal: n/a (ideal not run)");
    }
    if (none != null) {
      double gain = p99(none) / p99(range);
      boolean bound = none.skipsPerList() > (double) TOMBSTONE_BOUND_SKIPS_PER_ENTRY * listLength;
      String headroom = ideal == null ? "" : String.format(Locale.ROOT,
          "; no policy can beat ideal, so the most any can gain here is none/ideal = %.1fx", p99(none) / p99(ideal));
      String text = String.format(Locale.ROOT,
          "range list p99 %.1fx better than none (target >= %.0fx where none is tombstone-bound; none skips "
              + "%,.0f internal keys per list, bound above %,d%s)", gain, TARGET_LIST_GAIN_VS_NONE,
          none.skipsPerList(), (long) TOMBSTONE_BOUND_SKIPS_PER_ENTRY * listLength, headroom);
      lines.add(bound ? mark(text, gain >= TARGET_LIST_GAIN_VS_NONE)
          : "- n/a (none is not tombstone-bound here): " + text);
      for (String op : List.of("create", "delete")) {
        Histogram a = op.equals("create") ? range.create() : range.delete();
        Histogram b = op.equals("create") ? none.create() : none.delete();
        if (a.getTotalCount() == 0 || b.getTotalCount() == 0) {
          lines.add("- range " + op + " p99 vs none: n/a (no " + op + "s)");
          continue;
        }
        double v = (double) a.getValueAtPercentile(99) / b.getValueAtPercentile(99);
        lines.add(mark(String.format(Locale.ROOT, "range %s p99 = %.2fx none (target <= %.2fx)", op, v,
            TARGET_WRITE_P99_VS_NONE), v <= TARGET_WRITE_P99_VS_NONE));
      }
    } else {
      lines.add("- targets against none: n/a (none not run)");
    }
    if (full != null && full.compactWriteBytes() > 0) {
      double v = (double) range.compactWriteBytes() / full.compactWriteBytes();
      lines.add(mark(String.format(Locale.ROOT,
          "range compaction bytes written = %.3fx full (%s MB vs %s MB, all compactions of the run; target <= "
              + "%.2fx)", v, mb(range.compactWriteBytes()), mb(full.compactWriteBytes()),
          TARGET_COMPACT_WRITE_VS_FULL), v <= TARGET_COMPACT_WRITE_VS_FULL));
    } else {
      lines.add("- range compaction bytes vs full: n/a (full not run)");
    }
    return String.join("\n", lines);
  }

  private static double p99(RunResult r) {
    return r.list().getValueAtPercentile(99);
  }

  private static String mark(String text, boolean met) {
    return "- " + (met ? "MET    " : "MISSED ") + text;
  }

  /** Writes summary.csv, series.csv, list-p99.png, tombstones.png and report.md into {@code dir}. */
  void write(Path dir, PrintStream out) throws IOException {
    Files.createDirectories(dir);
    StringBuilder csv = new StringBuilder("policy,ops,wall_s,ops_per_s,lists,list_p50_ms,list_p90_ms,list_p99_ms,"
        + "list_max_ms,list_mean_ms,create_p50_us,create_p99_us,create_max_us,delete_p50_us,delete_p99_us,"
        + "delete_max_us,skips_per_list,tombstones_end,keytable_sst_bytes,all_sst_bytes,compact_read_bytes,"
        + "compact_write_bytes,flush_write_bytes,manual_compactions,manual_compaction_s,live_keys_expected,"
        + "live_keys_found,unavailable\n");
    for (RunResult r : runs.values()) {
      if (!r.available()) {
        csv.append(r.policy()).append(",,,,,,,,,,,,,,,,,,,,,,,,,,,").append(r.unavailable().replace(',', ';'))
            .append('\n');
        continue;
      }
      csv.append(String.format(Locale.ROOT,
          "%s,%d,%.3f,%.1f,%d,%s,%s,%s,%s,%.3f,%s,%s,%s,%s,%s,%s,%.1f,%d,%d,%d,%d,%d,%d,%d,%.3f,%d,%d,%n",
          r.policy(), r.ops(), r.wallNanos() / 1e9, r.opsPerSecond(), r.list().getTotalCount(), ms(r.list(), 50),
          ms(r.list(), 90), ms(r.list(), 99), ms(r.list(), 100), r.list().getMean() / 1e6,
          writeCell(r.create(), 50), writeCell(r.create(), 99), writeCell(r.create(), 100),
          writeCell(r.delete(), 50), writeCell(r.delete(), 99), writeCell(r.delete(), 100), r.skipsPerList(),
          r.keyTableEnd().tombstones(), r.keyTableEnd().sstBytes(), r.allSstBytesEnd(), r.compactReadBytes(),
          r.compactWriteBytes(), r.flushWriteBytes(), r.manualCompactions(), r.manualCompactionNanos() / 1e9,
          r.liveKeysExpected(), r.liveKeysFound()));
    }
    Files.writeString(dir.resolve("summary.csv"), csv.toString());

    StringBuilder series = new StringBuilder("policy,elapsed_s,ops_done,lists,list_p99_ms,skips_per_list,"
        + "tombstones,keytable_sst_bytes,compact_write_bytes\n");
    for (RunResult r : runs.values()) {
      for (RunResult.Sample p : r.series()) {
        series.append(String.format(Locale.ROOT, "%s,%.2f,%d,%d,%s,%s,%d,%d,%d%n", p.policy(), p.elapsedSeconds(),
            p.opsDone(), p.listsInInterval(), Double.isNaN(p.listP99Millis()) ? "" : String.format(Locale.ROOT,
                "%.3f", p.listP99Millis()), Double.isNaN(p.skipsPerList()) ? "" : String.format(Locale.ROOT,
                "%.1f", p.skipsPerList()), p.tombstones(), p.sstBytes(), p.compactWriteBytes()));
      }
    }
    Files.writeString(dir.resolve("series.csv"), series.toString());

    chart(dir.resolve("list-p99.png"), "List p99 per interval", "list p99 (ms, log scale)", true,
        RunResult.Sample::listP99Millis);
    chart(dir.resolve("tombstones.png"), "Tombstones in the keyTable (SST deletions + memtable deletes)",
        "tombstones", false, p -> p.tombstones());

    String md = "# " + title + "\n\n" + settings + "\n\n" + tables()
        + "\n![list p99 per interval](list-p99.png)\n\n![tombstones](tombstones.png)\n\n"
        + "Files: `summary.csv` (this table), `series.csv` (the time series behind the charts).\n";
    Files.writeString(dir.resolve("report.md"), md);
    out.println("Report: " + dir.resolve("report.md").toAbsolutePath());
  }

  private void chart(Path file, String chartTitle, String yTitle, boolean log,
      ToDoubleFunction<RunResult.Sample> y) throws IOException {
    XYChart chart = new XYChartBuilder().width(1000).height(560).title(chartTitle)
        .xAxisTitle("operations done").yAxisTitle(yTitle).build();
    chart.getStyler().setYAxisLogarithmic(log);
    chart.getStyler().setMarkerSize(4);
    int drawn = 0;
    for (RunResult r : runs.values()) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (RunResult.Sample p : r.series()) {
        double v = y.applyAsDouble(p);
        if (!Double.isNaN(v) && (!log || v > 0)) {
          xs.add((double) p.opsDone());
          ys.add(v);
        }
      }
      if (!xs.isEmpty()) {
        XYSeries s = chart.addSeries(r.policy(), xs, ys);
        s.setMarker(SeriesMarkers.CIRCLE);
        drawn++;
      }
    }
    if (drawn == 0) {
      chart.addSeries("no data", new double[] {0}, new double[] {1});
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
