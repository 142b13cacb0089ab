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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * One run of a hint policy ({@code hints}, {@code range+hints}) in a child JVM, so that it runs on the patched OM
 * classes while every other policy of the same comparison runs on stock Ozone 2.2.0 in the parent.
 *
 * <p>The parent launches {@code java} with its own JVM options, the classes of ozone-om-patched first on the class
 * path and then its own class path (a class there hides its stock twin), and {@link TombstoneBenchmark} with the
 * parent's options plus hidden ones naming the policy, the cold-data template, a work directory, the sequence's
 * digest and the result file. The child regenerates the sequence from the seed (and checks the digest), runs the same
 * warm-up, runs the policy on its own copy of the template, writes its {@link RunResult} (Java serialization) and
 * exits 0. Its standard output carries progress lines for the parent's progress bar; every other line of it, and its
 * standard error, are passed through. A child that fails makes the run fail with its exit status and its last lines.
 */
final class ChildRun {

  /** Prefix of the lines by which a child reports progress; the parent does not print them. */
  static final String MARK = "@bench-child ";

  private static final int TAIL_LINES = 40;

  private ChildRun() {
  }

  /** The command that starts the child: this JVM's options, the patched classes first, then this class path. */
  static List<String> command(Path patchedClasses, List<String> benchmarkArgs) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      // A debugger agent would try to take the parent's port.
      if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Xrunjdwp") && !a.equals("-Xdebug")) {
        cmd.add(a);
      }
    }
    // Set at run time by a launcher (surefire sets these from the pom), so not among the input arguments.
    for (String key : List.of("native.lib.tmp.dir", "java.io.tmpdir", "log4j.configuration")) {
      String v = System.getProperty(key);
      if (v != null && cmd.stream().noneMatch(a -> a.startsWith("-D" + key + "="))) {
        cmd.add("-D" + key + "=" + v);
      }
    }
    cmd.add("-cp");
    cmd.add(patchedClasses.toAbsolutePath() + java.io.File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add(TombstoneBenchmark.class.getName());
    cmd.addAll(benchmarkArgs);
    return cmd;
  }

  /**
   * Runs the child to its end and returns the run it wrote to {@code resultFile}. {@code phase} is told each phase
   * the child starts (its name, e.g. "warm-up" or "run", and its operation count), {@code progress} the operations
   * done in it.
   */
  static RunResult run(String label, List<String> command, Path resultFile, PrintStream out, PrintStream err,
      PhaseListener phase, LongConsumer progress) throws Exception {
    Files.deleteIfExists(resultFile);
    Process child = new ProcessBuilder(command).start();
    Thread killer = new Thread(child::destroyForcibly, "bench-child-killer");
    Runtime.getRuntime().addShutdownHook(killer); // a parent stopped by Ctrl-C leaves no child running
    Deque<String> tail = new ArrayDeque<>();
    Thread errPump = new Thread(() -> pump(child.getErrorStream(), err, tail), "bench-child-stderr");
    errPump.setDaemon(true);
    errPump.start();
    try {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith(MARK + "phase ")) {
            String[] f = line.substring(MARK.length() + 6).split(" ");
            phase.phase(f[0], Long.parseLong(f[1]));
          } else if (line.startsWith(MARK + "progress ")) {
            progress.accept(Long.parseLong(line.substring(MARK.length() + 9).trim()));
          } else {
            out.println(line);
            remember(tail, line);
          }
        }
      }
      int status = child.waitFor();
      errPump.join(10_000);
      if (status != 0 || !Files.exists(resultFile)) {
        throw new IllegalStateException(label + ": the child JVM on the patched classes exited with status "
            + status + (status == 0 ? " without writing " + resultFile : "") + "; its last lines:\n  "
            + String.join("\n  ", snapshot(tail)));
      }
      try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(resultFile))) {
        return (RunResult) in.readObject();
      } finally {
        Files.deleteIfExists(resultFile);
      }
    } finally {
      if (child.isAlive()) {
        child.destroyForcibly();
      }
      try {
        Runtime.getRuntime().removeShutdownHook(killer);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway
      }
    }
  }

  /** What the parent does when the child starts a phase. */
  interface PhaseListener {
    void phase(String name, long ops);
  }

  private static void pump(InputStream from, PrintStream to, Deque<String> tail) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        to.println(line);
        remember(tail, line);
      }
    } catch (IOException e) {
      to.println("bench child: reading its standard error failed: " + e);
    }
  }

  private static void remember(Deque<String> tail, String line) {
    synchronized (tail) {
      tail.addLast(line);
      while (tail.size() > TAIL_LINES) {
        tail.removeFirst();
      }
    }
  }

  private static List<String> snapshot(Deque<String> tail) {
    synchronized (tail) {
      return tail.isEmpty() ? List.of("(none)") : new ArrayList<>(tail);
    }
  }

  /** Child side: reports a phase and its progress to the parent on standard output, at most every 200 ms. */
  static final class Reporter implements LongConsumer {
    private final PrintStream out;
    private long last;

    Reporter(PrintStream out) {
      this.out = out;
    }

    void phase(String name, long ops) {
      out.println(MARK + "phase " + name + " " + ops);
      out.flush();
      last = 0;
    }

    @Override
    public void accept(long done) {
      long now = System.nanoTime();
      if (now - last >= 200_000_000L) {
        out.println(String.format(Locale.ROOT, "%sprogress %d", MARK, done));
        out.flush();
        last = now;
      }
    }
  }

  /** Child side: writes the run for the parent (to a temporary file first, so the parent never reads half of it). */
  static void write(RunResult result, Path resultFile) throws IOException {
    Path tmp = resultFile.resolveSibling(resultFile.getFileName() + ".tmp");
    try (ObjectOutputStream o = new ObjectOutputStream(Files.newOutputStream(tmp))) {
      o.writeObject(result);
    }
    Files.move(tmp, resultFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
