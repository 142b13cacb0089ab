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

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * An Ozone home laid out like the 2.2.0 tarball, for what an OM and SCM host needs: {@code bin/ozone} (a stand-in
 * for Ozone's launcher, written for these tests: it reproduces what the 2.2.0 launcher does for {@code om} and
 * {@code scm} that the release's hook and install meet, see its header in {@code src/test/resources/launcher/}),
 * {@code etc/hadoop/} (our own log4j settings), {@code share/ozone/classpath/ozone-manager.classpath} and
 * {@code hdds-server-scm.classpath}
 * as the tarball has them (the descriptor inside each 2.2.0 jar, plus the jar itself, as Ozone's
 * {@code dist-layout-stitching} adds it), and {@code share/ozone/lib/} holding every jar those name: links to the
 * jars Maven resolved for this module's tests.
 */
final class OzoneHome {
  static final String OZONE_VERSION = "2.2.0";
  private static final String[] ARTIFACTS = {"ozone-manager", "hdds-server-scm"};

  private OzoneHome() { }

  /** Lays out a 2.2.0 home in {@code home}; returns it. */
  static Path create(Path home) throws IOException {
    Map<String, Path> jars = testClasspathJars();
    Path lib = home.resolve("share/ozone/lib");
    Path descriptors = home.resolve("share/ozone/classpath");
    Files.createDirectories(lib);
    Files.createDirectories(descriptors);
    List<String> missing = new ArrayList<>();
    for (String artifact : ARTIFACTS) {
      String own = artifact + "-" + OZONE_VERSION + ".jar";
      Path ownJar = jars.get(own);
      assertTrue(ownJar != null, own + " on the test classpath");
      String descriptor;
      try (JarFile jar = new JarFile(ownJar.toFile());
           InputStream in = jar.getInputStream(jar.getEntry(artifact + ".classpath"))) {
        descriptor = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
      }
      descriptor += ":$HDDS_LIB_JARS_DIR/" + own;
      Files.writeString(descriptors.resolve(artifact + ".classpath"), descriptor + "\n");
      for (String entry : descriptor.substring(descriptor.indexOf('=') + 1).split(":")) {
        String name = entry.substring(entry.lastIndexOf('/') + 1);
        Path target = lib.resolve(name);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        Path source = jars.get(name);
        if (source == null) {
          missing.add(name);
        } else {
          Files.createSymbolicLink(target, source);
        }
      }
    }
    assertTrue(missing.isEmpty(), "jars of the 2.2.0 classpath descriptors not on the test classpath (add them as "
        + "test dependencies): " + missing);

    copyResourceTree(home);
    Files.setPosixFilePermissions(home.resolve("bin/ozone"), PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }

  /** Copies src/test/resources/launcher (the stand-in bin/ozone and the conf files) into the home. */
  private static void copyResourceTree(Path home) throws IOException {
    Path from = Path.of("target/test-classes/launcher").toAbsolutePath();
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path rel = from.relativize(f);
        Path to = home.resolve(rel.toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
  }

  /** File name to path of every jar on this JVM's class path (surefire sets java.class.path to the test's). */
  private static Map<String, Path> testClasspathJars() {
    Map<String, Path> out = new HashMap<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(e);
      if (e.endsWith(".jar") && Files.isRegularFile(p)) {
        out.putIfAbsent(p.getFileName().toString(), p.toAbsolutePath());
      }
    }
    return out;
  }

  /**
   * Every file, folder and link under {@code root}, relative path to what it is: a folder and its permissions, a
   * link and its target, or a file's permissions and exact bytes (as text of its bytes, so a difference prints).
   */
  static Map<String, String> snapshot(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      all.forEach(p -> {
        try {
          String rel = root.relativize(p).toString();
          if (Files.isSymbolicLink(p)) {
            out.put(rel, "link -> " + Files.readSymbolicLink(p));
          } else if (Files.isDirectory(p)) {
            out.put(rel, "dir " + PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
          } else {
            out.put(rel, "file " + PosixFilePermissions.toString(Files.getPosixFilePermissions(p)) + "\n"
                + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return out;
  }

  /** What differs between two snapshots, one line a path; empty when they are the same byte for byte. */
  static List<String> diff(Map<String, String> before, Map<String, String> after) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : before.entrySet()) {
      String now = after.get(e.getKey());
      if (now == null) {
        out.add("removed: " + e.getKey());
      } else if (!now.equals(e.getValue())) {
        out.add("changed: " + e.getKey());
      }
    }
    for (String k : after.keySet()) {
      if (!before.containsKey(k)) {
        out.add("added: " + k);
      }
    }
    return out;
  }
}
