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

package io.ozonerc.compaction.cli;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.RangeStats;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.TableFacts;
import io.ozonerc.compaction.plan.Verdict;
import io.ozonerc.compaction.service.RoundResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * What the CLI says about one om.db, as plain values: per table the SST totals and the worst ranges by the
 * planner's score, the dead heads the round's probes found, the plan a round would run (dead heads first, then
 * ranges), and with {@code --compact} what was done. Built by {@link #of}
 * from frozen facts (no RocksDB here); printed by {@link TextReport} and {@link JsonReport}.
 *
 * @param db        the DB path as given
 * @param access    how it was opened: {@code read-only} or {@code read-write (--compact)}
 * @param lock      the lock probe's finding
 * @param settings  the thresholds the plan was made with
 * @param tables    one entry per watched table, in configuration order
 * @param heads     the dead heads the round's own code probed and planned ({@code RangeCompactor})
 * @param worstHeads the heads with dead entries to list, planned first, at most {@code top}
 * @param plan      the planner's decisions over all watched tables
 * @param showPlan  print the plan ({@code --dry-run} or {@code --compact})
 * @param compactedHeads what {@code --compact} did to each planned dead head, in plan order; {@code null} without
 *                  {@code --compact}
 * @param compacted what {@code --compact} did, in plan order; {@code null} without {@code --compact}
 * @param atDefault the settings keys nobody set (declared defaults apply), short names such as
 *                  {@code min.tombstones}
 */
record DbReport(String db, String access, String lock, PlannerSettings settings,
    List<TableReport> tables, HeadPlan heads, List<RangeAssessment> worstHeads, CompactionPlan plan,
    boolean showPlan, List<Compaction> compactedHeads, List<Compaction> compacted, List<String> atDefault) {

  /** The settings keys of {@link #settings} by their configuration key. */
  static final List<String> SETTINGS_KEYS = List.of("min.tombstones", "tombstone.ratio", "max.compaction.entries",
      "ranges.per.run", "bytes.per.run", "bottommost.mode", "dead.head.min.keys").stream()
      .map(k -> RangeCompactionConfig.PREFIX + "." + k).toList();

  /** The dead-head threshold ({@code dead.head.min.keys}); 0: heads not probed. */
  long deadHeadMinKeys() {
    return settings.deadHeadMinKeys();
  }

  /** This report, saying which settings came from the declared defaults. */
  DbReport withDefaultsOf(Configuration conf) {
    List<String> keys = RangeCompactionConfig.keysAtDefault(conf, SETTINGS_KEYS).stream()
        .map(k -> k.substring(RangeCompactionConfig.PREFIX.length() + 1)).toList();
    return new DbReport(db, access, lock, settings, tables, heads, worstHeads, plan, showPlan,
        compactedHeads, compacted, keys);
  }

  /**
   * One table.
   *
   * @param files             live SST files
   * @param entries           internal entries in them (puts and tombstones)
   * @param tombstones        deletions in them
   * @param bytes             their size on disk
   * @param shallowestLevel   smallest level holding a file (-1 when none)
   * @param deepestLevel      largest level holding a file (-1 when none)
   * @param memtableEntries   entries not flushed to any SST yet (invisible to the planner)
   * @param memtableDeletes   deletions among them
   * @param filesWithoutCounts files that report 0 entries: RocksDB did not load their properties, so their
   *                          tombstones are unknown (see {@link OpenedOmDb})
   * @param ranges            ranges the planner assessed in this table (bucket and gap ranges holding data)
   * @param worst             the highest-scoring of those, best first, at most {@code top}
   */
  record TableReport(String table, int files, long entries, long tombstones, long bytes, int shallowestLevel,
      int deepestLevel, long memtableEntries, long memtableDeletes, int filesWithoutCounts, int ranges,
      List<RangeAssessment> worst) {

    /** Tombstones per entry over the whole table. */
    double tombstoneRatio() {
      return entries == 0 ? 0 : (double) tombstones / entries;
    }
  }

  /**
   * One planned range or dead head under {@code --compact}.
   *
   * @param planned   what the plan said
   * @param recheck   the range assessed again on fresh facts right before compacting (earlier compactions of the
   *                  same run may have changed it)
   * @param firstPass the range's facts after a first pass that left its tombstones at the bottom, when a second,
   *                  bottommost-forced pass followed; {@code null} otherwise
   * @param after     the range's facts after the compaction; {@code null} when it was not compacted
   * @param head      for a compacted dead head, what a seek at its start stepped over before and after; else null
   */
  record Compaction(RangeAssessment planned, RangeAssessment recheck, RangeStats firstPass, RangeStats after,
      RoundResult.HeadDrop head) {
    boolean done() {
      return after != null;
    }
  }

  /** What a compacting round did to each planned range, in plan order. */
  static List<Compaction> compactions(RoundResult round) {
    Map<KeyRange, RoundResult.Compacted> compacted = new HashMap<>();
    round.compacted().stream().filter(c -> c.head() == null).forEach(c -> compacted.put(c.before().range(), c));
    Map<KeyRange, RangeAssessment> skipped = new HashMap<>();
    round.skipped().forEach(a -> skipped.put(a.range(), a));
    List<Compaction> out = new ArrayList<>();
    for (RangeAssessment planned : round.plan() == null ? List.<RangeAssessment>of() : round.plan().planned()) {
      RoundResult.Compacted c = compacted.get(planned.range());
      if (c != null) {
        out.add(new Compaction(planned, c.before(), c.firstPass(), c.after().stats(), null));
      } else {
        out.add(new Compaction(planned, skipped.getOrDefault(planned.range(), planned), null, null, null));
      }
    }
    return out;
  }

  /**
   * What a compacting round did to each planned dead head, in plan order. A head is matched by where it starts
   * (its table's or bucket's first key): the re-probe before its compaction may find its first live key moved.
   */
  static List<Compaction> headCompactions(RoundResult round) {
    List<Compaction> out = new ArrayList<>();
    if (round.headPlan() == null) {
      return out;
    }
    for (RangeAssessment planned : round.headPlan().plan().planned()) {
      RoundResult.Compacted c = round.compacted().stream()
          .filter(x -> x.head() != null && sameStart(x.before(), planned)).findFirst().orElse(null);
      if (c != null) {
        out.add(new Compaction(planned, c.before(), c.firstPass(), c.after().stats(), c.head()));
      } else {
        RangeAssessment skipped = round.skipped().stream().filter(a -> sameStart(a, planned)).findFirst()
            .orElse(planned);
        out.add(new Compaction(planned, skipped, null, null, null));
      }
    }
    return out;
  }

  private static boolean sameStart(RangeAssessment a, RangeAssessment b) {
    return a.range().table().equals(b.range().table()) && Arrays.equals(a.range().begin(), b.range().begin());
  }

  /** Order of the worst-ranges lists: score, then table and key so ties print the same every time. */
  static final Comparator<RangeAssessment> WORST_FIRST = Comparator.comparingDouble(RangeAssessment::score)
      .reversed().thenComparing(a -> a.range().table()).thenComparing(a -> a.range().begin(), Keys::compare);

  /**
   * Builds the report.
   *
   * @param tables  watched tables in configuration order
   * @param files   live SST files of those tables
   * @param memtable per table {entries, deletes} in memtables
   * @param top     how many ranges to list per table; 0 for all
   */
  static DbReport of(String db, String access, String lock, PlannerSettings settings,
      List<String> tables, List<SstFile> files, Map<String, long[]> memtable, HeadPlan heads, CompactionPlan plan,
      int top, boolean showPlan, List<Compaction> compactedHeads, List<Compaction> compacted) {
    List<TableReport> out = new ArrayList<>();
    for (String table : tables) {
      List<SstFile> mine = files.stream().filter(f -> f.table().equals(table)).toList();
      List<RangeAssessment> ranges = Stream.concat(plan.planned().stream(), plan.notPlanned().stream())
          .filter(a -> a.range().table().equals(table)).sorted(WORST_FIRST).toList();
      // The plan left the cost and words of ranges below the thresholds out; those listed get them from the files.
      TableFacts index = TableFacts.of(mine, List.of());
      List<RangeAssessment> listed = (top > 0 && ranges.size() > top ? ranges.subList(0, top) : ranges).stream()
          .map(a -> RangePlanner.explain(a, index)).toList();
      long[] mem = memtable.getOrDefault(table, new long[2]);
      out.add(new TableReport(table, mine.size(),
          mine.stream().mapToLong(SstFile::entries).sum(),
          mine.stream().mapToLong(SstFile::deletions).sum(),
          mine.stream().mapToLong(SstFile::sizeBytes).sum(),
          mine.stream().mapToInt(SstFile::level).min().orElse(-1),
          mine.stream().mapToInt(SstFile::level).max().orElse(-1),
          mem[0], mem[1],
          (int) mine.stream().filter(f -> f.entries() == 0).count(),
          ranges.size(), listed));
    }
    List<RangeAssessment> withDead = Stream.concat(heads.plan().planned().stream(),
        heads.plan().notPlanned().stream()).toList();
    return new DbReport(db, access, lock, settings, List.copyOf(out), heads,
        top > 0 && withDead.size() > top ? withDead.subList(0, top) : withDead, plan, showPlan,
        compactedHeads == null ? null : List.copyOf(compactedHeads), compacted == null ? null : List.copyOf(compacted),
        List.of());
  }

  /** Heads with dead entries (planned or not). */
  int headsWithDeadEntries() {
    return heads.plan().planned().size() + heads.plan().notPlanned().size();
  }

  /** Dead heads that qualified but will not run this round (wait for level 0, busy, over budget). */
  List<RangeAssessment> headsQualifiedNotPlanned() {
    return heads.plan().notPlanned().stream().filter(a -> a.verdict() != Verdict.BELOW_THRESHOLD).toList();
  }

  long headsBelowThreshold() {
    return heads.plan().notPlanned().stream().filter(a -> a.verdict() == Verdict.BELOW_THRESHOLD).count();
  }

  /** File bytes a round would hand to compactions: the planned heads', then the planned ranges'. */
  long plannedBytes() {
    return heads.plan().plannedBytes() + plan.plannedBytes();
  }

  /** Ranges that qualified but will not run this round (busy, in flight, over budget): worth an operator's eye. */
  List<RangeAssessment> qualifiedNotPlanned() {
    return plan.notPlanned().stream().filter(a -> a.verdict() != Verdict.BELOW_THRESHOLD).toList();
  }

  long belowThreshold() {
    return plan.notPlanned().stream().filter(a -> a.verdict() == Verdict.BELOW_THRESHOLD).count();
  }

  /** {@code L0} or {@code L0-L6}; {@code -} for nothing. */
  static String levels(int shallowest, int deepest) {
    if (shallowest < 0) {
      return "-";
    }
    return shallowest == deepest ? "L" + shallowest : "L" + shallowest + "-L" + deepest;
  }
}
