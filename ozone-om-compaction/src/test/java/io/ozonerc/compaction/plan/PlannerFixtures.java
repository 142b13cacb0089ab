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

/**
 * Reads planner scenarios from text, in the spirit of Pebble's datadriven {@code testdata/compaction_picker_*}.
 *
 * <pre>
 * # what the case is about (one or more lines)
 * sst keyTable L0 /v/b/k000 /v/b/k999 entries=100k deletions=95k size=4MiB seq=3 [busy]
 * bucket keyTable /v/b/
 * table fileTable                                  (a table to consider that has no bucket)
 * noprogress keyTable /v/a/ /v/a0              (a range whose last compaction removed nothing)
 * plan min-tombstones=10000 ratio=0.3 max-entries=1M ranges=20 bytes=0 bottommost=auto
 * ----
 * expected lines of {@link CompactionPlan#describe()}
 * (a blank line ends the case)
 * </pre>
 * Counts take k/M/G (x1000) suffixes, sizes KiB/MiB/GiB. Keys are written as {@link Keys#show} prints them.
 */
final class PlannerFixtures {
  record Case(String file, int line, String about, List<SstFile> files, Map<String, List<KeyRange>> buckets,
      List<KeyRange> noProgress, PlannerSettings settings, List<String> expected, List<String> inputLines) { }

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
      List<SstFile> files = new ArrayList<>();
      Map<String, List<KeyRange>> buckets = new LinkedHashMap<>();
      List<KeyRange> noProgress = new ArrayList<>();
      PlannerSettings settings = null;
      for (; i < lines.size() && !lines.get(i).equals("----"); i++) {
        String line = lines.get(i);
        input.add(line);
        String[] w = line.trim().split("\\s+");
        switch (w[0]) {
          case "#" -> about.append(line.substring(1).trim()).append(' ');
          case "sst" -> files.add(sst(w, files.size()));
          case "bucket" -> buckets.computeIfAbsent(w[1], t -> new ArrayList<>()).add(KeyRange.bucket(w[1], w[2]));
          case "table" -> buckets.computeIfAbsent(w[1], t -> new ArrayList<>());
          case "noprogress" ->
              noProgress.add(new KeyRange(w[1], KeyRange.Kind.BUCKET, "no progress", Keys.parse(w[2]), Keys.parse(w[3])));
          case "plan" -> settings = settings(w);
          default -> throw new IllegalArgumentException(path + ":" + (i + 1) + ": unknown directive " + w[0]);
        }
      }
      if (settings == null || i >= lines.size()) {
        throw new IllegalArgumentException(path + ":" + start + ": case needs a plan line and ----");
      }
      i++; // past ----
      List<String> expected = new ArrayList<>();
      for (; i < lines.size() && !lines.get(i).isBlank(); i++) {
        expected.add(lines.get(i));
      }
      cases.add(new Case(path.getFileName().toString(), start, about.toString().trim(), files, buckets,
          noProgress, settings, expected, input));
    }
    return cases;
  }

  /** Writes the cases back with {@code actual} as their expected output (rewrite mode, for review in git diff). */
  static void rewrite(Path path, List<Case> cases, List<List<String>> actual) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cases.size(); c++) {
      for (String l : cases.get(c).inputLines()) {
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

  static SstFile sst(String[] w, int index) {
    Map<String, String> kv = keyValues(w, 5);
    return new SstFile(w[1], String.format("/%06d.sst", index + 1), Integer.parseInt(w[2].substring(1)),
        Keys.parse(w[3]), Keys.parse(w[4]), count(kv.get("entries")), count(kv.getOrDefault("deletions", "0")),
        size(kv.getOrDefault("size", "0")), count(kv.getOrDefault("seq", "0")), kv.containsKey("busy"));
  }

  private static PlannerSettings settings(String[] w) {
    Map<String, String> kv = keyValues(w, 1);
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
