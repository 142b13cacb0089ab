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
