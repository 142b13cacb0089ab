package io.ozonerc.compaction.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmAttachment;
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
      "range_compaction_compaction_time_ms", "range_compaction_last_round_duration_ms");

  @Test
  void prometheusNamesCarryUnitsAndPerTableLabels() throws IOException {
    RangeCompactionMetrics m = new RangeCompactionMetrics();
    m.rangesCompacted.incr(3);
    m.compactionTimeMs.incr(250);
    m.recordWorstRatios(Map.of("keyTable", 0.49, "fileTable", 0.0));
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    m.getMetrics(collector, true);
    PrometheusMetricsSink sink = new PrometheusMetricsSink("om1");
    for (MetricsRecordImpl r : collector.getRecords()) {
      sink.putMetrics(r);
    }
    sink.flush();
    StringWriter out = new StringWriter();
    sink.writeMetrics(out);
    String prom = out.toString();
    for (String name : PROMETHEUS_NAMES) {
      assertTrue(prom.contains("# TYPE " + name + " "), name + " in\n" + prom);
    }
    assertTrue(prom.contains("range_compaction_ranges_compacted{"), prom);
    assertTrue(prom.lines().anyMatch(l -> l.startsWith("range_compaction_ranges_compacted{") && l.endsWith(" 3")),
        prom);
    assertTrue(prom.lines().anyMatch(l -> l.startsWith("range_compaction_table_worst_tombstone_ratio{")
        && l.contains("table=\"keyTable\"") && l.endsWith(" 0.49")), prom);
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
