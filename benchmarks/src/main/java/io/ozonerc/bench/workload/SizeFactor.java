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
