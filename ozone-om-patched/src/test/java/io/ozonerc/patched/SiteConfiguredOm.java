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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.service.RangeCompactionService;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.KeyManagerImpl;

/**
 * Run by {@link SiteConfiguredOmTest} in a JVM whose class path starts with a directory holding an
 * {@code ozone-site.xml}: reads the configuration first (as the OM does, long before the patched
 * {@code KeyManagerImpl} loads our classes), starts a MiniOzoneCluster on it, and writes what the OM's range
 * compaction service and the OM's own configuration hold.
 *
 * <p>Argument: the output file.
 */
public final class SiteConfiguredOm {
  private static final String P = "ozone.om.range.compaction.";

  private SiteConfiguredOm() {
  }

  public static void main(String[] args) throws Exception {
    List<String> out = new ArrayList<>();
    OzoneConfiguration conf = OmCluster.quietConf(); // reads ozone-site.xml now; none of our classes is loaded yet
    out.add("before start min.tombstones=" + conf.get(P + "min.tombstones"));
    try (OmCluster c = OmCluster.start(conf)) {
      Field f = KeyManagerImpl.class.getDeclaredField("rangeCompactionService");
      f.setAccessible(true);
      RangeCompactionService service = (RangeCompactionService) f.get(c.om().getKeyManager());
      out.add("service " + (service == null ? "absent" : "running"));
      if (service != null) {
        RangeCompactionConfig effective = service.getConfig();
        out.add("effective minTombstones=" + effective.plannerSettings().minTombstones() + " deadHeadMinKeys="
            + effective.getDeadHeadMinKeys() + " interval=" + effective.getInterval());
      }
      OzoneConfiguration omConf = c.om().getConfiguration();
      for (String key : List.of("service.enabled", "min.tombstones", "dead.head.min.keys", "interval")) {
        String[] sources = omConf.getPropertySources(P + key);
        out.add("om conf " + key + "=" + omConf.get(P + key) + " from "
            + (sources == null ? "-" : sources[sources.length - 1]));
      }
    }
    Files.write(Path.of(args[0]), out);
    System.exit(0); // a MiniOzoneCluster may leave non-daemon threads behind
  }
}
