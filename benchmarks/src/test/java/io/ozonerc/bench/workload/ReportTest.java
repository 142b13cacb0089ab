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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The report's judgement on hand-made runs: no verdict for a policy that did no work, verdicts with the measured
 * ratio otherwise, medians and spreads over repeats.
 */
class ReportTest {

  /** A run whose lists all took {@code listMicros}, writes {@code writeMicros}, with the given work and seeks. */
  private static RunResult run(String policy, long listMicros, long writeMicros, long compactions,
      long compactWriteBytes, double seekAvgMicros) {
    return run(policy, listMicros, writeMicros, compactions, compactWriteBytes, seekAvgMicros,
        compactions > 0 ? 1000 : 0);
  }

  private static RunResult run(String policy, long listMicros, long writeMicros, long compactions,
      long compactWriteBytes, double seekAvgMicros, long tombstonesRemoved) {
    return run(policy, listMicros, writeMicros, compactions, compactWriteBytes, seekAvgMicros, tombstonesRemoved,
        100);
  }

  private static RunResult run(String policy, long listMicros, long writeMicros, long compactions,
      long compactWriteBytes, double seekAvgMicros, long tombstonesRemoved, long seeks) {
    Histogram list = new Histogram(3_600_000_000_000L, 3);
    Histogram create = new Histogram(3_600_000_000_000L, 3);
    Histogram delete = new Histogram(3_600_000_000_000L, 3);
    for (int i = 0; i < 100; i++) {
      list.recordValue(listMicros * 1000);
      if (!policy.equals("ideal")) {
        create.recordValue(writeMicros * 1000);
        delete.recordValue(writeMicros * 1000);
      }
    }
    return new RunResult(policy, null, list, create, delete, 1000, 1_000_000_000L, 100L * 50_000, 0,
        compactWriteBytes, 0, compactions, 0, new BenchStore.TableFacts(0, 0, 0, 0, 0), 0, 10, 10, "rounds 3",
        List.of(), new RunResult.Seeks(seeks, seekAvgMicros, seekAvgMicros * 2, 0), 0, compactWriteBytes,
        tombstonesRemoved, 0);
  }

  private static Report report(Report.Targets targets, long writeBuffer, RunResult... runs) {
    Map<String, List<RunResult>> byPolicy = new LinkedHashMap<>();
    for (RunResult r : runs) {
      byPolicy.computeIfAbsent(r.policy(), k -> new ArrayList<>()).add(r);
    }
    return new Report("t", "s", 1000, targets, writeBuffer, byPolicy);
  }

  /**
   * With ideal-loaded run, the targets are judged against it (16 / 12 = 1.33x, MET at 1.5x) and the ratio to ideal
   * idle (16 / 10 = 1.60x, which would miss) is printed beside; without it, against ideal as before.
   */
  @Test
  void targetsAreJudgedAgainstTheLoadedFloorWithTheIdleRatioBeside() {
    RunResult none = run("none", 70_000, 50, 0, 1 << 20, 5000);
    RunResult range = run("range", 16_000, 50, 5, 1 << 20, 900);
    RunResult ideal = run("ideal", 10_000, 0, 0, 0, 20);
    RunResult loaded = run(WorkloadRunner.IDEAL_LOADED, 12_000, 50, 0, 0, 20);
    Report both = report(Report.Targets.QUEUE, 4 << 20, none, range, ideal, loaded);
    assertEquals(WorkloadRunner.IDEAL_LOADED, both.floor());
    String targets = both.targets();
    assertTrue(targets.contains("- MET    range list p99 = 1.33x ideal-under-load (1.60x ideal idle) (target <= "
        + "1.5x)"), targets);
    assertTrue(targets.contains("the most any policy can gain here is none/ideal-under-load = 5.8x"), targets);
    String alone = report(Report.Targets.QUEUE, 4 << 20, none, range, ideal).targets();
    assertTrue(alone.contains("- MISSED range list p99 = 1.60x ideal (target <= 1.5x)"), alone);
    assertTrue(both.tables().contains("| range | 0.228x | 1.33x (1.60x ideal idle) |"), both.tables());
  }

