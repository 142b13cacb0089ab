package io.ozonerc.compaction.plan;

import java.util.Arrays;
import java.util.Objects;

/**
 * A key range [begin, end) of one table. {@code end == null} means past the last key.
 *
 * @param label what the range is to an operator: a bucket prefix such as {@code /vol/bucket/} or
 *              {@code /-9223372036854775552/-9223372036854775040/}, or {@code (no bucket)} for keys between buckets
 *              (left over from deleted buckets)
 */
public record KeyRange(String table, String label, byte[] begin, byte[] end) {

  public KeyRange {
    if (end != null && Keys.compare(begin, end) >= 0) {
      throw new IllegalArgumentException("empty range " + Keys.show(begin) + ".." + Keys.show(end) + " of " + table);
    }
  }

  /** The range of every key of {@code table} that starts with {@code prefix}. */
  public static KeyRange ofPrefix(String table, String prefix) {
    byte[] begin = Keys.utf8(prefix);
    return new KeyRange(table, prefix, begin, Keys.prefixSuccessor(begin));
  }

  public boolean overlaps(KeyRange other) {
    return table.equals(other.table)
        && (other.end == null || Keys.compare(begin, other.end) < 0)
        && (end == null || Keys.compare(other.begin, end) < 0);
  }

  /** Equal when table, label and both bounds are equal by content (a record would compare the arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && table.equals(r.table) && label.equals(r.label)
        && Arrays.equals(begin, r.begin) && Arrays.equals(end, r.end);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, label, Arrays.hashCode(begin), Arrays.hashCode(end));
  }

  @Override
  public String toString() {
    return table + " [" + Keys.show(begin) + ", " + Keys.show(end) + ")";
  }
}
