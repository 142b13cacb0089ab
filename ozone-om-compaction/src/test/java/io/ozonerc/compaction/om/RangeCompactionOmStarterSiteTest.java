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

package io.ozonerc.compaction.om;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.SiteConfJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ozone om} through the stock-OM starter's real {@code main}, in a fresh JVM whose class path starts with an
 * operator's {@code ozone-site.xml}: the value written there is the one the starter checks (and the service would
 * run with). An invalid interval there must stop the starter with our message before the OM touches its storage;
 * were our defaults read instead, the starter would pass the check and fail later inside the OM.
 */
class RangeCompactionOmStarterSiteTest {
  @Test
  void theStartersMainChecksTheSiteFilesValue(@TempDir Path dir) throws Exception {
    SiteConfJvm jvm = SiteConfJvm.withSite(dir.resolve("conf"), Map.of(
        "ozone.metadata.dirs", dir.resolve("meta").toString(),
        "ozone.om.db.dirs", dir.resolve("om-db").toString(),
        "ozone.om.range.compaction.service.enabled", "true",
        "ozone.om.range.compaction.interval", "500us"));
    SiteConfJvm.Result r = jvm.run(RangeCompactionOmStarter.class.getName());
    assertNotEquals(0, r.status(), r.toString());
    String all = r.out() + r.err();
    assertTrue(all.contains("Invalid ozone.om.range.compaction.interval") && all.contains("'500us'"), r.toString());
    assertFalse(all.contains("OM Storage is not initialized"), "stopped before the OM was created\n" + r);
    assertFalse(Files.exists(dir.resolve("om-db")), "no OM storage touched");
  }
}
