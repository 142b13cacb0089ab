/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hadoop.hdds.utils.db;

import org.apache.hadoop.hdds.conf.ConfigurationSource;

/**
 * The settings of the skip hints ({@link SkipHints}), shared by the tables of one OM: their configuration keys, and
 * the values read and checked from them. Only the switch can change after start.
 */
public final class SkipHintSettings {
  /** Turns learning and using spans on or off (the write path keeps its records either way). Reconfigurable. */
  public static final String ENABLED_KEY = "ozone.om.list.skip.hints.enabled";
  public static final boolean ENABLED_DEFAULT = true;
  /** The most dead spans one table keeps; the least recently used go first. */
  public static final String MAX_ENTRIES_KEY = "ozone.om.list.skip.hints.max.entries";
  public static final int MAX_ENTRIES_DEFAULT = 100_000;
  /**
   * How long a seek from inside a prefix, or a step of a listing, must take before the span it crossed is learned:
   * a step over a few live keys costs far less, one over a run of deleted keys more. Seeks from the start of a
   * prefix or of the table always learn.
   */
  public static final String LEARN_THRESHOLD_KEY = "ozone.om.list.skip.hints.learn.threshold";
  public static final String LEARN_THRESHOLD_DEFAULT = "50us";

  private volatile boolean enabled;
  private final int maxEntries;
  private final long learnThresholdNanos;

  private SkipHintSettings(boolean enabled, int maxEntries, long learnThresholdNanos) {
    this.enabled = enabled;
    this.maxEntries = maxEntries;
    this.learnThresholdNanos = learnThresholdNanos;
  }

  /** Reads and checks the keys; a bad value fails naming key and value. */
  public static SkipHintSettings fromConfig(ConfigurationSource conf) {
    return new SkipHintSettings(parseEnabled(conf.get(ENABLED_KEY, String.valueOf(ENABLED_DEFAULT))),
        parseMaxEntries(conf.get(MAX_ENTRIES_KEY, String.valueOf(MAX_ENTRIES_DEFAULT))),
        parseLearnThreshold(conf.get(LEARN_THRESHOLD_KEY, LEARN_THRESHOLD_DEFAULT)));
  }

  /** "true" or "false" (any case, surrounding blanks ignored); anything else fails naming the key. */
  public static boolean parseEnabled(String value) {
    String v = value == null ? "" : value.trim();
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("Invalid value for " + ENABLED_KEY + ": '" + value
        + "' (expected true or false)");
  }

  static int parseMaxEntries(String value) {
    try {
      int n = value == null ? 0 : Integer.parseInt(value.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Invalid value for " + MAX_ENTRIES_KEY + ": '" + value
        + "' (expected a whole number of spans per table, at least 1)");
  }

  /**
   * A duration from 0 to 1 s: a whole number with the unit ns, us, ms or s (a number alone is microseconds).
   * Returns nanoseconds; anything else fails naming the key.
   */
  static long parseLearnThreshold(String value) {
    final java.util.regex.Matcher m = value == null ? null
        : java.util.regex.Pattern.compile("(\\d{1,10})\\s*(ns|us|ms|s)?").matcher(value.trim().toLowerCase(
            java.util.Locale.ROOT));
    if (m != null && m.matches()) {
      final long n = Long.parseLong(m.group(1));
      final String unit = m.group(2) == null ? "us" : m.group(2);
      final long nanos = n * (unit.equals("ns") ? 1L : unit.equals("us") ? 1_000L
          : unit.equals("ms") ? 1_000_000L : 1_000_000_000L);
      if (nanos <= 1_000_000_000L) {
        return nanos;
      }
    }
    throw new IllegalArgumentException("Invalid value for " + LEARN_THRESHOLD_KEY + ": '" + value
        + "' (expected a duration from 0 to 1s, such as 50us or 2ms)");
  }

  public boolean isEnabled() {
    return enabled;
  }

  /** The switch, as reconfigured ({@link SkipHintGroup#reconfigureEnabled}); the rest is fixed at start. */
  void setEnabled(boolean on) {
    enabled = on;
  }

  public int maxEntries() {
    return maxEntries;
  }

  public long learnThresholdNanos() {
    return learnThresholdNanos;
  }
}
