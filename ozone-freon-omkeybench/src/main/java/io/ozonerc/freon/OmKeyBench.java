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

package io.ozonerc.freon;

import io.ozonerc.freon.LiveKeys.DeleteOrder;
import io.ozonerc.freon.Weights.Op;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.commons.lang3.StringUtils;
import org.apache.hadoop.hdds.cli.HddsVersionProvider;
import org.apache.hadoop.hdds.client.ReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.conf.StorageSize;
import org.apache.hadoop.hdds.conf.TimeDurationUtil;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.freon.BaseFreonGenerator;
import org.apache.hadoop.ozone.freon.FreonReplicationOptions;
import org.apache.hadoop.ozone.freon.StorageSizeConverter;
import org.apache.hadoop.ozone.om.exceptions.OMException;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyArgs;
import org.apache.hadoop.ozone.om.protocol.OzoneManagerProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code ozone freon omkeybench}: a weighted mix of CREATE, DELETE and LIST against one bucket, for judging how the
 * OM's metadata store behaves under churn (tombstones) rather than raw throughput.
 *
 * <h2>Keys</h2>
 * CREATE writes {@code <prefix><19-digit id>}, ids increasing from 0, so names sort in creation order and a bucket
 * used as a queue has its oldest keys at its start. The generator tracks up to {@code --max-live-keys} of its keys
 * in {@link LiveKeys}; DELETE takes a tracked key ({@code --delete-order}: a random one, or the oldest), LIST starts
 * at a random tracked key or at the bucket start ({@code --list-start}). DELETE, and LIST from a random key, are
 * skipped (counted, not timed) while nothing is tracked.
 *
 * <h2>Two tracking modes</h2>
 * {@code --tracking published} reproduces the published omkeybench: a key created while the tracked set is full is
 * never tracked, so never deleted, and the bucket keeps growing past the cap. {@code --tracking all} tracks every
 * key: a CREATE that finds every slot taken first deletes one tracked key (timed as a DELETE), so the benchmark's
 * keys in the bucket never exceed the cap, not even for a moment (a slot is held from before the create RPC until
 * after the delete RPC).
 *
 * <h2>Cost on the client</h2>
 * Only the RPC is inside the timed section. Picking, tracking and un-tracking a key are O(1) under one short lock
 * (no copy of the set, unlike the published version, which copied it for every DELETE and LIST). A key taken for
 * deletion leaves the set before its RPC, so no two threads delete the same key.
 *
 * <h2>Many buckets</h2>
 * {@code --buckets N} (N > 1) spreads the load over N buckets {@code <bucket>-<i>} ({@code i} zero-padded, so they
 * sort by index), all created if absent: key id {@code k} lives in bucket {@code k mod N}, so each bucket still
 * holds its keys in creation order, a DELETE or a LIST from a tracked key goes to that key's bucket, and a LIST from
 * the bucket start goes to a random bucket. With {@code --weights create:1} it is a background writer spreading
 * creates over many buckets.
 *
 * <h2>Reporting</h2>
 * Latencies are kept for the whole run in {@link LatencyHistogram}s behind the Dropwizard timers freon reports at
 * exit (Dropwizard's default reservoir would reflect only the last five minutes or so). Every
 * {@code --report-interval} a status line (interactive: in freon's progress bar) and, with {@code --csv}, one CSV
 * row per operation; at the end a whole-run table on standard output.
 */
@Command(name = "omkeybench",
    aliases = "om-key-bench",
    description = "Weighted CREATE/DELETE/LIST load on one bucket (or spread over --buckets), with whole-run "
        + "latency percentiles and "
        + "per-interval CSV rows; can drive the bucket as a queue (delete oldest, list from the bucket start).",
    versionProvider = HddsVersionProvider.class,
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    // Only the help of -p/--prefix (key "prefix"): it is freon's option, whose own text promises a random prefix
    // when empty, but allowEmptyPrefix() keeps it empty.
    resourceBundle = "io.ozonerc.freon.OmKeyBench")
public class OmKeyBench extends BaseFreonGenerator implements Callable<Void> {
  private static final Logger LOG = LoggerFactory.getLogger(OmKeyBench.class);

  /** How keys are tracked; see the class comment. */
  enum Tracking { PUBLISHED, ALL }

  /** Where a LIST starts. */
  enum ListStart { RANDOM_LIVE, BUCKET_START }

  @Option(names = {"-v", "--volume"}, defaultValue = "vol1",
      description = "Volume of the bucket (created if absent).")
  private String volumeName;

  @Option(names = {"-b", "--bucket"}, defaultValue = "bucket1",
      description = "Bucket to load (created if absent).")
  private String bucketName;

  @Option(names = "--buckets", defaultValue = "1",
      description = "Spread the load over this many buckets, <bucket>-<i> (i zero-padded), key id k in bucket "
          + "k mod N; 1: the one bucket --bucket.")
  private int bucketCount;

  @Option(names = "--layout",
      description = "Layout of the bucket if it is created: FILE_SYSTEM_OPTIMIZED (fso), OBJECT_STORE (obs) or "
          + "LEGACY. Default: the OM's default, as other freon generators create buckets. An existing bucket "
          + "must have this layout.")
  private String layoutOption;

  @Option(names = "--weights", defaultValue = "create:20,delete:8,list:1",
      description = "Operation mix, op:weight pairs (create, delete, list); each operation is drawn with "
          + "probability weight / sum. An op left out weighs 0.")
  private String weightsOption;

  @Option(names = "--batch-size", defaultValue = "1000",
      description = "Keys per LIST request.")
  private int batchSize;

  @Option(names = {"-s", "--size"}, defaultValue = "0", converter = StorageSizeConverter.class,
      description = "Size of each created key; 0 needs no datanode. " + StorageSizeConverter.STORAGE_SIZE_DESCRIPTION)
  private StorageSize size;

  @Option(names = "--max-live-keys", defaultValue = "25000",
      description = "Most keys tracked for DELETE and LIST (with --tracking all: most keys in the bucket).")
  private int maxLiveKeys;

  @Option(names = "--delete-order", defaultValue = "random",
      description = "Which tracked key a DELETE removes: random (as published) or oldest (a queue).")
  private String deleteOrderOption;

  @Option(names = "--list-start", defaultValue = "random-live",
      description = "Where a LIST starts: random-live (a random tracked key, as published) or bucket-start.")
  private String listStartOption;

  @Option(names = "--tracking", defaultValue = "published",
      description = "published: keys created while --max-live-keys are tracked stay untracked and are never "
          + "deleted (the published omkeybench); all: every key is tracked, a CREATE at the cap first deletes one, "
          + "so the bucket never holds more than --max-live-keys of them.")
  private String trackingOption;

  @Option(names = "--report-interval", defaultValue = "10s",
      description = "Interval of the status line and of the CSV rows, e.g. 1s, 10s, 1m.")
  private String reportIntervalOption;

  @Option(names = "--csv",
      description = "Write per-interval rows (and whole-run rows at the end) to this CSV file.")
  private String csvPath;

  @Option(names = "--om-service-id", description = "OM Service ID")
  private String omServiceId;

  @Mixin
  private FreonReplicationOptions replication;

  @Spec
  private CommandSpec spec;

  // Validated options.
  private Weights weights;
  private BucketLayout layout;
  private DeleteOrder deleteOrder;
  private ListStart listStart;
  private Tracking tracking;
  private long reportIntervalMillis;

  // Run state.
  private final Map<Op, OpStats> stats = new EnumMap<>(Op.class);
  private final AtomicLong nextId = new AtomicLong();
  private final LongAdder created = new LongAdder();
  private final LongAdder deleted = new LongAdder();
  private final UntrackedKeys untracked = new UntrackedKeys();
  private LiveKeys live;
  private ReplicationConfig replicationConfig;
  private OzoneBucket[] buckets;
  private String[] bucketNames;
  private OzoneManagerProtocol om;
  private byte[] content;
  private volatile BenchReport report;

  public OmKeyBench() {
    for (Op op : Op.values()) {
      stats.put(op, new OpStats());
    }
  }

  @Override
  public Void call() throws Exception {
    validateOptions();
    live = new LiveKeys(maxLiveKeys);
    content = new byte[(int) Math.min(size.toBytes(), 1 << 16)];
    ThreadLocalRandom.current().nextBytes(content);
    init();
    OzoneConfiguration conf = createOzoneConfiguration();
    replicationConfig = replication.fromParamsOrConfig(conf);
    ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "omkeybench-report");
      t.setDaemon(true);
      return t;
    });
    // The CSV file first: a path that cannot be written fails before the cluster is contacted.
    try (Writer csv = csvPath == null ? null : Files.newBufferedWriter(Paths.get(csvPath), StandardCharsets.UTF_8);
         OzoneClient client = createOzoneClient(omServiceId, conf)) {
      bucketNames = bucketNames(bucketName, bucketCount);
      buckets = new OzoneBucket[bucketCount];
      for (int i = 0; i < bucketCount; i++) {
        buckets[i] = ensureBucket(client, bucketNames[i]);
      }
      om = createOmClient(conf, omServiceId);
      for (Op op : Op.values()) {
        getMetrics().register(op.name(), stats.get(op).timer());
      }
      String where = bucketCount == 1 ? bucketNames[0]
          : bucketNames[0] + ".." + bucketNames[bucketCount - 1] + " (" + bucketCount + " buckets)";
      print(String.format(Locale.ROOT, "omkeybench: /%s/%s (%s), weights %s, tracking %s, delete-order %s, "
              + "list-start %s, max-live-keys %d, batch-size %d, size %d, key prefix '%s'", volumeName, where,
          buckets[0].getBucketLayout(), weights, lower(tracking), lower(deleteOrder), lower(listStart), maxLiveKeys,
          batchSize, size.toBytes(), getPrefix()));
      long start = System.nanoTime();
      BenchReport r = new BenchReport(stats, created::sum, deleted::sum, live::size, maxLiveKeys, csv, start);
      report = r;
      boolean interactive = System.console() != null;
      reporter.scheduleAtFixedRate(() -> tick(r, interactive), reportIntervalMillis, reportIntervalMillis,
          TimeUnit.MILLISECONDS);
      try {
        runTests(this::step);
      } finally {
        reporter.shutdown();
        reporter.awaitTermination(1, TimeUnit.MINUTES);
        long end = System.nanoTime();
        r.finish(end);
        PrintWriter out = spec.commandLine().getOut();
        r.summary(end).forEach(out::println);
        out.flush();
      }
    } finally {
      reporter.shutdownNow();
      if (om != null) {
        om.close();
      }
    }
    return null;
  }

  private void tick(BenchReport r, boolean interactive) {
    try {
      r.tick(System.nanoTime());
      if (!interactive) {
        print("omkeybench: " + r.statusLine());
      }
    } catch (IOException e) {
      LOG.error("Cannot write to --csv {}", csvPath, e);
    }
  }

  /**
   * Checks every option before anything touches the cluster; a bad one is a {@link ParameterException} naming it,
   * which picocli prints with the usage and a non-zero exit code.
   */
  void validateOptions() {
    weights = parse("--weights", weightsOption, Weights::parse);
    deleteOrder = parse("--delete-order", deleteOrderOption, v -> choice(DeleteOrder.class, v));
    listStart = parse("--list-start", listStartOption, v -> choice(ListStart.class, v));
    tracking = parse("--tracking", trackingOption, v -> choice(Tracking.class, v));
    if (layoutOption != null) {
      layout = parse("--layout", layoutOption, OmKeyBench::bucketLayout);
    }
    reportIntervalMillis = parse("--report-interval", reportIntervalOption,
        v -> positive(TimeDurationUtil.getTimeDurationHelper("--report-interval", v, TimeUnit.MILLISECONDS)));
    Object duration = spec.findOption("--duration").getValue();
    if (duration != null) {
      parse("--duration", duration.toString(),
          v -> positive(TimeDurationUtil.getTimeDurationHelper("--duration", v, TimeUnit.SECONDS)));
    }
    atLeastOne("--number-of-tests", getTestNo());
    atLeastOne("--threads", getThreadNo());
    atLeastOne("--batch-size", batchSize);
    atLeastOne("--max-live-keys", maxLiveKeys);
    atLeastOne("--buckets", bucketCount);
    if (bucketCount > 1) {
      // Bucket names are at most 63 characters.
      parse("--buckets", Integer.toString(bucketCount), v -> bucketNames(bucketName, Integer.parseInt(v)));
    }
    if (size.toBytes() < 0) {
      throw bad("--size", size.toString(), "must not be negative");
    }
  }

  private <T> T parse(String option, String value, java.util.function.Function<String, T> parser) {
    try {
      return parser.apply(value);
    } catch (RuntimeException e) {
      throw bad(option, value, e.getMessage());
    }
  }

  private void atLeastOne(String option, long value) {
    if (value < 1) {
      throw bad(option, Long.toString(value), "must be at least 1");
    }
  }

  private ParameterException bad(String option, String value, String why) {
    return new ParameterException(spec.commandLine(),
        String.format("Invalid value for option '%s': '%s': %s", option, value, why));
  }

  private static long positive(long v) {
    if (v <= 0) {
      throw new IllegalArgumentException("must be positive");
    }
    return v;
  }

  /** An enum constant from its lower-case, dash-separated name ({@code random-live} for RANDOM_LIVE). */
  static <E extends Enum<E>> E choice(Class<E> type, String value) {
    for (E e : type.getEnumConstants()) {
      if (lower(e).equalsIgnoreCase(value.trim())) {
        return e;
      }
    }
    String[] names = Arrays.stream(type.getEnumConstants()).map(OmKeyBench::lower).toArray(String[]::new);
    throw new IllegalArgumentException("expected one of " + String.join(", ", names));
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static BucketLayout bucketLayout(String value) {
    switch (value.trim().toUpperCase(Locale.ROOT)) {
    case "FSO":
    case "FILE_SYSTEM_OPTIMIZED":
      return BucketLayout.FILE_SYSTEM_OPTIMIZED;
    case "OBS":
    case "OBJECT_STORE":
      return BucketLayout.OBJECT_STORE;
    case "LEGACY":
      return BucketLayout.LEGACY;
    default:
      throw new IllegalArgumentException("expected FILE_SYSTEM_OPTIMIZED (fso), OBJECT_STORE (obs) or LEGACY");
    }
  }

  /**
   * The buckets of {@code --buckets n}: {@code base} alone for 1, else {@code base-<i>} with {@code i} zero-padded
   * to the width of {@code n - 1}.
   */
  static String[] bucketNames(String base, int n) {
    if (n == 1) {
      return new String[] {base};
    }
    int width = Integer.toString(n - 1).length();
    if (base.length() + 1 + width > 63) {
      throw new IllegalArgumentException("bucket names " + base + "-<" + width + " digits> would exceed 63 "
          + "characters");
    }
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = base + "-" + StringUtils.leftPad(Integer.toString(i), width, '0');
    }
    return names;
  }

  /** Index of the bucket that holds key id {@code id} among {@code n} buckets. */
  static int bucketIndex(long id, int n) {
    return (int) Math.floorMod(id, (long) n);
  }

  /**
   * The bucket, created if absent. Another process (a second omkeybench on the same volume) may create the volume
   * or the bucket between the check and the create: "already exists" is then what was wanted.
   */
  private OzoneBucket ensureBucket(OzoneClient client, String name) throws IOException {
    try {
      ensureVolumeExists(client, volumeName);
    } catch (OMException e) {
      if (e.getResult() != OMException.ResultCodes.VOLUME_ALREADY_EXISTS) {
        throw e;
      }
    }
    OzoneVolume volume = client.getObjectStore().getVolume(volumeName);
    try {
      OzoneBucket existing = volume.getBucket(name);
      if (layout != null && existing.getBucketLayout() != layout) {
        throw new IllegalArgumentException(String.format("--layout %s, but bucket /%s/%s exists with layout %s",
            layout, volumeName, name, existing.getBucketLayout()));
      }
      return existing;
    } catch (OMException e) {
      if (e.getResult() != OMException.ResultCodes.BUCKET_NOT_FOUND) {
        throw e;
      }
    }
    try {
      if (layout == null) {
        volume.createBucket(name);
      } else {
        volume.createBucket(name, BucketArgs.newBuilder().setBucketLayout(layout).build());
      }
    } catch (OMException e) {
      if (e.getResult() != OMException.ResultCodes.BUCKET_ALREADY_EXISTS) {
        throw e;
      }
    }
    return volume.getBucket(name);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // One task: draw an operation and run it.

  private void step(long ignoredTaskId) throws Exception {
    switch (weights.pick(ThreadLocalRandom.current().nextInt(weights.total()))) {
    case CREATE:
      create();
      break;
    case DELETE:
      long id = live.take(deleteOrder);
      if (id == LiveKeys.NONE) {
        stats.get(Op.DELETE).skip();
      } else {
        delete(id);
        live.release();
      }
      break;
    default:
      list();
      break;
    }
  }

  private void create() throws Exception {
    if (tracking == Tracking.PUBLISHED) {
      long id = nextId.getAndIncrement();
      timedCreate(id);
      if (!live.tryAdd(id)) {
        untracked.add(id);
      }
      return;
    }
    if (!live.tryReserve()) {
      // Every slot is live or in flight: free one by deleting a tracked key, and keep its slot for this create.
      long victim = live.take(deleteOrder);
      if (victim == LiveKeys.NONE) {
        stats.get(Op.CREATE).skip(); // every slot is in flight on other threads
        return;
      }
      delete(victim);
    }
    long id = nextId.getAndIncrement();
    try {
      timedCreate(id);
    } catch (Exception e) {
      live.release();
      throw e;
    }
    live.addReserved(id);
  }

  private void timedCreate(long id) throws IOException {
    String key = keyName(id);
    long t0 = System.nanoTime();
    OzoneBucket bucket = buckets[bucketIndex(id, bucketCount)];
    try (OutputStream out = bucket.createKey(key, size.toBytes(), replicationConfig, Collections.emptyMap())) {
      for (long left = size.toBytes(); left > 0; left -= content.length) {
        out.write(content, 0, (int) Math.min(left, content.length));
      }
    }
    stats.get(Op.CREATE).record(System.nanoTime() - t0);
    created.increment();
  }

  /** Deletes a key taken from {@link #live}; its slot stays in flight. On failure the key is tracked again. */
  private void delete(long id) throws IOException {
    OmKeyArgs args = new OmKeyArgs.Builder().setVolumeName(volumeName)
        .setBucketName(bucketNames[bucketIndex(id, bucketCount)]).setKeyName(keyName(id)).build();
    long t0 = System.nanoTime();
    try {
      om.deleteKey(args);
    } catch (IOException | RuntimeException e) {
      live.putBack(id);
      throw e;
    }
    stats.get(Op.DELETE).record(System.nanoTime() - t0);
    deleted.increment();
  }

  private void list() throws IOException {
    String startKey = "";
    String listBucket;
    if (listStart == ListStart.RANDOM_LIVE) {
      long id = live.peekRandom();
      if (id == LiveKeys.NONE) {
        stats.get(Op.LIST).skip();
        return;
      }
      startKey = keyName(id);
      listBucket = bucketNames[bucketIndex(id, bucketCount)];
    } else {
      listBucket = bucketNames[ThreadLocalRandom.current().nextInt(bucketCount)];
    }
    long t0 = System.nanoTime();
    om.listKeys(volumeName, listBucket, startKey, "", batchSize);
    stats.get(Op.LIST).record(System.nanoTime() - t0);
  }

  String keyName(long id) {
    return getPrefix() + StringUtils.leftPad(Long.toString(id), 19, '0');
  }

  // ---------------------------------------------------------------------------------------------------------------

  @Override
  public Supplier<String> realTimeStatusSupplier() {
    return () -> {
      BenchReport r = report;
      return r == null ? "" : r.statusLine();
    };
  }

  /** As published: without {@code -p}, key names are just the zero-padded ids. */
  @Override
  public boolean allowEmptyPrefix() {
    return true;
  }

  /** Names of the keys the benchmark believes are in the bucket: tracked plus untracked (O(n); after a run). */
  TreeSet<String> liveKeyNames() {
    TreeSet<String> names = new TreeSet<>();
    for (long id : live.toArray()) {
      names.add(keyName(id));
    }
    for (long id : untracked.toArray()) {
      names.add(keyName(id));
    }
    return names;
  }

  long createdCount() {
    return created.sum();
  }

  long deletedCount() {
    return deleted.sum();
  }

  int trackedCount() {
    return live.size();
  }

  OpStats stats(Op op) {
    return stats.get(op);
  }

  BenchReport report() {
    return report;
  }
}
