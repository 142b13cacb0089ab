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

package io.ozonerc.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;

/**
 * A stand-in for a running OM, for the offline tools' tests: a separate JVM on the test's class path that opens
 * {@code <dir>/om.db} read-write with the OM's own metadata manager (which takes RocksDB's LOCK), prints
 * {@code READY <pid>}, and holds the DB until its standard input is closed; then it closes the DB (which flushes),
 * prints {@code CLOSED} and exits 0. Readiness and release go over the child's stdout and stdin: nothing waits on
 * a clock.
 *
 * <p>Started with {@link #startAfterUnflushedDeletes}, it first deletes keys of one bucket from keyTable without
 * flushing: the deletes are in the write-ahead log and the memtable only, as in an OM that is killed
 * ({@link #kill}) before its next flush.
 */
public final class OmDbHolder implements AutoCloseable {
  private final Process process;
  private final List<String> output = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Long> ready = new CompletableFuture<>();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final long pid;

  private OmDbHolder(Path dir, List<String> more) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Ozone unpacks its native RocksDB tools into native.lib.tmp.dir (default: the working directory, a module's
    // source tree), and a killed child never removes them: keep them in the test's own directory.
    Path nativeTmp = Files.createDirectories(dir.resolve("native-tmp"));
    List<String> command = new ArrayList<>(List.of(java, "-Dnative.lib.tmp.dir=" + nativeTmp,
        "-cp", System.getProperty("java.class.path"), OmDbHolder.class.getName(), dir.toString()));
    command.addAll(more);
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Thread reader = new Thread(this::readOutput, "om-db-holder-output");
    reader.setDaemon(true);
    reader.start();
    // Condition wait: the READY line, or the child's death, whichever comes first (60 s is only a safety net).
    pid = ready.get(60, TimeUnit.SECONDS);
    assertEquals(process.pid(), pid, "READY must come from the child itself");
  }

  /** A holder of {@code <dir>/om.db}, once it holds it. */
  public static OmDbHolder start(Path dir) throws Exception {
    return new OmDbHolder(dir, List.of());
  }

  /** A holder that deleted {@code keys} of {@code /volume/bucket/} from keyTable, unflushed, before it said READY. */
  public static OmDbHolder startAfterUnflushedDeletes(Path dir, String volume, String bucket, List<String> keys)
      throws Exception {
    List<String> more = new ArrayList<>(List.of(volume, bucket));
    more.addAll(keys);
    return new OmDbHolder(dir, more);
  }

  /** The holder's process id, as the holder itself printed it. */
  public long pid() {
    return pid;
  }

  /** SIGKILL, as a crash would: no close, no flush; the kernel drops the process's locks. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "holder survived SIGKILL");
  }

  private void readOutput() {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        output.add(line);
        if (line.startsWith("READY ")) {
          ready.complete(Long.parseLong(line.substring(6).trim()));
        } else if (line.equals("CLOSED")) {
          closed.complete(null);
        }
      }
    } catch (IOException e) {
      ready.completeExceptionally(e);
    }
    ready.completeExceptionally(new IllegalStateException("holder exited before READY: " + output));
    closed.completeExceptionally(new IllegalStateException("holder exited without CLOSED: " + output));
  }

  /** Closes the holder's stdin and waits until it has closed the DB and exited 0. */
  @Override
  public void close() throws Exception {
    process.getOutputStream().close(); // EOF on the child's stdin: it closes the DB and exits
    try {
      closed.get(60, TimeUnit.SECONDS);
      assertTrue(process.waitFor(60, TimeUnit.SECONDS), "holder did not exit: " + output);
      assertEquals(0, process.exitValue(), "holder failed: " + output);
    } finally {
      process.destroyForcibly();
    }
  }

  /** The holder process. Usage: {@code OmDbHolder <dir> [<volume> <bucket> <key>...]}. */
  public static void main(String[] args) throws IOException {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, args[0]);
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf, null);
    if (args.length > 1) {
      Table<String, OmKeyInfo> keyTable = om.getKeyTable(BucketLayout.OBJECT_STORE);
      try (BatchOperation batch = om.getStore().initBatchOperation()) {
        for (int i = 3; i < args.length; i++) {
          keyTable.deleteWithBatch(batch, om.getOzoneKey(args[1], args[2], args[i]));
        }
        om.getStore().commitBatchOperation(batch);
      }
    }
    System.out.println("READY " + ProcessHandle.current().pid());
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the DB until the parent closes our stdin (or kills us)
    }
    om.stop();
    System.out.println("CLOSED");
    System.out.flush();
    System.exit(0);
  }
}
