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

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The human form of a {@link DbReport}: a header, one block per table with data (a ranked table of its worst
 * ranges), one line naming the empty tables, then the plan. Deterministic: no clock, no file numbers; every number
 * comes from the report.
 */
final class TextReport {
  private TextReport() { }

  static List<String> render(DbReport r) {
    List<String> out = new ArrayList<>();
    out.add("om.db: " + r.db());
    out.add("access: " + r.access() + "; " + r.lock());
    out.add("settings: " + settings(r.settings()) + " dead.head.min.keys=" + r.deadHeadMinKeys());
    if (!r.atDefault().isEmpty()) {
      out.add("  defaults (not set in ozone-site.xml, -D or options): " + String.join(", ", r.atDefault()));
    }
    List<String> empty = new ArrayList<>();
    for (DbReport.TableReport t : r.tables()) {
      if (t.files() == 0 && t.memtableEntries() == 0) {
        empty.add(t.table());
        continue;
      }
      out.add("");
      out.addAll(table(t));
    }
    if (!empty.isEmpty()) {
      out.add("");
      out.add("no data: " + String.join(", ", empty));
    }
    out.add("");
    out.add("entries, tombstones, dead (tombstones + the puts they hide) and score (dead x dead / entries) are");
    out.add("estimates: a file spanning several buckets is shared between them. files and file-bytes count every");
    out.add("overlapping file whole, as a compaction of the range reads them.");
    out.add("");
    out.addAll(heads(r));
    if (r.showPlan()) {
      out.add("");
      out.addAll(plan(r));
    }
    if (r.compactedHeads() != null && r.deadHeadMinKeys() > 0) {
      out.add("");
      out.addAll(compacted("dead heads compacted: %d of %d planned", r.compactedHeads()));
    }
    if (r.compacted() != null) {
      out.add("");
      out.addAll(compacted("compacted: %d of %d planned range%s", r.compacted()));
    }
    return out;
  }

  /**
   * The dead heads the round's probes found: what a seek at each table's and probed bucket's start steps over
   * before its first live key (measured, not estimated), and the round's verdict on each.
   */
  private static List<String> heads(DbReport r) {
    List<String> out = new ArrayList<>();
    if (r.deadHeadMinKeys() <= 0) {
      out.add("dead heads: not probed (dead.head.min.keys=0)");
      return out;
    }
    long buckets = r.heads().bucketsProbed();
    long tables = r.heads().probed().size() - buckets;
    String probed = "probed " + tables + " table head" + (tables == 1 ? "" : "s") + " and " + buckets + " bucket"
        + (buckets == 1 ? "" : "s") + " whose files hold enough deletes";
    if (r.worstHeads().isEmpty()) {
      out.add("dead heads: " + probed + "; none has dead entries");
      return out;
    }
    out.add("dead heads: " + probed + "; dead = entries a seek at the start steps over before the first live key:");
    if (r.worstHeads().size() < r.headsWithDeadEntries()) {
      out.add("  " + r.worstHeads().size() + " of " + r.headsWithDeadEntries() + " heads with dead entries:");
    }
    Columns c = new Columns("#", "table", "head", "dead", "in-memtable", "first-live-key", "files", "file-bytes",
        "levels", "verdict");
    int rank = 1;
    for (RangeAssessment a : r.worstHeads()) {
      HeadFacts h = r.heads().probeOf(a);
      RangeStats s = a.stats();
      c.row(String.valueOf(rank++), a.range().table(), a.range().label(), String.valueOf(h.deadEntries()),
          String.valueOf(h.memDead()), firstLive(h), String.valueOf(s.files()), String.valueOf(s.fileBytes()),
          DbReport.levels(s.shallowestLevel(), s.deepestLevel()), a.verdict().toString());
    }
    for (String line : c.lines()) {
      out.add("  " + line);
    }
    return out;
  }

