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

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.hdds.utils.db.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The tombstone workload benchmark: one command that compares compaction policies on a real OM metadata store.
 *
 * <p>Workload modelled (default preset {@code hot-queue}): an OM with a large cold data set (1,500,000 keys in 100
 * buckets, loaded once; each run opens a copy) and one hot bucket used as a queue. Hot operations mixed by weight
 * (default {@code create:20,delete:8,list:1}); live hot keys capped (default 25,000), so once the cap is reached each
 * create is balanced by a delete of the oldest (or a random) live key and tombstones pile up while the live set stays
 * small; a share of the creates goes to random cold buckets so flushes mix buckets; creates write a realistic
 * {@code OmKeyInfo} through the OM's keyTable; a list is the OM's own {@code listKeys} page of 1000 entries from the
 * bucket start (or from a random live key). The default also runs an expiry phase ({@link WorkloadSpec.Expiry}): a
 * lifecycle expiry deletes the oldest half of a large cold bucket in batches while listings start at random keys
 * inside it, reported apart from the queue's lists. Other presets: {@code random-churn}, {@code queue},
 * {@code churn}. See {@link Workload} and {@link #PRESETS}.
 *
 * <p>Policies, each on its own copy of the store with the same seed and the same operation sequence: {@code none}
 * (RocksDB's automatic compactions only), {@code full} (Ozone's CompactionService behaviour: whole column families
 * every {@code --full-interval}), {@code reference} (the published HDDS-12682 design, {@link ReferenceRangeCompactor}),
 * {@code range} (this project's service, on its own thread as in the OM), {@code hints} (no compaction, lists through
 * the OM patched with HDDS-skip-hints-2.2.0.patch, hints on), {@code range+hints} (the product: {@code range} on that
 * patched OM), {@code ideal} (what the sequence leaves behind, fully compacted: the floor for a list, listed alone)
 * and {@code ideal-loaded} (the same floor listed while the sequence's writes load another copy). The two hint
 * policies run in a child JVM each with ozone-om-patched's classes first ({@link ChildRun}); the others run here, on
 * stock Ozone 2.2.0. {@code --repeat N} runs each N times in rotated order.
 *
 * <p>Run: {@code dev-support/bench-tombstones} (builds, then runs this class with the arguments given), e.g.
 * {@code dev-support/bench-tombstones --workload random-churn} or {@code dev-support/bench-tombstones --scale}.
 * Results go to {@code target/bench-tombstones/}: report.md, summary.csv, series.csv and four PNG charts.
 */
@Command(name = "bench-tombstones", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Compares compaction policies (none, full, reference, range, hints, range+hints, ideal, "
        + "ideal-loaded) on a real "
        + "OM metadata store under a create/delete/list churn, by default a hot queue bucket among 1.5e6 cold keys "
        + "and a bulk lifecycle expiry in a 300,000-key cold bucket listed from random keys inside it (about 10 "
        + "minutes on 2 cores). Same seed and operation sequence for every policy.")
public final class TombstoneBenchmark implements Callable<Integer> {

  static final List<String> ALL_POLICIES = List.of("none", "full", "reference", "range", HintsPolicy.HINTS,
      HintsPolicy.RANGE_HINTS, "ideal", WorkloadRunner.IDEAL_LOADED);

  /** The policies that run on the patched OM classes, each in a child JVM. */
  static final List<String> HINT_POLICIES = List.of(HintsPolicy.HINTS, HintsPolicy.RANGE_HINTS);

  /** Where the patched classes are, unless {@code --patched-classes} says; dev-support/bench-tombstones sets it. */
  static final String PATCHED_CLASSES_PROPERTY = "bench.patched.classes";

  /**
   * One step of {@code --scale}: an operation count, its short spelling, and the improvement in average seek latency
   * published for HDDS-12682 at that count.
   */
  record ScaleStep(long ops, String label, String published) {
    boolean matches(String text) {
      return text.equals(Long.toString(ops)) || text.equalsIgnoreCase(label);
    }
  }

  static final List<ScaleStep> SCALE_STEPS = List.of(new ScaleStep(100_000L, "1e5", "20x"),
      new ScaleStep(1_000_000L, "1e6", "27x"), new ScaleStep(10_000_000L, "1e7", "158x"));

  @Spec
  CommandSpec spec;

  @Option(names = "--workload", description = "Preset: hot-queue (default: cold data in many buckets plus one "
      + "hot bucket used as a queue: create at the tail, delete the oldest, list from the bucket start), "
      + "random-churn (the same cold data; the hot bucket deletes a random live key and lists from a random live "
      + "key, as the published omkeybench does), queue (hot-queue without cold data), churn (one bucket, hashed "
      + "names, no cold data: the original workload). Options given explicitly override the preset.",
      defaultValue = "hot-queue")
  String workload;

  // hot-queue default: 300,000 operations after a 1,500,000-key cold load; eight policies in about 13 minutes here.
  @Option(names = "--ops", description = "Total operations, 1e5..1e7 typical (default: 300000 for hot-queue, "
      + "250000 for random-churn, 500000 for queue and churn).")
  Long ops;

  @Option(names = "--cold-keys", description = "Keys loaded into the cold buckets before the run (default: "
      + "1500000 for hot-queue and random-churn (about 120 MB of keyTable SST), 0 otherwise).")
  Long coldKeys;

  @Option(names = "--cold-buckets", description = "Cold buckets, half sorting before the hot bucket(s), half after "
      + "(default: ${DEFAULT-VALUE} when there are cold keys).", defaultValue = "100")
  int coldBuckets;

  @Option(names = "--cold-write-share", description = "Share of creates that put a new key into a random cold "
      + "bucket, so flushes mix buckets as on a busy OM (default: ${DEFAULT-VALUE} when there are cold keys).",
      defaultValue = "0.2")
  double coldWriteShare;

  @Option(names = "--expiry-keys", description = "Keys of the expiry bucket, a large cold bucket loaded with the "
      + "cold data (names sorted by age under logs/, 1%% under index/ before them); during the run a lifecycle "
      + "expiry deletes its oldest --expiry-share in batches while listings start at random keys inside it; 0 = no "
      + "expiry phase (default: " + HOT_QUEUE_EXPIRY_KEYS + " for hot-queue, 0 otherwise).")
  Long expiryKeys;

  @Option(names = "--expiry-share", description = "Share of the expiry bucket's logs/ keys the expiry deletes, "
      + "oldest first (default: ${DEFAULT-VALUE}).", defaultValue = "0.5")
  double expiryShare;

  @Option(names = "--expiry-batch", description = "Keys per expiry delete batch, one batch commit each (default: "
      + "${DEFAULT-VALUE}, an S3 DeleteObjects request's most).", defaultValue = "1000")
  int expiryBatch;

  @Option(names = "--expiry-lists", description = "Listings of the expiry bucket from a random key inside it, spread "
      + "from the expiry's start to the end of the run (default: ${DEFAULT-VALUE}).", defaultValue = "1000")
  int expiryLists;

  @Option(names = "--size", paramLabel = "N", description = "Multiply the default store and run by N, a decimal in "
      + "[1, 1000]: cold keys, expiry-bucket keys, operations, expiry listings and the live-key cap (so the shape "
      + "stays the same); options given explicitly keep their value; with --scale its steps set the operations "
      + "(default: 1).")
  String size;

  @Option(names = "--repeat", description = "Runs of every policy, order rotated between repeats; the report shows "
      + "median [min..max] (default: ${DEFAULT-VALUE}).", defaultValue = "1")
  int repeat;

  @Option(names = "--weights", description = "Operation weights (default: " + HOT_QUEUE_WEIGHTS + " for hot-queue, "
      + Weights.DEFAULT + " otherwise).")
  String weights;

  /**
   * hot-queue lists half as often per write as the other presets: a list from the head of a queue bucket is the
   * expensive operation (tens of ms under none), so this buys twice the writes, and twice the tombstones, for the
   * same time.
   */
  static final String HOT_QUEUE_WEIGHTS = "create:40,delete:16,list:1";

  /** hot-queue's expiry bucket: 300,000 keys beside the 1,500,000 cold ones. */
  static final long HOT_QUEUE_EXPIRY_KEYS = 300_000;

  @Option(names = "--live-cap", description = "Most live keys; creates above it delete one (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "25000")
  int liveCap;

  @Option(names = "--delete-mode", description = "oldest or random live key (default: by --workload).")
  String deleteMode;

  @Option(names = "--list-mode", description = "random (from a random live key) or start (from the bucket start) "
      + "(default: by --workload).")
  String listMode;

  @Option(names = "--list-length", description = "Entries per list (default: ${DEFAULT-VALUE}).",
      defaultValue = "1000")
  int listLength;

  @Option(names = "--key-names", description = "hashed (UUID-like, random order) or sequential (sorted by age) "
      + "(default: by --workload).")
  String keyNames;

  @Option(names = "--buckets", description = "Buckets (default: ${DEFAULT-VALUE}).", defaultValue = "1")
  int buckets;

  @Option(names = "--skew", description = "Zipf exponent of the bucket choice, 0 = uniform (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "0")
  double skew;

  @Option(names = "--seed", description = "Seed of the operation sequence (default: ${DEFAULT-VALUE}).",
      defaultValue = "42")
  long seed;

  @Option(names = "--write-threads", description = "Threads issuing creates and deletes (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "1")
  int writeThreads;

  @Option(names = "--list-threads", description = "Threads issuing lists (default: ${DEFAULT-VALUE}).",
      defaultValue = "1")
  int listThreads;

  @Option(names = "--list-window", description = "How many operations writers may run past the next list not yet "
      + "started (default: ${DEFAULT-VALUE}).", defaultValue = "0")
  int listWindow;

  @Option(names = "--policies", split = ",", description = "Policies to compare, in order (default: "
      + "none,full,reference,range,hints,range+hints,ideal,ideal-loaded; with --scale: none,range,ideal).")
  List<String> policies;

  @Option(names = "--patched-classes", paramLabel = "DIR", defaultValue = "${sys:" + PATCHED_CLASSES_PROPERTY + "}",
      description = "hints and range+hints: the OM classes the ozone-om-patched module builds (its target/classes, "
          + "HDDS-skip-hints-2.2.0.patch included). Each run of these two policies is a child JVM with DIR first on "
          + "the class path; the other policies run in this JVM on stock Ozone 2.2.0 (default: the system property "
          + PATCHED_CLASSES_PROPERTY + ", which dev-support/bench-tombstones sets to ozone-om-patched/target/classes).")
  Path patchedClasses;

  // Hidden: what the parent tells a child JVM that runs one hint policy (ChildRun).
  @Option(names = "--child-policy", hidden = true)
  String childPolicy;

  @Option(names = "--child-template", hidden = true)
  Path childTemplate;

  @Option(names = "--child-work", hidden = true)
  Path childWork;

  @Option(names = "--child-result", hidden = true)
  Path childResult;

  @Option(names = "--child-sequence", hidden = true)
  String childSequence;

  @Option(names = "--interval", description = "Round interval of range and reference (default: ${DEFAULT-VALUE}).",
      defaultValue = "2s")
  String interval;

  @Option(names = "--full-interval", description = "Interval of full compaction (default: ${DEFAULT-VALUE}).",
      defaultValue = "10s")
  String fullInterval;

  @Option(names = "--min-tombstones", description = "range and reference: tombstones a range needs (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "10000")
  long minTombstones;

  @Option(names = "--tombstone-ratio", description = "range and reference: tombstones / entries a range needs "
      + "(default: ${DEFAULT-VALUE}).", defaultValue = "0.3")
  double tombstoneRatio;

  @Option(names = "--max-compaction-entries", description = "range: most entries per compaction; reference: SSTs "
      + "above it are skipped (default: ${DEFAULT-VALUE}).", defaultValue = "1000000")
  long maxCompactionEntries;

  @Option(names = "--ranges-per-run", description = "range: ranges compacted per round (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "20")
  int rangesPerRun;

  // 4MB, not the OM's 128MB: a production keyTable is hundreds of times its memtable, so tombstones live in SST
  // files; the benchmark's live set is ~10MB raw, and with 128MB every tombstone of a default run would still sit in
  // the memtable, where no SST-driven policy (reference, range) can see it. 4MB keeps memtable << data.
  @Option(names = "--range-conf", description = "range: any other ozone.om.range.compaction.* key, as KEY=VALUE "
      + "(repeatable), e.g. --range-conf ozone.om.range.compaction.bottommost.mode=force.")
  java.util.Map<String, String> rangeConf = new java.util.LinkedHashMap<>();

  @Option(names = "--service-log", description = "Keep the range service's INFO lines (what each round and head "
      + "check compacted, skipped or left, and why) on stdout; quiet by default, the report sums them up.")
  boolean serviceLog;

  @Option(names = "--write-buffer", description = "Memtable size per column family "
      + "(ozone.metastore.rocksdb.cf.write.buffer.size; the OM's default is 128MB, scaled down here so tombstones "
      + "reach SST files as on a large OM) (default: ${DEFAULT-VALUE}).", defaultValue = "4MB")
  String writeBuffer;

  @Option(names = "--sample-interval", description = "Time-series interval (default: ${DEFAULT-VALUE}).",
      defaultValue = "1s")
  String sampleInterval;

  @Option(names = "--warmup-ops", description = "Operations run first on a throwaway store (other seed) so the JIT "
      + "has compiled the hot paths before the first measured policy; -1 = min(50000, ops/4) (default: "
      + "${DEFAULT-VALUE}).", defaultValue = "-1")
  long warmupOps;

  @Option(names = "--scale", description = "Repeat the comparison at 1e5, 1e6 and 1e7 operations (or the steps "
      + "--scale-ops picks) and print the improvement of range over none next to the published 20x / 27x / 158x.")
  boolean scale;

  @Option(names = "--scale-ops", description = "With --scale: which steps to run, a comma list of 100000, 1000000 "
      + "and 10000000 (or 1e5, 1e6, 1e7), run smallest first (default: all three). With cold data the 1e7 step takes "
      + "hours on 2 cores.")
  String scaleOps;

  @Option(names = "--out", description = "Output directory (default: ${DEFAULT-VALUE}).",
      defaultValue = "target/bench-tombstones")
  Path out;

  @Option(names = "--no-progress", description = "No progress bar.")
  boolean noProgress;

  @Option(names = "--patched-list", description = "Lists go through the bounded list iterator of "
      + "dev-support/patches/HDDS-bounded-list-iterator-2.2.0.patch: the run needs the OM classes the ozone-om-patched "
      + "module builds first on the class path (dev-support/bench-tombstones puts them there for this option) and "
      + "refuses to start without them; without the option it refuses them. Compare with a run without it.")
  boolean patchedList;

  /** Reports of the comparisons run, for tests. */
  final List<Report> reports = new ArrayList<>();
  PrintStream stdout = System.out;
  PrintStream stderr = System.err;

  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    quietenStartupNoise();
    System.exit(new CommandLine(new TombstoneBenchmark()).execute(args));
  }

  /** The validated form of the options. */
  private record Plan(WorkloadSpec spec, WorkloadRunner.Options runOptions, List<String> policies,
      Duration interval, Duration fullInterval, long writeBufferBytes, Report.Targets targets) {
  }

  /** What a {@code --workload} preset sets, unless the option is given explicitly. */
  record Preset(String keyNames, String deleteMode, String listMode, long coldKeys, long ops, String weights,
      long expiryKeys) {
  }

  static final Map<String, Preset> PRESETS = Map.of(
      "hot-queue", new Preset("sequential", "oldest", "start", 1_500_000, 300_000, HOT_QUEUE_WEIGHTS,
          HOT_QUEUE_EXPIRY_KEYS),
      "random-churn", new Preset("sequential", "random", "random", 1_500_000, 250_000, Weights.DEFAULT, 0),
      "queue", new Preset("sequential", "oldest", "start", 0, 500_000, Weights.DEFAULT, 0),
      "churn", new Preset("hashed", "oldest", "random", 0, 500_000, Weights.DEFAULT, 0));

  /** The counts {@code --size} multiplies: each as given explicitly, or its default times the factor. */
  record Sized(long ops, long coldKeys, long expiryKeys, int expiryLists, int liveCap) {
  }

  Sized sized() {
    SizeFactor f;
    try {
      f = SizeFactor.parse(size);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    Preset p = preset();
    CommandLine.ParseResult given = spec.commandLine().getParseResult();
    return new Sized(ops != null ? ops : f.times(p.ops()), coldKeys != null ? coldKeys : f.times(p.coldKeys()),
        expiryKeys != null ? expiryKeys : f.times(p.expiryKeys()),
        given.hasMatchedOption("--expiry-lists") ? expiryLists : f.times(expiryLists),
        given.hasMatchedOption("--live-cap") ? liveCap : f.times(liveCap));
  }

  Preset preset() {
    Preset p = PRESETS.get(workload.trim().toLowerCase(Locale.ROOT));
    if (p == null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--workload: unknown preset '" + workload
          + "'; known: hot-queue, random-churn, queue, churn");
    }
    return p;
  }

  private Plan plan(long totalOps, List<String> defaultPolicies) {
    Preset preset = preset();
    Sized sized = sized();
    try {
      if (childPolicy == null && patchedList != boundedListLoaded()) {
        throw new IllegalArgumentException(patchedList
            ? "--patched-list: the OM classes on the class path are stock Ozone 2.2.0 (no Table.boundedIterator); "
                + "run dev-support/bench-tombstones --patched-list, which puts ozone-om-patched's classes first"
            : "the OM classes on the class path have the bounded list iterator (ozone-om-patched); add "
                + "--patched-list so the report says so, or run without those classes");
      }
      if (repeat < 1 || repeat > 100) {
        throw new IllegalArgumentException("--repeat must be in [1, 100], got " + repeat);
      }
      long cold = sized.coldKeys();
      WorkloadSpec.DeleteMode dm = enumOf(WorkloadSpec.DeleteMode.class, "--delete-mode",
          deleteMode != null ? deleteMode : preset.deleteMode());
      if (minTombstones < 0) {
        throw new IllegalArgumentException("--min-tombstones must be >= 0, got " + minTombstones);
      }
      if (!(tombstoneRatio > 0 && tombstoneRatio <= 1)) {
        throw new IllegalArgumentException("--tombstone-ratio must be in (0, 1], got " + tombstoneRatio);
      }
      if (maxCompactionEntries < 1) {
        throw new IllegalArgumentException("--max-compaction-entries must be >= 1, got " + maxCompactionEntries);
      }
      if (rangesPerRun < 1) {
        throw new IllegalArgumentException("--ranges-per-run must be >= 1, got " + rangesPerRun);
      }
      Set<String> chosen = new LinkedHashSet<>();
      for (String p : childPolicy != null ? List.of(childPolicy) : policies == null ? defaultPolicies : policies) {
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
      for (String key : rangeConf.keySet()) {
        if (!key.startsWith(RangeServicePolicy.PREFIX)) {
          throw new IllegalArgumentException("--range-conf " + key + ": only " + RangeServicePolicy.PREFIX
              + "* keys");
        }
      }
      Duration iv = Units.duration("--interval", interval);
      Duration fiv = Units.duration("--full-interval", fullInterval);
      if (iv.isZero() || fiv.isZero()) {
        throw new IllegalArgumentException("--interval and --full-interval must be > 0");
      }
      long wb = Units.bytes("--write-buffer", writeBuffer);
      if (wb < (64 << 10)) {
        throw new IllegalArgumentException("--write-buffer must be >= 64KB, got " + writeBuffer);
      }
      WorkloadSpec ws = new WorkloadSpec(totalOps, Weights.parse(weights != null ? weights : preset.weights()),
          sized.liveCap(),
          dm,
          enumOf(WorkloadSpec.ListMode.class, "--list-mode", listMode != null ? listMode : preset.listMode()),
          listLength, buckets, skew,
          enumOf(WorkloadSpec.KeyNames.class, "--key-names", keyNames != null ? keyNames : preset.keyNames()), seed,
          cold > 0 ? coldBuckets : 0, cold, cold > 0 ? coldWriteShare : 0, new WorkloadSpec.Expiry(
              sized.expiryKeys(), expiryShare, expiryBatch, sized.expiryLists()));
      WorkloadRunner.Options ro = new WorkloadRunner.Options(writeThreads, listThreads,
          Units.duration("--sample-interval", sampleInterval).toMillis(), listWindow);
      if (chosen.contains("range") || chosen.contains(HintsPolicy.RANGE_HINTS)) {
        RangeServicePolicy.validate(rangeSettings(iv)); // the service's own validation, before any run
      }
      if (childPolicy != null) {
        checkChild();
      } else if (chosen.stream().anyMatch(HINT_POLICIES::contains)) {
        checkPatchedClasses(chosen);
      }
      return new Plan(ws, ro, new ArrayList<>(chosen), iv, fiv, wb,
          dm == WorkloadSpec.DeleteMode.RANDOM ? Report.Targets.RANDOM_CHURN : Report.Targets.QUEUE);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /**
   * The parent's check for the hint policies: {@code --patched-classes} names a directory holding the OM classes of
   * HDDS-skip-hints-2.2.0.patch. Fails before anything runs, naming what is missing.
   */
  private void checkPatchedClasses(Set<String> chosen) {
    List<String> hinted = chosen.stream().filter(HINT_POLICIES::contains).toList();
    String who = String.join(", ", hinted) + ": ";
    if (patchedClasses == null || patchedClasses.toString().isBlank()) {
      throw new IllegalArgumentException(who + "no patched OM classes given. These policies run on the classes the "
          + "ozone-om-patched module builds (dev-support/patches, skip hints included), in a child JVM: pass "
          + "--patched-classes DIR or -D" + PATCHED_CLASSES_PROPERTY + "=DIR (dev-support/bench-tombstones builds "
          + "them and sets it to ozone-om-patched/target/classes), or leave them out with --policies");
    }
    for (String cls : List.of(SkipHintCounters.SKIP_HINTS_CLASS, "org.apache.hadoop.ozone.om.OmMetadataManagerImpl")) {
      Path file = patchedClasses.resolve(cls.replace('.', '/') + ".class");
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(who + "--patched-classes " + patchedClasses + " holds no " + file
            + ": not the classes of ozone-om-patched with HDDS-skip-hints-2.2.0.patch (build that module: "
            + "mvn -pl ozone-om-patched -am compile, or run dev-support/bench-tombstones)");
      }
    }
    if (!Files.isRegularFile(Path.of(System.getProperty("java.home"), "bin", "java"))) {
      throw new IllegalArgumentException(who + "no java launcher in " + System.getProperty("java.home"));
    }
  }

  /** A child JVM's check: it was started with everything it needs, and its OM classes are the patched ones. */
  private void checkChild() {
    if (!HINT_POLICIES.contains(childPolicy) || childWork == null || childResult == null || childSequence == null) {
      throw new IllegalArgumentException("--child-policy is for the benchmark's own child JVMs (policy one of "
          + HINT_POLICIES + ", with --child-work, --child-result and --child-sequence)");
    }
    if (!SkipHintCounters.loaded()) {
      throw new IllegalArgumentException("child JVM for " + childPolicy + ": the OM classes on its class path are "
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

  @Override
  public Integer call() throws Exception {
    System.setProperty("java.awt.headless", "true");
    quietenStartupNoise();
    if (serviceLog) {
      for (String service : new String[] {"RangeCompactionService", "RangeCompactor"}) {
        org.apache.log4j.Logger.getLogger("io.ozonerc.compaction.service." + service)
            .setLevel(org.apache.log4j.Level.INFO);
      }
    }
    if (warmupOps < -1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--warmup-ops must be >= 0 (or -1 for auto), got "
          + warmupOps);
    }
    if (childPolicy != null) {
      return runChild();
    }
    List<ScaleStep> steps = scaleSteps();
    if (!scale) {
      Plan p = plan(sized().ops(), ALL_POLICIES);
      compare(p, out);
      return 0;
    }
    List<String> scalePolicies = List.of("none", "range", "ideal");
    List<Plan> plans = new ArrayList<>();
    for (ScaleStep step : steps) {
      plans.add(plan(step.ops(), scalePolicies)); // validate every scale before the first run
    }
    List<Report> done = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      stdout.printf(Locale.ROOT, "%n=== scale %,d operations ===%n", steps.get(i).ops());
      done.add(compare(plans.get(i), out.resolve("scale-" + steps.get(i).ops())));
    }
    String table = ScaleSeries.table(steps, done);
    stdout.println();
    stdout.println(table);
    Files.createDirectories(out);
    String first = String.format(Locale.ROOT, "%,d operations", steps.get(0).ops());
    Files.writeString(out.resolve("scale.md"), "# Tombstone benchmark: scale series\n\n"
        + header(plans.get(0)).replace(first, ScaleSeries.stepsText(steps)) + "\n\n" + table);
    return 0;
  }

  /**
   * The steps {@code --scale} runs: those {@code --scale-ops} names, smallest first, or all of them. Rejects an
   * unknown or repeated count, an empty list, and the option without {@code --scale}, naming the value.
   */
  List<ScaleStep> scaleSteps() {
    if (scaleOps == null) {
      return SCALE_STEPS;
    }
    if (!scale) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--scale-ops '" + scaleOps + "' needs --scale");
    }
    if (scaleOps.isBlank()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--scale-ops is empty ('" + scaleOps
          + "'); known: " + knownScaleOps());
    }
    List<ScaleStep> chosen = new ArrayList<>();
    for (String part : scaleOps.split(",", -1)) {
      String text = part.trim();
      ScaleStep step = SCALE_STEPS.stream().filter(s -> s.matches(text)).findFirst()
          .orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(), "--scale-ops: unknown operation "
              + "count '" + text + "' in '" + scaleOps + "'; known: " + knownScaleOps()));
      if (chosen.contains(step)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--scale-ops: " + step.ops() + " (" + step.label()
            + ") given twice in '" + scaleOps + "'");
      }
      chosen.add(step);
    }
    chosen.sort(java.util.Comparator.comparingLong(ScaleStep::ops));
    return chosen;
  }

  private static String knownScaleOps() {
    List<String> known = new ArrayList<>();
    SCALE_STEPS.forEach(s -> known.add(s.ops() + " (" + s.label() + ")"));
    return String.join(", ", known);
  }

  private String header(Plan p) {
    Runtime rt = Runtime.getRuntime();
    return String.format(Locale.ROOT,
        "Run %s on %d cores, %d MB max heap, %s %s, Java %s, RocksDB %s (Ozone 2.2.0 OmMetadataManagerImpl, %s).%n%n"
            + "Workload %s: %,d operations, weights %s, live-key cap %,d, delete %s, list %s (%d entries), key names "
            + "%s, %d hot bucket(s), skew %s, seed %d, %d write thread(s), %d list thread(s). %s Memtable %s per "
            + "column "
            + "family. range/reference: every %s, min tombstones %,d, ratio %s, max entries %,d%s; full: every %s.%s",
        ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
        rt.availableProcessors(), rt.maxMemory() >> 20, System.getProperty("os.name"),
        System.getProperty("os.arch"), System.getProperty("java.version"), rocksVersion(),
        patchedList ? "lists through the bounded list iterator patch, skip hints off" : "stock list iterator",
        workload + (size == null ? "" : " at --size " + size), p.spec().totalOps(), p.spec().weights(),
        p.spec().liveCap(), lower(p.spec().deleteMode()),
        lower(p.spec().listMode()), p.spec().listLength(), lower(p.spec().keyNames()), p.spec().buckets(),
        p.spec().skew(), p.spec().seed(), p.runOptions().writeThreads(), p.runOptions().listThreads(),
        coldText(p.spec()), writeBuffer,
        interval, minTombstones, tombstoneRatio, maxCompactionEntries, ", " + rangesPerRun + " ranges per round",
        fullInterval, hintsText(p));
  }

  /** Where the hint policies run, when the comparison has any. */
  private String hintsText(Plan p) {
    List<String> hinted = p.policies().stream().filter(HINT_POLICIES::contains).toList();
    if (hinted.isEmpty()) {
      return "";
    }
    return String.format(Locale.ROOT, " %s: each run in a child JVM with the OM classes of ozone-om-patched first "
            + "(%s: bounded list iterator and skip hints, %s=true), the same sequence, warm-up and store copy; "
            + "range+hints with range's settings. The other policies run here, on %s.", String.join(" and ", hinted),
        patchedClasses, BenchStore.SKIP_HINTS_KEY, patchedList ? "the same patched classes with skip hints off"
            : "stock Ozone 2.2.0 classes");
  }

  private static String coldText(WorkloadSpec s) {
    String cold = s.coldKeys() == 0 ? "No cold data." : String.format(Locale.ROOT, "Cold data: %,d keys (hashed "
        + "names) in %d buckets around the hot one(s), %.0f%% of creates put into a random cold bucket.",
        s.coldKeys(), s.coldBuckets(), s.coldWriteShare() * 100);
    WorkloadSpec.Expiry e = s.expiry();
    return !e.on() ? cold : cold + String.format(Locale.ROOT, " Expiry bucket (%s, sorts last): %,d keys loaded "
        + "with the cold data (%,d under index/, the rest under logs/, named in age order); from %.0f%% to %.0f%% of "
        + "the run a lifecycle expiry deletes the oldest %.0f%% of its logs/ keys (%,d) in batches of %,d; %,d "
        + "listings of it (%d entries each) start at a random key inside it, from %.0f%% of the run to its end.",
        BenchStore.bucketName(s.expiryStoreIndex()), e.keys(), e.kept(), WorkloadSpec.Expiry.FROM * 100,
        WorkloadSpec.Expiry.TO * 100, e.share() * 100, e.expired(), e.batch(), e.lists(), s.listLength(),
        WorkloadSpec.Expiry.FROM * 100);
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String rocksVersion() {
    try {
      return org.rocksdb.RocksDB.rocksdbVersion().toString();
    } catch (Throwable e) {
      return "?";
    }
  }

  private Report compare(Plan p, Path outDir) throws Exception {
    long t0 = System.nanoTime();
    Workload w = Workload.generate(p.spec());
    WorkloadSpec s = p.spec();
    stdout.printf(Locale.ROOT, "%s%n%nSequence: %,d ops (%,d creates of which %,d into cold buckets, %,d deletes, %,d "
            + "lists%s), %,d hot keys live at the end, generated in %.1fs.%n", header(p), w.size, w.creates,
        w.coldPuts, w.deletes, w.lists, w.expiryBatches == 0 && w.expiryLists == 0 ? ""
            : String.format(Locale.ROOT, "; expiry: %,d delete batches removing %,d keys, %,d listings of the "
                + "expiry bucket", w.expiryBatches, w.expiredKeys, w.expiryLists),
        w.finalLiveCount(), (System.nanoTime() - t0) / 1e9);
    WorkloadRunner runner = new WorkloadRunner(w, p.runOptions());
    Path workDir = Files.createDirectories(outDir.resolve("db"));
    long warm = warmOps(s);
    int runs = p.policies().size() * repeat;
    long childRuns = p.policies().stream().filter(HINT_POLICIES::contains).count() * repeat;
    stdout.printf(Locale.ROOT, "Runs ahead: %s%s%d policy run(s) (%d x %d repeat(s))%s; the progress line on stderr "
            + "shows an ETA. The default (hot-queue, 300,000 ops, 1.5e6 cold keys) takes about 13 minutes on 2 "
            + "cores.%n", s.hasTemplate() ? "cold load, " : "", warm > 0 ? "warm-up, " : "", runs,
        p.policies().size(), repeat, childRuns == 0 ? "" : ", " + childRuns + " of them in a child JVM on the "
            + "patched classes (each with its own warm-up)");
    ProgressBar bar = new ProgressBar(stderr, runs + (warm > 0 ? 1 : 0) + (s.hasTemplate() ? 1 : 0), !noProgress);
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
    for (int r = 0; r < repeat; r++) {
      List<String> order = new ArrayList<>(p.policies());
      java.util.Collections.rotate(order, -r); // each policy takes a different slot in each repeat
      for (String name : order) {
        String label = repeat > 1 ? name + "#" + (r + 1) : name;
        bar.startRun(label, w.size);
        RunResult result;
        if (HINT_POLICIES.contains(name)) {
          // Its own JVM, the patched classes first: this one keeps stock 2.2.0 for the other policies.
          List<String> args = childArgs(p, name, template, workDir, workDir.resolve(name + "-" + (r + 1) + ".run"),
              w.digest(), warm);
          result = ChildRun.run(label, ChildRun.command(patchedClasses, args),
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
    Report report = new Report("Tombstone benchmark", header(p), s.listLength(), p.targets(), p.writeBufferBytes(),
        results);
    stdout.println();
    stdout.println(report.tables());
    report.write(outDir, stdout);
    stdout.printf(Locale.ROOT, "Wall time: %s%n", ProgressBar.clock((System.nanoTime() - t0) / 1e9));
    reports.add(report);
    return report;
  }

  private static BenchStore store(Path template, Path workDir, String name, Plan p) throws java.io.IOException {
    int buckets = p.spec().storeBuckets();
    return template == null ? BenchStore.create(workDir, name, buckets, p.writeBufferBytes())
        : BenchStore.openCopy(template, workDir, name, buckets, p.writeBufferBytes());
  }

  /** Warm-up operations: {@code --warmup-ops}, or min(50,000, ops/4). */
  private long warmOps(WorkloadSpec s) {
    return warmupOps >= 0 ? warmupOps : Math.min(50_000, s.totalOps() / 4);
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
    for (CommandLine.Model.OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
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
  private int runChild() throws Exception {
    Plan p = plan(sized().ops(), ALL_POLICIES);
    WorkloadSpec s = p.spec();
    Workload w = Workload.generate(s);
    if (!Long.toHexString(w.digest()).equals(childSequence)) {
      throw new IllegalStateException(childPolicy + ": the child generated another sequence than its parent ("
          + Long.toHexString(w.digest()) + " vs " + childSequence + "): the options did not reach it unchanged");
    }
    ChildRun.Reporter reporter = new ChildRun.Reporter(stdout);
    long warm = warmOps(s);
    if (warm > 0) {
      warmUp(p, warm, childWork, true, reporter::phase, reporter);
    }
    reporter.phase("run", w.size);
    RunResult result;
    try (BenchStore store = childTemplate == null // no template: no cold data and no expiry bucket
        ? BenchStore.create(childWork, childPolicy, s.storeBuckets(), p.writeBufferBytes(), true)
        : BenchStore.openCopy(childTemplate, childWork, childPolicy, s.storeBuckets(), p.writeBufferBytes(), true)) {
      result = new WorkloadRunner(w, p.runOptions()).run(store, newPolicy(childPolicy, p), reporter);
    }
    ChildRun.write(result, childResult);
    return 0;
  }

  private Policy newPolicy(String name, Plan p) {
    switch (name) {
    case HintsPolicy.HINTS:
      return new HintsPolicy(name, new Policy.None(name));
    case HintsPolicy.RANGE_HINTS:
      return new HintsPolicy(name, RangeServicePolicy.create(rangeSettings(p.interval())));
    case "none":
      return new Policy.None();
    case "full":
      return new FullCompactionPolicy(p.fullInterval());
    case "reference":
      return new ReferencePolicy(p.interval(), minTombstones, tombstoneRatio, maxCompactionEntries);
    case "range":
      return RangeServicePolicy.create(rangeSettings(p.interval()));
    default:
      throw new IllegalArgumentException("unknown policy " + name);
    }
  }

  /**
   * Every store the benchmark opens makes Ozone try its optional native SST reader, which on this libstdc++ logs a
   * WARN with a full stack trace (harmless: snapshot-diff pruning only), and announce the compaction-DAG service;
   * Ozone's CompactDBUtil logs two INFO lines per table per {@code full} round (the policy counts them itself).
   * Quieten just those loggers so the progress and summary lines stay readable.
   */
  static void quietenStartupNoise() {
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdds.utils.NativeLibraryLoader")
        .setLevel(org.apache.log4j.Level.ERROR);
    org.apache.log4j.Logger.getLogger("org.apache.ozone.rocksdiff.RocksDBCheckpointDiffer")
        .setLevel(org.apache.log4j.Level.ERROR);
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.ozone.om.service.CompactDBUtil")
        .setLevel(org.apache.log4j.Level.WARN);
    // The range service logs each round at INFO; its metrics are summarised in the report instead.
    org.apache.log4j.Logger.getLogger("io.ozonerc.compaction.service.RangeCompactionService")
        .setLevel(org.apache.log4j.Level.WARN);
    org.apache.log4j.Logger.getLogger("io.ozonerc.compaction.service.RangeCompactor")
        .setLevel(org.apache.log4j.Level.WARN);
    org.apache.log4j.Logger.getLogger("org.apache.hadoop.hdds.utils.BackgroundService")
        .setLevel(org.apache.log4j.Level.WARN);
  }

  private RangeServicePolicy.Settings rangeSettings(Duration iv) {
    return new RangeServicePolicy.Settings(iv, minTombstones, tombstoneRatio, maxCompactionEntries, rangesPerRun,
        rangeConf);
  }
}
