package io.ozonerc.compaction.service;

import io.ozonerc.compaction.RangeCompactionConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * Configurations for the service's tests: the service enabled on Ozone's defaults, then each layer of key-value
 * pairs ({@code key, value, key, value, ...}) in order, so that a later value wins: a test class's own base values
 * first, then a test's.
 */
final class ServiceConf {
  private ServiceConf() { }

  static OzoneConfiguration enabled(String[]... layers) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(RangeCompactionConfig.ENABLED_KEY, "true");
    for (String[] keyValues : layers) {
      for (int i = 0; i < keyValues.length; i += 2) {
        conf.set(keyValues[i], keyValues[i + 1]);
      }
    }
    return conf;
  }

  static RangeCompactionConfig config(String[]... layers) {
    return RangeCompactionConfig.from(enabled(layers));
  }
}
