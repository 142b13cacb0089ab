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

package io.ozonerc.compaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmAttachment;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.server.http.PrometheusMetricsSink;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metrics as the OM's /prom endpoint shows them, through Ozone's own Prometheus sink. */
class RangeCompactionMetricsTest {
  /** What dashboards and alerts are written against; renaming a metric must change this list too. */
  static final List<String> PROMETHEUS_NAMES = List.of(
      "range_compaction_rounds_run", "range_compaction_rounds_backed_off", "range_compaction_rounds_failed",
      "range_compaction_ranges_planned", "range_compaction_ranges_compacted",
      "range_compaction_ranges_skipped_pressure", "range_compaction_ranges_skipped_budget",
      "range_compaction_ranges_skipped_stale", "range_compaction_ranges_skipped_shutdown",
      "range_compaction_memtable_flushes", "range_compaction_tombstones_removed", "range_compaction_compacted_bytes",
      "range_compaction_compaction_time_ms", "range_compaction_last_round_duration_ms",
      "range_compaction_compaction_duration_ms_num_ops", "range_compaction_compaction_duration_ms_avg_time",
      "range_compaction_second_pass_compactions", "range_compaction_ranges_skipped_no_progress",
      "range_compaction_last_round_end_time_ms", "range_compaction_backoff_active",
      "range_compaction_head_check_wait_ms",
      "range_compaction_table_worst_tombstone_ratio", "range_compaction_table_compactions",
      "range_compaction_table_tombstones_removed", "range_compaction_head_compactions",
      "range_compaction_head_dead_entries_removed");

  /** Counters Prometheus can take a {@code rate()} of. */
  static final List<String> COUNTERS = List.of("range_compaction_compaction_time_ms",
      "range_compaction_ranges_compacted", "range_compaction_compaction_duration_ms_num_ops",
      "range_compaction_table_compactions", "range_compaction_table_tombstones_removed",
      "range_compaction_head_compactions", "range_compaction_head_dead_entries_removed");

  @Test
  void prometheusNamesCarryUnitsAndPerTableLabels() throws IOException {
    RangeCompactionMetrics m = new RangeCompactionMetrics();
    m.recordWorstRatios(Map.of("keyTable", 0.49, "fileTable", 0.0));
    m.recordCompaction(compaction("keyTable", 1000, 200, 150, true));
    m.recordCompaction(compaction("keyTable", 500, 0, 100, false));
    m.recordCompaction(compaction("openKeyTable", 9000, 0, 50, false));
    RoundResult.Compacted head = compaction("keyTable", 0, 0, 20, false);
    KeyRange span = head.before().range().asHead();
    RoundResult.Compacted headCompacted = new RoundResult.Compacted(
        new RangeAssessment(span, head.before().stats(), Verdict.PLANNED, "", false), null,
        new RangeAssessment(span, head.after().stats(), Verdict.BELOW_THRESHOLD, "", false), 20,
        new RoundResult.HeadDrop(12_000, 4));
    m.recordCompaction(headCompacted);
    m.rangesSkippedNoProgress.incr(2);
    m.lastRoundEndTimeMs.set(1_700_000_000_123L);
    m.backoffActive.set(1);
    String prom = prometheus(m);
    for (String name : PROMETHEUS_NAMES) {
      assertTrue(prom.contains("# TYPE " + name + " "), name + " in\n" + prom);
    }
    for (String name : COUNTERS) {
      assertTrue(prom.contains("# TYPE " + name + " counter"), name + " is a counter in\n" + prom);
    }
    assertTrue(prom.contains("range_compaction_ranges_compacted{"), prom);
    assertValue(prom, "range_compaction_ranges_compacted{", "", " 4");
    assertValue(prom, "range_compaction_compaction_time_ms{", "", " 320");
    assertValue(prom, "range_compaction_compaction_duration_ms_num_ops{", "", " 4");
    assertValue(prom, "range_compaction_head_compactions{", "", " 1");
    assertValue(prom, "range_compaction_head_dead_entries_removed{", "", " 11996");
    assertValue(prom, "range_compaction_second_pass_compactions{", "", " 1");
    assertValue(prom, "range_compaction_ranges_skipped_no_progress{", "", " 2");
    assertValue(prom, "range_compaction_tombstones_removed{", "", " 10500");
    assertValue(prom, "range_compaction_backoff_active{", "", " 1");
    assertValue(prom, "range_compaction_last_round_end_time_ms{", "", " 1700000000123");
    assertValue(prom, "range_compaction_table_worst_tombstone_ratio{", "table=\"keyTable\"", " 0.49");
    // openKeyTable churn does not hide keyTable's work: each table has its own counts.
    assertValue(prom, "range_compaction_table_compactions{", "table=\"keyTable\"", " 3");
    assertValue(prom, "range_compaction_table_tombstones_removed{", "table=\"keyTable\"", " 1500");
    assertValue(prom, "range_compaction_table_compactions{", "table=\"openKeyTable\"", " 1");
    assertValue(prom, "range_compaction_table_tombstones_removed{", "table=\"openKeyTable\"", " 9000");
    assertValue(prom, "range_compaction_table_compactions{", "table=\"fileTable\"", " 0");
    // Counted by the kind of range compacted, too.
    assertValue(prom, "range_compaction_kind_compactions{", "kind=\"bucket\"", " 3");
    assertValue(prom, "range_compaction_kind_compactions{", "kind=\"bucket-head\"", " 1");
    assertValue(prom, "range_compaction_kind_compacted_bytes{", "kind=\"bucket-head\"",
        " " + headCompacted.bytesCompacted());
    assertFalse(prom.contains("kind=\"file-set\""), "no record for a kind never compacted");
  }

