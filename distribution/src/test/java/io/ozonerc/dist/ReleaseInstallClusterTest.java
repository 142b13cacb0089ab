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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The release end to end on an Ozone home laid out like the 2.2.0 tarball ({@link OzoneHome}): the build's archive
 * unpacked with tar, its install script run into the home, SCM and OM started by the home's {@code bin/ozone} (a
 * stand-in for the 2.2.0 launcher, see {@link OzoneHome}; {@link LauncherCluster}), and the running OM's
 * class-loading log read to see which jar each class came from, and its log that the service started. Then
 * {@code --uninstall}, and every file of the home compared with what it was before.
 *
 * <p>Two rounds on one home, whose conf dir already has an ozone-user-functions.sh of the operator's (ending
 * without a newline), so the hook is merged into it and taken out again:
 * <ol>
 *   <li>plain install: {@code ozone om} runs RangeCompactionOmStarter from the installed plugin jar, the stock
 *       KeyManagerImpl, and the service starts with ozone-site.xml's settings and publishes its metrics;
 *   <li>{@code --with-patched-om}: every patched class the OM loads comes from the overlay jar, ahead of the stock
 *       jars; the main class stays Ozone's OzoneManagerStarter, and the patched KeyManagerImpl starts the service
 *       from the plugin jar with ozone-site.xml's settings; SCM, started by the same launcher, loads the stock
 *       classes.
 * </ol>
 * About 90 s on two shared cores (four JVM starts). {@code -Drelease.cluster.it=false} skips it.
 */
@DisabledIfSystemProperty(named = "release.cluster.it", matches = "false",
    disabledReason = "-Drelease.cluster.it=false: no SCM and OM processes started")
class ReleaseInstallClusterTest {
  private static final Pattern LOADED = Pattern.compile("\\]\\s*(\\S+) source: (.*)$");
  static final String OPERATOR_HOOK = "# the operator's own hook\nexport OPERATOR_HOOK_SOURCED=yes";

