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

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * The current {@link RangeCompactionConfig} of a running service, changeable one key at a time without a restart
 * ({@code ozone admin reconfig}).
 *
 * <p>A change is validated as a whole configuration: the raw values of every {@code ozone.om.range.compaction.*}
 * key, with the one key changed, must pass {@link RangeCompactionConfig#from}. A bad value is refused with an
 * {@link IllegalArgumentException} naming the key and the value, and the current configuration stays. An accepted
 * one replaces the current snapshot and is handed to every listener; the service reads it when its next round
 * starts. Snapshots are never modified, so a round sees one consistent configuration.
 */
public final class LiveConfig {
  private final Map<String, String> raw = new TreeMap<>(); // guarded by this: our keys that are set
  private volatile RangeCompactionConfig current;
  private final List<Consumer<RangeCompactionConfig>> listeners = new CopyOnWriteArrayList<>();

  private LiveConfig(Map<String, String> raw, RangeCompactionConfig current) {
    this.raw.putAll(raw);
    this.current = current;
  }

  /** Reads and validates our keys of {@code conf}; fails like {@link RangeCompactionConfig#from}. */
  public static LiveConfig from(ConfigurationSource conf) {
    RangeCompactionConfig config = RangeCompactionConfig.from(conf);
    Map<String, String> raw = new TreeMap<>();
    for (String key : RangeCompactionConfig.keys()) {
      String v = conf.get(key);
      if (v != null) {
        raw.put(key, v);
      }
    }
    return new LiveConfig(raw, config);
  }

  /** The configuration in force now: an immutable snapshot. */
  public RangeCompactionConfig get() {
    return current;
  }

  /** Called with every accepted configuration, on the thread that changed it. */
  public void onChange(Consumer<RangeCompactionConfig> listener) {
    listeners.add(listener);
  }

  /**
   * Sets one key ({@code value == null}: back to its default), validating the result.
   *
   * @return the new configuration
   * @throws IllegalArgumentException naming the key and the value, when it is not one of our keys or the value is
   *                                  invalid; nothing changes then
   */
  public RangeCompactionConfig set(String key, String value) {
    if (!RangeCompactionConfig.keys().contains(key)) {
      throw new IllegalArgumentException("Unknown key " + key + " (value '" + value + "')");
    }
    RangeCompactionConfig next;
    synchronized (this) {
      Map<String, String> candidate = new TreeMap<>(raw);
      if (value == null) {
        candidate.remove(key);
      } else {
        candidate.put(key, value);
      }
      next = RangeCompactionConfig.from(asConfiguration(candidate));
      raw.clear();
      raw.putAll(candidate);
      current = next;
    }
    listeners.forEach(l -> l.accept(next));
    return next;
  }

  /** A configuration holding exactly these values of our keys; the others take their declared defaults. */
  private static OzoneConfiguration asConfiguration(Map<String, String> values) {
    OzoneConfiguration conf = new OzoneConfiguration();
    for (String key : RangeCompactionConfig.keys()) {
      String v = values.get(key);
      if (v == null) {
        conf.unset(key); // drops what ozone-site.xml or our -default.xml say; the annotation default applies
      } else {
        conf.set(key, v);
      }
    }
    return conf;
  }
}