  @Test
  void aPolicyThatCompactedNothingGetsNoVerdict() {
    // range's lists happen to look 1.4x ideal and 5x better than none: run-order noise, since it did nothing.
    String targets = report(Report.Targets.QUEUE, 4 << 20,
        run("none", 70_000, 50, 0, 1 << 20, 5000), run("range", 14_000, 50, 0, 1 << 20, 900),
        run("ideal", 10_000, 0, 0, 0, 20)).targets();
    assertTrue(targets.startsWith("- NO VERDICT: range compacted nothing (no compaction, or none that removed a "
        + "tombstone or took 1 ms, and no memtable flush) in 1 of 1 run(s)"), targets);
    assertFalse(targets.contains("MET") || targets.contains("MISSED"), targets);
  }

  /** Compactions that removed no tombstone by the service's count and took no measurable time are no work. */
  @Test
  void compactionsThatRemovedNoTombstoneGetNoVerdict() {
    RunResult noOp = run("range", 14_000, 50, 19, 1 << 20, 900, 0);
    String targets = report(Report.Targets.QUEUE, 4 << 20, run("none", 70_000, 50, 0, 1 << 20, 5000), noOp)
        .targets();
    assertTrue(targets.startsWith("- NO VERDICT: range compacted nothing"), targets);
  }

  /** A service that only flushed memtables (its deletes qualified, no range or head did) did work: it is judged. */
  @Test
  void memtableFlushesAloneAreWorkThatIsJudged() {
    RunResult r = run("range", 14_000, 50, 0, 1 << 20, 900);
    RunResult flushedOnly = new RunResult(r.policy(), r.unavailable(), r.list(), r.create(), r.delete(), r.ops(),
        r.wallNanos(), r.iterSkips(), r.compactReadBytes(), r.compactWriteBytes(), r.flushWriteBytes(),
        r.manualCompactions(), r.manualCompactionNanos(), r.keyTableEnd(), r.allSstBytesEnd(), r.liveKeysExpected(),
        r.liveKeysFound(), r.detail(), r.series(), r.seeks(), r.stallMicros(), r.policyCompactedBytes(),
        r.policyTombstonesRemoved(), 8);
    String targets = report(Report.Targets.QUEUE, 4 << 20, run("none", 70_000, 50, 0, 1 << 20, 5000),
        flushedOnly, run("ideal", 10_000, 0, 0, 0, 20)).targets();
    assertFalse(targets.contains("NO VERDICT"), targets);
    assertTrue(targets.contains("range list p99 = 1.40x ideal"), targets);
  }

  @Test
  void aPolicyIdleInOneRepeatOfThreeGetsNoVerdictEither() {
    List<RunResult> runs = new ArrayList<>();
    for (long compactions : new long[] {4, 0, 3}) {
      runs.add(run("none", 70_000, 50, 0, 1 << 20, 5000));
      runs.add(run("range", 12_000, 50, compactions, 1 << 20, 30));
    }
    String targets = report(Report.Targets.QUEUE, 4 << 20, runs.toArray(new RunResult[0])).targets();
    assertTrue(targets.contains("and no memtable flush) in 1 of 3 run(s)"), targets);
  }

