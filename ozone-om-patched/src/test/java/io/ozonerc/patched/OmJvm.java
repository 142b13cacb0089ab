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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@code main} in a fresh JVM with this module's test class path, either as is ({@link #patched()}: the
 * patched classes in {@code target/classes} come first and hide their 2.2.0 twins) or without
 * {@code target/classes} ({@link #stock()}: every OM class comes from the 2.2.0 jars). Both JVMs run the same
 * code on the same arguments, so a scenario run in each compares the patched OM with the stock one.
 *
 * <p>The main writes its results to a file it is given and exits 0; stdout and stderr go to a log next to it,
 * named in any failure.
 */
public final class OmJvm {
  private final boolean patched;
  private final Path confDir; // ahead of the class path, where `ozone` puts $OZONE_CONF_DIR; null: none

  private OmJvm(boolean patched, Path confDir) {
    this.patched = patched;
    this.confDir = confDir;
  }

  public static OmJvm patched() {
    return new OmJvm(true, null);
  }

  public static OmJvm stock() {
    return new OmJvm(false, null);
  }

  /** The same JVM with {@code dir} (holding an {@code ozone-site.xml}) first on its class path. */
  public OmJvm withConfDir(Path dir) {
    return new OmJvm(patched, dir.toAbsolutePath());
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
        "-cp", String.join(File.pathSeparator, classPath()),
        main.getName(), out.toString()));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
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

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
