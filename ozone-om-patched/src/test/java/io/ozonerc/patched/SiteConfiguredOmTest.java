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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The patched OM (service created by {@code KeyManagerImpl}, long after the OM read its configuration) runs with
 * what an operator wrote in {@code ozone-site.xml}, and its configuration, which {@code /conf} shows, keeps the
 * site's values while listing our unset keys with their defaults. A mistyped key is logged with the key meant.
 */
class SiteConfiguredOmTest {
  @TempDir
  Path work;

  @Test
  void thePatchedOmRunsTheServiceWithTheSiteFilesValues() throws Exception {
    Path conf = Files.createDirectories(work.resolve("conf"));
    Files.writeString(conf.resolve("ozone-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>ozone.om.range.compaction.service.enabled</name><value>true</value></property>
          <property><name>ozone.om.range.compaction.min.tombstones</name><value>100</value></property>
          <property><name>ozone.om.range.compaction.dead.head.min.keys</name><value>777</value></property>
          <property><name>ozone.om.range.compaction.dead.head.min.key</name><value>5</value></property>
        </configuration>
        """);
    List<String> lines = OmJvm.patched().withConfDir(conf).run(SiteConfiguredOm.class, work.resolve("run"), 300);
    assertEquals(List.of(
        "before start min.tombstones=100",
        "service running",
        "effective minTombstones=100 deadHeadMinKeys=777 interval=PT10M",
        "om conf service.enabled=true from ozone-site.xml",
        "om conf min.tombstones=100 from ozone-site.xml",
        "om conf dead.head.min.keys=777 from ozone-site.xml",
        "om conf interval=10m from ozone-om-compaction-default.xml"), lines);
    // a typo is named with the key meant, and the OM started all the same (above)
    String log = Files.readString(work.resolve("run/patched-SiteConfiguredOm.log"));
    assertTrue(log.contains("WARN") && log.contains("Unknown configuration key "
        + "ozone.om.range.compaction.dead.head.min.key = '5' is ignored; did you mean "
        + "ozone.om.range.compaction.dead.head.min.keys?"), "the OM's log warns of the unknown key");
  }
}
