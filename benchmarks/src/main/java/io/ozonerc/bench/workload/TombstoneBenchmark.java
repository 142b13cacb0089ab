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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
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
 * <p>This class holds the command line; its options become a {@link Plan}, which a {@link Comparison} runs.
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

  @Option(names = "--readme", paramLabel = "FILE", description = "Also write the short results table into FILE "
      + "between the lines " + ReadmeTable.BEGIN + " and " + ReadmeTable.END + " (how the README's table is made).")
  Path readme;

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
      return new Comparison(this).runChild();
    }
    List<ScaleStep> steps = scaleSteps();
    if (!scale) {
      if (readme != null) {
        try {
          ReadmeTable.check(readme); // before the run, not after it
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
      }
      Plan p = Plan.of(this, sized().ops(), ALL_POLICIES);
      Report report = new Comparison(this).run(p, out);
      if (readme != null) {
        String command = String.join(" ", spec.commandLine().getParseResult().originalArgs());
        ReadmeTable.update(readme, "As `dev-support/bench-tombstones " + command + "` last wrote it; its "
            + "`report.md` holds the rest (every table, the targets' MET/MISSED lines, the charts):",
            report.shortTable());
        stdout.println("Short table written into " + readme.toAbsolutePath());
      }
      return 0;
    }
    if (readme != null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--readme writes one comparison's short table; "
          + "--scale runs several: give one of them");
    }
    List<String> scalePolicies = List.of("none", "range", "ideal");
    List<Plan> plans = new ArrayList<>();
    for (ScaleStep step : steps) {
      plans.add(Plan.of(this, step.ops(), scalePolicies)); // validate every scale before the first run
    }
    List<Report> done = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      stdout.printf(Locale.ROOT, "%n=== scale %,d operations ===%n", steps.get(i).ops());
      done.add(new Comparison(this).run(plans.get(i), out.resolve("scale-" + steps.get(i).ops())));
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

  /** What the comparison of {@code p} runs, on what: the report's and the console's first paragraph. */
  String header(Plan p) {
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

  RangeServicePolicy.Settings rangeSettings(Duration iv) {
    return new RangeServicePolicy.Settings(iv, minTombstones, tombstoneRatio, maxCompactionEntries, rangesPerRun,
        rangeConf);
  }
}
