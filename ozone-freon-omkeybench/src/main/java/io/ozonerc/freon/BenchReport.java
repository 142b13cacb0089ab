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

package io.ozonerc.freon;

import io.ozonerc.freon.Weights.Op;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The benchmark's output: per-interval CSV rows (one per operation and interval, then one whole-run row per
 * operation at the end), the status line (live keys, created, deleted, per-operation rates over the last interval)
 * and the whole-run summary table. Only the reporter thread calls {@link #tick} and {@link #finish}; the status line
 * may be read from any thread.
 */
final class BenchReport {
  static final String CSV_HEADER =
      "time_s,kind,op,count,rate_per_s,skipped,mean_ms,p50_ms,p99_ms,max_ms,live,tracked,created,deleted";

  private final Map<Op, OpStats> stats;
  private final LongSupplier created;
  private final LongSupplier deleted;
  private final LongSupplier tracked;
  private final int maxTracked;
  private final Writer csv;
  private final long startNanos;

  private long lastTickNanos;
  private final Map<Op, Long> lastSkipped = new EnumMap<>(Op.class);
  private volatile String rates = "";

  BenchReport(Map<Op, OpStats> stats, LongSupplier created, LongSupplier deleted, LongSupplier tracked,
      int maxTracked, Writer csv, long startNanos) throws IOException {
    this.stats = stats;
    this.created = created;
    this.deleted = deleted;
    this.tracked = tracked;
    this.maxTracked = maxTracked;
    this.csv = csv;
    this.startNanos = startNanos;
    this.lastTickNanos = startNanos;
    for (Op op : Op.values()) {
      lastSkipped.put(op, 0L);
    }
    if (csv != null) {
      csv.write(CSV_HEADER + "\n");
      csv.flush();
    }
  }

  /** Keys the benchmark created and did not delete (tracked or not): what it believes the bucket holds. */
  long live() {
    return created.getAsLong() - deleted.getAsLong();
  }

  /** live / tracked / created / deleted and the rates of the last interval. */
  String statusLine() {
    return keysLine() + rates;
  }

  private String keysLine() {
    return String.format(Locale.ROOT, "live=%d tracked=%d/%d created=%d deleted=%d", live(), tracked.getAsLong(),
        maxTracked, created.getAsLong(), deleted.getAsLong());
  }

  /** Ends an interval at {@code nowNanos}: writes its CSV rows and updates the rates of the status line. */
  void tick(long nowNanos) throws IOException {
    double seconds = Math.max(1e-9, (nowNanos - lastTickNanos) / 1e9);
    lastTickNanos = nowNanos;
    String keys = keyColumns();
    StringBuilder r = new StringBuilder();
    for (Op op : Op.values()) {
      OpStats s = stats.get(op);
      LatencyHistogram.Snapshot interval = s.nextInterval();
      long skippedNow = s.skipped();
      long skipped = skippedNow - lastSkipped.put(op, skippedNow);
      r.append(String.format(Locale.ROOT, " %s %.1f/s", op, interval.count() / seconds));
      writeRow(nowNanos, "interval", op, interval, interval.count() / seconds, skipped, keys);
    }
    rates = r.toString();
  }

  /** Ends the run: the last (partial) interval, then one whole-run row per operation. */
  void finish(long endNanos) throws IOException {
    tick(endNanos);
    double seconds = Math.max(1e-9, (endNanos - startNanos) / 1e9);
    String keys = keyColumns();
    for (Op op : Op.values()) {
      LatencyHistogram.Snapshot total = stats.get(op).total();
      writeRow(endNanos, "total", op, total, total.count() / seconds, stats.get(op).skipped(), keys);
    }
  }

  /** live,tracked,created,deleted read once, so all rows of one interval agree. */
  private String keyColumns() {
    long c = created.getAsLong();
    long d = deleted.getAsLong();
    return (c - d) + "," + tracked.getAsLong() + "," + c + "," + d;
  }

  private void writeRow(long nowNanos, String kind, Op op, LatencyHistogram.Snapshot s, double rate, long skipped,
      String keys) throws IOException {
    if (csv == null) {
      return;
    }
    csv.write(String.format(Locale.ROOT, "%.3f,%s,%s,%d,%.2f,%d,%.3f,%.3f,%.3f,%.3f,%s%n",
        (nowNanos - startNanos) / 1e9, kind, op, s.count(), rate, skipped, ms(s.mean()), ms(s.valueAt(0.5)),
        ms(s.valueAt(0.99)), ms(s.max()), keys));
    csv.flush();
  }

  /** The whole-run table: per operation count, skipped draws, rate, min/mean/p50/p75/p95/p99/max in ms. */
  List<String> summary(long endNanos) {
    double seconds = Math.max(1e-9, (endNanos - startNanos) / 1e9);
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "omkeybench: %.1f s, %s", seconds, keysLine()));
    lines.add(String.format(Locale.ROOT, "%-7s %10s %8s %9s %8s %8s %8s %8s %8s %8s %8s  (whole run, ms)",
        "op", "count", "skipped", "rate/s", "min", "mean", "p50", "p75", "p95", "p99", "max"));
    for (Op op : Op.values()) {
      OpStats st = stats.get(op);
      LatencyHistogram.Snapshot s = st.total();
      lines.add(String.format(Locale.ROOT, "%-7s %10d %8d %9.1f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f",
          op, s.count(), st.skipped(), s.count() / seconds, ms(s.min()), ms(s.mean()), ms(s.valueAt(0.5)),
          ms(s.valueAt(0.75)), ms(s.valueAt(0.95)), ms(s.valueAt(0.99)), ms(s.max())));
    }
    return lines;
  }

  private static double ms(double nanos) {
    return nanos / 1e6;
  }
}