  @Test
  void installRunUninstall() throws Exception {
    Path scratch = ReleaseArchive.scratch("cluster");
    Path release = ReleaseArchive.unpack(scratch.resolve("archive"));
    Path home = OzoneHome.create(scratch.resolve("ozone-2.2.0"));
    String v = ReleaseArchive.version();
    Path lib = home.resolve("share/ozone/lib");
    Path plugin = lib.resolve("ozone-manager/ozone-om-compaction-" + v + ".jar");
    Path overlay = lib.resolve("ozone-manager-patched/ozone-om-patched-" + v + "-ozone-2.2.0.jar");
    Path stockOm = lib.resolve("ozone-manager-2.2.0.jar");
    Path stockFramework = lib.resolve("hdds-server-framework-2.2.0.jar");

    boolean passed = false;
    try (LauncherCluster cluster = new LauncherCluster(home, scratch.resolve("run"))) {
      LauncherCluster.writeSite(home, cluster.ports(), cluster.work().resolve("data"));
      Files.writeString(home.resolve("etc/hadoop/ozone-user-functions.sh"), OPERATOR_HOOK);
      Map<String, String> before = OzoneHome.snapshot(home);
      long t0 = System.nanoTime();

      // 1. The plugin alone.
      ReleaseArchive.Result installed = ReleaseArchive.install(release, "--ozone-home", home.toString());
      assertEquals(0, installed.exit(), installed.output());
      assertTrue(Files.isRegularFile(plugin), installed.output());
      assertFalse(Files.exists(overlay.getParent()), "no overlay without --with-patched-om");
      String hook = Files.readString(home.resolve("etc/hadoop/ozone-user-functions.sh"));
      assertTrue(hook.startsWith(OPERATOR_HOOK + "\n# >>> ozone-range-compaction >>>"), hook);

      cluster.startScm(true);
      cluster.startOm(true, true);
      long omPid = cluster.pid("om");
      cluster.stop("om");
      cluster.stop("scm");
      Map<String, String> om = loaded(cluster.classLog("om", omPid));
      String omLog = cluster.omLog();
      assertServiceStarted(omLog);
      assertEquals(source(plugin), om.get("io.ozonerc.compaction.om.RangeCompactionOmStarter"),
          "ozone om runs our starter from the installed jar");
      assertEquals(source(plugin), om.get("io.ozonerc.compaction.service.RangeCompactionService"));
      assertEquals(source(stockOm), om.get("org.apache.hadoop.ozone.om.KeyManagerImpl"));
      assertEquals(source(stockFramework), om.get("org.apache.hadoop.hdds.utils.db.RDBTable"));
      long t1 = System.nanoTime();

      ReleaseArchive.Result removed = ReleaseArchive.install(home.resolve("share/ozone-range-compaction"),
          "--ozone-home", home.toString(), "--uninstall");
      assertEquals(0, removed.exit(), removed.output());
      assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)), "uninstall leaves the home as it was");

      // 2. With the patched OM.
      installed = ReleaseArchive.install(release, "--ozone-home", home.toString(), "--with-patched-om");
      assertEquals(0, installed.exit(), installed.output());
      assertTrue(Files.isRegularFile(overlay), installed.output());
      cluster.startScm(false);
      int omLogBefore = omLog.length();
      String omStart = cluster.startOm(false, true);
      assertTrue(omStart.contains("Ozone Manager classpath starts with the patched OM: " + overlay), omStart);
      omPid = cluster.pid("om");
      long scmPid = cluster.pid("scm");
      cluster.stop("om");
      cluster.stop("scm");
      om = loaded(cluster.classLog("om", omPid));
      Map<String, String> scm = loaded(cluster.classLog("scm", scmPid));
      assertServiceStarted(cluster.omLog().substring(omLogBefore));

      List<String> patched = classesIn(overlay);
      List<String> wrong = new ArrayList<>();
      int seen = 0;
      for (String c : patched) {
        if (om.containsKey(c)) {
          seen++;
          if (!om.get(c).equals(source(overlay))) {
            wrong.add(c + " from " + om.get(c));
          }
        }
      }
      assertEquals(List.of(), wrong, "patched classes the OM loaded from elsewhere than the overlay");
      for (String c : List.of("org.apache.hadoop.ozone.om.KeyManagerImpl",
          "org.apache.hadoop.ozone.om.OmMetadataManagerImpl", "org.apache.hadoop.hdds.utils.db.RDBTable",
          "org.apache.hadoop.hdds.utils.db.TypedTable")) {
        assertEquals(source(overlay), om.get(c), c);
      }
      assertEquals(source(stockOm), om.get("org.apache.hadoop.ozone.om.OzoneManagerStarter"));
      assertFalse(om.containsKey("io.ozonerc.compaction.om.RangeCompactionOmStarter"),
          "with the overlay the stock starter runs; the patched KeyManagerImpl starts the service");
      // The patched KeyManagerImpl reaches the plugin jar, and the service there read ozone-site.xml (above).
      assertEquals(source(plugin), om.get("io.ozonerc.compaction.om.OmAttachment"));
      assertEquals(source(lib.resolve("ozone-manager/ozone-om-metadata-" + v + ".jar")),
          om.get("io.ozonerc.metadata.om.KeyAwareDirectoryTable"));
      assertEquals(source(stockFramework), scm.get("org.apache.hadoop.hdds.utils.db.RDBTable"),
          "SCM keeps the stock classes");

      removed = ReleaseArchive.install(home.resolve("share/ozone-range-compaction"),
          "--ozone-home", home.toString(), "--uninstall");
      assertEquals(0, removed.exit(), removed.output());
      assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)), "uninstall leaves the home as it was");
      System.out.printf("release on a 2.2.0 home: plugin round %d s, patched round %d s; %d of %d patched classes "
          + "loaded by the OM, all from the overlay%n", TimeUnit.NANOSECONDS.toSeconds(t1 - t0),
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t1), seen, patched.size());
      passed = true;
    } finally {
      if (!passed) {
        System.err.println("kept for inspection: " + scratch);
      }
    }
  }

  /**
   * The OM ran the service with ozone-site.xml's {@code ozone.om.range.compaction.service.enabled=true}: it logged
   * its start with that setting and never that it is disabled.
   */
  private static void assertServiceStarted(String omLog) {
    assertTrue(omLog.contains(" INFO io.ozonerc.compaction.service.RangeCompactionService: Starting with "
        + "RangeCompactionConfig{enabled=true, "), "the service's start in the OM log:\n" + omLog);
    assertFalse(omLog.contains("Range compaction disabled"), omLog);
  }

  /** How -Xlog:class+load names a class's jar: by its real path (the home's library jars are links). */
  private static String source(Path jar) throws IOException {
    return "file:" + jar.toRealPath();
  }

  /** Class name to source, from a -Xlog:class+load log (the first load of each name). */
  static Map<String, String> loaded(Path log) throws IOException {
    assertTrue(Files.isRegularFile(log), "class-loading log " + log);
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(log)) {
      Matcher m = LOADED.matcher(line);
      if (m.find()) {
        out.putIfAbsent(m.group(1), m.group(2).trim());
      }
    }
    assertNotNull(out.get("java.lang.Object"), "a class-loading log: " + log);
    return out;
  }

  /** Binary names of the classes in a jar. */
  static List<String> classesIn(Path jar) throws IOException {
    List<String> out = new ArrayList<>();
    try (JarFile j = new JarFile(jar.toFile())) {
      for (JarEntry e : j.stream().toList()) {
        if (e.getName().endsWith(".class")) {
          out.add(e.getName().substring(0, e.getName().length() - ".class".length()).replace('/', '.'));
        }
      }
    }
    return out;
  }
}
