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

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ozonerc.testsupport.SyntheticLsm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Guards that work on the planner's speed leaves every plan as it was: plans of generated stores (synthetic large
 * OMs, and small random stores with overlapping buckets and files, files at bucket bounds, busy files, ranges
 * without progress, small caps that force splits, every bottommost mode, plans stopped early) are printed in full,
 * every assessment with its exact stats ({@link RangeAssessment#toString()}: doubles to the last bit, cost, verdict,
 * words; the cost and words of ranges below the thresholds as {@link RangePlanner#explain} gives them from the
 * plan's files), and the digest of each case is compared with the one recorded in
 * {@code src/test/resources/plan-equivalence-digests.txt}.
 *
 * <p>The digests were recorded on the planner as it was before its internals were reworked for speed, so a change
 * of any plan, estimate or word fails here. After an intended change of plans, rewrite them with
 * {@code -Dplanner.rewrite=true}, and say so in the commit.
 */
class PlanEquivalenceTest {
  private static final Path DIGESTS = Path.of("src/test/resources/plan-equivalence-digests.txt");
  private static final String T = "keyTable";
  /** The default thresholds without a byte budget: the settings the digests of the large stores were recorded with. */
  private static final PlannerSettings UNCAPPED = new PlannerSettings(10_000, 0.3, 1_000_000, 20, 0,
      BottommostMode.AUTO, 0);

  @Test
  void plansAreThoseRecorded() throws IOException {
    Map<String, String> actual = new LinkedHashMap<>();
    actual.put("synthetic 300 files x 3000 buckets", digest(synthetic(300, 3_000, 7), List.of(),
        UNCAPPED, Integer.MAX_VALUE));
    actual.put("synthetic 2000 files x 20000 buckets", digest(synthetic(2_000, 20_000, 42), List.of(),
        UNCAPPED, Integer.MAX_VALUE));
    actual.put("synthetic 2000 files x 500 buckets, small cap", digest(synthetic(2_000, 500, 3), List.of(),
        new PlannerSettings(1_000, 0.2, 50_000, 50, 0, BottommostMode.AUTO, 0), Integer.MAX_VALUE));
    actual.put("layered 1000 files x 10000 buckets", digest(layered(1_000, 10_000), List.of(),
        UNCAPPED, Integer.MAX_VALUE));
    actual.put("layered 500 files x 2000 buckets, stopped after 700 ranges", digest(layered(500, 2_000),
        List.of(), UNCAPPED, 700));
    for (int seed = 1; seed <= 400; seed++) {
      Random rnd = new Random(seed);
      Store s = random(rnd);
      List<KeyRange> noProgress = new ArrayList<>();
      for (int i = rnd.nextInt(3); i > 0; i--) {
        byte[] a = key(rnd);
        byte[] b = key(rnd);
        int c = Keys.compare(a, b);
        if (c != 0) {
          noProgress.add(new KeyRange(T, KeyRange.Kind.MERGED, "np", c < 0 ? a : b, c < 0 ? b : a));
        }
      }
      // Drawn in the order of the record's components: the recorded digests depend on this sequence.
      long minTombstones = new long[] {0, 10, 500, 10_000}[rnd.nextInt(4)];
      double ratio = new double[] {0.05, 0.3, 0.5, 0.9, 1.0}[rnd.nextInt(5)];
      long maxEntries = new long[] {1_000, 20_000, 1_000_000}[rnd.nextInt(3)];
      PlannerSettings settings = new PlannerSettings(minTombstones, ratio, maxEntries, 1 + rnd.nextInt(20),
          rnd.nextBoolean() ? 0 : 1L << (20 + rnd.nextInt(10)), BottommostMode.values()[rnd.nextInt(3)], 0);
      int stopAfter = rnd.nextInt(5) == 0 ? rnd.nextInt(20) : Integer.MAX_VALUE;
      actual.put("random " + seed, digest(s, noProgress, settings, stopAfter));
    }
    for (int seed = 1; seed <= 150; seed++) {
      Random rnd = new Random(1_000 + seed);
      Store s = adjoining(rnd);
      long minTombstones = new long[] {0, 10, 500}[rnd.nextInt(3)];
      double ratio = new double[] {0.05, 0.3, 0.6}[rnd.nextInt(3)];
      long maxEntries = new long[] {1_000, 50_000, 1_000_000}[rnd.nextInt(3)];
      PlannerSettings settings = new PlannerSettings(minTombstones, ratio, maxEntries, 1 + rnd.nextInt(10), 0,
          BottommostMode.values()[rnd.nextInt(3)], 0);
      actual.put("adjoining " + seed, digest(s, List.of(), settings, Integer.MAX_VALUE));
    }
    if (Boolean.getBoolean("planner.rewrite")) {
      List<String> lines = new ArrayList<>();
      actual.forEach((k, v) -> lines.add(v + " " + k));
      Files.write(DIGESTS, lines, StandardCharsets.UTF_8);
    }
    Map<String, String> recorded = new LinkedHashMap<>();
    for (String line : Files.readAllLines(DIGESTS, StandardCharsets.UTF_8)) {
      recorded.put(line.substring(65), line.substring(0, 64));
    }
    assertEquals(recorded.keySet(), actual.keySet());
    for (String name : actual.keySet()) {
      assertEquals(recorded.get(name), actual.get(name), name);
    }
  }

  private record Store(List<SstFile> files, Map<String, List<KeyRange>> buckets) { }

  /** Every assessment of the plan with its exact stats, in plan order, then the per-table ratios: as one digest. */
  private static String digest(Store s, List<KeyRange> noProgress, PlannerSettings settings, int stopAfter) {
    int[] asked = new int[1];
    PlanWork work = stopAfter == Integer.MAX_VALUE ? PlanWork.unbounded()
        : PlanWork.until(() -> ++asked[0] > stopAfter);
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    CompactionPlan plan;
    try {
      plan = PlannerFixtures.explained(RangePlanner.plan(s.files(), s.buckets(), noProgress, settings, work),
          s.files(), s.buckets());
    } catch (RuntimeException e) { // no case is known to throw; if one does, it must throw the same
      md.update(e.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(md.digest());
    }
    for (RangeAssessment a : plan.planned()) {
      md.update(("planned " + a + " score=" + a.score() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    for (RangeAssessment a : plan.notPlanned()) {
      md.update(("not " + a + " score=" + a.score() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    md.update((new TreeMap<>(plan.worstRatioByTable()) + " complete=" + plan.complete() + " asked=" + asked[0])
        .getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(md.digest());
  }

  private static KeyRange bucket(String table, String prefix) {
    return KeyRange.bucket(table, prefix);
  }

  /** The planner benchmark's store ({@link SyntheticLsm}), its files made by {@link #sst}. */
  private static Store synthetic(int fileCount, int bucketCount, long seed) {
    SyntheticLsm lsm = new SyntheticLsm(fileCount, bucketCount, seed);
    List<SstFile> files = new ArrayList<>();
    for (SyntheticLsm.Sst f : lsm.files()) {
      files.add(sst(T, f.level(), Keys.utf8(f.smallest()), Keys.utf8(f.largest()), f.entries(), f.deletions(),
          f.seq(), false));
    }
    List<KeyRange> buckets = new ArrayList<>();
    for (String prefix : lsm.bucketPrefixes()) {
      buckets.add(bucket(T, prefix));
    }
    return new Store(files, Map.of(T, buckets));
  }

  /** {@link PlannerComplexityTest}'s store: 8 level-0 files nest over disjoint levels 1..6. */
  private static Store layered(int fileCount, int bucketCount) {
    return new Store(PlannerComplexityTest.lsm(fileCount, bucketCount), PlannerComplexityTest.buckets(bucketCount));
  }

  /**
   * A small store with the edges a plan meets: buckets in any order, nested or overlapping, one without an end;
   * keys on bucket bounds; disjoint and overlapping levels; empty, tombstone-only and busy files; a second table
   * and a table without files.
   */
  private static Store random(Random rnd) {
    Map<String, List<KeyRange>> buckets = new LinkedHashMap<>();
    List<KeyRange> kb = new ArrayList<>();
    int nb = rnd.nextInt(12);
    for (int i = 0; i < nb; i++) {
      switch (rnd.nextInt(8)) {
      case 0 -> kb.add(bucket(T, "/v/b" + rnd.nextInt(10) + "/x" + rnd.nextInt(3) + "/")); // nested in a bucket
      case 1 -> {
        byte[] a = key(rnd);
        byte[] b = key(rnd);
        int c = Keys.compare(a, b);
        if (c != 0) {
          // any range, overlapping others
          kb.add(new KeyRange(T, KeyRange.Kind.BUCKET, "odd", c < 0 ? a : b, c < 0 ? b : a));
        }
      }
      case 2 -> {
        if (rnd.nextInt(4) == 0) {
          kb.add(new KeyRange(T, KeyRange.Kind.BUCKET, "tail", key(rnd), null)); // no end
        } else {
          kb.add(bucket(T, "/v/b" + rnd.nextInt(10) + "/"));
        }
      }
      default -> kb.add(bucket(T, "/v/b" + rnd.nextInt(10) + "/"));
      }
    }
    List<KeyRange> distinct = new ArrayList<>();
    for (KeyRange r : kb) {
      if (!distinct.contains(r)) {
        distinct.add(r);
      }
    }
    buckets.put(T, distinct);
    if (rnd.nextBoolean()) {
      buckets.put("fileTable", List.of(bucket("fileTable", "/1/2/"), bucket("fileTable", "/1/3/")));
    }
    if (rnd.nextInt(4) == 0) {
      buckets.put("emptyTable", List.of());
    }
    List<SstFile> files = new ArrayList<>();
    long seq = 1;
    int levels = 1 + rnd.nextInt(7);
    for (int l = 0; l < levels; l++) {
      boolean overlapping = l == 0 || rnd.nextInt(5) == 0;
      int n = rnd.nextInt(l == 0 ? 6 : 10);
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < 2 * n; i++) {
        keys.add(key(rnd));
      }
      keys.sort(Keys::compare);
      for (int i = 0; i + 1 < keys.size(); i += 2) {
        byte[] lo = keys.get(i);
        byte[] hi = keys.get(i + 1);
        if (overlapping) {
          byte[] a = key(rnd);
          byte[] b = key(rnd);
          lo = Keys.compare(a, b) <= 0 ? a : b;
          hi = Keys.compare(a, b) <= 0 ? b : a;
        } else if (i > 0 && Keys.compare(keys.get(i - 1), lo) >= 0) {
          continue; // equal keys would make neighbouring files share a key
        }
        long entries = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 2_000 : 200_000);
        long deletions = entries == 0 ? 0 : switch (rnd.nextInt(4)) {
        case 0 -> 0;
        case 1 -> entries;
        default -> (long) (entries * rnd.nextDouble());
        };
        files.add(sst(T, l, lo, hi, entries, deletions, seq++, rnd.nextInt(15) == 0));
      }
    }
    if (buckets.containsKey("fileTable")) {
      files.add(sst("fileTable", 0, Keys.utf8("/1/2/a"), Keys.utf8("/1/3/z"), 30_000, 25_000, seq++, false));
      files.add(sst("fileTable", 1, Keys.utf8("/1/2/0"), Keys.utf8("/1/2/z"), 30_000, 0, seq++, false));
    }
    files.add(sst("otherTable", 0, Keys.utf8("/a"), Keys.utf8("/z"), 10, 10, seq++, false)); // not considered
    java.util.Collections.shuffle(files, rnd);
    return new Store(files, buckets);
  }

  /**
   * Ranges of a partition of the key space (each ends where the next begins, or a little before), the last one
   * maybe to +inf, given in any order, over the files of a random store.
   */
  private static Store adjoining(Random rnd) {
    java.util.TreeSet<byte[]> cuts = new java.util.TreeSet<>(Keys::compare);
    for (int i = 2 + rnd.nextInt(10); i > 0; i--) {
      cuts.add(key(rnd));
    }
    List<byte[]> c = new ArrayList<>(cuts);
    List<KeyRange> ranges = new ArrayList<>();
    for (int i = 0; i + 1 < c.size(); i++) {
      byte[] end = c.get(i + 1);
      if (rnd.nextInt(4) == 0 && Keys.compare(Keys.keySuccessor(c.get(i)), end) < 0) {
        end = Keys.keySuccessor(c.get(i)); // a gap before the next
      }
      ranges.add(new KeyRange(T, KeyRange.Kind.BUCKET, "r" + i, c.get(i), end));
    }
    if (rnd.nextBoolean()) {
      ranges.add(new KeyRange(T, KeyRange.Kind.BUCKET, "last", c.get(c.size() - 1), null));
    }
    if (rnd.nextBoolean()) {
      java.util.Collections.shuffle(ranges, rnd);
    }
    Store files = random(rnd);
    return new Store(files.files(), Map.of(T, ranges));
  }

  /** A key near the buckets' bounds: bucket prefixes, their successors, keys inside and between buckets. */
  private static byte[] key(Random rnd) {
    String b = "/v/b" + rnd.nextInt(10);
    String key = switch (rnd.nextInt(6)) {
    case 0 -> b + "/";
    case 1 -> b + "0";
    case 2 -> b + "/x" + rnd.nextInt(3) + "/k" + rnd.nextInt(100);
    case 3 -> "/v/a" + rnd.nextInt(5);
    default -> b + "/k" + String.format("%03d", rnd.nextInt(1000));
    };
    return Keys.utf8(key);
  }

  private static SstFile sst(String table, int level, byte[] lo, byte[] hi, long entries, long deletions, long seq,
      boolean busy) {
    return new SstFile(table, "/" + seq + ".sst", level, lo, hi, entries, deletions, entries * 64 + 1_000, seq,
        busy);
  }
}