  @Test
  void aWorkingPolicyIsJudgedWithItsMeasuredRatios() {
    String targets = report(Report.Targets.QUEUE, 4 << 20,
        run("none", 70_000, 50, 0, 10 << 20, 5000), run("full", 8_000, 60, 7, 200 << 20, 20),
        run("reference", 40_000, 50, 2, 30 << 20, 2000), run("range", 12_000, 52, 5, 12 << 20, 30),
        run("ideal", 10_000, 0, 0, 0, 20)).targets();
    assertTrue(targets.contains("- MET    range list p99 = 1.20x ideal (target <= 1.5x)"), targets);
    assertTrue(targets.contains("- MET    range list p99 5.8x better than none"), targets);
    // none wrote 10 MB through automatic compactions alone: 0.050x full's 200 MB, 0.333x reference's 30 MB.
    assertTrue(targets.contains("- MET    range compaction bytes written = 0.060x full (RocksDB's compact.write.bytes "
        + "over the run, automatic compactions included; target <= 0.10x; none's automatic compactions alone write "
        + "0.050x full here)\n"), targets);
    assertTrue(targets.contains("- MET    range compaction bytes written = 0.400x reference (target <= 1.00x; none's "
        + "automatic compactions alone write 0.333x reference here)\n"), targets);
    assertTrue(targets.contains("- MET    range create p99 = 1.04x none"), targets);
    assertTrue(targets.contains("- MET    range write stalls (rocksdb.stall.micros) = 0.0 ms"), targets);
    assertTrue(targets.contains("range DB seek average 166.7x better than none"), targets);
    assertFalse(targets.contains("own head probes"), "range counted as many seeks as none: " + targets);
    String withOmMemtable = report(Report.Targets.QUEUE, 128L << 20,
        run("none", 70_000, 50, 0, 10 << 20, 5000), run("range", 18_000, 50, 5, 1 << 20, 30),
        run("ideal", 10_000, 0, 0, 0, 20)).targets();
    assertTrue(withOmMemtable.contains("- MET    range list p99 = 1.80x ideal (target <= 2.0x, with the OM's "
        + "128 MB memtable)"), withOmMemtable);
  }

  /**
   * range's probes are seeks too: 100 list seeks of 5,000 us under none; under range the same lists at 2,000 us
   * plus 150 probes at 100 us average 860 us, a 5.8x better average, yet 215 ms of seeking against none's 500 ms
   * is only 2.33x less. Both are printed.
   */
  @Test
  void rangesOwnProbeSeeksAreCountedAndChargedToIt() {
    double rangeAvg = (100 * 2_000 + 150 * 100) / 250.0;
    Report report = report(Report.Targets.QUEUE, 4 << 20,
        run("none", 70_000, 50, 0, 10 << 20, 5_000, 0, 100),
        run("range", 12_000, 52, 5, 12 << 20, rangeAvg, 1000, 250));
    String targets = report.targets();
    assertTrue(report.tables().lines().anyMatch(l -> l.startsWith("| range | ") && l.contains(" | 5.81x | 2.33x | ")),
        "both seek gains in range's ratio row: " + report.tables());
    assertTrue(targets.contains("- INFO   range DB seek average 5.8x better than none (5000 -> 860 us)"), targets);
    assertTrue(targets.contains("- INFO   of range's 250 seeks counted, 150 more than none's 100 are its own head "
        + "probes (their skips count in skips/list too); all seeks together took 2.33x less time than none's "
        + "(below 1: more)"), targets);
  }

  /**
   * The floor note on the byte targets: the verdict stays range / full against 0.10x even where none's automatic
   * compactions alone already write more; the note is none / base, median and spread over repeats, and is left out
   * when none did not run.
   */
  @Test
  void byteTargetsNoteWhatNonesAutomaticCompactionsAloneWrite() {
    List<RunResult> runs = new ArrayList<>();
    for (long noneMb : new long[] {30, 40, 50}) {
      runs.add(run("none", 70_000, 50, 0, noneMb << 20, 5000));
      runs.add(run("full", 8_000, 60, 7, 100 << 20, 20));
      runs.add(run("reference", 40_000, 50, 2, 80 << 20, 2000));
      runs.add(run("range", 12_000, 52, 5, 60 << 20, 30));
    }
    String targets = report(Report.Targets.QUEUE, 4 << 20, runs.toArray(new RunResult[0])).targets();
    assertTrue(targets.contains("- MISSED range compaction bytes written = 0.600 [0.600..0.600]x full (RocksDB's "
        + "compact.write.bytes over the run, automatic compactions included; target <= 0.10x; none's automatic "
        + "compactions alone write 0.400 [0.300..0.500]x full here)\n"), targets);
    assertTrue(targets.contains("- MET    range compaction bytes written = 0.750 [0.750..0.750]x reference (target "
        + "<= 1.00x; none's automatic compactions alone write 0.500 [0.375..0.625]x reference here)\n"), targets);
    String withoutNone = report(Report.Targets.QUEUE, 4 << 20,
        run("full", 8_000, 60, 7, 100 << 20, 20), run("reference", 40_000, 50, 2, 80 << 20, 2000),
        run("range", 12_000, 52, 5, 60 << 20, 30)).targets();
    assertTrue(withoutNone.contains("automatic compactions included; target <= 0.10x)\n"), withoutNone);
    assertTrue(withoutNone.contains("= 0.750x reference (target <= 1.00x)\n"), withoutNone);
    assertFalse(withoutNone.contains("none's automatic compactions"), withoutNone);
  }

