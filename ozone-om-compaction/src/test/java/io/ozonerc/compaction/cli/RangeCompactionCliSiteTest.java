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

package io.ozonerc.compaction.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.SiteConfJvm;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator CLI reads the thresholds an operator wrote in {@code ozone-site.xml}, in a fresh JVM that finds the
 * file on its class path as {@code ozone} does with {@code $OZONE_CONF_DIR}: both the standalone
 * {@code RangeCompactionCli} and Ozone's own {@code ozone debug} (2.2.0's {@code OzoneDebug} main, which loads its
 * configuration before our classes). The header's defaults line must not claim the key was left unset.
 */
class RangeCompactionCliSiteTest {
  private static final Map<String, String> SITE = Map.of(
      "ozone.om.range.compaction.min.tombstones", "100",
      "ozone.om.range.compaction.tombstone.ratio", "0.25",
      "ozone.om.range.compaction.min.tombstone", "5");

  @TempDir
  static Path dir;
  private static Path db;

  @BeforeAll
  static void buildDb() throws Exception {
    db = CliFixtures.buildOmDb(dir.resolve("store"));
  }

  @Test
  void standaloneCliReadsTheSiteFile() throws Exception {
    check(SiteConfJvm.withSite(dir.resolve("cli"), SITE).run(RangeCompactionCli.class.getName(), "--db",
        db.toString()));
  }

  @Test
  void ozoneDebugReadsTheSiteFile() throws Exception {
    check(SiteConfJvm.withSite(dir.resolve("debug"), SITE).run("org.apache.hadoop.ozone.debug.OzoneDebug",
        "range-compaction", "--db", db.toString()));
  }

  private static void check(SiteConfJvm.Result r) {
    assertEquals(0, r.status(), r.toString());
    assertTrue(r.out().contains("settings: min.tombstones=100 tombstone.ratio=0.25 "), r.toString());
    String defaults = r.out().lines().filter(l -> l.contains("defaults (not set in ozone-site.xml")).findFirst()
        .orElse("");
    assertFalse(defaults.contains("min.tombstones") || defaults.contains("tombstone.ratio"), r.toString());
    assertTrue(defaults.contains("max.compaction.entries"), "an unset key is still reported as a default\n" + r);
    assertTrue(r.err().contains("Unknown configuration key ozone.om.range.compaction.min.tombstone = '5' is "
        + "ignored; did you mean ozone.om.range.compaction.min.tombstones?"), r.toString());
  }
}
