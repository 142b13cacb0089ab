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

package io.ozonerc.devsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.testsupport.LoopbackPorts;
import io.ozonerc.testsupport.RepoPaths;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.ObjectStore;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneClientFactory;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * {@code dev-support/local-cluster} end to end: real SCM and OM processes (the OM through RangeCompactionOmStarter),
 * a real client over RPC, the service's effect read from the OM's own {@code /prom}, the script's clients
 * ({@code sh}, {@code freon}, {@code admin}), the Grafana dashboard and alert rules against a real Prometheus
 * scraping that OM ({@link DashboardOnCluster}), a stop that leaves no process behind, and a start the OM refuses that
 * stops SCM again; {@code clean}'s target/ rule without a cluster. One cluster serves all of it: a start is the
 * costliest step.
 *
 * <p>Part of the default test run: about 75 s on two shared cores (start 24 s with C1-only JVMs, workload 15 s,
 * clients 13 s, Prometheus and the dashboard ~15 s, stop 7 s, failed start 6 s). {@code -Dlocal.cluster.it=false}
 * skips it, reported as skipped with the reason. Needs bash, curl and setsid (Debian 12 has them) and Prometheus
 * ({@link TestTools}); binds two random blocks of 20 loopback ports.
 *
 * <p>How the tombstones reach SST files: RocksDB only reports flushed data, and a separate OM process cannot be
 * told to flush. Creating an Ozone snapshot can: the OM checkpoints its RocksDB, and a checkpoint flushes every
 * memtable. So: create keys, snapshot (the puts become one level-0 file), delete most keys, snapshot (the
 * tombstones become a second level-0 file, too few files for RocksDB to compact on its own), then wait for the
 * service.
 */
@DisabledIfSystemProperty(named = "local.cluster.it", matches = "false",
    disabledReason = "-Dlocal.cluster.it=false: real SCM and OM processes not started")
class LocalClusterScriptTest {
  private static final int PORTS = 20;           // the script's port block: LOCAL_CLUSTER_PORT_BASE .. +19
  private static final int KEYS = 600;
  private static final int DELETED = 570;         // the lowest 95%, a contiguous run
  /**
   * Keys left alone in a second bucket: the dashboard's worst-ratio panel shows a table only while its live SST files
   * hold at least 16 KiB, and {@value #KEYS} keys less {@value #DELETED} are far below that once compacted (600 such
   * keys flush to about 22 KB). These keep keyTable above it.
   */
  private static final int KEPT = 1000;
  private static final int FREON_KEYS = 200;
  private static final int FREON_LEFT = 20;
  private static final int TIMED_OUT = -1;        // run()'s exit code for a script killed after its timeout
  private static final Pattern PROM_URL = Pattern.compile("OM /prom\\s+(http://127\\.0\\.0\\.1:\\d+/prom)");

  @Test
  void startCompactStop() throws Exception {
    Path root = RepoPaths.root();
    TestTools.ensureInstalled(root);
    Path work = root.resolve("dev-support/target/local-cluster-it/run-" + System.currentTimeMillis());
    String classPath = System.getProperty("java.class.path");
    assertOmAndServiceOfThisBuild(root, classPath);
    Map<String, String> env = new HashMap<>();
    env.put("LOCAL_CLUSTER_DIR", work.toString());
    env.put("LOCAL_CLUSTER_PORT_BASE", Integer.toString(freePortBlock()));
    env.put("LOCAL_CLUSTER_CLASSPATH", classPath);
    // C1 only: these JVMs live a minute; start-up time matters, peak speed does not.
    env.put("LOCAL_CLUSTER_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
    // Statistics ALL: the dashboard's seek and skip panels read RocksDB tickers.
    env.put("LOCAL_CLUSTER_CONF", "ozone.metastore.rocksdb.statistics=ALL ozone.om.range.compaction.interval=1s");

    boolean passed = false;
    DashboardOnCluster dashboard = null;
    // If this JVM is killed mid-test (surefire timeout, Ctrl-C), the daemons must still go.
    Thread reaper = new Thread(() -> {
      try {
        script(root, work, env, 150, "stop", true);
      } catch (Exception e) {
        System.err.println("local-cluster stop from shutdown hook failed: " + e);
      }
    });
    Runtime.getRuntime().addShutdownHook(reaper);
    try {
      long t0 = System.nanoTime();
      String out = script(root, work, env, 240, "start");
      long startMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      Matcher m = PROM_URL.matcher(out);
      assertTrue(m.find(), "start prints the OM's /prom URL:\n" + out);
      URI prom = URI.create(m.group(1));
      Map<String, String> ports = clusterEnv(work);
      assertTrue(script(root, work, env, 30, "status").contains("om  running"));
      // Beside the working directory, not in it: `clean` deletes that.
      dashboard = new DashboardOnCluster(root, work.resolveSibling(work.getFileName() + ".prometheus"), ports);

      long t1 = System.nanoTime();
      runWorkload("127.0.0.1:" + ports.get("OM_RPC_PORT"), work);
      long workloadMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);

      long tc = System.nanoTime();
      checkClients(root, work, env);
      checkAdmin(root, work, env, "127.0.0.1:" + ports.get("OM_RPC_PORT"));
      long clientMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - tc);

      long t2 = System.nanoTime();
      String metrics = waitForCompactedRange(prom, 90);
      long waitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t2);
      long compacted = promValue(metrics, "range_compaction_ranges_compacted");
      assertTrue(compacted > 0, metrics);

