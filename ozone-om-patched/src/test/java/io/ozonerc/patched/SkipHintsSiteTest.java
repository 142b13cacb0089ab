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

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The skip hint keys as an operator sets them, in {@code ozone-site.xml}: the OM runs with the site's values, and a
 * bad value stops it in its constructor (before {@code OzoneManager.start} opens its RPC and HTTP ports), naming the
 * key and the value. The four sites' OMs start side by side, each in its own JVM on its own ports.
 */
class SkipHintsSiteTest {
  /** enabled, max.entries, learn.threshold of each site, in the order of {@link #runs}. */
  private static final List<List<String>> SITES = List.of(List.of("false", "5", "2ms"),
      List.of("maybe", "100", "50us"), List.of("true", "0", "50us"), List.of("true", "100", "fast"));

  @TempDir
  static Path work;

  static List<List<String>> runs;

  @BeforeAll
  static void startAnOmOnEachSite() throws Exception {
    List<OmJvm> jvms = new ArrayList<>();
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < SITES.size(); i++) {
      List<String> site = SITES.get(i);
      Path conf = Files.createDirectories(work.resolve("site-" + i).resolve("conf"));
      Files.writeString(conf.resolve("ozone-site.xml"), """
          <?xml version="1.0"?>
          <configuration>
            <property><name>ozone.om.list.skip.hints.enabled</name><value>%s</value></property>
            <property><name>ozone.om.list.skip.hints.max.entries</name><value>%s</value></property>
            <property><name>ozone.om.list.skip.hints.learn.threshold</name><value>%s</value></property>
          </configuration>
          """.formatted(site.get(0), site.get(1), site.get(2)));
      jvms.add(OmJvm.patched().withConfDir(conf).withPortBase(OmJvm.portBase(i)));
      dirs.add(work.resolve("site-" + i).resolve("run"));
    }
    runs = OmJvm.runTogether(jvms, SkipHintsSiteOm.class, dirs, 300);
  }

  @Test
  void theOmRunsWithTheSiteValues() {
    assertEquals(List.of("started enabled=false max.entries=5 learn.threshold.ns=2000000"), runs.get(0));
  }

  @Test
  void aBadSwitchStopsTheOmNamingKeyAndValue() {
    assertEquals(List.of(
        "failed IllegalArgumentException: Invalid value for ozone.om.list.skip.hints.enabled: 'maybe' (expected true "
            + "or false)",
        "thrown in the OzoneManager constructor: true, in OzoneManager.start: false"), runs.get(1));
  }

  @Test
  void aBadBoundStopsTheOmNamingKeyAndValue() {
    assertEquals(List.of(
        "failed IllegalArgumentException: Invalid value for ozone.om.list.skip.hints.max.entries: '0' (expected a "
            + "whole number of spans per table, at least 1)",
        "thrown in the OzoneManager constructor: true, in OzoneManager.start: false"), runs.get(2));
  }

  @Test
  void aBadLearnThresholdStopsTheOmNamingKeyAndValue() {
    assertEquals(List.of(
        "failed IllegalArgumentException: Invalid value for ozone.om.list.skip.hints.learn.threshold: 'fast' "
            + "(expected a duration from 0 to 1s, such as 50us or 2ms)",
        "thrown in the OzoneManager constructor: true, in OzoneManager.start: false"), runs.get(3));
  }
}
