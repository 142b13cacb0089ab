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

package io.ozonerc.compaction;

import java.lang.reflect.Field;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists our {@code -default.xml} among Hadoop's default resources at the lowest precedence, so every
 * {@link Configuration} in the JVM (the OM's {@code /conf} page included) shows our keys with their defaults while
 * {@code ozone-site.xml}, {@code -D} and {@code conf.set} always win.
 *
 * <p>Why not Hadoop's public registration call: Hadoop reads default resources in the order they were added,
 * a later one overriding an earlier one, and {@code OzoneConfiguration} adds {@code ozone-site.xml} when its class
 * is first loaded. In an OM that class is loaded long before ours, so a resource registered the public way
 * lands after {@code ozone-site.xml} and replaces the operator's values in every configuration, existing ones
 * included (they are reloaded). Hadoop has no public call that adds a default resource at the front; this class
 * puts ours first in Hadoop's list, under the same lock the public call takes, then reloads existing
 * configurations as that call does. No other resource defines our keys, so first means
 * lowest precedence whatever was loaded before.
 *
 * <p>If a future Hadoop renames the list, nothing is registered and a warning says so: the service's values are
 * unaffected (an unset key takes its {@code @Config} default), only {@code /conf} stops listing unset keys.
 */
final class DefaultsResource {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultsResource.class);
  /** The private static list of default resource names in Hadoop 3.x {@link Configuration}. */
  private static final String HADOOP_FIELD = "defaultResources";

  private DefaultsResource() { }

  /** Registers {@code name} as the first default resource, once; returns whether it is registered afterwards. */
  static boolean registerFirst(String name) {
    synchronized (Configuration.class) { // the monitor of Configuration's static synchronized methods
      List<String> defaults = hadoopDefaults(name);
      if (defaults == null) {
        return false;
      }
      if (defaults.contains(name)) {
        return true;
      }
      defaults.add(0, name);
      Configuration.reloadExistingConfigurations();
      return true;
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> hadoopDefaults(String name) {
    try {
      Field f = Configuration.class.getDeclaredField(HADOOP_FIELD);
      f.setAccessible(true);
      return (List<String>) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("Cannot list {} among Hadoop's default configuration resources ({}): /conf will not show unset "
          + "keys it declares; the values in force are not affected", name, e.toString());
      return null;
    }
  }
}