  @Test
  void randomChurnJudgesNoHarmEvenWhenRangeStaysIdle() {
    String targets = report(Report.Targets.RANDOM_CHURN, 4 << 20,
        run("none", 3_000, 50, 0, 10 << 20, 40), run("range", 3_600, 50, 0, 10 << 20, 40)).targets();
    assertTrue(targets.contains("range removed nothing: expected here"), targets);
    assertTrue(targets.contains("- MISSED range list p99 = 1.20x none"), targets);
    assertTrue(targets.contains("- MET    range create p99 = 1.00x none"), targets);
  }

  /** {@code r} as a run on the patched classes whose keyTable hints made {@code used} seeks jump. */
  private static RunResult hinted(RunResult r, long used) {
    return new RunResult(r.policy(), r.unavailable(), r.list(), r.create(), r.delete(), r.ops(), r.wallNanos(),
        r.iterSkips(), r.compactReadBytes(), r.compactWriteBytes(), r.flushWriteBytes(), r.manualCompactions(),
        r.manualCompactionNanos(), r.keyTableEnd(), r.allSstBytesEnd(), r.liveKeysExpected(), r.liveKeysFound(),
        r.detail(), r.series(), r.seeks(), r.stallMicros(), r.policyCompactedBytes(),
        r.policy().equals("hints") ? -1 : r.policyTombstonesRemoved(), // hints alone counts no removals
        r.policyFlushes(), r.policyHeadEntriesRemoved(), new RunResult.Hints(used, used / 2, 1, 2, 0, 1),
        "/src/ozone-om-patched/target/classes");
  }

