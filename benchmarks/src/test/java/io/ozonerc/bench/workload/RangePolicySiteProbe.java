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

import io.ozonerc.compaction.RangeCompactionConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * Run by {@link RangePolicySiteTest} in a JVM with an {@code ozone-site.xml} first on its class path: reads an
 * Ozone configuration before any of our classes load, then prints the values the {@code range} policy's service
 * would run with.
 */
public final class RangePolicySiteProbe {
  private RangePolicySiteProbe() { }

  public static void main(String[] args) {
    new OzoneConfiguration().get("ozone.om.address"); // Ozone's configuration loaded first, as in an OM
    RangeServicePolicy.Settings s = new RangeServicePolicy.Settings(Duration.ofSeconds(1), 50, 0.3, 1_000_000, 20,
        Map.of());
    RangeCompactionConfig c = RangeCompactionConfig.from(RangeServicePolicy.ozoneConfiguration(s));
    System.out.println("range policy minTombstones=" + c.plannerSettings().minTombstones() + " deadHeadMinKeys="
        + c.getDeadHeadMinKeys() + " headCheckInterval=" + c.getHeadCheckInterval());
  }
}
