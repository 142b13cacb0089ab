package io.ozonerc.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Dead-head scenarios in {@code src/test/resources/planner/heads/*.txt}, in the planner fixtures' format
 * ({@link PlannerFixtures}) with these directives added:
 *
 * <pre>
 * mem keyTable deletes=5k                               (deletes in a table's memtables)
 * hot keyTable /v/q/                                    (a bucket whose head qualified last time)
 * head keyTable /v/q/ first=/v/q/k20000 dead=40k        (a probe's result; "(table)" for the table head,
 *                                                        no first= for a range without a live key; mem-dead=
 *                                                        and mem-outside= for memtable entries in the head
 *                                                        and outside the range; skipped for a head sized from
 *                                                        a skip hint, which listings skip)
 * probes table=keyTable min-dead=2000 budget=1000 rotation=0
 * heads min-dead=2000 max-entries=1M                      (plan the heads; settings as for "plan")
 * ----
 * expected output: the probe list (range and bound), or the head plan as {@link CompactionPlan#describe()}
 * </pre>
 * Run with {@code -Dplanner.rewrite=true} to regenerate the expected output, then review the diff.
 */
class HeadPlannerFixtureTest {
  private static final Path DIR = Path.of("src/test/resources/planner/heads");

  @TestFactory
  Stream<DynamicTest> scenarios() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> paths = Files.list(DIR)) {
      for (Path p : paths.filter(x -> x.toString().endsWith(".txt")).sorted().toList()) {
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        StringBuilder rewritten = new StringBuilder();
        int i = 0;
        while (i < lines.size()) {
          if (lines.get(i).isBlank()) {
            i++;
            continue;
          }
          int start = i + 1;
          List<String> input = new ArrayList<>();
          for (; i < lines.size() && !lines.get(i).equals("----"); i++) {
            input.add(lines.get(i));
          }
          i++;
          List<String> expected = new ArrayList<>();
          for (; i < lines.size() && !lines.get(i).isBlank(); i++) {
            expected.add(lines.get(i));
          }
          List<String> got = run(p + ":" + start, input);
          input.forEach(l -> rewritten.append(l).append('\n'));
          rewritten.append("----\n");
          got.forEach(l -> rewritten.append(l).append('\n'));
          rewritten.append('\n');
          String about = input.stream().filter(l -> l.startsWith("#")).findFirst().orElse("").replace("#", "").trim();
          tests.add(DynamicTest.dynamicTest(p.getFileName() + ":" + start + " " + about,
              () -> assertEquals(String.join("\n", expected), String.join("\n", got))));
        }
        if (Boolean.getBoolean("planner.rewrite")) {
          Files.writeString(p, rewritten.toString(), StandardCharsets.UTF_8);
        }
      }
    }
    return tests.stream();
  }

  private static List<String> run(String where, List<String> input) {
    List<SstFile> files = new ArrayList<>();
    Map<String, List<KeyRange>> buckets = new LinkedHashMap<>();
    Map<String, Long> memDeletes = new HashMap<>();
    List<KeyRange> hot = new ArrayList<>();
    List<HeadFacts> heads = new ArrayList<>();
    List<String> out = null;
    for (String line : input) {
      String[] w = line.trim().split("\\s+");
      Map<String, String> kv = PlannerFixtures.keyValues(w, 1);
      switch (w[0]) {
        case "#" -> { }
        case "sst" -> files.add(PlannerFixtures.sst(w, files.size()));
        case "bucket" -> buckets.computeIfAbsent(w[1], t -> new ArrayList<>()).add(KeyRange.bucket(w[1], w[2]));
        case "mem" -> memDeletes.put(w[1], PlannerFixtures.count(kv.get("deletes")));
        case "hot" -> hot.add(KeyRange.bucket(w[1], w[2]));
        case "head" -> heads.add(head(w, PlannerFixtures.keyValues(w, 3)));
        case "probes" -> {
          String table = kv.get("table");
          List<KeyRange> sorted = RangePlanner.sortedBuckets(buckets.getOrDefault(table, List.of()));
          List<SstFile> tableFiles = files.stream().filter(f -> f.table().equals(table)).toList();
          long mem = memDeletes.getOrDefault(table, 0L);
          long minDead = PlannerFixtures.count(kv.getOrDefault("min-dead",
              String.valueOf(PlannerSettings.defaults().deadHeadMinKeys())));
          Map<String, Long> bounds = new HashMap<>();
          HeadPlanner.candidates(tableFiles, mem, sorted, minDead)
              .forEach(c -> bounds.put(c.range().label(), c.deadBound()));
          HeadPlanner.candidates(tableFiles, mem, HeadPlanner.directories(tableFiles, sorted), minDead)
              .forEach(c -> bounds.put(c.range().label(), c.deadBound()));
          out = new ArrayList<>();
          for (KeyRange r : HeadPlanner.pickProbes(table, tableFiles, mem, sorted, hot, minDead,
              (int) PlannerFixtures.count(kv.getOrDefault("budget", "1000")),
              PlannerFixtures.count(kv.getOrDefault("rotation", "0")))) {
            Long bound = bounds.get(r.label());
            out.add(r.table() + " " + r.kind() + " " + r.label() + (bound == null ? "" : " bound=" + bound));
          }
        }
        case "heads" -> {
          Map<String, List<SstFile>> byTable = new HashMap<>();
          files.forEach(f -> byTable.computeIfAbsent(f.table(), t -> new ArrayList<>()).add(f));
          Map<String, List<KeyRange>> sorted = new HashMap<>();
          buckets.forEach((t, b) -> sorted.put(t, RangePlanner.sortedBuckets(b)));
          PlannerSettings d = PlannerSettings.defaults();
          PlannerSettings s = new PlannerSettings(d.minTombstones(), d.tombstoneRatio(),
              PlannerFixtures.count(kv.getOrDefault("max-entries", String.valueOf(d.maxCompactionEntries()))),
              d.rangesPerRun(), d.maxBytesPerRun(), BottommostMode.parse(kv.getOrDefault("bottommost", "auto")),
              PlannerFixtures.count(kv.getOrDefault("min-dead", String.valueOf(d.deadHeadMinKeys()))));
          out = HeadPlanner.plan(heads, byTable, sorted, s).describe();
        }
        default -> throw new IllegalArgumentException(where + ": unknown directive " + w[0]);
      }
    }
    if (out == null) {
      throw new IllegalArgumentException(where + ": case needs a probes or heads line");
    }
    return out;
  }

  private static HeadFacts head(String[] w, Map<String, String> kv) {
    KeyRange range = w[2].equals("(table)") ? HeadFacts.tableRange(w[1]) : KeyRange.bucket(w[1], w[2]);
    return new HeadFacts(range, kv.containsKey("first") ? Keys.parse(kv.get("first")) : null,
        PlannerFixtures.count(kv.get("dead")), PlannerFixtures.size(kv.getOrDefault("bytes", "0")),
        kv.containsKey("truncated"), PlannerFixtures.count(kv.getOrDefault("mem-dead", "0")),
        PlannerFixtures.count(kv.getOrDefault("mem-outside", "0")),
        kv.containsKey("skipped") ? HeadFacts.Sizing.HINT : HeadFacts.Sizing.SEEK);
  }
}
