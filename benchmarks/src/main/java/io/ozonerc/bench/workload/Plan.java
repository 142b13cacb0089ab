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
import static io.ozonerc.bench.workload.TombstoneBenchmark.PATCHED_CLASSES_PROPERTY;

import io.ozonerc.bench.workload.TombstoneBenchmark.Preset;
import io.ozonerc.bench.workload.TombstoneBenchmark.Sized;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.hdds.utils.db.Table;
import picocli.CommandLine;

/**
 * The validated form of {@link TombstoneBenchmark}'s options: the sequence to generate, how to run it, the policies
 * in order and their settings, and which targets apply. {@link #of} checks the options before anything runs.
 */
record Plan(WorkloadSpec spec, WorkloadRunner.Options runOptions, List<String> policies, Duration interval,
    Duration fullInterval, long writeBufferBytes, Report.Targets targets) {

  /**
   * The plan of a comparison of {@code totalOps} operations, from the options of {@code o} ({@code defaultPolicies}
   * unless --policies names others). Fails with a usage error naming the option and the value.
   */
  static Plan of(TombstoneBenchmark o, long totalOps, List<String> defaultPolicies) {
    Preset preset = o.preset();
    Sized sized = o.sized();
    try {
      if (o.childPolicy == null && o.patchedList != boundedListLoaded()) {
        throw new IllegalArgumentException(o.patchedList
            ? "--patched-list: the OM classes on the class path are stock Ozone 2.2.0 (no Table.boundedIterator); "
                + "run dev-support/bench-tombstones --patched-list, which puts ozone-om-patched's classes first"
            : "the OM classes on the class path have the bounded list iterator (ozone-om-patched); add "
                + "--patched-list so the report says so, or run without those classes");
      }
      if (o.repeat < 1 || o.repeat > 100) {
        throw new IllegalArgumentException("--repeat must be in [1, 100], got " + o.repeat);
      }
      long cold = sized.coldKeys();
      WorkloadSpec.DeleteMode dm = enumOf(WorkloadSpec.DeleteMode.class, "--delete-mode",
          o.deleteMode != null ? o.deleteMode : preset.deleteMode());
      if (o.minTombstones < 0) {
        throw new IllegalArgumentException("--min-tombstones must be >= 0, got " + o.minTombstones);
      }
      if (!(o.tombstoneRatio > 0 && o.tombstoneRatio <= 1)) {
        throw new IllegalArgumentException("--tombstone-ratio must be in (0, 1], got " + o.tombstoneRatio);
      }
      if (o.maxCompactionEntries < 1) {
        throw new IllegalArgumentException("--max-compaction-entries must be >= 1, got " + o.maxCompactionEntries);
      }
      if (o.rangesPerRun < 1) {
        throw new IllegalArgumentException("--ranges-per-run must be >= 1, got " + o.rangesPerRun);
      }
      Set<String> chosen = new LinkedHashSet<>();
      for (String p : o.childPolicy != null ? List.of(o.childPolicy)
          : o.policies == null ? defaultPolicies : o.policies) {
        String name = p.trim().toLowerCase(Locale.ROOT);
        if (!ALL_POLICIES.contains(name)) {
          throw new IllegalArgumentException("unknown policy '" + p + "'; known: " + String.join(", ",
              ALL_POLICIES));
        }
        chosen.add(name);
      }
      if (chosen.isEmpty()) {
        throw new IllegalArgumentException("--policies is empty");
      }
      for (String key : o.rangeConf.keySet()) {
        if (!key.startsWith(RangeServicePolicy.PREFIX)) {
          throw new IllegalArgumentException("--range-conf " + key + ": only " + RangeServicePolicy.PREFIX
              + "* keys");
        }
      }
      Duration iv = Units.duration("--interval", o.interval);
      Duration fiv = Units.duration("--full-interval", o.fullInterval);
      if (iv.isZero() || fiv.isZero()) {
        throw new IllegalArgumentException("--interval and --full-interval must be > 0");
      }
      long wb = Units.bytes("--write-buffer", o.writeBuffer);
      if (wb < (64 << 10)) {
        throw new IllegalArgumentException("--write-buffer must be >= 64KB, got " + o.writeBuffer);
      }
      WorkloadSpec ws = new WorkloadSpec(totalOps, Weights.parse(o.weights != null ? o.weights : preset.weights()),
          sized.liveCap(),
          dm,
          enumOf(WorkloadSpec.ListMode.class, "--list-mode", o.listMode != null ? o.listMode : preset.listMode()),
          o.listLength, o.buckets, o.skew,
          enumOf(WorkloadSpec.KeyNames.class, "--key-names", o.keyNames != null ? o.keyNames : preset.keyNames()),
          o.seed,
          cold > 0 ? o.coldBuckets : 0, cold, cold > 0 ? o.coldWriteShare : 0, new WorkloadSpec.Expiry(
              sized.expiryKeys(), o.expiryShare, o.expiryBatch, sized.expiryLists()));
      WorkloadRunner.Options ro = new WorkloadRunner.Options(o.writeThreads, o.listThreads,
          Units.duration("--sample-interval", o.sampleInterval).toMillis(), o.listWindow);
      if (chosen.contains("range") || chosen.contains(HintsPolicy.RANGE_HINTS)) {
        RangeServicePolicy.validate(o.rangeSettings(iv)); // the service's own validation, before any run
      }
      if (o.childPolicy != null) {
        checkChild(o);
      } else if (chosen.stream().anyMatch(HINT_POLICIES::contains)) {
        checkPatchedClasses(o, chosen);
      }
      return new Plan(ws, ro, new ArrayList<>(chosen), iv, fiv, wb,
          dm == WorkloadSpec.DeleteMode.RANDOM ? Report.Targets.RANDOM_CHURN : Report.Targets.queue(cold));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(o.spec.commandLine(), e.getMessage(), e);
    }
  }

  /**
   * The parent's check for the hint policies: {@code --patched-classes} names a directory holding the OM classes of
   * HDDS-skip-hints-2.2.0.patch. Fails before anything runs, naming what is missing.
   */
  private static void checkPatchedClasses(TombstoneBenchmark o, Set<String> chosen) {
    List<String> hinted = chosen.stream().filter(HINT_POLICIES::contains).toList();
    String who = String.join(", ", hinted) + ": ";
    if (o.patchedClasses == null || o.patchedClasses.toString().isBlank()) {
      throw new IllegalArgumentException(who + "no patched OM classes given. These policies run on the classes the "
          + "ozone-om-patched module builds (dev-support/patches, skip hints included), in a child JVM: pass "
          + "--patched-classes DIR or -D" + PATCHED_CLASSES_PROPERTY + "=DIR (dev-support/bench-tombstones builds "
          + "them and sets it to ozone-om-patched/target/classes), or leave them out with --policies");
    }
    for (String cls : List.of(SkipHintCounters.SKIP_HINTS_CLASS, "org.apache.hadoop.ozone.om.OmMetadataManagerImpl")) {
      Path file = o.patchedClasses.resolve(cls.replace('.', '/') + ".class");
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(who + "--patched-classes " + o.patchedClasses + " holds no " + file
            + ": not the classes of ozone-om-patched with HDDS-skip-hints-2.2.0.patch (build that module: "
            + "mvn -pl ozone-om-patched -am compile, or run dev-support/bench-tombstones)");
      }
    }
    if (!Files.isRegularFile(Path.of(System.getProperty("java.home"), "bin", "java"))) {
      throw new IllegalArgumentException(who + "no java launcher in " + System.getProperty("java.home"));
    }
  }

  /** A child JVM's check: it was started with everything it needs, and its OM classes are the patched ones. */
  private static void checkChild(TombstoneBenchmark o) {
    if (!HINT_POLICIES.contains(o.childPolicy) || o.childWork == null || o.childResult == null
        || o.childSequence == null) {
      throw new IllegalArgumentException("--child-policy is for the benchmark's own child JVMs (policy one of "
          + HINT_POLICIES + ", with --child-work, --child-result and --child-sequence)");
    }
    if (!SkipHintCounters.loaded()) {
      throw new IllegalArgumentException("child JVM for " + o.childPolicy + ": the OM classes on its class path are "
          + "stock Ozone 2.2.0 (no " + SkipHintCounters.SKIP_HINTS_CLASS + "; OmMetadataManagerImpl from "
          + RunResult.omClassesHere() + ")");
    }
  }

  /** True if the OM classes loaded here carry the bounded list iterator patch ({@code Table.boundedIterator}). */
  static boolean boundedListLoaded() {
    try {
      Table.class.getMethod("boundedIterator", Object.class);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  private static <E extends Enum<E>> E enumOf(Class<E> type, String option, String text) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(text.trim())) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name().toLowerCase(Locale.ROOT));
    }
    throw new IllegalArgumentException(option + ": unknown value '" + text + "'; known: " + String.join(", ",
        names));
  }
}
