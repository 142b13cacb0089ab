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

import io.ozonerc.compaction.RangeCompactionConfig;
import java.util.Arrays;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * Run in a fresh JVM by {@link SitePrecedenceTest}: loads {@code OzoneConfiguration} before or after our
 * configuration class, then prints what configurations made before and after read. Our keys are spelled out here
 * (string literals only) so nothing loads {@link RangeCompactionConfig} before the step that should.
 *
 * <p>Usage: {@code LoadOrderProbe ozone-first|ours-first}. Prints {@code <conf> <key>=<value> <sources>} lines,
 * the service's effective values, and the unknown-key warnings.
 */
public final class LoadOrderProbe {
  private static final String[] KEYS = {"ozone.om.range.compaction.service.enabled",
      "ozone.om.range.compaction.min.tombstones", "ozone.om.range.compaction.dead.head.min.keys",
      "ozone.om.range.compaction.interval"};

  private LoadOrderProbe() { }

  public static void main(String[] args) {
    OzoneConfiguration early = null;
    if (args[0].equals("ozone-first")) {
      early = new OzoneConfiguration();
      print("before", early); // the site file is read now, before our class exists in this JVM
    }
    RangeCompactionConfig.registerDefaults();
    OzoneConfiguration fresh = new OzoneConfiguration();
    if (early != null) {
      print("early", early);
      effective("early", early);
    }
    print("fresh", fresh);
    effective("fresh", fresh);
    RangeCompactionConfig.unknownKeyWarnings(fresh).forEach(w -> System.out.println("warning " + w));
  }

  private static void print(String name, OzoneConfiguration conf) {
    for (String key : KEYS) {
      System.out.println(name + " " + key + "=" + conf.get(key) + " " + Arrays.toString(conf.getPropertySources(key)));
    }
  }

  private static void effective(String name, OzoneConfiguration conf) {
    RangeCompactionConfig c = RangeCompactionConfig.from(conf);
    System.out.println(name + " effective enabled=" + c.isEnabled() + " minTombstones="
        + c.plannerSettings().minTombstones() + " deadHeadMinKeys=" + c.getDeadHeadMinKeys() + " interval="
        + c.getInterval());
  }
}
