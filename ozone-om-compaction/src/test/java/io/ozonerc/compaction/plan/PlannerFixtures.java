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

package io.ozonerc.compaction.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads and runs planner scenarios written as text, in the spirit of Pebble's datadriven
 * {@code testdata/compaction_picker_*}: one parser for every fixture file ({@link PlannerFixtureTest}).
 *
 * <pre>
 * # what the case is about (one or more lines)
 * sst keyTable L0 /v/b/k000 /v/b/k999 entries=100k deletions=95k size=4MiB seq=3 [busy]
 * bucket keyTable /v/b/
 * table fileTable                                  (a table to consider that has no bucket)
 * noprogress keyTable /v/a/ /v/a0 [counted]        (a range whose last compaction removed nothing; a counted
 *                                                   bucket with "counted")
 * mem keyTable deletes=5k                          (deletes in a table's memtables)
 * hot keyTable /v/q/                               (a bucket whose head qualified last time)
 * head keyTable /v/q/ first=/v/q/k20000 dead=40k   (a probe's result; "(table)" for the table head, no first= for a
 *                                                   range without a live key; mem-dead= and mem-outside= for
 *                                                   memtable entries in the head and outside the range; skipped
 *                                                   for a head sized from a skip hint, which listings skip)
 * count keyTable /v/b/ entries=1672 tombstones=671 read=1  (a count of a bucket's files: RangeCount)
 * then one action, the case's last line before ----:
 * plan min-tombstones=10000 ratio=0.3 max-entries=1M ranges=20 bytes=0 bottommost=auto min-dead=2000
 *                                                  (RangePlanner.plan; settings default to PlannerSettings')
 * probes table=keyTable min-dead=2000 budget=1000 rotation=0 max-entries=1M   (HeadPlanner.pickProbes, with the
 *                                                   bounds; settings as for plan)
 * heads max-entries=1M bottommost=auto min-dead=2000           (HeadPlanner.plan of the head lines)
 * counts table=keyTable min-tombstones=500 budget=32 rotation=0 (the range plan with these settings, then the
 *                                                   buckets CountPlanner.pick would count after it)
 * counted min-tombstones=500 ratio=0.3             (CountPlanner.plan of the count lines)
 * ----
 * expected output: CompactionPlan#describe() for plan, heads and counted, the range list for probes and counts
 * (a blank line ends the case)
 * </pre>
 * Counts take k/M/G (x1000) suffixes, sizes KiB/MiB/GiB. Keys are written as {@link Keys#show} prints them.
 */
final class PlannerFixtures {
  /** One case: where it starts, what it is about, its input lines and its expected output. */
  record Case(String file, int line, String about, List<String> input, List<String> expected) { }

  private PlannerFixtures() { }

  static List<Case> read(Path path) throws IOException {
    List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    List<Case> cases = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      if (lines.get(i).isBlank()) {
        i++;
        continue;
      }
      int start = i + 1;
      StringBuilder about = new StringBuilder();
      List<String> input = new ArrayList<>();
      for (; i < lines.size() && !lines.get(i).equals("----"); i++) {
        input.add(lines.get(i));
        if (lines.get(i).startsWith("#")) {
          about.append(lines.get(i).substring(1).trim()).append(' ');
        }
      }
      if (i >= lines.size()) {
        throw new IllegalArgumentException(path + ":" + start + ": case needs ---- and its expected output");
      }
      i++; // past ----
      List<String> expected = new ArrayList<>();
      for (; i < lines.size() && !lines.get(i).isBlank(); i++) {
        expected.add(lines.get(i));
      }
      cases.add(new Case(path.getFileName().toString(), start, about.toString().trim(), input, expected));
    }
    return cases;
  }

  /** Writes the cases back with {@code actual} as their expected output (rewrite mode, for review in git diff). */
  static void rewrite(Path path, List<Case> cases, List<List<String>> actual) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cases.size(); c++) {
      for (String l : cases.get(c).input()) {
        sb.append(l).append('\n');
      }
      sb.append("----\n");
      for (String l : actual.get(c)) {
        sb.append(l).append('\n');
      }
      sb.append('\n');
    }
    Files.writeString(path, sb.toString(), StandardCharsets.UTF_8);
  }

  /** Runs one case: its facts, then its action. */
  static List<String> run(Case c) {
    String where = c.file() + ":" + c.line();
    List<SstFile> files = new ArrayList<>();
    Map<String, List<KeyRange>> buckets = new LinkedHashMap<>();
    List<KeyRange> noProgress = new ArrayList<>();
    Map<String, Long> memDeletes = new HashMap<>();
    List<KeyRange> hot = new ArrayList<>();
    List<HeadFacts> heads = new ArrayList<>();
    List<RangeCount> counts = new ArrayList<>();
    List<String> out = null;
    for (String line : c.input()) {
      if (out != null) {
        throw new IllegalArgumentException(where + ": the action must be the case's last line: " + line);
      }
      String[] w = line.trim().split("\\s+");
      Map<String, String> kv = keyValues(w, 1);
      switch (w[0]) {
      case "#" -> { }
      case "sst" -> files.add(sst(w, files.size()));
      case "bucket" -> buckets.computeIfAbsent(w[1], t -> new ArrayList<>()).add(KeyRange.bucket(w[1], w[2]));
      case "table" -> buckets.computeIfAbsent(w[1], t -> new ArrayList<>());
      case "noprogress" -> noProgress.add(new KeyRange(w[1], w.length > 4 && w[4].equals("counted")
          ? KeyRange.Kind.COUNTED : KeyRange.Kind.BUCKET, "no progress", Keys.parse(w[2]), Keys.parse(w[3])));
      case "mem" -> memDeletes.put(w[1], count(kv.get("deletes")));
      case "hot" -> hot.add(KeyRange.bucket(w[1], w[2]));
      case "head" -> heads.add(head(w, keyValues(w, 3)));
      case "count" -> counts.add(count(w, keyValues(w, 3)));
      case "plan" -> out = explained(RangePlanner.plan(files, buckets, noProgress, settings(kv)), files, buckets)
          .describe();
      case "probes" -> out = probes(kv, files, buckets, memDeletes, hot);
      case "heads" -> out = HeadPlanner.plan(heads, byTable(files), sortedByTable(buckets), settings(kv),
          Budget.of(settings(kv))).describe();
      case "counts" -> out = counts(kv, files, buckets, noProgress);
      case "counted" -> out = CountPlanner.plan(counts, byTable(files), sortedByTable(buckets), settings(kv),
          Budget.of(settings(kv))).describe();
      default -> throw new IllegalArgumentException(where + ": unknown directive " + w[0]);
      }
    }
    if (out == null) {
      throw new IllegalArgumentException(where + ": case needs a plan, probes, heads, counts or counted line");
    }
    return out;
  }

  /**
   * {@code plan} with every assessment {@linkplain RangePlanner#explain explained} from the files and buckets it was
   * made from, each table indexed once.
   */
  static CompactionPlan explained(CompactionPlan plan, List<SstFile> files, Map<String, List<KeyRange>> buckets) {
    Map<String, TableFacts> index = new HashMap<>();
    Function<RangeAssessment, RangeAssessment> explain = a -> RangePlanner.explain(a, index.computeIfAbsent(
        a.range().table(), t -> TableFacts.of(files.stream().filter(f -> f.table().equals(t)).toList(),
            buckets.getOrDefault(t, List.of()))));
    return new CompactionPlan(plan.planned().stream().map(explain).toList(),
        plan.notPlanned().stream().map(explain).toList(), plan.worstRatioByTable(), plan.complete());
  }

  /** The ranges pickProbes returns, one line each, with the bound that made a candidate of it. */
  private static List<String> probes(Map<String, String> kv, List<SstFile> files,
      Map<String, List<KeyRange>> buckets, Map<String, Long> memDeletes, List<KeyRange> hot) {
    String table = kv.get("table");
    List<KeyRange> sorted = RangePlanner.sortedBuckets(buckets.getOrDefault(table, List.of()));
    List<SstFile> tableFiles = files.stream().filter(f -> f.table().equals(table)).toList();
    long mem = memDeletes.getOrDefault(table, 0L);
    long minDead = count(kv.getOrDefault("min-dead", String.valueOf(PlannerSettings.defaults().deadHeadMinKeys())));
    Map<String, Long> bounds = new HashMap<>();
    Picks.byDeletionBound(tableFiles, mem, sorted, minDead)
        .forEach(p -> bounds.put(p.range().label(), p.deadBound()));
    Picks.byDeletionBound(tableFiles, mem, HeadPlanner.directories(tableFiles, sorted), minDead)
        .forEach(p -> bounds.put(p.range().label(), p.deadBound()));
    List<String> out = new ArrayList<>();
    for (KeyRange r : HeadPlanner.pickProbes(table, tableFiles, mem, sorted, hot, settings(kv),
        (int) count(kv.getOrDefault("budget", "1000")), count(kv.getOrDefault("rotation", "0")))) {
      Long bound = bounds.get(r.label());
      out.add(r.table() + " " + r.kind() + " " + r.label() + (bound == null ? "" : " bound=" + bound));
    }
    return out;
  }

  /** The buckets CountPlanner.pick counts after the range plan of these facts and settings. */
  private static List<String> counts(Map<String, String> kv, List<SstFile> files, Map<String, List<KeyRange>> buckets,
      List<KeyRange> noProgress) {
    String table = kv.get("table");
    PlannerSettings s = settings(kv);
    CompactionPlan rangePlan = RangePlanner.plan(files, buckets, noProgress, s);
    List<String> out = new ArrayList<>();
    for (KeyRange r : CountPlanner.pick(table, byTable(files).getOrDefault(table, List.of()),
        sortedByTable(buckets).getOrDefault(table, List.of()), rangePlan, noProgress, s,
        (int) count(kv.getOrDefault("budget", String.valueOf(CountPlanner.COUNTS_PER_ROUND))),
        count(kv.getOrDefault("rotation", "0")))) {
      out.add(r.table() + " " + r.kind() + " " + r.label());
    }
    return out;
  }

  private static RangeCount count(String[] w, Map<String, String> kv) {
    return new RangeCount(KeyRange.bucket(w[1], w[2]), count(kv.get("entries")), count(kv.get("tombstones")),
        (int) count(kv.getOrDefault("read", "0")));
  }

  private static Map<String, List<SstFile>> byTable(List<SstFile> files) {
    Map<String, List<SstFile>> out = new HashMap<>();
    files.forEach(f -> out.computeIfAbsent(f.table(), t -> new ArrayList<>()).add(f));
    return out;
  }

  private static Map<String, List<KeyRange>> sortedByTable(Map<String, List<KeyRange>> buckets) {
    Map<String, List<KeyRange>> out = new HashMap<>();
    buckets.forEach((t, b) -> out.put(t, RangePlanner.sortedBuckets(b)));
    return out;
  }

  private static HeadFacts head(String[] w, Map<String, String> kv) {
    KeyRange range = w[2].equals("(table)") ? HeadFacts.tableRange(w[1]) : KeyRange.bucket(w[1], w[2]);
    return new HeadFacts(range, kv.containsKey("first") ? Keys.parse(kv.get("first")) : null,
        count(kv.get("dead")), size(kv.getOrDefault("bytes", "0")), kv.containsKey("truncated"),
        count(kv.getOrDefault("mem-dead", "0")), count(kv.getOrDefault("mem-outside", "0")),
        kv.containsKey("skipped"));
  }

  static SstFile sst(String[] w, int index) {
    Map<String, String> kv = keyValues(w, 5);
    return new SstFile(w[1], String.format("/%06d.sst", index + 1), Integer.parseInt(w[2].substring(1)),
        Keys.parse(w[3]), Keys.parse(w[4]), count(kv.get("entries")), count(kv.getOrDefault("deletions", "0")),
        size(kv.getOrDefault("size", "0")), count(kv.getOrDefault("seq", "0")), kv.containsKey("busy"));
  }

  /** Settings of an action line; what it leaves out is {@link PlannerSettings#defaults()}'. */
  private static PlannerSettings settings(Map<String, String> kv) {
    PlannerSettings d = PlannerSettings.defaults();
    return new PlannerSettings(
        count(kv.getOrDefault("min-tombstones", String.valueOf(d.minTombstones()))),
        Double.parseDouble(kv.getOrDefault("ratio", String.valueOf(d.tombstoneRatio()))),
        count(kv.getOrDefault("max-entries", String.valueOf(d.maxCompactionEntries()))),
        (int) count(kv.getOrDefault("ranges", String.valueOf(d.rangesPerRun()))),
        size(kv.getOrDefault("bytes", String.valueOf(d.maxBytesPerRun()))),
        BottommostMode.parse(kv.getOrDefault("bottommost", d.bottommost().name())),
        count(kv.getOrDefault("min-dead", String.valueOf(d.deadHeadMinKeys()))));
  }

  static Map<String, String> keyValues(String[] w, int from) {
    Map<String, String> kv = new HashMap<>();
    for (int i = from; i < w.length; i++) {
      int eq = w[i].indexOf('=');
      kv.put(eq < 0 ? w[i] : w[i].substring(0, eq), eq < 0 ? "" : w[i].substring(eq + 1));
    }
    return kv;
  }

  static long count(String s) {
    char last = s.charAt(s.length() - 1);
    long mult = switch (last) {
    case 'k' -> 1_000L;
    case 'M' -> 1_000_000L;
    case 'G' -> 1_000_000_000L;
    default -> 1L;
    };
    return Long.parseLong(mult == 1 ? s : s.substring(0, s.length() - 1)) * mult;
  }

  static long size(String s) {
    for (String[] unit : new String[][] {{"KiB", "1024"}, {"MiB", "1048576"}, {"GiB", "1073741824"}}) {
      if (s.endsWith(unit[0])) {
        return Long.parseLong(s.substring(0, s.length() - 3)) * Long.parseLong(unit[1]);
      }
    }
    return Long.parseLong(s);
  }
}
