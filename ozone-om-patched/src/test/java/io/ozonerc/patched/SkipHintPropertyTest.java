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

package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Property: with skip hints, every listing returns exactly what stock 2.2.0 returns. The same seeded queue
 * workload ({@link SkipHintListCases}: creates into dead heads and at tails, queue deletes, unflushed cache
 * entries, flushes, lists from bucket starts, random keys, prefixes and pages) runs in a stock JVM and in a patched
 * one whose key tables have hints, and every line must match. The hints must have been used, retired and learned
 * many times, or the comparison would prove nothing. And the comparison must be able to fail: the same workload on
 * a copy of {@code SkipHints} without its retire step must list differently from stock.
 */
class SkipHintPropertyTest {
  private static final int STEPS = 4000;
  private static final Pattern COUNTERS = Pattern.compile(
      "hints entries=\\d+ used=(\\d+) learned=(\\d+) refused=(\\d+) retired=(\\d+) pending=(\\d+) merged=(\\d+)");
  /** The span workload, every seek and step learning (threshold 0), so each run teaches spans everywhere. */
  private static final String[] SPANS = {"workload=spans", "ozone.om.list.skip.hints.learn.threshold=0"};

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13})
  void listingsWithHintsAreStockListings(long seed) throws Exception {
    Path work = Path.of("target/om-jvm/skip-hint-list-" + seed);
    List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, String.valueOf(seed),
        String.valueOf(STEPS));
    List<String> patched = OmJvm.patched().run(SkipHintListCases.class, work, 300, String.valueOf(seed),
        String.valueOf(STEPS));
    assertEquals(stock.size() + 1, patched.size(), "the patched run has one more line, its hint counters");
    for (int i = 0; i < stock.size(); i++) {
      assertEquals(stock.get(i), patched.get(i), "seed " + seed);
    }
    assertTrue(stock.size() > STEPS / 4, "few listings: " + stock.size());
    assertTrue(stock.stream().filter(l -> l.contains(" start=null ") && l.contains(" -> k-")).count() > 100,
        "few non-empty listings from a bucket start");

    Matcher m = COUNTERS.matcher(patched.get(patched.size() - 1));
    assertTrue(m.matches(), patched.get(patched.size() - 1));
    long used = Long.parseLong(m.group(1));
    long learned = Long.parseLong(m.group(2));
    long retired = Long.parseLong(m.group(4));
    long pending = Long.parseLong(m.group(5));
    assertTrue(used > 100, "hints used only " + used + " times");
    assertTrue(learned > 100, "hints learned only " + learned + " times");
    assertTrue(retired > 20, "hints retired only " + retired + " times: no create landed in a hinted span");
    assertEquals(0, pending, "every put was flushed and cleaned up, none may stay pending");
  }

  /**
   * The same property for dead spans anywhere: the span workload (expiry-shaped runs deleted from random points,
   * scattered deletes, creates into dead keys, flushes, listings from random markers, under prefixes, paging to the
   * end) with every seek and every listing step learning, so spans are learned from markers and from steps, merged,
   * used from inside listings and retired by creates.
   */
  @ParameterizedTest
  @ValueSource(longs = {21, 22})
  void spanListingsAreStockListings(long seed) throws Exception {
    Path work = Path.of("target/om-jvm/skip-span-list-" + seed);
    List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, args(seed, SPANS));
    List<String> patched = OmJvm.patched().run(SkipHintListCases.class, work, 300, args(seed, SPANS));
    assertEquals(List.of(), differing(stock, patched), "seed " + seed);
    assertTrue(stock.size() > STEPS / 4, "few listings: " + stock.size());
    assertTrue(stock.stream().filter(l -> l.contains(" all -> ") && l.contains("| ")).count() > 100,
        "few listings that paged");
    Matcher m = COUNTERS.matcher(patched.get(patched.size() - 1));
    assertTrue(m.matches(), patched.get(patched.size() - 1));
    System.out.println("seed " + seed + ": " + patched.get(patched.size() - 1));
    assertTrue(Long.parseLong(m.group(1)) > 1000, "spans used only " + m.group(1) + " times");
    assertTrue(Long.parseLong(m.group(2)) > 1000, "spans learned only " + m.group(2) + " times");
    assertTrue(Long.parseLong(m.group(4)) > 100, "spans retired only " + m.group(4) + " times");
    assertTrue(Long.parseLong(m.group(6)) > 100, "spans merged only " + m.group(6) + " times");
    assertEquals(0, Long.parseLong(m.group(5)), "every put was flushed and cleaned up, none may stay pending");
  }

  /**
   * The span workload with the default learn threshold (spans learned from slow seeks and steps only, as an OM
   * learns them): what is learned then depends on timing, and every listing must still be stock's.
   */
  @Test
  void spanListingsWithTheDefaultThresholdAreStockListings() throws Exception {
    Path work = Path.of("target/om-jvm/skip-span-list-default");
    String[] spansDefault = {"workload=spans"};
    List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, args(24, spansDefault));
    List<String> patched = OmJvm.patched().run(SkipHintListCases.class, work, 300, args(24, spansDefault));
    assertEquals(List.of(), differing(stock, patched), "seed 24");
    System.out.println("seed 24, default threshold: " + patched.get(patched.size() - 1));
  }

  /**
   * The span comparison can tell a broken protocol: without retire, a create into a span learned from a marker or
   * a step stays hidden, and seed 21 lists differently from stock.
   */
  @Test
  void withoutRetireTheSpanWorkloadListsDifferentlyFromStock() throws Exception {
    String[] args = args(21, SPANS);
    Path work = Path.of("target/om-jvm/skip-span-list-vs-mutant");
    List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, args);
    SkipHintsMutant withoutRetire = SkipHintsMutant.compile("retire-span-property", SkipHintsMutant.RETIRE_FROM,
        SkipHintsMutant.RETIRE_TO);
    List<String> mutantDiffers = differing(stock,
        withoutRetire.jvm().run(SkipHintListCases.class, withoutRetire.work(), 300, args));
    System.out.println("span workload, seed 21, without retire: " + mutantDiffers.size() + " listings differ"
        + (mutantDiffers.isEmpty() ? "" : "; first:\n" + mutantDiffers.get(0)));
    assertFalse(mutantDiffers.isEmpty(), "without retire every span listing is still stock's");
  }

  /**
   * The cache hooks carry no part of the safety argument (a listing reads the table cache apart from RocksDB, and
   * the batch that commits a cached put announces it again): with {@code TypedTable}'s announce of a cache entry and
   * its settle at clean-up taken out of a compiled copy, both workloads, whose listings run between a request's
   * apply and its flush, still list exactly as stock does, and the race scenarios all pass.
   */
  @Test
  void withoutTheCacheHooksListingsAreStillStock() throws Exception {
    SkipHintsMutant noCacheHooks = SkipHintsMutant.compileAll("no-cache-hooks",
        List.of(SkipHintsMutant.GENERATED.resolve("TypedTable.java")), List.of(
            "hints.announceCached(encodeKey(cacheKey.getCacheKey()), cacheValue.getEpoch());",
            "encodeKey(cacheKey.getCacheKey());",
            "      hints.cacheCleaned(epochs);\n", ""));
    for (String[] args : List.of(args(11), args(21, SPANS))) {
      Path work = Path.of("target/om-jvm/skip-hint-no-cache-hooks-" + args[0]);
      List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, args);
      List<String> copy = noCacheHooks.jvm().run(SkipHintListCases.class, noCacheHooks.work(), 300, args);
      assertEquals(List.of(), differing(stock, copy), "seed " + args[0] + " without the cache hooks");
      System.out.println("seed " + args[0] + " without the cache hooks: " + copy.get(copy.size() - 1));
    }
    List<String> races = noCacheHooks.jvm().run(SkipHintRaces.class, noCacheHooks.work(), 300);
    assertEquals(SkipHintRaces.SCENARIOS.size(), races.size(), String.join("\n", races));
    assertTrue(races.stream().allMatch(l -> l.startsWith("ok ")), String.join("\n", races));
  }

  private static String[] args(long seed, String... settings) {
    List<String> a = new ArrayList<>(List.of(String.valueOf(seed), String.valueOf(STEPS)));
    a.addAll(List.of(settings));
    return a.toArray(new String[0]);
  }

  /**
   * The comparison can tell a broken protocol: with retire taken out of {@code SkipHints} (a put into a hinted span
   * leaves the hint in place), seed 11's workload lists differently from stock at least once, while the real class
   * lists as stock does on every line.
   */
  @Test
  void withoutRetireTheWorkloadListsDifferentlyFromStock() throws Exception {
    long seed = 11;
    Path work = Path.of("target/om-jvm/skip-hint-list-vs-mutant-" + seed);
    String[] args = {String.valueOf(seed), String.valueOf(STEPS)};
    List<String> stock = OmJvm.stock().run(SkipHintListCases.class, work, 300, args);
    List<String> patched = OmJvm.patched().run(SkipHintListCases.class, work, 300, args);
    SkipHintsMutant withoutRetire = SkipHintsMutant.compile("retire-property", SkipHintsMutant.RETIRE_FROM,
        SkipHintsMutant.RETIRE_TO);
    List<String> mutant = withoutRetire.jvm().run(SkipHintListCases.class, withoutRetire.work(), 300, args);

    List<String> patchedDiffers = differing(stock, patched);
    List<String> mutantDiffers = differing(stock, mutant);
    System.out.println("seed " + seed + ": " + stock.size() + " stock lines; the patched class differs on "
        + patchedDiffers.size() + ", the one without retire on " + mutantDiffers.size()
        + (mutantDiffers.isEmpty() ? "" : "; first:\n" + mutantDiffers.get(0)));
    assertEquals(List.of(), patchedDiffers, "the patched class lists differently from stock");
    assertFalse(mutantDiffers.isEmpty(), "without retire every listing of seed " + seed
        + " is still stock's: the workload cannot tell a hint left over a new key");
  }

  /** The compared lines (all but the patched run's last, its counters) on which {@code other} is not stock. */
  private static List<String> differing(List<String> stock, List<String> other) {
    assertEquals(stock.size() + 1, other.size(), "a patched run has one more line, its hint counters");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < stock.size(); i++) {
      if (!stock.get(i).equals(other.get(i))) {
        lines.add("stock:   " + stock.get(i) + "\nmutated: " + other.get(i));
      }
    }
    return lines;
  }
}