      long td = System.nanoTime();
      dashboard.awaitKeyTableCompacted(DELETED);
      listKeys("127.0.0.1:" + ports.get("OM_RPC_PORT"), 5);
      dashboard.checkEveryQueryAlertAndPanel();
      dashboard.close();
      long dashboardMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - td);

      List<Long> pids = pids(work);
      assertEquals(2, pids.size(), "scm and om pid files");
      for (long pid : pids) {
        assertEquals(List.of(), inheritedDescriptors(pid, work), "process " + pid + " keeps the launcher's descriptor");
      }
      // The starter read the script's ozone-site.xml: min.tombstones=100 there (10000 is our default).
      String omLog = Files.readString(work.resolve("logs/om.log"));
      assertTrue(omLog.contains("Starting with RangeCompactionConfig{enabled=true, interval=PT1S")
          && omLog.contains("minTombstones=100,"), "the service runs with the site file's values");
      long t3 = System.nanoTime();
      script(root, work, env, 150, "stop");
      long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t3);
      for (long pid : pids) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        assertFalse(p.isPresent() && p.get().isAlive(), "process " + pid + " still alive after stop");
      }
      assertFalse(script(root, work, env, 30, "status", true).contains("running"));

      long t4 = System.nanoTime();
      checkFailedStart(root, work, env);
      long failedStartMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t4);
      System.out.printf("local-cluster timings: start %d ms, workload %d ms, sh+freon+admin %d ms, until compacted "
          + "%d ms, dashboard %d ms, stop %d ms, failed start %d ms%n%s%n", startMs, workloadMs, clientMs, waitMs,
          dashboardMs, stopMs, failedStartMs, metrics);
      passed = true;
    } finally {
      // Never leave processes behind; keep the working directory (logs) when something failed.
      if (dashboard != null) {
        dashboard.close();
      }
      script(root, work, env, 150, "stop", true);
      Runtime.getRuntime().removeShutdownHook(reaper);
      if (passed) {
        script(root, work, env, 60, "clean", true);
      } else {
        System.err.println("local-cluster logs kept in " + work.resolve("logs"));
      }
    }
  }

  /**
   * The classpath handed to the script (this module's test classpath) holds the OM and the range compaction
   * service, the service as this build compiled it: ozone-om-compaction's target/classes from the reactor, and no
   * jar of this project from a Maven repository, where an earlier build may have left an older one.
   */
  private static void assertOmAndServiceOfThisBuild(Path root, String classPath) {
    List<String> entries = List.of(classPath.split(File.pathSeparator));
    String service = root.resolve("ozone-om-compaction/target/classes").toString();
    assertTrue(entries.contains(service), "the service's classes " + service + " on the classpath " + classPath);
    assertTrue(entries.stream().anyMatch(e -> Path.of(e).getFileName().toString().startsWith("ozone-manager-")),
        "the OM's jar on the classpath " + classPath);
    assertEquals(List.of(), entries.stream().filter(e -> e.contains("/io/ozonerc/")).toList(),
        "this project's jars from a Maven repository on the classpath");
  }

  /**
   * Volume, OBS bucket, {@value #KEYS} zero-size keys (and {@value #KEPT} in a bucket of their own that stay),
   * snapshot (flush), delete the lowest {@value #DELETED}, snapshot (flush); listKeys must then return exactly the live
   * keys.
   *
   * <p>The OM answers a request once it is applied to its table cache, before its batch reaches RocksDB, and stock
   * 2.2.0's listKeys can show a deleted key while that batch commits (its RocksDB iterator opened before the commit,
   * the key's cache entry cleaned away after it). So the listing waits until the OM wrote the second snapshot's
   * checkpoint: the double buffer writes it after committing every batch before the snapshot, the deletes' included.
   */
  private static void runWorkload(String omAddress, Path work) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.address", omAddress);
    try (OzoneClient client = OzoneClientFactory.getRpcClient(conf)) {
      ObjectStore store = client.getObjectStore();
      store.createVolume("vol1");
      OzoneVolume volume = store.getVolume("vol1");
      volume.createBucket("obs", BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
      volume.createBucket("kept", BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
      OzoneBucket bucket = volume.getBucket("obs");
      OzoneBucket kept = volume.getBucket("kept");

      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> writes = new ArrayList<>();
        for (int i = 0; i < KEPT + KEYS; i++) {
          OzoneBucket target = i < KEPT ? kept : bucket;
          String key = key(i < KEPT ? i : i - KEPT);
          writes.add(pool.submit(() -> {
            target.createKey(key, 0).close();
            return null;
          }));
        }
        for (Future<?> f : writes) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      store.createSnapshot("vol1", "obs", "before-deletes");

      List<String> doomed = new ArrayList<>();
      for (int i = 0; i < DELETED; i++) {
        doomed.add(key(i));
      }
      bucket.deleteKeys(doomed);
      store.createSnapshot("vol1", "obs", "after-deletes");
      awaitCheckpoint(work, store.getSnapshotInfo("vol1", "obs", "after-deletes").getSnapshotId().toString());

      Set<String> expected = new TreeSet<>();
      for (int i = DELETED; i < KEYS; i++) {
        expected.add(key(i));
      }
      Set<String> listed = new TreeSet<>();
      Iterator<? extends OzoneKey> it = bucket.listKeys("");
      while (it.hasNext()) {
        listed.add(it.next().getName());
      }
      assertEquals(expected, listed, "listKeys after the deletes");
    }
  }

  /** Waits (at most a minute) until the OM under {@code work} wrote the checkpoint of snapshot {@code id}. */
  private static void awaitCheckpoint(Path work, String id) throws InterruptedException {
    Path checkpoint = work.resolve("data/om/db/db.snapshots/checkpointState/om.db-" + id);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (!Files.isDirectory(checkpoint)) {
      if (System.nanoTime() > deadline) {
        fail("the OM wrote no checkpoint " + checkpoint + " within a minute of the snapshot's creation");
      }
      Thread.sleep(20);
    }
  }

  /** Lists the workload's bucket {@code times} times: seeks across its compacted dead keys, for the dashboard. */
  private static void listKeys(String omAddress, int times) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.address", omAddress);
    try (OzoneClient client = OzoneClientFactory.getRpcClient(conf)) {
      OzoneBucket bucket = client.getObjectStore().getVolume("vol1").getBucket("obs");
      for (int i = 0; i < times; i++) {
        int n = 0;
        for (Iterator<? extends OzoneKey> it = bucket.listKeys(""); it.hasNext(); it.next()) {
          n++;
        }
        assertEquals(KEYS - DELETED, n, "keys listed");
      }
    }
  }

  /**
   * The script's own clients, as the docs tell a user to run them: {@code sh} creates a volume and bucket, freon's
   * {@code omkg} writes {@value #FREON_KEYS} zero-size keys with a fixed prefix and {@code ockr} removes all but
   * {@value #FREON_LEFT} of them; {@code sh key list} must then show exactly those left.
   */
  private static void checkClients(Path root, Path work, Map<String, String> env) throws Exception {
    script(root, work, env, 60, "sh", "volume", "create", "/clivol");
    script(root, work, env, 60, "sh", "bucket", "create", "/clivol/fifo", "--layout", "OBJECT_STORE");
    String made = script(root, work, env, 120, "freon", "omkg", "-v", "clivol", "-b", "fifo",
        "-n", Integer.toString(FREON_KEYS), "-t", "2", "-p", "k");
    assertTrue(made.contains("Successful executions: " + FREON_KEYS), made);
    String removed = script(root, work, env, 120, "freon", "ockr", "-v", "clivol", "-b", "fifo",
        "-n", Integer.toString(FREON_KEYS - FREON_LEFT), "-t", "2", "-p", "k");
    assertTrue(removed.contains("Successful executions: " + (FREON_KEYS - FREON_LEFT)), removed);
    String listing = script(root, work, env, 60, "sh", "key", "list", "/clivol/fifo", "--length", "1000");
    long names = listing.lines().filter(l -> l.trim().startsWith("\"name\"")).count();
    assertEquals(FREON_LEFT, names, "keys listed by `local-cluster sh key list`:\n" + listing);
  }

  /** {@code admin} runs {@code ozone admin}: the OM's reconfigurable properties include every key of ours. */
  private static void checkAdmin(Path root, Path work, Map<String, String> env, String omAddress) throws Exception {
    String props = script(root, work, env, 60, "admin", "reconfig", "--service=OM", "--address=" + omAddress,
        "properties");
    for (String key : new String[] {"service.enabled", "interval", "min.tombstones", "tombstone.ratio"}) {
      assertTrue(props.contains("ozone.om.range.compaction." + key), key + " in\n" + props);
    }
  }

  /**
   * A restart after {@code ozone-site.xml} was given a value the OM refuses: SCM comes up, the OM exits, and start
   * then stops SCM again and removes both pid files. Its output is the script's own lines and at most 40 lines of the
   * OM log, among them the one naming the bad key, not the OM's whole log (whose start-up banner alone is one line
   * of tens of KB). Leaves the cluster stopped, with the value in place.
   */
  private static void checkFailedStart(Path root, Path work, Map<String, String> env) throws Exception {
    String badKey = "ozone.om.range.compaction.tombstone.ratio";
    Path site = work.resolve("conf/ozone-site.xml");
    // The last entry wins in a Hadoop configuration file.
    Files.writeString(site, Files.readString(site).replace("</configuration>",
        "  <property><name>" + badKey + "</name><value>1.5</value></property>\n</configuration>"));
    Result r = run(root, work, env, 240, "start");
    assertNotEquals(0, r.exit(), "start with " + badKey + "=1.5 must fail:\n" + r.out());
    assertTrue(r.out().contains("Invalid " + badKey + " = 1.5"), "the output names the bad key:\n" + r.out());
    Matcher scm = Pattern.compile("scm up \\(pid (\\d+)\\)").matcher(r.out());
    assertTrue(scm.find(), "SCM came up before the OM failed:\n" + r.out());
    long scmPid = Long.parseLong(scm.group(1));
    assertFalse(ProcessHandle.of(scmPid).map(ProcessHandle::isAlive).orElse(false),
        "SCM (pid " + scmPid + ") still alive after the failed start:\n" + r.out());
    assertEquals(List.of(), pids(work), "pid files left by the failed start");
    String marker = "-Dlocal.cluster.dir=" + work + " ";
    List<Long> ours = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
        .map(ProcessHandle::pid).toList();
    assertEquals(List.of(), ours, "processes of this cluster after the failed start");
    List<String> logLines = r.out().lines().filter(l -> !l.startsWith("local-cluster: ")).toList();
    assertTrue(logLines.size() <= 40, logLines.size() + " lines that are not the script's own:\n" + r.out());
    assertTrue(r.out().length() < 40 * 400 + 4000, r.out().length() + " characters of output:\n" + r.out());
  }

  /** {@code clean} deletes only a working directory inside a target/ directory, and its usage says so. */
  @Test
  void cleanDeletesOnlyUnderTarget() throws Exception {
    Path root = RepoPaths.root();
    Path outside = Files.createTempDirectory("local-cluster-clean-");
    assertFalse(outside.toString().contains("/target/"), outside + " must lie outside any target/ directory");
    try {
      Path kept = Files.writeString(outside.resolve("kept"), "not the script's to delete");
      Result r = run(root, outside, Map.of("LOCAL_CLUSTER_DIR", outside.toString()), 30, "clean");
      assertNotEquals(0, r.exit(), r.out());
      assertTrue(r.out().contains("inside a target/ directory"), r.out());
      assertTrue(Files.exists(kept), "clean deleted a directory outside target/");
      assertTrue(script(root, outside, Map.of(), 30, "help").contains("inside a target/ directory"),
          "the usage text states the rule");
    } finally {
      // The directory and the outputs run() wrote beside it.
      try (var files = Files.list(outside.getParent())) {
        String outputs = outside.getFileName() + ".";
        for (Path f : files.filter(f -> f.getFileName().toString().startsWith(outputs)).toList()) {
          Files.delete(f);
        }
      }
      try (var files = Files.list(outside)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(outside);
    }
  }

  private static String key(int i) {
    return String.format("key-%05d", i);
  }

  /**
   * Polls the OM's /prom until a range was compacted and the service counts (nearly) all deleted keys' tombstones
   * as removed; returns the range_compaction lines of the last scrape.
   */
  private static String waitForCompactedRange(URI prom, int timeoutSeconds) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        last = http.send(HttpRequest.newBuilder(prom).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        if (promValue(last, "range_compaction_ranges_compacted") > 0
            && promValue(last, "range_compaction_tombstones_removed") >= DELETED - 10) {
          return String.join("\n", last.lines().filter(l -> l.startsWith("range_compaction")).toList());
        }
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(500);
    }
    return fail("no compacted range on " + prom + " after " + timeoutSeconds + " s; range_compaction lines:\n"
        + String.join("\n", last.lines().filter(l -> l.startsWith("range_compaction")).toList()));
  }

  /** The value of an unlabelled-or-labelled Prometheus sample line {@code name{...} value}; -1 if absent. */
  static long promValue(String prom, String name) {
    return prom.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
        .map(l -> l.substring(l.lastIndexOf(' ') + 1)).mapToLong(v -> (long) Double.parseDouble(v))
        .findFirst().orElse(-1);
  }

  static Map<String, String> clusterEnv(Path work) throws IOException {
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(work.resolve("cluster.env"))) {
      int eq = line.indexOf('=');
      if (!line.startsWith("#") && eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }

  private static List<Long> pids(Path work) throws IOException {
    List<Long> out = new ArrayList<>();
    try (var files = Files.list(work.resolve("pids"))) {
      for (Path p : files.toList()) {
        out.add(Long.parseLong(Files.readString(p).trim()));
      }
    }
    return out;
  }

  /** A block of {@value #PORTS} consecutive ports free on loopback now (other clusters may run on this machine). */
  static int freePortBlock() throws IOException {
    return LoopbackPorts.freeBlock(PORTS);
  }

  private static String script(Path root, Path work, Map<String, String> env, int timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    return script(root, work, env, timeoutSeconds, false, args);
  }

  private static String script(Path root, Path work, Map<String, String> env, int timeoutSeconds, String command,
      boolean tolerateFailure) throws IOException, InterruptedException {
    return script(root, work, env, timeoutSeconds, tolerateFailure, command);
  }

  /** Runs the script; output (stdout and stderr) returned; fails on a non-zero exit unless told to tolerate it. */
  static String script(Path root, Path work, Map<String, String> env, int timeoutSeconds,
      boolean tolerateFailure, String... args) throws IOException, InterruptedException {
    Result r = run(root, work, env, timeoutSeconds, args);
    String command = String.join(" ", args);
    if (r.exit() == TIMED_OUT && !tolerateFailure) {
      fail("local-cluster " + command + " did not finish in " + timeoutSeconds + " s:\n" + r.out());
    }
    if (!tolerateFailure && r.exit() != 0) {
      fail("local-cluster " + command + " exited " + r.exit() + ":\n" + r.out());
    }
    return r.out();
  }

  /** The file every script run holds open on descriptor 9 (beside the working directory, which clean deletes). */
  static Path inheritedMarker(Path work) {
    return work.resolveSibling(work.getFileName() + ".inherited");
  }

  /** Descriptors of process {@code pid} that point at the file the script inherited open. */
  static List<String> inheritedDescriptors(long pid, Path work) throws IOException {
    Path marker = inheritedMarker(work).toRealPath();
    List<String> held = new ArrayList<>();
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          if (Files.readSymbolicLink(fd).equals(marker)) {
            held.add(fd.toString());
          }
        } catch (IOException e) {
          // closed while listing
        }
      }
    }
    return held;
  }

  /** Exit code ({@value #TIMED_OUT}: killed after the timeout) and output (stdout and stderr) of one run. */
  record Result(int exit, String out) { }

  static Result run(Path root, Path work, Map<String, String> env, int timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    // Beside the working directory, not in it: `clean` deletes that.
    Path log = work.resolveSibling(work.getFileName() + "." + String.join("-", args).replace('/', '_') + ".out");
    // The script runs with one more descriptor open, as under `flock FILE local-cluster ...`: the daemons it
    // starts must not keep it (inheritedDescriptors).
    List<String> argv = new ArrayList<>(List.of("bash", "-c", "exec 9>>\"$0\"; exec bash \"$@\"",
        inheritedMarker(work).toString(), root.resolve("dev-support/local-cluster").toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("LOCAL_CLUSTER_") || k.startsWith("RANGE_COMPACTION_"));
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      return new Result(TIMED_OUT, Files.readString(log));
    }
    return new Result(p.exitValue(), Files.readString(log));
  }
}
