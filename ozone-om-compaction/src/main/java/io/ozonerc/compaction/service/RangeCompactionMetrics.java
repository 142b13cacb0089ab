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

import io.ozonerc.compaction.plan.KeyRange;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.apache.hadoop.metrics2.lib.MutableRate;

/**
 * Every metric of the range compaction service, as one Hadoop metrics2 source. Through the OM's metrics system
 * these reach JMX and the {@code /prom} endpoint, where Ozone's sink names them
 * {@code range_compaction_<metric>} (e.g. {@code range_compaction_compaction_time_ms}) and the per-table ones
 * {@code range_compaction_table_<metric>{table="keyTable"}}, and the per-kind ones
 * {@code range_compaction_kind_<metric>{kind="file-set"}}. Names carry their unit; counts are plain. Counters
 * only grow, so Prometheus {@code rate()} applies: {@code rate(compaction_time_ms)} is the share of time spent
 * compacting (ms per second), and divided by {@code rate(ranges_compacted)} the mean time of one compaction.
 */
public final class RangeCompactionMetrics implements MetricsSource {
  public static final String SOURCE_NAME = "RangeCompaction";
  static final String TABLE_RECORD = "RangeCompactionTable";
  static final String KIND_RECORD = "RangeCompactionKind";
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final MetricsRegistry registry = new MetricsRegistry(SOURCE_NAME);
  final MutableCounterLong roundsRun = registry.newCounter("RoundsRun", "Rounds started", 0L);
  final MutableCounterLong roundsBackedOff =
      registry.newCounter("RoundsBackedOff", "Rounds stopped or skipped for RocksDB write pressure", 0L);
  final MutableCounterLong roundsFailed =
      registry.newCounter("RoundsFailed",
      "Rounds and head checks ended by an error (store closed or replaced, I/O)", 0L);
  final MutableCounterLong rangesPlanned = registry.newCounter("RangesPlanned",
      "Ranges chosen by the planner, dead heads included", 0L);
  final MutableCounterLong rangesCompacted = registry.newCounter("RangesCompacted", "Ranges compacted", 0L);
  final MutableCounterLong rangesSkippedPressure =
      registry.newCounter("RangesSkippedPressure", "Planned ranges left for write pressure", 0L);
  final MutableCounterLong rangesSkippedBudget = registry.newCounter("RangesSkippedBudget",
      "Qualifying ranges left over the round's range, byte or time budget", 0L);
  final MutableCounterLong rangesSkippedStale = registry.newCounter("RangesSkippedStale",
      "Planned ranges that no longer qualified (or were busy) when re-checked before compaction", 0L);
  final MutableCounterLong rangesSkippedShutdown =
      registry.newCounter("RangesSkippedShutdown", "Planned ranges left because the service stopped or was paused",
          0L);
  final MutableCounterLong memtableFlushes = registry.newCounter("MemtableFlushes",
      "Tables flushed because their memtables held enough deletes to qualify", 0L);
  final MutableCounterLong tombstonesRemoved = registry.newCounter("TombstonesRemoved",
      "Tombstones in compacted ranges before minus after, from SST facts", 0L);
  final MutableCounterLong compactedBytes =
      registry.newCounter("CompactedBytes", "SST bytes of the files handed to range compactions", 0L);
  final MutableCounterLong compactionTimeMs =
      registry.newCounter("CompactionTimeMs", "Time spent in compactRange calls", 0L);
  final MutableRate compactionDurationMs = registry.newRate("CompactionDurationMs",
      "Range compactions (num_ops) and their mean time in compactRange, ms, both passes (avg_time)", false);
  final MutableCounterLong secondPassCompactions = registry.newCounter("SecondPassCompactions",
      "Range compactions finished by a second, bottommost-forced pass because the first left the tombstones at "
          + "the bottom (a trivial move)", 0L);
  final MutableCounterLong rangesSkippedNoProgress = registry.newCounter("RangesSkippedNoProgress",
      "Qualifying ranges left out because their last compaction removed no tombstone and their files are "
          + "unchanged since", 0L);
  final MutableCounterLong headCompactions = registry.newCounter("HeadCompactions",
      "Compactions of a dead head (the dead run a seek at a table's or bucket's start steps over); also counted in "
          + "RangesCompacted", 0L);
  final MutableCounterLong headDeadEntriesRemoved = registry.newCounter("HeadDeadEntriesRemoved",
      "Dead entries a seek at a compacted head's start no longer steps over, measured by seeking before and after",
      0L);
  final MutableCounterLong headsWaitingForLevel0 = registry.newCounter("HeadsWaitingForLevel0",
      "Qualifying dead heads not compacted because their compaction would take level-0 files spanning other ranges "
          + "and rewrite more than max.compaction.entries (left to RocksDB's own level-0 compaction)", 0L);
  final MutableCounterLong headsSkippedByReaders = registry.newCounter("HeadsSkippedByReaders",
      "Qualifying dead heads left alone because the OM's listings skip them (a skip hint spans them) and their "
          + "compaction would rewrite more than twice their dead entries", 0L);
  final MutableCounterLong headsSizedFromHints = registry.newCounter("HeadsSizedFromHints",
      "Dead heads sized from the OM's skip hints, without a seek (an OM patched with skip hints)", 0L);
  final MutableCounterLong headProbeSeeks = registry.newCounter("HeadProbeSeeks",
      "Dead heads probed with a seek of their own (no skip hint at their start)", 0L);
  final MutableCounterLong rangesCounted = registry.newCounter("RangesCounted",
      "Buckets whose tombstones were counted in their SST files after the range plan left them below the "
          + "thresholds, where the files' deletions allowed the estimate to be wrong", 0L);
  final MutableGaugeLong lastRoundDurationMs =
      registry.newGauge("LastRoundDurationMs", "Duration of the last round", 0L);
  final MutableGaugeLong lastRoundEndTimeMs = registry.newGauge("LastRoundEndTimeMs",
      "When the last round ended, ms since the epoch (0: no round yet); alert when it falls behind", 0L);
  final MutableGaugeLong backoffActive = registry.newGauge("BackoffActive",
      "1 while rounds are skipped after a write-pressure stop, else 0", 0L);
  final MutableGaugeLong headCheckWaitMs = registry.newGauge("HeadCheckWaitMs",
      "Wait before the next head check, paced by how fast dead heads grow (between head.check.min.interval and "
          + "head.check.max.interval)", 0L);

