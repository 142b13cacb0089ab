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

package io.ozonerc.compaction.siteconf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.SiteConfJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An operator's {@code ozone-site.xml} wins over our defaults whichever of {@code OzoneConfiguration} and our
 * configuration class a JVM loads first, in configurations made before our class loaded (the OM's own) and after;
 * unset keys still show our defaults with our file as their source (what the OM's {@code /conf} lists); and a key
 * we do not know is reported with the nearest one we do.
 */
class SitePrecedenceTest {
  /** What an operator enables in ozone-site.xml: three non-default values and one typo. */
  static final Map<String, String> SITE = Map.of(
      "ozone.om.range.compaction.service.enabled", "true",
      "ozone.om.range.compaction.min.tombstones", "100",
      "ozone.om.range.compaction.dead.head.min.keys", "777",
      "ozone.om.range.compaction.min.tombstone", "5");

  @ParameterizedTest
  @ValueSource(strings = {"ozone-first", "ours-first"})
  void siteValuesWinInConfigurationsMadeBeforeAndAfterOurClassLoads(String order, @TempDir Path dir)
      throws Exception {
    SiteConfJvm.Result r = SiteConfJvm.withSite(dir, SITE).run(LoadOrderProbe.class.getName(), order);
    assertEquals(0, r.status(), r.toString());
    List<String> confs = order.equals("ozone-first") ? List.of("before", "early", "fresh") : List.of("fresh");
    for (String c : confs) {
      assertLine(r, c + " ozone.om.range.compaction.service.enabled=true [ozone-site.xml]");
      assertLine(r, c + " ozone.om.range.compaction.min.tombstones=100 [ozone-site.xml]");
      assertLine(r, c + " ozone.om.range.compaction.dead.head.min.keys=777 [ozone-site.xml]");
      if (!c.equals("before")) {
        assertLine(r, c + " effective enabled=true minTombstones=100 deadHeadMinKeys=777 interval=PT10M");
        // unset: our default, and our file named as its source
        assertLine(r, c + " ozone.om.range.compaction.interval=10m [ozone-om-compaction-default.xml]");
      }
    }
    assertLine(r, "warning Unknown configuration key ozone.om.range.compaction.min.tombstone = '5' is ignored; "
        + "did you mean ozone.om.range.compaction.min.tombstones?");
  }

  private static void assertLine(SiteConfJvm.Result r, String line) {
    assertTrue(r.out().lines().anyMatch(line::equals), "missing line: " + line + "\n" + r);
  }
}
