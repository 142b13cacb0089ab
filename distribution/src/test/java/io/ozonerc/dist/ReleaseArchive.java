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

package io.ozonerc.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The release archive this build made (the assembly runs before the test phase, see the module's pom), unpacked
 * with {@code tar} as an operator would, and its install script run as a process.
 */
final class ReleaseArchive {
  private ReleaseArchive() { }

  static Path archive() {
    Path p = Path.of(System.getProperty("release.archive", "missing: run through Maven (release.archive)"));
    assertTrue(Files.isRegularFile(p), "the build's release archive " + p);
    return p;
  }

  static String name() {
    return System.getProperty("release.name");
  }

  static String version() {
    return System.getProperty("project.version");
  }

  /** Module-local scratch space under target/. */
  static Path scratch(String what) throws IOException {
    Path dir = Path.of("target", "release-it", what + "-" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(dir);
    return dir;
  }

  /** Unpacks the archive into {@code into}; returns its top folder. */
  static Path unpack(Path into) throws Exception {
    Files.createDirectories(into);
    Result r = run(into, Map.of(), 60, "tar", "-xzf", archive().toString(), "-C", into.toString());
    assertEquals(0, r.exit(), r.output());
    Path top = into.resolve(name());
    assertTrue(Files.isDirectory(top), "the archive's top folder " + name());
    return top;
  }

  record Result(int exit, String output) { }

  /** Runs the release's install script with these arguments. */
  static Result install(Path release, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(release.resolve("install").toString()));
    argv.addAll(List.of(args));
    return run(release, Map.of(), 60, argv.toArray(String[]::new));
  }

  /** Runs a command; stdout and stderr together. Kills it after the bound. */
  static Result run(Path cwd, Map<String, String> env, int timeoutSeconds, String... argv) throws Exception {
    Path out = Files.createTempFile("release-run-", ".out");
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("OZONE_") || k.startsWith("HADOOP_")
        || k.startsWith("HDFS_") || k.equals("CLASSPATH"));
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(String.join(" ", argv) + " did not finish in " + timeoutSeconds + " s:\n"
          + Files.readString(out));
    }
    String text = Files.readString(out);
    Files.delete(out);
    return new Result(p.exitValue(), text);
  }
}