  private final Map<String, Double> worstRatio = new ConcurrentHashMap<>();
  /** Per table: {compactions, tombstones removed}, counters. */
  private final Map<String, long[]> perTable = new ConcurrentHashMap<>();
  /** Per kind of range compacted ({@link KeyRange.Kind}): {compactions, compacted bytes}, counters. */
  private final Map<KeyRange.Kind, long[]> perKind = new ConcurrentHashMap<>();
  private String registeredAs;

  /** Registers with the default metrics system; a second service in one JVM (mini clusters) gets a suffix. */
  public synchronized RangeCompactionMetrics register() {
    MetricsSystem ms = DefaultMetricsSystem.instance();
    String name = SOURCE_NAME;
    while (registeredAs == null) {
      try {
        ms.register(name, "OM range compaction service", this);
        registeredAs = name;
      } catch (MetricsException e) {
        name = SOURCE_NAME + "-" + INSTANCES.incrementAndGet();
      }
    }
    return this;
  }

  public synchronized void unregister() {
    if (registeredAs != null) {
      DefaultMetricsSystem.instance().unregisterSource(registeredAs);
      registeredAs = null;
    }
  }

  synchronized String registeredName() {
    return registeredAs;
  }

  void recordWorstRatios(Map<String, Double> byTable) {
    worstRatio.putAll(byTable);
  }

