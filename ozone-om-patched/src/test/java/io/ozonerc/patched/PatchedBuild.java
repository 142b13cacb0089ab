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

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;

/**
 * What this module's build patched, and where a class was loaded from. The build writes
 * {@code target/generated-sources/ozone-patched/patched-files.txt} (upstream path and patches, one file a line, the
 * files the patches add included) and compiles those files, and the added ones from {@code src/main/java}, into
 * {@code target/classes}, which Maven puts before the Ozone jars on the test class path.
 */
public final class PatchedBuild {
  private PatchedBuild() { }

  /** System property naming this module's directory in a JVM {@link OmJvm} starts elsewhere. */
  static final String MODULE_DIR = "ozone.patched.module.dir";

  /** This module's directory: surefire runs in it, {@link OmJvm} passes it on. */
  public static Path moduleDir() {
    return Path.of(System.getProperty(MODULE_DIR, "")).toAbsolutePath().normalize();
  }

  /** This module's compiled patched classes. */
  public static Path classesDir() {
    return moduleDir().resolve("target/classes");
  }

  /** Binary names of the top-level classes the patch set changes, e.g. {@code org.apache.hadoop.ozone.om.X}. */
  public static List<String> patchedClassNames() throws IOException {
    Path listing = moduleDir().resolve("target/generated-sources/ozone-patched/patched-files.txt");
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(listing)) {
      String path = line.split(" ", 2)[0];
      String javaPath = path.substring(path.indexOf("src/main/java/") + "src/main/java/".length());
      names.add(javaPath.substring(0, javaPath.length() - ".java".length()).replace('/', '.'));
    }
    if (names.isEmpty()) {
      throw new IllegalStateException(listing + " lists no file: the build applied no patch");
    }
    return names;
  }

  /** The classes a patch of the set adds (its upstream file patch starts from /dev/null). */
  public static List<String> addedClassNames() throws IOException {
    List<String> names = new ArrayList<>();
    try (java.util.stream.Stream<Path> patches = Files.list(UpstreamPatchCheckTest.upstreamPatches())) {
      for (Path patch : patches.filter(p -> p.toString().endsWith(".patch")).sorted().toList()) {
        for (io.ozonerc.patch.UnifiedDiff.FilePatch f : io.ozonerc.patch.UnifiedDiff.parse(Files.readString(patch))) {
          if (f.creates()) {
            String javaPath = f.path().substring(f.path().indexOf("src/main/java/") + "src/main/java/".length());
            names.add(javaPath.substring(0, javaPath.length() - ".java".length()).replace('/', '.'));
          }
        }
      }
    } catch (io.ozonerc.patch.UnifiedDiff.PatchException e) {
      throw new IOException(e);
    }
    return names;
  }

  /** The jar or directory a class was loaded from. */
  public static Path loadedFrom(Class<?> c) {
    CodeSource cs = c.getProtectionDomain().getCodeSource();
    if (cs == null) {
      throw new IllegalStateException(c.getName() + " has no code source");
    }
    try {
      return Path.of(cs.getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(cs.getLocation().toString(), e);
    }
  }

  /** True if {@code c} is this build's patched class, not the Ozone jar's. */
  public static boolean isPatched(Class<?> c) {
    return loadedFrom(c).equals(classesDir());
  }
}