  /** The product's five queue targets with their formulas, hints alone and range alone beside each, and a verdict. */
  @Test
  void theProductIsJudgedWithHintsAndRangeAloneBesideIt() {
    RunResult[] runs = {run("none", 70_000, 50, 0, 10 << 20, 5000), run("full", 8_000, 60, 7, 210 << 20, 20),
        run("range", 60_000, 52, 5, 12 << 20, 3000), hinted(run("hints", 13_000, 51, 0, 10 << 20, 30), 500),
        hinted(run("range+hints", 12_000, 52, 5, 20 << 20, 30), 400), run("ideal", 10_000, 0, 0, 0, 20)};
    String targets = report(Report.Targets.QUEUE, 4 << 20, runs).productTargets();
    assertTrue(targets.contains("- MET    range+hints list p99 = 1.20x ideal (target <= 1.3x); hints alone 1.30x, "
        + "range alone 6.00x\n"), targets);
    // (70 - 12) / (70 - 10) = 0.97; hints (70 - 13) / 60 = 0.95; range (70 - 60) / 60 = 0.17.
    assertTrue(targets.contains("- MET    range+hints closes 0.97 of none's list p99 gap to ideal, (none - "
        + "range+hints) / (none - ideal) (target >= 0.8); hints alone 0.95, range alone 0.17\n"), targets);
    // (20 - 10) / (210 - 10) MB = 0.050; hints wrote none's bytes, range 2 MB more.
    assertTrue(targets.contains("- MET    range+hints manual compaction cost = 0.050 of full's, (range+hints - none) / "
        + "(full - none) compaction bytes written (target <= 0.1); hints alone 0.000, range alone 0.010\n"), targets);
    assertTrue(targets.contains("- MET    range+hints create p99 = 1.04x none (target <= 1.05x); hints alone 1.02x, "
        + "range alone 1.04x\n"), targets);
    assertTrue(targets.endsWith("- VERDICT on the product, range+hints: MET (5 of 5 targets met)"), targets);

    // Slower writes and a list at 1.4x ideal: missed at the benchmark's 4 MB memtable, met from 128 MB on.
    RunResult slow = hinted(run("range+hints", 14_000, 55, 5, 20 << 20, 30), 400);
    String at4mb = report(Report.Targets.QUEUE, 4 << 20, runs[0], runs[5], slow).productTargets();
    assertTrue(at4mb.contains("- MISSED range+hints list p99 = 1.40x ideal (target <= 1.3x); hints alone n/a (not "
        + "run), range alone n/a (not run)"), at4mb);
    assertTrue(at4mb.contains("- range+hints manual compaction cost: n/a (none or full not run"), at4mb);
    assertTrue(at4mb.endsWith("- VERDICT on the product, range+hints: MISSED (1 of 4 targets met; missed: list p99 vs "
        + "ideal, create p99, delete p99; 1 n/a)"), at4mb);
    String alone = report(Report.Targets.QUEUE, 4 << 20, slow).productTargets();
    assertTrue(alone.endsWith("- NO VERDICT on the product, range+hints: no target could be judged (5 n/a: run none, "
        + "ideal and full beside it)"), alone);
    assertFalse(alone.contains("VERDICT on the product, range+hints: MET"), alone);
    String at128mb = report(Report.Targets.QUEUE, 128L << 20, runs[0], runs[5], slow).productTargets();
    assertTrue(at128mb.contains("- MET    range+hints list p99 = 1.40x ideal (target <= 1.5x, with a memtable of 128 "
        + "MB or more)"), at128mb);
  }

  /** A product that neither compacted nor jumped a seek is not judged; the hints' jumps alone are work. */
  @Test
  void theProductGetsNoVerdictWhenNeitherPartDidAnything() {
    RunResult none = run("none", 70_000, 50, 0, 10 << 20, 5000);
    RunResult ideal = run("ideal", 10_000, 0, 0, 0, 20);
    String idle = report(Report.Targets.QUEUE, 4 << 20, none, hinted(run("range+hints", 12_000, 50, 0, 10 << 20, 30),
        0), ideal).productTargets();
    assertTrue(idle.startsWith("- NO VERDICT: range+hints did nothing"), idle);
    assertFalse(idle.contains("MET") || idle.contains("MISSED"), idle);
    String jumped = report(Report.Targets.QUEUE, 4 << 20, none, hinted(run("range+hints", 12_000, 50, 0, 10 << 20,
        30), 7), ideal).productTargets();
    assertTrue(jumped.contains("- MET    range+hints list p99 = 1.20x ideal"), jumped);
    assertTrue(report(Report.Targets.QUEUE, 4 << 20, none, ideal).productTargets()
        .equals("- product targets: n/a (range+hints not run)"));
  }

