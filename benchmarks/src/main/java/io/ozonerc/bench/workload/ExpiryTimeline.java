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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The expiry listings over time: their p99 and count per {@link #WIDTH_SECONDS} interval of each run (from the
 * run's start), and the time each policy takes to recover after the expiry's last delete batch: from that batch's
 * end until the expiry listings that cross the expired span ({@link Workload#crossesExpiredSpan}), from then to the
 * end of the run, have a p99 within {@link #RECOVERY_FACTOR} x the floor's whole-run expiry list p99
 * ({@link Report#floor()}: ideal-loaded when it ran, else ideal). Only those listings judge it: about half of the
 * expiry listings start past the span and are fast whatever a policy does, so with them a p99 can pass while every
 * listing that meets the span is still slow. The same judged on all expiry listings is printed beside it, as
 * earlier reports gave it. The per-interval p99 is for the chart: an interval holds a few dozen listings, so its p99
 * is its slowest one.
 */
final class ExpiryTimeline {

  static final double WIDTH_SECONDS = 5;
  static final double RECOVERY_FACTOR = 1.5;
  /** The fewest listings after a recovery's start whose p99 can judge it (see {@link #recoverySeconds}). */
  static final int MIN_TAIL = 100;

  private ExpiryTimeline() {
  }

  /** One interval [start, end) of a run: the expiry listings that started in it, and their p99 (NaN: none). */
  record Interval(double startSeconds, double endSeconds, long lists, double p99Millis) {
  }

  /**
   * The listings bucketed by start time into intervals of {@code width} seconds from 0, through the last listing's;
   * p99 by nearest rank (the value at rank ceil(0.99 n)), so with fewer than 100 listings it is the largest.
   */
  static List<Interval> intervals(long[] startNanos, long[] latencyNanos, double width) {
    Map<Integer, List<Long>> byInterval = new LinkedHashMap<>();
    int last = -1;
    for (int i = 0; i < startNanos.length; i++) {
      int k = (int) Math.floor(startNanos[i] / 1e9 / width);
      byInterval.computeIfAbsent(k, x -> new ArrayList<>()).add(latencyNanos[i]);
      last = Math.max(last, k);
    }
    List<Interval> out = new ArrayList<>();
    for (int k = 0; k <= last; k++) {
      List<Long> v = byInterval.getOrDefault(k, List.of());
      double p99 = Double.NaN;
      if (!v.isEmpty()) {
        long[] sorted = v.stream().mapToLong(Long::longValue).sorted().toArray();
        p99 = sorted[(int) Math.ceil(0.99 * sorted.length) - 1] / 1e6;
      }
      out.add(new Interval(k * width, (k + 1) * width, v.size(), p99));
    }
    return out;
  }

  /**
   * Seconds from the last batch's end ({@code lastBatchSeconds}) until the expiry listings are back within
   * {@code limitMillis}: the first moment t, the batch's end or an interval boundary after it ({@code width}
   * apart), such that the listings started at t or later, to the end of the run, have a p99 (nearest rank) of at
   * most the limit; t less the batch's end. At least {@link #MIN_TAIL} listings must follow t, so the p99 is a
   * percentile and not the slowest listing of a few seconds: one slow listing among a hundred after the recovery
   * does not undo it, a slow interval that recurs does. NaN when not recovered within the run.
   */
  static double recoverySeconds(long[] startNanos, long[] latencyNanos, double lastBatchSeconds, double limitMillis,
      double width) {
    Integer[] byStart = new Integer[startNanos.length];
    for (int i = 0; i < byStart.length; i++) {
      byStart[i] = i;
    }
    Arrays.sort(byStart, (a, b) -> Long.compare(startNanos[a], startNanos[b]));
    double t = lastBatchSeconds;
    int first = 0;
    while (true) {
      while (first < byStart.length && startNanos[byStart[first]] / 1e9 < t) {
        first++;
      }
      int n = byStart.length - first;
      if (n < MIN_TAIL) {
        return Double.NaN;
      }
      long[] tail = new long[n];
      for (int i = 0; i < n; i++) {
        tail[i] = latencyNanos[byStart[first + i]];
      }
      Arrays.sort(tail);
      if (tail[(int) Math.ceil(0.99 * n) - 1] / 1e6 <= limitMillis) {
        return t - lastBatchSeconds;
      }
      t = (Math.floor(t / width) + 1) * width;
    }
  }

  /**
   * {@link #recoverySeconds(long[], long[], double, double, double)} over the listings of {@code e} that
   * {@code judged} marks, or over all of them when it is null.
   */
  static double recoverySeconds(RunResult.Expiry e, boolean[] judged, double lastBatchSeconds,
      double limitMillis) {
    long[] starts = e.listStartNanos();
    long[] took = e.listNanos();
    if (judged != null) {
      int n = 0;
      for (boolean b : judged) {
        n += b ? 1 : 0;
      }
      long[] s = new long[n];
      long[] t = new long[n];
      for (int i = 0, k = 0; i < judged.length; i++) {
        if (judged[i]) {
          s[k] = starts[i];
          t[k++] = took[i];
        }
      }
      starts = s;
      took = t;
    }
    return recoverySeconds(starts, took, lastBatchSeconds, limitMillis, WIDTH_SECONDS);
  }

  private static String recovered(double limit, double t) {
    return Double.isNaN(limit) ? "n/a" : Double.isNaN(t) ? "not recovered within the run"
        : String.format(Locale.ROOT, "%.1f s", t);
  }

  private static List<Interval> intervals(RunResult r) {
    return intervals(r.expiry().listStartNanos(), r.expiry().listNanos(), WIDTH_SECONDS);
  }

  private static boolean timed(RunResult r) {
    return r.expiry() != null && r.expiry().listStartNanos().length > 0;
  }

  /** The floor's expiry list p99 in ms (median over its runs), or NaN when the floor did not run. */
  private static double floorMillis(Report report) {
    Report.Stat s = report.all(report.floor()) == null || report.get(report.floor()).expiry() == null ? null
        : report.stat(report.floor(), r -> Report.expiryP99(r) / 1e6);
    return s == null ? Double.NaN : s.median();
  }

  /** The report.md section: one row per policy with an expiry phase, the runs of a policy comma-separated. */
  static String table(Report report) {
    double floor = floorMillis(report);
    double limit = RECOVERY_FACTOR * floor;
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Expiry listings over time (p99 per %.0f s "
        + "interval in expiry-series.csv and expiry-p99.png; time to recover: from the expiry's last delete batch "
        + "until the expiry listings that cross the expired span (they start in it, or fewer than a listing's "
        + "length of kept keys before it), from then to the end of the run, at least %d of them, have a p99 within "
        + "%.1fx the %s expiry list p99 (%s); judged at the batch's end and every interval boundary after it; "
        + "beside it the same judged on all expiry listings, half of which start past the span):%n%n"
        + "| policy | last expiry batch ended at s | intervals after it | worst interval p99 after it ms "
        + "| listings after it crossing the span | time to recover | judged on all expiry listings |%n"
        + "|---|---|---|---|---|---|---|%n", WIDTH_SECONDS, MIN_TAIL, RECOVERY_FACTOR,
        report.floorName(),
        Double.isNaN(floor) ? "not run: no recovery judged" : String.format(Locale.ROOT, "%.2f ms, limit %.2f ms",
            floor, limit)));
    for (String p : report.policies()) {
      List<RunResult> rs = report.all(p);
      if (rs == null || !timed(rs.get(0))) {
        continue;
      }
      List<String> at = new ArrayList<>();
      List<String> after = new ArrayList<>();
      List<String> worst = new ArrayList<>();
      List<String> crossing = new ArrayList<>();
      List<String> recover = new ArrayList<>();
      List<String> recoverAll = new ArrayList<>();
      for (RunResult r : rs) {
        double last = r.expiry().lastBatchEndNanos() / 1e9;
        if (r.expiry().lastBatchEndNanos() < 0) {
          at.add("- (no batch in the run)");
          after.add("-");
          worst.add("-");
          crossing.add("-");
          recover.add("n/a");
          recoverAll.add("n/a");
          continue;
        }
        List<Interval> later = intervals(r).stream().filter(i -> i.endSeconds() > last && i.lists() > 0).toList();
        at.add(String.format(Locale.ROOT, "%.1f", last));
        after.add(Integer.toString(later.size()));
        worst.add(later.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f",
            later.stream().mapToDouble(Interval::p99Millis).max().orElse(Double.NaN)));
        boolean[] crosses = r.expiry().listCrossesSpan();
        long n = 0;
        for (int i = 0; i < crosses.length; i++) {
          n += crosses[i] && r.expiry().listStartNanos()[i] / 1e9 >= last ? 1 : 0;
        }
        crossing.add(String.format(Locale.ROOT, "%,d", n));
        recover.add(recovered(limit, Double.isNaN(limit) ? Double.NaN
            : recoverySeconds(r.expiry(), crosses, last, limit)));
        recoverAll.add(recovered(limit, Double.isNaN(limit) ? Double.NaN
            : recoverySeconds(r.expiry(), null, last, limit)));
      }
      s.append("| ").append(p).append(" | ").append(String.join(", ", at)).append(" | ")
          .append(String.join(", ", after)).append(" | ").append(String.join(", ", worst)).append(" | ")
          .append(String.join(", ", crossing)).append(" | ").append(String.join(", ", recover)).append(" | ")
          .append(String.join(", ", recoverAll)).append(" |\n");
    }
    return s.toString();
  }

  /** Whether any run has timed expiry listings (the section, the CSV and the chart exist only then). */
  static boolean any(Report report) {
    return report.policies().stream().anyMatch(p -> report.all(p) != null && timed(report.get(p)));
  }

  /** Writes expiry-series.csv (every run) and expiry-p99.png (first run of each policy) into {@code dir}. */
  static void write(Report report, Path dir) throws IOException {
    StringBuilder csv = new StringBuilder("policy,repeat,interval_start_s,interval_end_s,expiry_lists,"
        + "expiry_list_p99_ms,after_last_batch\n");
    Map<String, double[][]> chart = new LinkedHashMap<>();
    double xMax = 1;
    for (String p : report.policies()) {
      List<RunResult> rs = report.all(p);
      if (rs == null) {
        continue;
      }
      for (int n = 0; n < rs.size(); n++) {
        RunResult r = rs.get(n);
        if (!timed(r)) {
          continue;
        }
        double last = r.expiry().lastBatchEndNanos() / 1e9;
        List<Interval> iv = intervals(r);
        for (Interval i : iv) {
          csv.append(String.format(Locale.ROOT, "%s,%d,%.1f,%.1f,%d,%s,%s%n", p, n + 1, i.startSeconds(),
              i.endSeconds(), i.lists(), Double.isNaN(i.p99Millis()) ? "" : String.format(Locale.ROOT, "%.3f",
                  i.p99Millis()), r.expiry().lastBatchEndNanos() < 0 ? "" : i.endSeconds() > last));
        }
        if (n == 0) {
          List<Interval> with = iv.stream().filter(i -> i.lists() > 0).toList();
          chart.put(p, new double[][] {with.stream().mapToDouble(i -> (i.startSeconds() + i.endSeconds()) / 2)
              .toArray(), with.stream().mapToDouble(Interval::p99Millis).toArray()});
          xMax = Math.max(xMax, iv.isEmpty() ? 0 : iv.get(iv.size() - 1).endSeconds());
        }
      }
    }
    Files.writeString(dir.resolve("expiry-series.csv"), csv.toString());
    ReportCharts.smallMultiples(dir.resolve("expiry-p99.png"), String.format(Locale.ROOT, "Expiry listings: p99 per "
        + "%.0f s interval, ms", WIDTH_SECONDS), "seconds since the run started", "expiry list p99 ms", chart, xMax);
  }
}
