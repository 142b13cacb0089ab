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

import java.util.Locale;

/**
 * {@code --size N}: multiplies what makes the default store and run big by N, so a larger OM runs the same shape:
 * cold keys, expiry-bucket keys, operations, expiry listings and the live-key cap (so the queue holds as many
 * tombstones per live key, and the expiry bucket is listed as often per operation). An option given explicitly
 * keeps its value. N is a decimal in [1, 1000] (e.g. 4 or 2.5); each count is rounded to the nearest integer.
 * Buckets, list length, batch size, memtable size and the weights stay as they are.
 */
record SizeFactor(double factor) {

  static final SizeFactor ONE = new SizeFactor(1);
  static final double MAX = 1000;

  SizeFactor {
    if (!(factor >= 1 && factor <= MAX)) {
      throw new IllegalArgumentException(message(String.valueOf(factor)));
    }
  }

  /** The option's text as a factor; a clear error naming the option and the value otherwise. */
  static SizeFactor parse(String text) {
    if (text == null) {
      return ONE;
    }
    double v;
    try {
      v = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(message(text));
    }
    if (!(v >= 1 && v <= MAX) || text.trim().matches("(?i).*[a-z].*")) { // no NaN, Infinity, 1e3, 4d
      throw new IllegalArgumentException(message(text));
    }
    return new SizeFactor(v);
  }

  private static String message(String text) {
    return String.format(Locale.ROOT, "--size must be a decimal number in [1, %.0f] (e.g. 4 or 2.5), got '%s'", MAX,
        text);
  }

  long times(long base) {
    return Math.round(base * factor);
  }

  int times(int base) {
    return (int) Math.min(Integer.MAX_VALUE, Math.round(base * factor));
  }
}