  /** {@code r} with an expiry phase whose 100 listings took {@code listMicros} each and skipped {@code skips}. */
  private static RunResult withExpiry(RunResult r, long listMicros, long skips) {
    Histogram list = new Histogram(3_600_000_000_000L, 3);
    for (int i = 0; i < 100; i++) {
      list.recordValue(listMicros * 1000);
    }
    Histogram batch = new Histogram(3_600_000_000_000L, 3);
    batch.recordValue(5_000_000);
    return new RunResult(r.policy(), r.unavailable(), r.list(), r.create(), r.delete(), r.ops(), r.wallNanos(),
        r.iterSkips() + skips, r.compactReadBytes(), r.compactWriteBytes(), r.flushWriteBytes(),
        r.manualCompactions(), r.manualCompactionNanos(), r.keyTableEnd(), r.allSstBytesEnd(), r.liveKeysExpected(),
        r.liveKeysFound(), r.detail(), r.series(), r.seeks(), r.stallMicros(), r.policyCompactedBytes(),
        r.policyTombstonesRemoved(), r.policyFlushes(), r.policyHeadEntriesRemoved(), r.hints(), r.omClassesFrom(),
        new RunResult.Expiry(list, skips, 9_900, 10, batch));
  }

  /**
   * The expiry listings get their own table and a product target computed from the measured p99s: (none - product)
   * / (none - ideal), with hints alone and range alone beside it; the queue's skips per list leave them out.
   */
  @Test
  void theExpiryListingsAreReportedApartAndJudgedOnTheProduct() {
    RunResult none = withExpiry(run("none", 70_000, 50, 0, 10 << 20, 5000), 100_000, 100 * 40_000L);
    RunResult range = withExpiry(run("range", 60_000, 52, 5, 12 << 20, 3000), 20_000, 100 * 1_000L);
    RunResult hints = withExpiry(hinted(run("hints", 13_000, 51, 0, 10 << 20, 30), 500), 98_000, 100 * 39_000L);
    RunResult ideal = withExpiry(run("ideal", 10_000, 0, 0, 0, 20), 10_000, 0);
    RunResult good = withExpiry(hinted(run("range+hints", 12_000, 52, 5, 20 << 20, 30), 400), 14_000, 100 * 900L);
    RunResult full = run("full", 8_000, 60, 7, 210 << 20, 20); // no expiry phase: left out of the expiry table
    String targets = report(Report.Targets.QUEUE, 4 << 20, none, full, range, hints, good, ideal).productTargets();
    // 14 / 10 = 1.40x ideal; (100 - 14) / (100 - 10) = 0.96; hints (100 - 98) / 90 = 0.02; range (100 - 20) / 90.
    assertTrue(targets.contains("- MET    range+hints expiry list p99 = 1.40x ideal (target <= 1.5x); hints alone "
        + "9.80x, range alone 2.00x\n"), targets);
    assertTrue(targets.contains("- MET    range+hints closes 0.96 of none's expiry list p99 gap to ideal, (none - "
        + "range+hints) / (none - ideal) on the expiry bucket's listings (target >= 0.9; expiry list p99 range+hints "
        + "14.00 ms, hints 98.04 ms, range 20.00 ms, none 100.01 ms, ideal 10.00 ms); hints alone 0.02, range alone "
        + "0.89\n"), targets);
    assertTrue(targets.endsWith("- VERDICT on the product, range+hints: MET (7 of 7 targets met)"), targets);
    RunResult slow = withExpiry(hinted(run("range+hints", 12_000, 52, 5, 20 << 20, 30), 400), 40_000, 100 * 30_000L);
    String missed = report(Report.Targets.QUEUE, 4 << 20, none, full, range, hints, slow, ideal).productTargets();
    assertTrue(missed.contains("- MISSED range+hints closes 0.67 of none's expiry list p99 gap to ideal"), missed);
    assertTrue(missed.endsWith("MISSED (5 of 7 targets met; missed: expiry list p99 vs ideal, expiry list p99 gap "
        + "to ideal closed)"), missed);

    Report report = report(Report.Targets.QUEUE, 4 << 20, none, full, range, hints, good, ideal);
    String table = report.expiryTable();
    assertFalse(table.contains("| full |"), table);
    assertTrue(table.contains("| none | 100 | 100.01 | 100.01 | 99.98 | 40,000 | 9,900 | 5.00 | 1.00x | 10.0x |"),
        table);
    assertTrue(table.contains("| ideal | 100 | 10.00 | 10.00 | 10.00 | 0 | 9,900 | 5.00 | 0.100x | 1.00x |"), table);
    assertTrue(report.tables().contains(table), "the expiry table is part of the report");
    // The queue's skips per list are the run's skips less the expiry listings': 100 x 50,000 over 100 lists.
    assertEquals(50_000, none.skipsPerList(), 0.001);
    assertEquals(40_000, none.expiry().skipsPerList(), 0.001);
    assertFalse(report(Report.Targets.QUEUE, 4 << 20, run("none", 70_000, 50, 0, 0, 1)).hasExpiry());
  }

