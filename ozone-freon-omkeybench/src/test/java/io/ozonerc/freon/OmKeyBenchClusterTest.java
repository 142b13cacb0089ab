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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Timer;
import io.ozonerc.freon.Weights.Op;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.MiniOzoneCluster;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.freon.Freon;
import org.apache.hadoop.ozone.om.exceptions.OMException;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * omkeybench through freon's own command line against a real MiniOzoneCluster (SCM + OM in-process, no datanode:
 * zero-size keys need none). Each run gets a fresh Freon, as each `ozone freon` process would.
 */
class OmKeyBenchClusterTest {
  static MiniOzoneCluster cluster;
  static OzoneClient client;
  static Path confFile;

  @BeforeAll
  static void startCluster(@TempDir Path dir) throws Exception {
    cluster = MiniOzoneCluster.newBuilder(new OzoneConfiguration()).withoutDatanodes().build();
    cluster.waitForClusterToBeReady();
    client = cluster.newClient();
    confFile = dir.resolve("ozone-site.xml");
    try (OutputStream out = Files.newOutputStream(confFile)) {
      cluster.getConf().writeXml(out);
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** One `ozone freon -conf <cluster> omkeybench ARGS` in this JVM. */
  static final class Run {
    final int exitCode;
    final OmKeyBench bench;
    final String out;
    final String err;

    Run(String... args) {
      Freon freon = new Freon();
      StringWriter o = new StringWriter();
      StringWriter e = new StringWriter();
      freon.getCmd().setOut(new PrintWriter(o, true));
      freon.getCmd().setErr(new PrintWriter(e, true));
      List<String> argv = new ArrayList<>(List.of("-conf", confFile.toString(), "omkeybench"));
      argv.addAll(List.of(args));
      exitCode = freon.execute(argv.toArray(new String[0]));
      bench = (OmKeyBench) freon.getCmd().getSubcommands().get("omkeybench").getCommand();
      out = o.toString();
      err = e.toString();
    }
  }

  static TreeSet<String> keysIn(String volume, String bucket) throws Exception {
    TreeSet<String> names = new TreeSet<>();
    Iterator<? extends OzoneKey> it = client.getObjectStore().getVolume(volume).getBucket(bucket).listKeys("");
    while (it.hasNext()) {
      names.add(it.next().getName());
    }
    return names;
  }

  static long count(OmKeyBench bench, Op op) {
    return bench.stats(op).total().count();
  }

  /** |observed - n p| within 6 standard deviations of a binomial draw (fails by chance about once in 1e9 runs). */
  static void assertDrawn(long observed, long n, double p, String what) {
    double sd = Math.sqrt(n * p * (1 - p));
    assertTrue(Math.abs(observed - n * p) <= 6 * sd, what + ": " + observed + " of " + n + ", expected ~" + n * p);
  }

  @Test
  void publishedMixMatchesTheBucketAndReportsEveryInterval(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("run.csv");
    int n = 900;
    Run run = new Run("-v", "vol1", "-b", "published", "-n", String.valueOf(n), "-t", "4", "--max-live-keys", "100",
        "--report-interval", "1s", "--csv", csv.toString());
    assertEquals(0, run.exitCode, run.err);
    OmKeyBench b = run.bench;

    long creates = count(b, Op.CREATE);
    long deletes = count(b, Op.DELETE);
    long lists = count(b, Op.LIST);
    long skipped = b.stats(Op.DELETE).skipped() + b.stats(Op.LIST).skipped() + b.stats(Op.CREATE).skipped();
    assertEquals(n, creates + deletes + lists + skipped, "every task ran one operation or was skipped");
    assertEquals(0, b.stats(Op.CREATE).skipped(), "published creates are never skipped");
    assertDrawn(creates, n, 20 / 29.0, "CREATE");
    assertDrawn(deletes + b.stats(Op.DELETE).skipped(), n, 8 / 29.0, "DELETE draws");
    assertDrawn(lists + b.stats(Op.LIST).skipped(), n, 1 / 29.0, "LIST draws");

    // The published semantics: the tracked set stops at the cap, keys created beyond it stay in the bucket.
    TreeSet<String> inBucket = keysIn("vol1", "published");
    assertEquals(b.liveKeyNames(), inBucket, "the bucket holds exactly the keys the generator believes live");
    assertEquals(b.createdCount() - b.deletedCount(), inBucket.size());
    assertEquals(creates, b.createdCount());
    assertEquals(deletes, b.deletedCount());
    assertTrue(b.trackedCount() <= 100, "tracked " + b.trackedCount());
    assertTrue(inBucket.size() > 100, "untracked keys pile up past the cap: " + inBucket.size());

    // Whole-run timers behind freon's report, and the CSV: interval rows, then one total row per op.
    Timer create = b.getMetrics().getTimers().get("CREATE");
    assertEquals(creates, create.getCount());
    assertTrue(create.getSnapshot().get99thPercentile() >= create.getSnapshot().getMedian());
    assertTrue(create.getSnapshot().getMax() > 0);
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    assertEquals(BenchReport.CSV_HEADER, lines.get(0));
    List<String[]> totals = lines.stream().skip(1).map(l -> l.split(","))
        .filter(r -> r[1].equals("total")).collect(Collectors.toList());
    assertEquals(3, totals.size(), lines.toString());
    for (String[] row : totals) {
      assertEquals(count(b, Op.valueOf(row[2])), Long.parseLong(row[3]), String.join(",", row));
    }
    long intervalCreates = lines.stream().skip(1).map(l -> l.split(","))
        .filter(r -> r[1].equals("interval") && r[2].equals("CREATE")).mapToLong(r -> Long.parseLong(r[3])).sum();
    assertEquals(creates, intervalCreates, "interval rows add up to the run");
    // The whole-run table on standard output: one row per operation, starting with its name and count.
    for (Op op : Op.values()) {
      assertTrue(run.out.lines().anyMatch(l -> l.matches(op + " +" + count(b, op) + " .*")), op + " in\n" + run.out);
    }
  }

  @Test
  void trackingAllNeverLeavesMoreThanTheCap() throws Exception {
    int n = 600;
    int cap = 40;
    Run run = new Run("-v", "vol1", "-b", "all", "--layout", "obs", "-n", String.valueOf(n), "-t", "4",
        "--max-live-keys", String.valueOf(cap), "--tracking", "all", "--report-interval", "1s");
    assertEquals(0, run.exitCode, run.err);
    OmKeyBench b = run.bench;
    TreeSet<String> inBucket = keysIn("vol1", "all");
    assertEquals(b.liveKeyNames(), inBucket);
    assertTrue(inBucket.size() <= cap, "keys in the bucket: " + inBucket.size());
    assertEquals(b.trackedCount(), inBucket.size(), "every key is tracked");
    assertEquals(b.createdCount() - b.deletedCount(), inBucket.size());
    assertTrue(b.createdCount() > 2 * cap, "creates went past the cap: " + b.createdCount());
    assertEquals(BucketLayout.OBJECT_STORE,
        client.getObjectStore().getVolume("vol1").getBucket("all").getBucketLayout());
  }

  @Test
  void queueModeDeletesOldestFirst() throws Exception {
    int cap = 30;
    Run run = new Run("-v", "vol1", "-b", "queue", "-n", "300", "-t", "1", "--max-live-keys", String.valueOf(cap),
        "--tracking", "all", "--delete-order", "oldest", "--list-start", "bucket-start",
        "--weights", "create:3,delete:1,list:1", "-p", "q-", "--report-interval", "1s");
    assertEquals(0, run.exitCode, run.err);
    OmKeyBench b = run.bench;
    TreeSet<String> inBucket = keysIn("vol1", "queue");
    long created = b.createdCount();
    int remaining = inBucket.size();
    assertTrue(b.deletedCount() > cap && remaining > 0, "deleted " + b.deletedCount() + ", left " + remaining);
    TreeSet<String> newest = new TreeSet<>();
    for (long id = created - remaining; id < created; id++) {
      newest.add(b.keyName(id));
    }
    assertEquals(newest, inBucket, "what is left are the newest keys: the oldest were deleted first");
    assertEquals(0, b.stats(Op.LIST).skipped(), "a LIST from the bucket start needs no tracked key");
    assertTrue(count(b, Op.LIST) > 0);
  }

  /**
   * {@code --buckets 5}: every bucket spread-0..spread-4 is created and holds exactly the keys whose id is its index
   * mod 5, in creation order; deletes and lists from a tracked key go to that key's bucket.
   */
  @Test
  void bucketsSpreadKeysByIdModuloTheBucketCount() throws Exception {
    int n = 5;
    Run run = new Run("-v", "vol1", "-b", "spread", "--buckets", String.valueOf(n), "--layout", "obs", "-n", "400",
        "-t", "2", "--max-live-keys", "60", "--tracking", "all", "--weights", "create:4,delete:1,list:1",
        "-p", "s-", "--report-interval", "1s");
    assertEquals(0, run.exitCode, run.err);
    OmKeyBench b = run.bench;
    TreeSet<String> all = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      TreeSet<String> keys = keysIn("vol1", "spread-" + i);
      for (String k : keys) {
        long id = Long.parseLong(k.substring(2));
        assertEquals(i, id % n, k + " in spread-" + i);
      }
      all.addAll(keys);
    }
    assertEquals(b.liveKeyNames(), all, "the keys in the five buckets are the tracked ones");
    assertTrue(b.deletedCount() > 0 && count(b, Op.LIST) > 0, "deletes " + b.deletedCount());
    String[] eleven = OmKeyBench.bucketNames("b", 11);
    assertEquals(List.of("b-00", "b-01", "b-10"), List.of(eleven[0], eleven[1], eleven[10]), "zero-padded");
    assertEquals(List.of("b"), List.of(OmKeyBench.bucketNames("b", 1)), "one bucket: --bucket itself");
  }

  /**
   * A create the OM refuses (the bucket's namespace quota is full) fails the run: freon stops at the first failure,
   * the command exits non-zero, and the keys created before it are all there.
   */
  @Test
  void anOperationTheOmRefusesEndsTheRunWithANonZeroExit() throws Exception {
    int quota = 5;
    client.getObjectStore().createVolume("volquota");
    client.getObjectStore().getVolume("volquota").createBucket("full",
        BucketArgs.newBuilder().setQuotaInNamespace(quota).build());
    Run run = new Run("-v", "volquota", "-b", "full", "-n", "50", "-t", "1", "--weights", "create:1",
        "--tracking", "all", "--max-live-keys", "1000", "--report-interval", "1s");
    assertNotEquals(0, run.exitCode, run.out + run.err);
    assertTrue(run.err.contains("failed"), "the error says the run failed: " + run.err);
    assertEquals(quota, run.bench.createdCount(), "creates counted before the refused one");
    assertEquals(quota, keysIn("volquota", "full").size(), "keys in the bucket");
  }

  @Test
  void helpListsEveryOption() {
    Run run = new Run("--help");
    assertEquals(0, run.exitCode, run.err);
    for (String option : new String[] {"--number-of-tests", "--threads", "--duration", "--volume", "--bucket",
        "--layout", "--weights", "--batch-size", "--size", "--max-live-keys", "--delete-order", "--list-start",
        "--tracking", "--report-interval", "--csv", "--buckets", "--replication", "--type", "--om-service-id",
        "--prefix"}) {
      assertTrue(run.out.contains(option), option + " in\n" + run.out);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "--weights, create:x",
      "--weights, create:0;delete:0",
      "--weights, read:1",
      "--number-of-tests, -5",
      "--threads, 0",
      "--batch-size, -1",
      "--max-live-keys, 0",
      "--delete-order, newest",
      "--list-start, middle",
      "--tracking, some",
      "--layout, weird",
      "--duration, -5s",
      "--report-interval, 0s",
      "--size, -1",
      "--buckets, 0"})
  void badOptionsFailBeforeTouchingTheCluster(String option, String value) throws Exception {
    Run run = new Run("-v", "untouched", option, value.replace(';', ','));
    assertNotEquals(0, run.exitCode, run.out + run.err);
    assertTrue(run.err.contains(option), "message names " + option + ": " + run.err);
    try {
      client.getObjectStore().getVolume("untouched");
      throw new AssertionError("the bad run created its volume");
    } catch (OMException e) {
      assertEquals(OMException.ResultCodes.VOLUME_NOT_FOUND, e.getResult());
    }
    assertFalse(run.err.isEmpty());
  }
}
