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

import static io.ozonerc.bench.workload.TombstoneBenchmark.ALL_POLICIES;
import static io.ozonerc.bench.workload.TombstoneBenchmark.HINT_POLICIES;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * One comparison of {@link TombstoneBenchmark}, run as its {@link Plan} says: every policy on its own copy of the
 * store with the same sequence, the hint policies each in a child JVM on the patched classes ({@link ChildRun}), and
 * the {@link Report} of it all. Also the child's side: its one run. The command's options are read from it as given.
 */
final class Comparison {
  private final TombstoneBenchmark bench;
  private final PrintStream stdout;
  private final PrintStream stderr;

  Comparison(TombstoneBenchmark bench) {
    this.bench = bench;
    this.stdout = bench.stdout;
    this.stderr = bench.stderr;
  }

  /**
   * Runs {@code p}: the sequence, the cold data and a warm-up, then every policy, repeats in rotated order, each
   * run's summary line as it ends; prints the tables and writes the report into {@code outDir}.
   */
  Report run(Plan p, Path outDir) throws Exception {
    long t0 = System.nanoTime();
    Workload w = Workload.generate(p.spec());
    WorkloadSpec s = p.spec();
    stdout.printf(Locale.ROOT, "%s%n%nSequence: %,d ops (%,d creates of which %,d into cold buckets, %,d deletes, %,d "
            + "lists%s), %,d hot keys live at the end, generated in %.1fs.%n", bench.header(p), w.size, w.creates,
        w.coldPuts, w.deletes, w.lists, w.expiryBatches == 0 && w.expiryLists == 0 ? ""
            : String.format(Locale.ROOT, "; expiry: %,d delete batches removing %,d keys, %,d listings of the "
                + "expiry bucket", w.expiryBatches, w.expiredKeys, w.expiryLists),
        w.finalLiveCount(), (System.nanoTime() - t0) / 1e9);
    WorkloadRunner runner = new WorkloadRunner(w, p.runOptions());
    Path workDir = Files.createDirectories(outDir.resolve("db"));
    long warm = warmOps(s);
    int runs = p.policies().size() * bench.repeat;
    long childRuns = p.policies().stream().filter(HINT_POLICIES::contains).count() * bench.repeat;
    stdout.printf(Locale.ROOT, "Runs ahead: %s%s%d policy run(s) (%d x %d repeat(s))%s; the progress line on stderr "
            + "shows an ETA. The default (hot-queue, 300,000 ops, 1.5e6 cold keys) takes about 13 minutes on 2 "
            + "cores.%n", s.hasTemplate() ? "cold load, " : "", warm > 0 ? "warm-up, " : "", runs,
        p.policies().size(), bench.repeat, childRuns == 0 ? "" : ", " + childRuns + " of them in a child JVM on the "
            + "patched classes (each with its own warm-up)");
    ProgressBar bar = new ProgressBar(stderr, runs + (warm > 0 ? 1 : 0) + (s.hasTemplate() ? 1 : 0), !bench.noProgress);
    Path template = null;
    if (s.hasTemplate()) {
      // Loaded once; every run opens its own copy (SST files hard-linked), so all start from one identical store.
      long l0 = System.nanoTime();
      bar.startRun("cold load", s.coldKeys() + s.expiry().keys());
      try (BenchStore store = BenchStore.create(workDir, "cold", s.storeBuckets(), p.writeBufferBytes())) {
        store.loadCold(s, bar::update);
        BenchStore.TableFacts facts = store.keyTableFacts();
        stdout.printf(Locale.ROOT, "Cold data: %,d keys in %d buckets%s, keyTable %s MB in %d SST files, loaded and "
                + "settled in %.1fs (once; each run starts from a copy).%n", s.coldKeys(), s.coldBuckets(),
            s.expiry().on() ? String.format(Locale.ROOT, " and the expiry bucket's %,d", s.expiry().keys()) : "",
            Report.mb(facts.sstBytes()), facts.sstFiles(), (System.nanoTime() - l0) / 1e9);
        template = store.closeKeepingFiles();
      }
      bar.endRun();
    }
    if (warm > 0) {
      warmUp(p, warm, workDir, false, bar::startRun, bar::update);
      bar.endRun();
    }
    Map<String, List<RunResult>> results = new java.util.LinkedHashMap<>();
    p.policies().forEach(name -> results.put(name, new ArrayList<>()));
    for (int r = 0; r < bench.repeat; r++) {
      List<String> order = new ArrayList<>(p.policies());
      java.util.Collections.rotate(order, -r); // each policy takes a different slot in each repeat
      for (String name : order) {
        String label = bench.repeat > 1 ? name + "#" + (r + 1) : name;
        bar.startRun(label, w.size);
        RunResult result;
        if (HINT_POLICIES.contains(name)) {
          // Its own JVM, the patched classes first: this one keeps stock 2.2.0 for the other policies.
          List<String> args = childArgs(p, name, template, workDir, workDir.resolve(name + "-" + (r + 1) + ".run"),
              w.digest(), warm);
          result = ChildRun.run(label, ChildRun.command(bench.patchedClasses, args),
              workDir.resolve(name + "-" + (r + 1) + ".run"), stdout, stderr,
              (phase, n) -> bar.startRun(phase.equals("run") ? label : label + " " + phase, n), bar::update);
          bar.endRun();
          stdout.println(Report.summaryLine(result));
          results.get(name).add(result);
          continue;
        }
        boolean loaded = name.equals(WorkloadRunner.IDEAL_LOADED); // a second store takes the writes
        try (BenchStore store = store(template, workDir, name, p);
             BenchStore load = loaded ? store(template, workDir, name + "-load", p) : null) {
          result = loaded ? runner.runIdealLoaded(store, load, bar::update)
              : name.equals("ideal") ? runner.runIdeal(store, bar::update)
              : runner.run(store, newPolicy(name, p), bar::update);
        }
        bar.endRun();
        stdout.println(Report.summaryLine(result));
        results.get(name).add(result);
        System.gc();
      }
    }
    BenchStore.deleteRecursively(workDir);
    Report report = new Report("Tombstone benchmark", bench.header(p), s.listLength(), p.targets(),
        p.writeBufferBytes(), results);
    stdout.println();
    stdout.println(report.tables());
    report.write(outDir, stdout);
    stdout.printf(Locale.ROOT, "Wall time: %s%n", ProgressBar.clock((System.nanoTime() - t0) / 1e9));
    bench.reports.add(report);
    return report;
  }