  /**
   * A store of 6 million cold keys or more is judged on its own targets: the product's list p99 within 1.5x the
   * floor, expiry p99 within 2x and mean within 1.3x, and range alone on none's expiry mean and p99 gaps. The same
   * runs judged as the default store miss the tighter p99 targets.
   */
  @Test
  void aLargeStoreIsJudgedOnItsOwnTargets() {
    RunResult none = withExpiry(run("none", 70_000, 50, 0, 10 << 20, 5000), 100_000, 100 * 40_000L);
    RunResult range = withExpiry(run("range", 60_000, 52, 5, 12 << 20, 3000), 20_000, 100 * 1_000L);
    RunResult ideal = withExpiry(run("ideal", 10_000, 0, 0, 0, 20), 10_000, 0);
    RunResult product = withExpiry(hinted(run("range+hints", 14_000, 52, 5, 20 << 20, 30), 400), 18_000, 100 * 900L);
    assertEquals(Report.Targets.QUEUE, Report.Targets.queue(5_999_999));
    assertEquals(Report.Targets.LARGE_QUEUE, Report.Targets.queue(6_000_000));

    Report large = report(Report.Targets.LARGE_QUEUE, 4 << 20, none, range, product, ideal);
    String p = large.productTargets();
    assertTrue(p.contains("- MET    range+hints list p99 = 1.40x ideal (target <= 1.5x)"), p);
    assertTrue(p.contains("- MET    range+hints expiry list p99 = 1.80x ideal (target <= 2.0x)"), p);
    assertTrue(p.contains("- MISSED range+hints expiry list mean = 1.80x ideal (target <= 1.3x)"), p);
    String r = large.targets();
    assertTrue(r.contains("- MET    range closes 0.89 of none's expiry list mean gap to ideal, (none - range) / "
        + "(none - ideal) (target >= 0.8, on a store of 6 million cold keys or more)"), r);
    assertTrue(r.contains("- MET    range closes 0.89 of none's expiry list p99 gap to ideal"), r);

    Report small = report(Report.Targets.QUEUE, 4 << 20, none, range, product, ideal);
    assertTrue(small.productTargets().contains("- MISSED range+hints list p99 = 1.40x ideal (target <= 1.3x)"),
        small.productTargets());
    assertTrue(small.productTargets().contains("- MISSED range+hints expiry list p99 = 1.80x ideal (target <= 1.5x)"),
        small.productTargets());
    assertFalse(small.productTargets().contains("expiry list mean"), small.productTargets());
    assertFalse(small.targets().contains("expiry list mean gap"), small.targets());
  }

  /** Random churn: no worse than none on every line, within the tolerance range's lines use, judged even when idle. */
  @Test
  void randomChurnJudgesTheProductNoWorseThanNone() {
    String targets = report(Report.Targets.RANDOM_CHURN, 4 << 20,
        run("none", 3_000, 50, 0, 10 << 20, 40), run("range", 3_100, 50, 0, 10 << 20, 40),
        hinted(run("hints", 3_000, 50, 0, 10 << 20, 40), 0),
        hinted(run("range+hints", 3_450, 50, 0, 10 << 20, 40), 0)).productTargets();
    assertTrue(targets.startsWith("- Random churn: range+hints must be no worse than none on any line (target: each "
        + "ratio <= 1.1x none, the tolerance of range's lines above"), targets);
    assertTrue(targets.contains("did nothing: no compaction, no flush, no seek that jumped; expected here"), targets);
    assertTrue(targets.contains("  - MISSED range+hints list p99 = 1.15x none; hints alone 1.00x, range alone 1.03x"),
        targets);
    assertTrue(targets.contains("  - MET    range+hints compaction bytes written = 1.00x none"), targets);
    assertTrue(targets.contains("  - MET    range+hints write stalls = 0.0 ms, none 0.0 ms"), targets);
    assertTrue(targets.endsWith("- VERDICT on the product, range+hints (no worse than none, within 1.1x): MISSED (5 "
        + "of 7 targets met; missed: list p99, list mean)"), targets);
  }

