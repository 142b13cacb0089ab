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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the build's release archive holds. */
class ReleaseArchiveTest {

  @Test
  void holdsTheRelease() throws Exception {
    Path top = ReleaseArchive.unpack(ReleaseArchive.scratch("contents"));
    String v = ReleaseArchive.version();
    for (String f : List.of("install", "release.properties", "README.md", "LICENSE", "NOTICE",
        "lib/ozone-om-compaction-" + v + ".jar", "lib/ozone-om-metadata-" + v + ".jar",
        "lib/ozone-om-db-lock-" + v + ".jar",
        "lib/ozone-freon-omkeybench-" + v + ".jar", "patched-om/ozone-om-patched-" + v + "-ozone-2.2.0.jar",
        "etc/ozone-user-functions.sh", "etc/ozone-site-range-compaction.xml",
        "monitoring/grafana/range-compaction.json", "monitoring/prometheus/range-compaction-alerts.yml",
        "docs/install.md")) {
      assertTrue(Files.isRegularFile(top.resolve(f)), f + " in the archive");
    }
    assertTrue(Files.isExecutable(top.resolve("install")));
    assertTrue(Files.readString(top.resolve("release.properties")).contains("version=" + v + "\n"));
    assertTrue(Files.readString(top.resolve("LICENSE")).contains("Apache License\n                           "
        + "Version 2.0, January 2004"));

    try (JarFile jar = new JarFile(top.resolve("lib/ozone-om-compaction-" + v + ".jar").toFile())) {
      assertTrue(jar.getEntry("io/ozonerc/compaction/om/RangeCompactionOmStarter.class") != null);
      assertTrue(jar.getEntry("ozone-om-compaction-default.xml") != null, "the generated defaults");
      assertTrue(jar.getEntry("META-INF/services/org.apache.hadoop.hdds.cli.DebugSubcommand") != null);
    }
    try (JarFile jar = new JarFile(top.resolve("lib/ozone-om-db-lock-" + v + ".jar").toFile())) {
      assertTrue(jar.getEntry("io/ozonerc/dblock/DbLockProbe.class") != null);
    }
    try (JarFile jar = new JarFile(top.resolve("lib/ozone-om-metadata-" + v + ".jar").toFile())) {
      assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("io/ozonerc/compaction/")),
          "the metadata jar holds compaction classes");
    }
    try (JarFile jar = new JarFile(top.resolve("lib/ozone-freon-omkeybench-" + v + ".jar").toFile())) {
      assertTrue(jar.getEntry("META-INF/services/org.apache.hadoop.ozone.freon.FreonSubcommand") != null);
    }

    // The patches as they apply to a 2.2.0 source tree: one for each of dev-support/patches, the files it adds in it.
    List<String> setNames;
    List<String> shipped;
    try (var s = Files.list(Path.of("..", "dev-support", "patches"))) {
      setNames = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".patch")).sorted().toList();
    }
    try (var s = Files.list(top.resolve("patches"))) {
      shipped = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertEquals(setNames, shipped, "patches/ in the archive");
    assertTrue(Files.readString(top.resolve("patches/HDDS-skip-hints-2.2.0.patch"))
        .contains("\n+++ b/hadoop-hdds/framework/src/main/java/org/apache/hadoop/hdds/utils/db/SkipHints.java\n"),
        "the skip-hints patch in the archive carries the SkipHints class it adds");

    // The overlay: exactly the classes of the files the patches change or add, with the licence and the notice.
    Path overlay = top.resolve("patched-om/ozone-om-patched-" + v + "-ozone-2.2.0.jar");
    List<String> patchedFiles = patchedJavaFiles(top.resolve("patches"));
    List<String> notInOverlay = new ArrayList<>();
    try (JarFile jar = new JarFile(overlay.toFile())) {
      assertTrue(jar.getEntry("META-INF/LICENSE") != null && jar.getEntry("META-INF/NOTICE") != null);
      for (String f : patchedFiles) {
        if (jar.getEntry(f.replace(".java", ".class")) == null) {
          notInOverlay.add(f);
        }
      }
      List<String> foreign = jar.stream().map(e -> e.getName())
          .filter(n -> n.endsWith(".class"))
          .filter(n -> !patchedFiles.contains(n.replaceFirst("(\\$.*)?\\.class$", ".java")))
          .toList();
      assertEquals(List.of(), foreign, "classes in the overlay that no patch changes");
    }
    assertEquals(List.of(), notInOverlay, "patched files without their class in the overlay");
    String notice = Files.readString(top.resolve("NOTICE"));
    assertTrue(notice.contains("Apache Ozone"), notice);
    for (String f : patchedFiles) {
      String name = f.substring(f.lastIndexOf('/') + 1);
      assertTrue(notice.contains(name), "NOTICE names the changed file " + name);
    }
  }

  /** Class-path names (org/apache/.../X.java) of the files the patches change or add. */
  static List<String> patchedJavaFiles(Path patches) throws Exception {
    Pattern target = Pattern.compile("^\\+\\+\\+ b/.*?/src/main/java/(\\S+\\.java)$", Pattern.MULTILINE);
    List<String> out = new ArrayList<>();
    try (var files = Files.list(patches)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".patch")).sorted().toList()) {
        Matcher m = target.matcher(Files.readString(p));
        while (m.find()) {
          if (!out.contains(m.group(1))) {
            out.add(m.group(1));
          }
        }
      }
    }
    assertTrue(out.size() >= 3, "patched files found in " + patches + ": " + out);
    return out;
  }
}