  private static BenchStore store(Path template, Path workDir, String name, Plan p) throws java.io.IOException {
    int buckets = p.spec().storeBuckets();
    return template == null ? BenchStore.create(workDir, name, buckets, p.writeBufferBytes())
        : BenchStore.openCopy(template, workDir, name, buckets, p.writeBufferBytes());
  }

  /** Warm-up operations: {@code --warmup-ops}, or min(50,000, ops/4). */
  private long warmOps(WorkloadSpec s) {
    return bench.warmupOps >= 0 ? bench.warmupOps : Math.min(50_000, s.totalOps() / 4);
  }

  /**
   * The warm-up: {@code warm} operations of the same shape with another seed, no cold data, on a throwaway store
   * (skip hints on or off as the runs that follow use them), so the JIT has compiled the hot paths.
   */
  private void warmUp(Plan p, long warm, Path workDir, boolean skipHints, ChildRun.PhaseListener phase,
      java.util.function.LongConsumer progress) throws Exception {
    WorkloadSpec s = p.spec();
    Workload ww = Workload.generate(new WorkloadSpec(warm, s.weights(), s.liveCap(), s.deleteMode(), s.listMode(),
        s.listLength(), s.buckets(), s.skew(), s.keyNames(), s.seed() + 1, s.coldBuckets(), 0,
        s.coldWriteShare()));
    phase.phase("warmup", ww.size);
    try (BenchStore store = BenchStore.create(workDir, "warmup", s.storeBuckets(), p.writeBufferBytes(),
        skipHints)) {
      new WorkloadRunner(ww, p.runOptions()).run(store, new Policy.None("warmup"), progress);
    }
    System.gc();
  }