  private static void assertValue(String prom, String start, String contains, String end) {
    assertTrue(prom.lines().anyMatch(l -> l.startsWith(start) && l.contains(contains) && l.endsWith(end)),
        start + contains + end + " in\n" + prom);
  }

  /** A compaction of {@code table} that removed {@code removed} of {@code removed + left} tombstones. */
  private static RoundResult.Compacted compaction(String table, long removed, long left, long ms,
      boolean secondPass) {
    KeyRange range = KeyRange.bucket(table, "/v/b/");
    RangeStats before = new RangeStats(2 * (removed + left), removed + left, 0, 0, 100, 4096, 1, 0, 0, false);
    RangeStats after = new RangeStats(removed + left, left, 0, 0, 50, 2048, 1, 6, 6, false);
    return new RoundResult.Compacted(new RangeAssessment(range, before, Verdict.PLANNED, "", false),
        secondPass ? before : null, new RangeAssessment(range, after, Verdict.BELOW_THRESHOLD, "", false), ms);
  }

  private static String prometheus(RangeCompactionMetrics m) throws IOException {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    m.getMetrics(collector, true);
    PrometheusMetricsSink sink = new PrometheusMetricsSink("om1");
    for (MetricsRecordImpl r : collector.getRecords()) {
      sink.putMetrics(r);
    }
    sink.flush();
    StringWriter out = new StringWriter();
    sink.writeMetrics(out);
    return out.toString();
  }

  @Test
  void disabledMeansNoServiceAndNoSource(@TempDir Path dir) throws IOException {
    try (OmTestStore store = OmTestStore.open(dir)) {
      OzoneConfiguration conf = new OzoneConfiguration();
      Optional<RangeCompactionService> none = OmAttachment.createIfEnabled(conf, store::metadata,
          () -> false);
      assertFalse(none.isPresent());
      assertNull(DefaultMetricsSystem.instance().getSource(RangeCompactionMetrics.SOURCE_NAME));

      conf.set(RangeCompactionConfig.ENABLED_KEY, "true");
      conf.set("ozone.om.range.compaction.interval", "1h");
      RangeCompactionService svc = OmAttachment.createIfEnabled(conf, store::metadata, () -> false)
          .orElseThrow();
      svc.start();
      String name = svc.getMetrics().registeredName();
      assertNotNull(DefaultMetricsSystem.instance().getSource(name));
      svc.shutdown();
      assertNull(DefaultMetricsSystem.instance().getSource(name), "unregistered at shutdown");
      assertEquals(0, svc.getExecutorService().getActiveCount());
    }
  }
}
