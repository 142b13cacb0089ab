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