  /** Parent's options a child does not take over: it gets its own values for them, or does not need them. */
  private static final Set<String> NOT_FOR_CHILD = Set.of("--scale", "--scale-ops", "--policies", "--repeat", "--out",
      "--no-progress", "--ops", "--warmup-ops", "--patched-classes", "--help", "--version");

  /**
   * The command line of the child JVM that runs {@code name}: every option given to this run (as given), the
   * operation count and warm-up of this comparison, and the hidden options naming the policy, the cold-data
   * template (absent without cold data), a work directory, the result file and the sequence's digest.
   */
  List<String> childArgs(Plan p, String name, Path template, Path workDir, Path result, long digest, long warm) {
    List<String> a = new ArrayList<>();
    for (CommandLine.Model.OptionSpec o : bench.spec.commandLine().getParseResult().matchedOptions()) {
      String n = o.longestName();
      if (NOT_FOR_CHILD.contains(n) || o.hidden()) {
        continue;
      }
      if (o.arity().max() == 0) {
        a.add(n);
        continue;
      }
      for (String v : o.originalStringValues()) {
        a.add(n);
        a.add(v);
      }
    }
    a.addAll(List.of("--ops", Long.toString(p.spec().totalOps()), "--warmup-ops", Long.toString(warm),
        "--no-progress", "--child-policy", name, "--child-work", workDir.toAbsolutePath().toString(),
        "--child-result", result.toAbsolutePath().toString(), "--child-sequence", Long.toHexString(digest)));
    if (template != null) {
      a.addAll(List.of("--child-template", template.toAbsolutePath().toString()));
    }
    return a;
  }

  /**
   * A child JVM's whole job: regenerate the sequence (and check it is the parent's), warm up as the parent did, run
   * the one hint policy on its own copy of the template (or a fresh store without cold data) with skip hints on,
   * write the result for the parent.
   */
  int runChild() throws Exception {
    Plan p = Plan.of(bench, bench.sized().ops(), ALL_POLICIES);
    WorkloadSpec s = p.spec();
    Workload w = Workload.generate(s);
    if (!Long.toHexString(w.digest()).equals(bench.childSequence)) {
      throw new IllegalStateException(bench.childPolicy + ": the child generated another sequence than its parent ("
          + Long.toHexString(w.digest()) + " vs " + bench.childSequence + "): the options did not reach it unchanged");
    }
    ChildRun.Reporter reporter = new ChildRun.Reporter(stdout);
    long warm = warmOps(s);
    if (warm > 0) {
      warmUp(p, warm, bench.childWork, true, reporter::phase, reporter);
    }
    reporter.phase("run", w.size);
    RunResult result;
    try (BenchStore store = bench.childTemplate == null // no template: no cold data and no expiry bucket
        ? BenchStore.create(bench.childWork, bench.childPolicy, s.storeBuckets(), p.writeBufferBytes(), true)
        : BenchStore.openCopy(bench.childTemplate, bench.childWork, bench.childPolicy, s.storeBuckets(),
            p.writeBufferBytes(), true)) {
      result = new WorkloadRunner(w, p.runOptions()).run(store, newPolicy(bench.childPolicy, p), reporter);
    }
    ChildRun.write(result, bench.childResult);
    return 0;
  }

  private Policy newPolicy(String name, Plan p) {
    switch (name) {
    case HintsPolicy.HINTS:
      return new HintsPolicy(name, new Policy.None(name));
    case HintsPolicy.RANGE_HINTS:
      return new HintsPolicy(name, RangeServicePolicy.create(bench.rangeSettings(p.interval())));
    case "none":
      return new Policy.None();
    case "full":
      return new FullCompactionPolicy(p.fullInterval());
    case "reference":
      return new ReferencePolicy(p.interval(), bench.minTombstones, bench.tombstoneRatio, bench.maxCompactionEntries);
    case "range":
      return RangeServicePolicy.create(bench.rangeSettings(p.interval()));
    default:
      throw new IllegalArgumentException("unknown policy " + name);
    }
  }
}
