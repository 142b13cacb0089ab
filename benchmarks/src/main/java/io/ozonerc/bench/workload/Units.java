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

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the durations ({@code 500ms}, {@code 2s}, {@code 1m}) and sizes ({@code 64KB}, {@code 16MB}) of the CLI. */
final class Units {

  private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*(\\d+)\\s*([a-zA-Z]*)\\s*");

  private Units() {
  }

  static Duration duration(String option, String text) {
    Matcher m = NUMBER_UNIT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(option + ": cannot parse duration '" + text + "' (e.g. 500ms, 2s, 1m)");
    }
    long v = Long.parseLong(m.group(1));
    switch (m.group(2).toLowerCase(Locale.ROOT)) {
    case "ms":
      return Duration.ofMillis(v);
    case "":
    case "s":
      return Duration.ofSeconds(v);
    case "m":
      return Duration.ofMinutes(v);
    default:
      throw new IllegalArgumentException(option + ": unknown duration unit '" + m.group(2) + "' in '" + text
          + "' (ms, s, m)");
    }
  }

  static long bytes(String option, String text) {
    Matcher m = NUMBER_UNIT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException(option + ": cannot parse size '" + text + "' (e.g. 4MB, 128MB)");
    }
    long v = Long.parseLong(m.group(1));
    switch (m.group(2).toUpperCase(Locale.ROOT)) {
    case "":
    case "B":
      return v;
    case "KB":
      return v << 10;
    case "MB":
      return v << 20;
    case "GB":
      return v << 30;
    default:
      throw new IllegalArgumentException(option + ": unknown size unit '" + m.group(2) + "' in '" + text
          + "' (B, KB, MB, GB)");
    }
  }
}
