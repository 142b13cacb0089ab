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

package io.ozonerc.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.SiteConfJvm;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's {@code range} policy takes every key it does not set itself from {@code ozone-site.xml}, and its
 * own options win over the file (as {@code -D} does for an OM).
 */
class RangePolicySiteTest {
  @Test
  void siteFileValuesReachTheRangePolicyAndItsOwnOptionsWin(@TempDir Path dir) throws Exception {
    SiteConfJvm.Result r = SiteConfJvm.withSite(dir, Map.of(
        "ozone.om.range.compaction.dead.head.min.keys", "777",
        "ozone.om.range.compaction.min.tombstones", "100")).run(RangePolicySiteProbe.class.getName());
    assertEquals(0, r.status(), r.toString());
    assertTrue(r.out().lines().anyMatch(
        "range policy minTombstones=50 deadHeadMinKeys=777 headCheckInterval=PT5S"::equals), r.toString());
  }
}
