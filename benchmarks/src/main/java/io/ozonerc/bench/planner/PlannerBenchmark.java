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

package io.ozonerc.bench.planner;

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.PlanWork;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangePlanner;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.testsupport.SyntheticLsm;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Time per plan of {@link RangePlanner#plan} on synthetic facts of a large OM ({@link SyntheticLsm}): 1e3 and 1e4
 * SST files x 1e3, 1e4 and 1e5 buckets, one table, default settings.
 *
 * <p>Each size runs in JVMs of its own, started for it with this JVM's options, which measure:
 * <ul>
 *   <li><b>cold</b>: the very first {@code RangePlanner.plan} call of that JVM, indexing the table included (what
 *       an OM pays for its first round after a restart: the planner's classes are loaded and its code runs
 *       interpreted until the JIT has compiled it). Building the synthetic facts comes before and is not timed;
 *       the JVM then waits for the JIT to finish compiling that work ({@link #waitForIdleJit}). It varies by up
 *       to 1.5x between JVMs (what the JIT compiles when), so it is the median of {@code --cold} JVMs (5) that make
 *       only that plan and of the warm JVM's first plan.</li>
 *   <li><b>warm</b>: best and median of N plans after at least 3 plans and 10 s of warm-up (C2 takes several
 *       seconds of plans to settle).</li>
 * </ul>
 * A plan at the largest size is one call of tens of milliseconds: plain {@code main} with wall time, where JMH's
 * forks and iterations would add minutes on a shared machine and nothing the verdict needs. Also prints the
 * planner's step count ({@link PlanWork}), which does not depend on the machine.
 *
 * <p>With {@code --baseline DIR} every size is also run, in fresh JVMs alternating with the current ones, with the
 * planner classes found in DIR ahead of the current ones (an older build of {@code io.ozonerc.compaction.plan}, which
 * {@code dev-support/bench-planner --baseline REF} compiles), and the ratios current / baseline are printed.
 *
 * <p>With {@code --heap} it times nothing and measures instead, at 1e4 files x 1e5 buckets, the heap a plan keeps
 * between rounds (used heap after a full GC with the plan held and its facts dropped, less before): the whole
 * plan, and what the service keeps of it ({@link CompactionPlan#withoutBelowThreshold}); with {@code --baseline}
 * the baseline's too.
 *
 * <p>With {@code --service-cpu} it measures the service's CPU on an idle OM of 1e4 files x 1e5 buckets instead
 * ({@link ServiceCpu}: a real store, the service's round and head check).
 *
 * <p>Run: {@code dev-support/bench-planner [--baseline REF] [--cold JVMS] [--heap | --service-cpu] [repeats]}.
 * Target: a plan of 1e4 files x 1e5 buckets within 100 ms, cold and warm each; at most 32 MB of heap kept between
 * rounds; at most 1% of a core for the service on an idle OM of that shape.
 */
public final class PlannerBenchmark {
  private static final double TARGET_MS = 100;
  private static final long WARM_UP_NANOS = 10_000_000_000L;
  private static final int[][] SIZES = {
      {1_000, 1_000}, {1_000, 10_000}, {1_000, 100_000}, {10_000, 1_000}, {10_000, 10_000}, {10_000, 100_000}};
  private static final String RESULT = "RESULT ";
  private static final String HEAP = "--heap-one";
  private static final int HEAP_TARGET_MB = 32;

  private PlannerBenchmark() { }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--one")) {
      one(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      return;
    }
    if (args.length > 0 && args[0].equals("--service-cpu")) {
      int[] size = SIZES[SIZES.length - 1];
      Path dir = Path.of(args.length > 1 ? args[1] : "target").resolve("service-cpu-store");
      deleteTree(dir);
      try {
        ServiceCpu.run(size[0], size[1], dir);
      } finally {
        deleteTree(dir);
      }
      return;
    }
    if (args.length > 0 && args[0].equals("--heap-one")) {
      heapOne(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
      return;
    }
    String baseline = null;
    int repeats = 7;
    int coldJvms = 5;
    boolean heap = false;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--baseline")) {
        baseline = args[++i];
      } else if (args[i].equals("--cold")) {
        coldJvms = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--heap")) {
        heap = true;
      } else {
        repeats = Integer.parseInt(args[i]);
      }
    }
    if (heap) {
      heap(baseline);
      return;
    }
    System.out.printf(Locale.ROOT, "planner benchmark, %s, %d cores, java %s, fresh JVMs per size and planner: "
        + "cold = the first plan of a fresh JVM, median [min..max] of %d JVMs; warm = best and median of %d plans "
        + "after 10 s of warm-up in one more%n", Instant.now(), Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), coldJvms + 1, repeats);
    if (baseline != null) {
      System.out.println("baseline: planner classes of " + baseline + " (its JVMs alternate with the current ones; "
          + "ratio = current / baseline, below 1 is faster)");
    }
    System.out.printf(Locale.ROOT, "%-9s %7s %8s %9s %17s %9s %9s %8s %8s %11s%n", "planner", "files", "buckets",
        "cold ms", "cold range", "best ms", "median ms", "planned", "ranges", "steps");
    double[] largest = null;
    for (int[] size : SIZES) {
      // The first plan of a fresh JVM varies by 1.5x from JVM to JVM on this machine (what the JIT compiles
      // when): one JVM per number said little, so the cold figure is a median of several.
      double[] coldNow = new double[coldJvms + 1];
      double[] coldBase = new double[coldJvms + 1];
      for (int k = 0; k < coldJvms; k++) {
        coldNow[k] = child(null, size[0], size[1], 0)[0];
        if (baseline != null) {
          coldBase[k] = child(baseline, size[0], size[1], 0)[0];
        }
      }
      double[] now = child(null, size[0], size[1], repeats);
      coldNow[coldJvms] = now[0];
      print("current", size, now, coldNow);
      if (baseline != null) {
        double[] base = child(baseline, size[0], size[1], repeats);
        coldBase[coldJvms] = base[0];
        print("baseline", size, base, coldBase);
        System.out.printf(Locale.ROOT, "%-9s %7s %8s %9.2f %17s %9.2f %9.2f%n", "ratio", "", "",
            median(coldNow) / median(coldBase), "", now[1] / base[1], now[2] / base[2]);
      }
      largest = now;
      largest[0] = median(coldNow);
    }
    System.out.printf(Locale.ROOT, "target: 1e4 files x 1e5 buckets <= %.0f ms per plan: cold %s (median %.1f ms, "
        + "%.2f x target), warm %s (best %.1f ms, median %.1f ms, %.2f x target)%n", TARGET_MS,
        largest[0] <= TARGET_MS ? "MET" : "MISSED", largest[0], largest[0] / TARGET_MS,
        largest[2] <= TARGET_MS ? "MET" : "MISSED", largest[1], largest[2], largest[2] / TARGET_MS);
  }

  /**
   * Prints the heap a plan keeps between rounds at the largest size, for the current planner and the baseline's:
   * see {@link #heapOne}. Target: {@value #HEAP_TARGET_MB} MB.
   */
  private static void heap(String baseline) throws IOException, InterruptedException {
    int[] size = SIZES[SIZES.length - 1];
    double[] now = child(null, HEAP, size[0], size[1], 0);
    System.out.printf(Locale.ROOT, "heap kept between rounds, %d files x %d buckets (used heap after a full GC with "
        + "the plan held and its facts dropped, less before): the plan as the service keeps it %.1f MB "
        + "(target <= %d MB: %s), the whole plan %.1f MB%n", size[0], size[1], now[1], HEAP_TARGET_MB,
        now[1] <= HEAP_TARGET_MB ? "MET" : "MISSED", now[0]);
    if (baseline != null) {
      double[] base = child(baseline, HEAP, size[0], size[1], 0);
      System.out.printf(Locale.ROOT, "baseline: the whole plan %.1f MB%s%n", base[0], Double.isNaN(base[1])
          ? " (its service kept the whole plan)" : ", as its service keeps it " + String.format(Locale.ROOT,
          "%.1f MB", base[1]));
    }
  }

  /**
   * One JVM's heap figures at one size, as a service holds its last round: the used heap after a full GC with the
   * plan held and the facts it was made from dropped (the service reads them anew each round), less that before
   * the facts were built; then the same with only what the service keeps of the plan
   * ({@link CompactionPlan#withoutBelowThreshold}; NaN for a baseline planner without it). Prints both in MB.
   */
  private static void heapOne(int files, int buckets) {
    long before = usedAfterGc();
    CompactionPlan plan = planOnly(files, buckets);
    double whole = (usedAfterGc() - before) / 1e6;
    CompactionPlan kept;
    try {
      kept = plan.withoutBelowThreshold();
    } catch (NoSuchMethodError e) { // a baseline planner: its service kept the whole plan
      kept = null;
    }
    Reference.reachabilityFence(plan);
    plan = null;
    double keptMb = kept == null ? Double.NaN : (usedAfterGc() - before) / 1e6;
    Reference.reachabilityFence(kept);
    System.out.printf(Locale.ROOT, "%s%.3f %.3f%n", RESULT, whole, keptMb);
  }

  /** A plan of synthetic facts, which are unreachable once it returns. */
  private static CompactionPlan planOnly(int files, int buckets) {
    Facts facts = Facts.of(files, buckets);
    return RangePlanner.plan(facts.files(), facts.buckets(), List.of(), PlannerSettings.defaults());
  }

  /** The planner's inputs for {@link SyntheticLsm}'s store of {@code files} x {@code buckets}, seed 42. */
  private record Facts(List<SstFile> files, Map<String, List<KeyRange>> buckets) {
    static Facts of(int fileCount, int bucketCount) {
      SyntheticLsm lsm = new SyntheticLsm(fileCount, bucketCount, 42);
      List<SstFile> files = new ArrayList<>();
      for (SyntheticLsm.Sst f : lsm.files()) {
        files.add(new SstFile(SyntheticLsm.TABLE, String.format("/%06d.sst", f.seq()), f.level(),
            Keys.utf8(f.smallest()), Keys.utf8(f.largest()), f.entries(), f.deletions(), f.entries() * 100, f.seq(),
            false));
      }
      List<KeyRange> buckets = new ArrayList<>();
      for (String prefix : lsm.bucketPrefixes()) {
        buckets.add(KeyRange.bucket(SyntheticLsm.TABLE, prefix));
      }
      return new Facts(files, Map.of(SyntheticLsm.TABLE, buckets));
    }
  }

  /** Used heap after full collections, once it stops shrinking. */
  private static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long now = memory.getHeapMemoryUsage().getUsed();
      if (now >= used) {
        return now;
      }
      used = now;
    }
    return used;
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static void print(String planner, int[] size, double[] r, double[] cold) {
    double[] c = cold.clone();
    Arrays.sort(c);
    System.out.printf(Locale.ROOT, "%-9s %7d %8d %9.1f %17s %9.1f %9.1f %8d %8d %11d%n", planner, size[0], size[1],
        median(cold), String.format(Locale.ROOT, "[%.1f..%.1f]", c[0], c[c.length - 1]), r[1], r[2], (long) r[3],
        (long) r[4], (long) r[5]);
  }

  /** Runs one size in a fresh JVM with this JVM's options; its planner classes from {@code baseline} when set. */
  private static double[] child(String baseline, int files, int buckets, int repeats)
      throws IOException, InterruptedException {
    return child(baseline, "--one", files, buckets, repeats);
  }

  /** As {@link #child(String, int, int, int)}, running {@code mode} ({@code --one} or {@value #HEAP}). */
  private static double[] child(String baseline, String mode, int files, int buckets, int repeats)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.add("-cp");
    String cp = System.getProperty("java.class.path");
    cmd.add(baseline == null ? cp : baseline + File.pathSeparator + cp);
    cmd.add(PlannerBenchmark.class.getName());
    cmd.addAll(List.of(mode, Integer.toString(files), Integer.toString(buckets), Integer.toString(repeats)));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    double[] result = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(RESULT)) {
          result = Arrays.stream(line.substring(RESULT.length()).trim().split(" "))
              .mapToDouble(Double::parseDouble).toArray();
        } else {
          System.out.println(line);
        }
      }
    }
    if (p.waitFor() != 0 || result == null) {
      throw new IllegalStateException("benchmark JVM for " + files + " x " + buckets + " failed: " + p.exitValue());
    }
    return result;
  }

  /**
   * Waits until the JIT has compiled nothing for half a second (at most 10 s). Building the synthetic facts calls
   * String.format a few hundred thousand times, and C2 compiles the formatter's code afterwards, on the only C2
   * thread of a 2-core machine: measured, it ran through the first plan and kept the planner's own code waiting
   * (docs/facts.md, "Planner time"). An OM's first round comes after its start-up, when that queue is quiet.
   */
  private static void waitForIdleJit() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return;
    }
    long last = jit.getTotalCompilationTime();
    long until = System.nanoTime() + 10_000_000_000L;
    for (int quiet = 0; quiet < 5 && System.nanoTime() < until;) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long now = jit.getTotalCompilationTime();
      quiet = now == last ? quiet + 1 : 0;
      last = now;
    }
  }

  /** One size in this JVM: the first plan, then warm-up, then {@code repeats} timed plans (none: no warm-up). */
  private static void one(int files, int buckets, int repeats) {
    Facts facts = Facts.of(files, buckets);
    PlannerSettings settings = PlannerSettings.defaults();
    waitForIdleJit();
    long coldStart = System.nanoTime();
    CompactionPlan first = RangePlanner.plan(facts.files(), facts.buckets(), List.of(), settings);
    double coldMs = (System.nanoTime() - coldStart) / 1e6;
    if (repeats == 0) { // the first plan alone (for profiling it)
      System.out.printf(Locale.ROOT, "%s%.3f%n", RESULT, coldMs);
      return;
    }
    long warmUntil = System.nanoTime() + WARM_UP_NANOS;
    for (int i = 1; i < 3 || System.nanoTime() < warmUntil; i++) {
      RangePlanner.plan(facts.files(), facts.buckets(), List.of(), settings);
    }
    long[] nanos = new long[repeats];
    CompactionPlan plan = null;
    PlanWork work = null;
    for (int i = 0; i < repeats; i++) {
      work = PlanWork.unbounded();
      long t0 = System.nanoTime();
      plan = RangePlanner.plan(facts.files(), facts.buckets(), List.of(), settings, work);
      nanos[i] = System.nanoTime() - t0;
    }
    if (plan.planned().size() != first.planned().size() || plan.notPlanned().size() != first.notPlanned().size()) {
      throw new IllegalStateException("the first and the last plan differ");
    }
    Arrays.sort(nanos);
    System.out.printf(Locale.ROOT, "%s%.3f %.3f %.3f %d %d %d%n", RESULT, coldMs, nanos[0] / 1e6,
        nanos[repeats / 2] / 1e6, plan.planned().size(), plan.planned().size() + plan.notPlanned().size(),
        work.steps());
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
