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

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * What an operator fears from a compaction service, per policy beside {@code none}: the write latency tail, level 0
 * piling up (RocksDB slows and then stops writes at its level-0 triggers), compaction debt (RocksDB's
 * {@code rocksdb.estimate-pending-compaction-bytes}) and the time writes were stalled ({@code rocksdb.stall.micros}).
 * Level 0 and pending bytes are sampled from the keyTable every sample interval; the ideal floors do not write into
 * the store they list, so they have no row.
 */
final class OperatorTable {

  private OperatorTable() {
  }

  static double maxOf(RunResult r, ToDoubleFunction<RunResult.Sample> f) {
    return r.series().stream().mapToDouble(f).max().orElse(Double.NaN);
  }

  static double meanOf(RunResult r, ToDoubleFunction<RunResult.Sample> f) {
    return r.series().stream().mapToDouble(f).filter(v -> v >= 0).average().orElse(Double.NaN);
  }

  /** The table, as Markdown; each cell the median over repeats, with the ratio to none's beside where it applies. */
  static String table(Report report) {
    StringBuilder s = new StringBuilder("What operators fear from a compaction service (per policy over the run; "
        + "level 0 and pending compaction bytes of the keyTable sampled every sample interval; level-0-files.png "
        + "draws level 0 over the run):\n\n| policy | create p99 us | delete p99 us | level-0 files max "
        + "| level-0 files mean | pending compaction MB max | write stall ms |\n|---|---|---|---|---|---|---|\n");
    boolean none = report.all("none") != null;
    for (String p : report.policies()) {
      List<RunResult> rs = report.all(p);
      if (rs == null || p.startsWith("ideal")) {
        continue;
      }
      s.append("| ").append(p)
          .append(" | ").append(withNone(report, p, r -> Report.writeP99(r.create()) / 1e3, "%.0f", none))
          .append(" | ").append(withNone(report, p, r -> Report.writeP99(r.delete()) / 1e3, "%.0f", none))
          .append(" | ").append(report.stat(p, r -> maxOf(r, RunResult.Sample::l0Files)).format("%.0f"))
          .append(" | ").append(report.stat(p, r -> meanOf(r, RunResult.Sample::l0Files)).format("%.1f"))
          .append(" | ").append(withNone(report, p, r -> maxOf(r, x -> x.pendingCompactionBytes() / 1048576.0),
              "%.1f", none))
          .append(" | ").append(report.stat(p, r -> r.stallMicros() / 1e3).format("%.1f"))
          .append(" |\n");
    }
    return s.toString();
  }

  /** The median value, and " (R x none)" when none ran, this is not none, and none's value is not 0. */
  private static String withNone(Report report, String p, ToDoubleFunction<RunResult> f, String format,
      boolean none) {
    String v = report.stat(p, f).format(format);
    if (!none || p.equals("none")) {
      return v;
    }
    Report.Stat ratio = report.ratio(p, "none", f);
    return ratio == null || Double.isNaN(ratio.median()) ? v : v + " (" + ratio.format("%.2f") + "x none)";
  }
}