  private static String firstLive(HeadFacts h) {
    if (h.firstLive() != null) {
      return Keys.show(h.firstLive());
    }
    return h.truncated() ? "(beyond the probe's cap)" : "(none)";
  }

  static String settings(PlannerSettings s) {
    return String.format(Locale.ROOT, "min.tombstones=%d tombstone.ratio=%s max.compaction.entries=%d "
            + "ranges.per.run=%d bytes.per.run=%d bottommost=%s", s.minTombstones(), s.tombstoneRatio(),
        s.maxCompactionEntries(), s.rangesPerRun(), s.maxBytesPerRun(), s.bottommost());
  }

  private static List<String> table(DbReport.TableReport t) {
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, "%s: %d SST file%s in %s, %d entries, %d tombstones (ratio %.2f), %d bytes; "
            + "%d range%s with data", t.table(), t.files(), t.files() == 1 ? "" : "s",
        DbReport.levels(t.shallowestLevel(), t.deepestLevel()), t.entries(), t.tombstones(), t.tombstoneRatio(),
        t.bytes(), t.ranges(), t.ranges() == 1 ? "" : "s"));
    if (!t.worst().isEmpty()) {
      Columns c = new Columns("#", "bucket", "entries", "tombstones", "ratio", "dead", "score", "files",
          "file-bytes", "levels", "verdict");
      int rank = 1;
      for (RangeAssessment a : t.worst()) {
        RangeStats s = a.stats();
        c.row(String.valueOf(rank++), a.range().label(), n(s.entries()), n(s.tombstones()),
            String.format(Locale.ROOT, "%.2f", s.tombstoneRatio()), n(s.deadKeys()), n(s.score()),
            String.valueOf(s.files()), String.valueOf(s.fileBytes()),
            DbReport.levels(s.shallowestLevel(), s.deepestLevel()), a.verdict().toString());
      }
      if (t.worst().size() < t.ranges()) {
        out.add("  worst " + t.worst().size() + " of " + t.ranges() + " ranges by score:");
      }
      for (String line : c.lines()) {
        out.add("  " + line);
      }
    }
    if (t.memtableEntries() > 0) {
      out.add("  memtable (not in any SST file, not planned on): " + t.memtableEntries() + " entries, "
          + t.memtableDeletes() + " deletes");
    }
    if (t.filesWithoutCounts() > 0) {
      out.add("  warning: " + t.filesWithoutCounts() + " SST file(s) report 0 entries; their tombstones are "
          + "unknown to the planner");
    }
    return out;
  }

  /** The plan in the order a round runs it: dead heads first (they are compacted before ranges are planned). */
  private static List<String> plan(DbReport r) {
    List<String> out = new ArrayList<>();
    List<RangeAssessment> heads = r.heads().plan().planned();
    List<RangeAssessment> planned = r.plan().planned();
    out.add(String.format(Locale.ROOT, "plan (%s): %d dead head%s, %d range%s, %d file bytes",
        r.compacted() == null ? "dry run: a round would compact these, in this order" : "compacting these",
        heads.size(), heads.size() == 1 ? "" : "s", planned.size(), planned.size() == 1 ? "" : "s",
        r.plannedBytes()));
    int n = 1;
    for (RangeAssessment a : heads) {
      out.add("  " + n++ + ". dead head " + a.describe());
    }
    for (RangeAssessment a : planned) {
      out.add("  " + n++ + ". " + a.describe());
    }
    List<RangeAssessment> waitingHeads = r.headsQualifiedNotPlanned();
    List<RangeAssessment> waiting = r.qualifiedNotPlanned();
    int qualified = waitingHeads.size() + waiting.size();
    out.add("qualified but not planned: " + (qualified == 0 ? "none" : qualified));
    for (RangeAssessment a : waitingHeads) {
      out.add("  -  dead head " + a.describe());
    }
    for (RangeAssessment a : waiting) {
      out.add("  -  " + a.describe());
    }
    out.add("below threshold: " + r.belowThreshold() + " range" + (r.belowThreshold() == 1 ? "" : "s") + ", "
        + r.headsBelowThreshold() + " dead head" + (r.headsBelowThreshold() == 1 ? "" : "s"));
    return out;
  }

  /**
   * What a compacting run did to each planned head or range.
   *
   * @param title a format taking the count done, the count planned and the plural suffix of the latter
   */
  private static List<String> compacted(String title, List<DbReport.Compaction> done) {
    List<String> out = new ArrayList<>();
    long count = done.stream().filter(DbReport.Compaction::done).count();
    out.add(String.format(Locale.ROOT, title, count, done.size(), done.size() == 1 ? "" : "s"));
    int n = 1;
    for (DbReport.Compaction c : done) {
      RangeAssessment a = c.recheck();
      String head = "  " + n++ + ". " + a.range().table() + " " + a.range().label() + " ["
          + Keys.show(a.range().begin()) + ", " + Keys.show(a.range().end()) + ")";
      if (!c.done()) {
        out.add(head + ": skipped, " + a.verdict() + " on re-check: " + a.why());
        continue;
      }
      if (c.head() != null) {
        head += String.format(Locale.ROOT, " dead head %d -> %d entries a seek steps over%s;", c.head().deadBefore(),
            c.head().deadAfter(), c.head().memtableBefore() == 0 ? ""
                : " (" + c.head().memtableBefore() + " in the memtable, flushed by the compaction first)");
      }
      RangeStats b = a.stats();
      RangeStats f = c.after();
      if (c.firstPass() == null) {
        out.add(head + " bottommost=" + (a.forceBottommost() ? "force" : "skip") + ": " + change(b, f));
      } else {
        out.add(head + " bottommost=" + (a.forceBottommost() ? "force" : "skip") + ": " + change(b, c.firstPass()));
        out.add("     the pass left its tombstones at the bottom; second pass, bottommost=force: "
            + change(c.firstPass(), f));
      }
    }
    return out;
  }

  private static String change(RangeStats b, RangeStats f) {
    return String.format(Locale.ROOT, "tombstones %d -> %d, entries %d -> %d, files %d -> %d, file-bytes %d -> %d, "
            + "levels %s -> %s", Math.round(b.tombstones()), Math.round(f.tombstones()), Math.round(b.entries()),
        Math.round(f.entries()), b.files(), f.files(), b.fileBytes(), f.fileBytes(),
        DbReport.levels(b.shallowestLevel(), b.deepestLevel()), DbReport.levels(f.shallowestLevel(), f.deepestLevel()));
  }

  private static String n(double estimate) {
    return String.valueOf(Math.round(estimate));
  }

  /** A plain-text table: text columns left-aligned, numeric columns right-aligned, two spaces between. */
  private static final class Columns {
    private final List<String[]> rows = new ArrayList<>();

    Columns(String... header) {
      rows.add(header);
    }

    void row(String... cells) {
      rows.add(cells);
    }

    List<String> lines() {
      int cols = rows.get(0).length;
      int[] width = new int[cols];
      boolean[] numeric = new boolean[cols];
      for (int i = 0; i < cols; i++) {
        numeric[i] = rows.size() > 1;
        for (String[] r : rows) {
          width[i] = Math.max(width[i], r[i].length());
        }
        for (String[] r : rows.subList(1, rows.size())) {
          numeric[i] &= r[i].matches("-?[0-9.]+");
        }
      }
      List<String> out = new ArrayList<>();
      for (String[] r : rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cols; i++) {
          String pad = " ".repeat(width[i] - r[i].length());
          sb.append(i == 0 ? "" : "  ").append(numeric[i] ? pad + r[i] : r[i] + (i == cols - 1 ? "" : pad));
        }
        out.add(sb.toString());
      }
      return out;
    }
  }
}
