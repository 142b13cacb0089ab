package io.ozonerc.bench.planner;

import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.PlanWork;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangePlanner;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Time per plan of {@link RangePlanner#plan} on synthetic facts of a large OM ({@link SyntheticLsm}): 1e3 and 1e4
 * SST files x 1e3, 1e4 and 1e5 buckets, one table. Plain {@code main} with best-of-N wall time after warm-up (a
 * plan at the largest size is a single call of tens of milliseconds, where JMH's forks and iterations add minutes
 * on a shared machine and nothing in precision that the verdict needs); also prints the planner's step count.
 *
 * <p>Run: {@code dev-support/bench-planner} (builds, then runs this class), or after a build
 * {@code java -cp <benchmarks classpath> io.ozonerc.bench.planner.PlannerBenchmark [repeats]}.
 * Target: a plan of 1e4 files x 1e5 buckets within 100 ms, once warm.
 */
public final class PlannerBenchmark {
  private static final long TARGET_MS = 100;
  private static final long WARM_UP_NANOS = 10_000_000_000L;

  private PlannerBenchmark() { }

  public static void main(String[] args) {
    int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    System.out.printf(Locale.ROOT, "planner benchmark, %s, %d cores, java %s, best of %d after warm-up%n",
        Instant.now(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), repeats);
    System.out.printf(Locale.ROOT, "%8s %8s %10s %10s %10s %8s %8s %12s%n", "files", "buckets", "first ms",
        "best ms", "median ms", "planned", "ranges", "steps");
    double last = 0;
    for (int files : new int[] {1_000, 10_000}) {
      for (int buckets : new int[] {1_000, 10_000, 100_000}) {
        SyntheticLsm lsm = new SyntheticLsm(files, buckets, 42);
        Map<String, List<KeyRange>> byTable = Map.of(SyntheticLsm.TABLE, lsm.buckets);
        PlannerSettings settings = PlannerSettings.defaults();
        // Warm-up: at least 3 plans and 10 s, so the JIT has compiled the planner before it is timed (C2 takes
        // several seconds of plans to settle; after 4 s a 1e4 x 1e5 plan still took twice its settled time). The
        // first plan of each size is printed too: an OM that plans once per round runs closer to it.
        long firstStart = System.nanoTime();
        RangePlanner.plan(lsm.files, byTable, List.of(), settings);
        double firstMs = (System.nanoTime() - firstStart) / 1e6;
        long warmUntil = System.nanoTime() + WARM_UP_NANOS;
        for (int i = 1; i < 3 || System.nanoTime() < warmUntil; i++) {
          RangePlanner.plan(lsm.files, byTable, List.of(), settings);
        }
        long[] nanos = new long[repeats];
        CompactionPlan plan = null;
        PlanWork work = null;
        for (int i = 0; i < repeats; i++) {
          work = PlanWork.unbounded();
          long t0 = System.nanoTime();
          plan = RangePlanner.plan(lsm.files, byTable, List.of(), settings, work);
          nanos[i] = System.nanoTime() - t0;
        }
        java.util.Arrays.sort(nanos);
        last = nanos[0] / 1e6;
        System.out.printf(Locale.ROOT, "%8d %8d %10.1f %10.1f %10.1f %8d %8d %12d%n", files, buckets, firstMs,
            nanos[0] / 1e6, nanos[repeats / 2] / 1e6, plan.planned().size(), plan.planned().size() + plan.notPlanned().size(),
            work.steps());
      }
    }
    System.out.printf(Locale.ROOT, "target: 1e4 files x 1e5 buckets <= %d ms per plan, warm: %s (%.1f ms)%n", TARGET_MS,
        last <= TARGET_MS ? "MET" : "MISSED", last);
  }
}
