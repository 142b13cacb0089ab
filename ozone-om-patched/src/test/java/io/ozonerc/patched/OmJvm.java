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

package io.ozonerc.patched;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@code main} in a fresh JVM with this module's test class path, either as is ({@link #patched()}: the
 * patched classes in {@code target/classes} come first and hide their 2.2.0 twins) or without
 * {@code target/classes} ({@link #stock()}: every OM class comes from the 2.2.0 jars). Both JVMs run the same
 * code on the same arguments, so a scenario run in each compares the patched OM with the stock one.
 *
 * <p>The main writes its results to a file it is given and exits 0; stdout and stderr go to a log next to it,
 * named in any failure.
 *
 * <p>JVMs that run at the same time ({@link #runBoth}) each start their MiniOzoneCluster's ports from their own
 * {@link #withPortBase base}: the test port allocator counts up from the same number in every JVM and does not
 * check that a port is free, so two clusters started together would otherwise be given the same ports.
 */
public final class OmJvm {
  /** The system property {@link OmCluster} starts its port allocator from. */
  public static final String PORT_BASE = "ozonerc.test.port.base";
  /** Where the allocator starts by default (and wraps back to past 32000). */
  private static final int DEFAULT_PORTS = 15000;
  /** Ports apart for JVMs run together; a cluster without datanodes takes a few dozen. */
  private static final int PORTS_APART = 4000;
  /** What Ozone's ExitUtils logs before it ends a process (a service that failed to start, a fatal error). */
  static final String TERMINATING = "Terminating with exit status";

  private final boolean patched;
  private final Path confDir; // ahead of the class path, where `ozone` puts $OZONE_CONF_DIR; null: none
  private final int portBase; // 0: the allocator's own start

  private OmJvm(boolean patched, Path confDir, int portBase) {
    this.patched = patched;
    this.confDir = confDir;
    this.portBase = portBase;
  }

  public static OmJvm patched() {
    return new OmJvm(true, null, 0);
  }

  public static OmJvm stock() {
    return new OmJvm(false, null, 0);
  }

  /** The same JVM with {@code dir} (holding an {@code ozone-site.xml}) first on its class path. */
  public OmJvm withConfDir(Path dir) {
    return new OmJvm(patched, dir.toAbsolutePath(), portBase);
  }

  /** The same JVM with its MiniOzoneCluster's ports counted from {@code base}, apart from a JVM running beside it. */
  public OmJvm withPortBase(int base) {
    return new OmJvm(patched, confDir, base);
  }

  /** What a scenario wrote in a stock JVM and in a patched one. */
  public record Both(List<String> stock, List<String> patched) { }

  /**
   * Runs {@code main} with the same arguments in a stock JVM and a patched one at the same time, on ports apart, and
   * returns both outputs once both JVMs exited 0. The scenarios compared this way are deterministic given their
   * arguments, so running them side by side changes only the wall time.
   */
  public static Both runBoth(Class<?> main, Path workDir, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    List<List<String>> outs = runTogether(List.of(stock().withPortBase(portBase(0)),
        patched().withPortBase(portBase(1))), main, List.of(workDir, workDir), timeoutSeconds, args);
    return new Both(outs.get(0), outs.get(1));
  }

  /**
   * Runs {@code main} in each JVM of {@code jvms} at the same time, the i-th in the i-th work directory, and returns
   * their outputs in that order. Each JVM should have a port base apart from the others' if its main starts a
   * cluster. The first failure is thrown once every JVM has ended.
   */
  public static List<List<String>> runTogether(List<OmJvm> jvms, Class<?> main, List<Path> workDirs,
      long timeoutSeconds, String... args) throws IOException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(jvms.size());
    try {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int i = 0; i < jvms.size(); i++) {
        OmJvm jvm = jvms.get(i);
        Path dir = workDirs.get(i);
        runs.add(pool.submit(() -> jvm.run(main, dir, timeoutSeconds, args)));
      }
      List<List<String>> outs = new ArrayList<>();
      Throwable first = null;
      for (Future<List<String>> run : runs) {
        try {
          outs.add(run.get());
        } catch (ExecutionException e) {
          first = first == null ? e.getCause() : first;
        }
      }
      if (first instanceof IOException io) {
        throw io;
      } else if (first instanceof Error err) {
        throw err;
      } else if (first != null) {
        throw new AssertionError(first);
      }
      return outs;
    } finally {
      pool.shutdownNow();
    }
  }

  /** The port base for the {@code i}-th of up to four JVMs run together. */
  public static int portBase(int i) {
    if (i < 0 || i > 3) {
      throw new IllegalArgumentException("at most four JVMs run together, not " + (i + 1));
    }
    return DEFAULT_PORTS + i * PORTS_APART;
  }

  /** The same JVM with class files in {@code dir} ahead of everything (a mutated patched class, in tests). */
  public OmJvm withClassesFirst(Path dir) {
    return withConfDir(dir);
  }

  public String name() {
    return patched ? "patched" : "stock";
  }

  /** The class path the JVM gets: the surefire class path, less {@code target/classes} for stock. */
  public List<String> classPath() {
    List<String> entries = new ArrayList<>();
    if (confDir != null) {
      entries.add(confDir.toString());
    }
    Path patchedDir = PatchedBuild.classesDir();
    boolean sawPatched = false;
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (e.isEmpty()) {
        continue;
      }
      boolean isPatchedDir = Path.of(e).toAbsolutePath().normalize().equals(patchedDir);
      sawPatched |= isPatchedDir;
      if (patched || !isPatchedDir) {
        entries.add(e);
      }
    }
    if (!sawPatched) {
      throw new IllegalStateException(patchedDir + " is not on the test class path "
          + System.getProperty("java.class.path"));
    }
    return entries;
  }

  /**
   * Runs {@code main} with {@code args} after an output file argument, in {@code workDir}, and returns the lines
   * the main wrote to that file. Fails if the JVM does not exit 0 within {@code timeoutSeconds}.
   */
  public List<String> run(Class<?> main, Path workDir, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    workDir = workDir.toAbsolutePath();
    Files.createDirectories(workDir);
    Path out = workDir.resolve(name() + "-" + main.getSimpleName() + ".out");
    Path log = workDir.resolve(name() + "-" + main.getSimpleName() + ".log");
    Files.deleteIfExists(out);
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1500m", "-XX:+UseG1GC",
        "-D" + PatchedBuild.MODULE_DIR + "=" + PatchedBuild.moduleDir(),
        "-Dnative.lib.tmp.dir=" + PatchedBuild.moduleDir().resolve("target"),
        "-D" + PORT_BASE + "=" + (portBase == 0 ? DEFAULT_PORTS : portBase),
        "-cp", String.join(File.pathSeparator, classPath()),
        main.getName(), out.toString()));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    String terminated = waitOrTerminated(p, log, timeoutSeconds);
    if (terminated != null) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError(name() + " JVM running " + main.getSimpleName() + " logged '" + terminated
          + "' and was ended; log: " + log + "\n" + tail(log));
    }
    if (p.isAlive()) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError(name() + " JVM running " + main.getSimpleName() + " did not finish in "
          + timeoutSeconds + " s; log: " + log);
    }
    if (p.exitValue() != 0 || !Files.exists(out)) {
      throw new AssertionError(name() + " JVM running " + main.getSimpleName() + " exited " + p.exitValue()
          + "; log: " + log + "\n" + tail(log));
    }
    return Files.readAllLines(out);
  }

  /**
   * Waits up to {@code timeoutSeconds} for {@code p} to exit, reading what its log gains each second. Returns the
   * first line in which Hadoop's ExitUtil says the process is terminating (a cluster that failed to start logs it,
   * but its other threads keep the JVM alive until the timeout), or null when the process exited or the time ran
   * out.
   */
  private static String waitOrTerminated(Process p, Path log, long timeoutSeconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    long read = 0;
    StringBuilder partial = new StringBuilder();
    while (!p.waitFor(1, TimeUnit.SECONDS)) {
      if (Files.exists(log)) {
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
          long length = f.length();
          if (length > read) {
            byte[] more = new byte[(int) Math.min(length - read, 1 << 24)];
            f.seek(read);
            f.readFully(more);
            read += more.length;
            partial.append(new String(more, StandardCharsets.UTF_8));
            int end = partial.lastIndexOf("\n");
            if (end >= 0) {
              for (String line : partial.substring(0, end).split("\n")) {
                if (line.contains(TERMINATING)) {
                  return line.trim();
                }
              }
              partial.delete(0, end + 1);
            }
          }
        }
      }
      if (System.nanoTime() >= deadline) {
        return null;
      }
    }
    return null;
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