  /** One line per policy on what it did, with where its OM classes came from. */
  @Test
  void eachPolicyGetsOneLineOnWhatItDid() {
    // none counts no removals (-1), as Policy.None; range's service counts them.
    String did = report(Report.Targets.QUEUE, 4 << 20, run("none", 70_000, 50, 0, 10 << 20, 5000, -1),
        run("range", 60_000, 52, 5, 12 << 20, 3000), hinted(run("hints", 13_000, 51, 0, 10 << 20, 30), 500),
        run("ideal", 10_000, 0, 0, 0, 20)).whatEachDid();
    List<String> lines = did.lines().toList();
    assertEquals(4, lines.size(), did);
    assertTrue(lines.get(0).startsWith("- none: nothing: RocksDB's automatic compactions only, 10.0 MB written by all "
        + "compactions [OM classes: "), did);
    assertTrue(lines.get(1).startsWith("- range: 5 manual compaction(s) (0.0 s), 0 memtable flush(es), 1,000 "
        + "tombstones removed by its own count; 12.0 MB written by all compactions (+2.0 MB vs none); "), did);
    assertTrue(lines.get(2).startsWith("- hints: no compaction; 10.0 MB written by all compactions (+0.0 MB vs none); "
        + "0 tombstones left; skip hints: 500 seeks jumped, 250 hints learned, 2 retired, 1 refused, 0 evicted "
        + "(keyTable) [OM classes: /src/ozone-om-patched/target/classes]"), did);
    assertTrue(lines.get(3).startsWith("- ideal: after the fact: "), did);
  }

  @Test
  void repeatsShowMedianAndSpread() {
    Report r = report(Report.Targets.QUEUE, 4 << 20,
        run("none", 60_000, 50, 0, 0, 1), run("range", 10_000, 50, 1, 0, 1),
        run("none", 80_000, 50, 0, 0, 1), run("range", 10_000, 50, 1, 0, 1),
        run("none", 70_000, 50, 0, 0, 1), run("range", 10_000, 50, 1, 0, 1));
    Report.Stat gain = r.ratio("none", "range", Report::p99);
    assertEquals(7.0, gain.median(), 0.05);
    assertEquals("7.0 [6.0..8.0]", gain.format("%.1f"));
    assertTrue(r.tables().contains("Median over 3 runs per policy"));
  }

  @Test
  void readsTheDbSeekHistogramFromRocksDbStatistics() {
    String stats = "rocksdb.db.get.micros P50 : 1.0 P95 : 2.0 P99 : 3.0 P100 : 4.0 COUNT : 9 SUM : 12\n"
        + "rocksdb.db.seek.micros P50 : 3.5 P95 : 40.1 P99 : 120.500000 P100 : 900.0 COUNT : 2000 SUM : 64000\n";
    BenchStore.SeekHistogram h = BenchStore.parseSeekHistogram(stats);
    assertEquals(120.5, h.p99Micros());
    assertEquals(2000, h.count());
    assertEquals(32.0, h.averageMicros());
  }

  @Test
  void movingAverageSmoothsOverTheLastValues() {
    assertArrayEquals(new double[] {2, 3, 5, 7}, ReportCharts.movingAverage(new double[] {2, 4, 6, 8}, 2));
  }
}
