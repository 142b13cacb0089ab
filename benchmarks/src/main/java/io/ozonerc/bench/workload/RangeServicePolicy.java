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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmAttachment;
import io.ozonerc.compaction.service.RangeCompactionMetrics;
import io.ozonerc.compaction.service.RangeCompactionService;
import io.ozonerc.compaction.service.RoundResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * {@code range}: this project's {@link RangeCompactionService}, configured through its real configuration keys,
 * created the way the OM creates it ({@link OmAttachment#createIfEnabled}) and started, so its rounds run on
 * the service's own thread while the workload runs. The benchmark reads the service's metrics at the end; it never
 * calls into a round itself.
 */
final class RangeServicePolicy implements Policy {

  static final String PREFIX = RangeCompactionConfig.PREFIX + ".";

  /** The service's knobs the CLI exposes; {@code extra} holds any other {@code ozone.om.range.compaction.*} key. */
  record Settings(Duration interval, long minTombstones, double ratio, long maxCompactionEntries, int rangesPerRun,
      Map<String, String> extra) {
  }

  private final Settings settings;
  private RangeCompactionService service;
  private RangeCompactionMetrics metrics;

  private RangeServicePolicy(Settings settings) {
    this.settings = settings;
  }

  static Policy create(Settings settings) {
    return new RangeServicePolicy(settings);
  }

  /** The configuration the service reads, as an operator would write it in ozone-site.xml. */
  static Map<String, String> configuration(Settings s) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(RangeCompactionConfig.ENABLED_KEY, "true");
    conf.put(PREFIX + "interval", s.interval().toMillis() + "ms");
    conf.put(PREFIX + "min.tombstones", Long.toString(s.minTombstones()));
    conf.put(PREFIX + "tombstone.ratio", Double.toString(s.ratio()));
    conf.put(PREFIX + "max.compaction.entries", Long.toString(s.maxCompactionEntries()));
    conf.put(PREFIX + "ranges.per.run", Integer.toString(s.rangesPerRun()));
    conf.putAll(s.extra());
    return conf;
  }

  @Override
  public String name() {
    return "range";
  }

  static OzoneConfiguration ozoneConfiguration(Settings s) {
    OzoneConfiguration conf = new OzoneConfiguration();
    configuration(s).forEach(conf::set);
    return conf;
  }

  /** Reads and validates the configuration as the service will, so bad values fail before any run starts. */
  static void validate(Settings s) {
    RangeCompactionConfig.from(ozoneConfiguration(s));
  }

  @Override
  public void start(BenchStore store) {
    service = OmAttachment.createIfEnabled(ozoneConfiguration(settings), store::metadataManager,
            () -> false)
        .orElseThrow(() -> new IllegalStateException("range: service disabled by --range-conf"));
    metrics = service.getMetrics();
    service.start();
  }

  @Override
  public void close() {
    if (service != null) {
      service.shutdown();
    }
  }

  @Override
  public long compactions() {
    return metrics == null ? 0 : metrics.getRangesCompacted();
  }

  @Override
  public long compactionNanos() {
    return metrics == null ? 0 : metrics.getCompactionTimeMs() * 1_000_000L;
  }

  @Override
  public long tombstonesRemoved() {
    return metrics == null ? 0 : metrics.getTombstonesRemoved();
  }

  @Override
  public long headEntriesRemoved() {
    return metrics == null ? 0 : metrics.getHeadDeadEntriesRemoved();
  }

  @Override
  public long flushes() {
    return metrics == null ? 0 : metrics.getMemtableFlushes();
  }

  @Override
  public long compactedBytes() {
    return metrics == null ? 0 : metrics.getCompactedBytes();
  }

  @Override
  public String detail() {
    if (metrics == null) {
      return "";
    }
    return String.format(Locale.ROOT, "service metrics: rounds %d (backed off %d, failed %d), memtable flushes %d, "
            + "ranges planned %d, compacted %d, skipped for pressure %d / budget %d / stale %d / shutdown %d, "
            + "tombstones removed %,d, head compactions %d (dead entries removed %,d, waits for level 0 %d, "
            + "listings skip and left for space %d), heads sized from skip hints %,d / probed with a seek %,d, "
            + "buckets counted in their files %,d, compacted input %s MB",
        metrics.getRoundsRun(), metrics.getRoundsBackedOff(), metrics.getRoundsFailed(), metrics.getMemtableFlushes(),
        metrics.getRangesPlanned(), metrics.getRangesCompacted(), metrics.getRangesSkippedPressure(),
        metrics.getRangesSkippedBudget(), metrics.getRangesSkippedStale(), metrics.getRangesSkippedShutdown(),
        metrics.getTombstonesRemoved(), metrics.getHeadCompactions(), metrics.getHeadDeadEntriesRemoved(),
        metrics.getHeadsWaitingForLevel0(), metrics.getHeadsSkippedByReaders(), metrics.getHeadsSizedFromHints(),
        metrics.getHeadProbeSeeks(), metrics.getRangesCounted(), Report.mb(metrics.getCompactedBytes()));
  }

  @Override
  public Throwable failure() {
    if (metrics != null && metrics.getRoundsFailed() > 0) {
      RoundResult last = service.getLastRound();
      return new IllegalStateException(metrics.getRoundsFailed() + " round(s) failed; last round: "
          + (last == null ? "?" : last.outcome() + " " + last.detail()));
    }
    return null;
  }
}
