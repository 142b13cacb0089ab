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

import static io.ozonerc.bench.workload.Report.ms;
import static io.ozonerc.bench.workload.Report.writeCell;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The CSV files of a comparison ({@link Report#write}): {@code summary.csv}, one row per run, and
 * {@code series.csv}, the time series behind the charts.
 */
final class ReportCsv {
  private ReportCsv() { }

  /** summary.csv: one row per run, unavailable runs included, repeats numbered from 1. */
  static String summary(Collection<List<RunResult>> runs) {
    StringBuilder csv = new StringBuilder("policy,ops,wall_s,ops_per_s,lists,list_p50_ms,list_p90_ms,list_p99_ms,"
        + "list_max_ms,list_mean_ms,create_p50_us,create_p99_us,create_max_us,delete_p50_us,delete_p99_us,"
        + "delete_max_us,skips_per_list,tombstones_end,keytable_sst_bytes,all_sst_bytes,compact_read_bytes,"
        + "compact_write_bytes,flush_write_bytes,manual_compactions,manual_compaction_s,live_keys_expected,"
        + "live_keys_found,unavailable,repeat,db_seek_count,db_seek_avg_us,db_seek_p99_us,stall_micros,"
        + "policy_compacted_bytes,hints_used,hints_learned,hints_refused,hints_retired,hints_evicted,hints_held,"
        + "om_classes,expiry_lists,expiry_list_p50_ms,expiry_list_p99_ms,expiry_list_mean_ms,expiry_skips_per_list,"
        + "expired_keys,expiry_batches,expiry_batch_p99_ms\n");
    for (List<RunResult> rs : runs) {
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
    return csv.toString();
  }

  /** series.csv: the samples of every run, repeats numbered from 1. */
  static String series(Collection<List<RunResult>> runs) {
    StringBuilder series = new StringBuilder("policy,repeat,elapsed_s,ops_done,lists,list_p99_ms,skips_per_list,"
        + "tombstones,keytable_sst_bytes,compact_write_bytes,l0_files,pending_compaction_bytes,stall_micros\n");
    for (List<RunResult> rs : runs) {
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
    return series.toString();
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
}