  /** Counts one range compaction, in total and for its table. */
  void recordCompaction(RoundResult.Compacted c) {
    rangesCompacted.incr();
    compactionTimeMs.incr(c.timeMs());
    compactionDurationMs.add(c.timeMs());
    compactedBytes.incr(c.bytesCompacted());
    tombstonesRemoved.incr(c.tombstonesRemoved());
    if (c.secondPass()) {
      secondPassCompactions.incr();
    }
    if (c.head() != null) {
      headCompactions.incr();
      headDeadEntriesRemoved.incr(c.deadEntriesRemoved());
    }
    long[] t = perTable.computeIfAbsent(c.table(), k -> new long[2]);
    synchronized (t) {
      t[0]++;
      t[1] += c.tombstonesRemoved();
    }
    long[] k = perKind.computeIfAbsent(c.before().range().kind(), x -> new long[2]);
    synchronized (k) {
      k[0]++;
      k[1] += c.bytesCompacted();
    }
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder rb = collector.addRecord(SOURCE_NAME).setContext("ozone");
    registry.snapshot(rb, all);
    Set<String> tables = new TreeSet<>(worstRatio.keySet());
    tables.addAll(perTable.keySet());
    for (String table : tables) {
      MetricsRecordBuilder t = collector.addRecord(TABLE_RECORD).setContext("ozone")
          .tag(Interns.info("Table", "OM table"), table);
      Double ratio = worstRatio.get(table);
      if (ratio != null) {
        t.addGauge(Interns.info("WorstTombstoneRatio", "Highest tombstones/entries of a range in the last plan"),
            ratio);
      }
      long[] counts = tableCounts(table);
      t.addCounter(Interns.info("Compactions", "Range compactions in this table"), counts[0]);
      t.addCounter(Interns.info("TombstonesRemoved", "Tombstones removed from this table's compacted ranges"),
          counts[1]);
    }
    for (KeyRange.Kind kind : KeyRange.Kind.values()) {
      long[] counts = countsOf(perKind.get(kind));
      if (counts[0] > 0) {
        collector.addRecord(KIND_RECORD).setContext("ozone")
            .tag(Interns.info("Kind", "What the compacted range was: bucket, gap, bucket-head, file-set, ..."),
                kind.toString())
            .addCounter(Interns.info("Compactions", "Compactions of ranges of this kind"), counts[0])
            .addCounter(Interns.info("CompactedBytes", "SST bytes handed to compactions of this kind"), counts[1]);
      }
    }
  }

  private static long[] countsOf(long[] counts) {
    if (counts == null) {
      return new long[2];
    }
    synchronized (counts) {
      return counts.clone();
    }
  }

  private long[] tableCounts(String table) {
    return countsOf(perTable.get(table));
  }

  public long getRoundsRun() {
    return roundsRun.value();
  }

  public long getRoundsBackedOff() {
    return roundsBackedOff.value();
  }

  public long getRoundsFailed() {
    return roundsFailed.value();
  }

  public long getRangesPlanned() {
    return rangesPlanned.value();
  }

  public long getRangesCompacted() {
    return rangesCompacted.value();
  }

  public long getRangesSkippedPressure() {
    return rangesSkippedPressure.value();
  }

  public long getRangesSkippedBudget() {
    return rangesSkippedBudget.value();
  }

  public long getRangesSkippedStale() {
    return rangesSkippedStale.value();
  }

  public long getRangesSkippedShutdown() {
    return rangesSkippedShutdown.value();
  }

  public long getMemtableFlushes() {
    return memtableFlushes.value();
  }

  public long getHeadCompactions() {
    return headCompactions.value();
  }

  public long getHeadsWaitingForLevel0() {
    return headsWaitingForLevel0.value();
  }

  public long getHeadsSkippedByReaders() {
    return headsSkippedByReaders.value();
  }

  public long getHeadsSizedFromHints() {
    return headsSizedFromHints.value();
  }

  public long getHeadProbeSeeks() {
    return headProbeSeeks.value();
  }

  public long getRangesCounted() {
    return rangesCounted.value();
  }

  public long getHeadDeadEntriesRemoved() {
    return headDeadEntriesRemoved.value();
  }

  public long getTombstonesRemoved() {
    return tombstonesRemoved.value();
  }

  public long getCompactedBytes() {
    return compactedBytes.value();
  }

  public long getCompactionTimeMs() {
    return compactionTimeMs.value();
  }

  public long getLastRoundDurationMs() {
    return lastRoundDurationMs.value();
  }

  public long getLastRoundEndTimeMs() {
    return lastRoundEndTimeMs.value();
  }

  public boolean isBackoffActive() {
    return backoffActive.value() != 0;
  }

  public long getHeadCheckWaitMs() {
    return headCheckWaitMs.value();
  }

  public long getSecondPassCompactions() {
    return secondPassCompactions.value();
  }

  public long getRangesSkippedNoProgress() {
    return rangesSkippedNoProgress.value();
  }

  /** Range compactions in {@code table} since start. */
  public long getTableCompactions(String table) {
    return tableCounts(table)[0];
  }

  /** Tombstones removed from {@code table}'s compacted ranges since start. */
  public long getTableTombstonesRemoved(String table) {
    return tableCounts(table)[1];
  }

  public Map<String, Double> getWorstRatioByTable() {
    return Map.copyOf(worstRatio);
  }
}
