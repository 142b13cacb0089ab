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

package io.ozonerc.compaction.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * A key range [begin, end) of one table, and what it is ({@link Kind}). {@code end == null} means past the last
 * key. Code decides by the kind and the bounds; the label is for people only.
 *
 * @param kind  what the range is: a bucket, a gap between buckets, a dead head, a piece the planner cut or joined
 * @param label what the range is to an operator: a bucket as {@code /vol/bucket/}, {@code (no bucket)} for keys
 *              between buckets (left over from deleted buckets), {@code (table head)}, or such a label with the
 *              planner's words appended ({@code part 2/3}, {@code + /vol/b2/})
 */
public record KeyRange(String table, Kind kind, String label, byte[] begin, byte[] end) {

  /** What a range is; decides how a round re-checks it and how reports and metrics count it. */
  public enum Kind {
    /** A whole table, as a dead-head probe reads it from its first byte. */
    TABLE,
    /** A bucket's keys: its name prefix, or its id prefix in the FSO tables. */
    BUCKET,
    /** Keys between buckets, or before the first or after the last. */
    GAP,
    /**
     * The keys under one directory of a bucket: an FSO parent ({@code /volumeId/bucketId/parentId/}) or a key-name
     * prefix ending in {@code /}. A listing of that directory seeks to its start.
     */
    DIRECTORY,
    /** A bucket, or a gap, cut at file boundaries so one compaction stays under {@code max.compaction.entries}. */
    SPLIT_PART,
    /** The tombstone-dense files inside a range that is below the thresholds as a whole. */
    DENSE_PART,
    /** Neighbouring ranges joined into one compaction. */
    MERGED,
    /** Neighbouring ranges below the thresholds alone whose compactions rewrite the same files, judged together. */
    FILE_SET,
    /**
     * A bucket whose tombstones were counted in its files rather than estimated ({@link CountPlanner}); re-checked
     * by counting again.
     */
    COUNTED,
    /** The dead entries a table starts with. */
    TABLE_HEAD,
    /** The dead entries a bucket starts with, up to its first live key. */
    BUCKET_HEAD,
    /** The dead entries a directory starts with, up to its first live key. */
    DIRECTORY_HEAD;

    /** True for the dead span found by a probe; such a range is re-checked by probing again. */
    public boolean isHead() {
      return this == TABLE_HEAD || this == BUCKET_HEAD || this == DIRECTORY_HEAD;
    }

    /** The kind of the dead span a probe of a range of this kind finds. */
    public Kind headKind() {
      return switch (this) {
      case TABLE, TABLE_HEAD -> TABLE_HEAD;
      case DIRECTORY, DIRECTORY_HEAD -> DIRECTORY_HEAD;
      default -> BUCKET_HEAD;
      };
    }

    /** Lower case with dashes, as reports and metric tags print it: {@code bucket-head}. */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public KeyRange {
    Objects.requireNonNull(kind);
    if (end != null && Keys.compare(begin, end) >= 0) {
      throw new IllegalArgumentException("empty range " + Keys.show(begin) + ".." + Keys.show(end) + " of " + table);
    }
  }

  /** The range of a bucket: every key of {@code table} that starts with {@code prefix}. */
  public static KeyRange bucket(String table, String prefix) {
    byte[] begin = Keys.utf8(prefix);
    return new KeyRange(table, Kind.BUCKET, prefix, begin, Keys.prefixSuccessor(begin));
  }

  /** This range as a dead head: the same bounds with the kind a probe's dead span has ({@link Kind#headKind}). */
  public KeyRange asHead() {
    return new KeyRange(table, kind.headKind(), label, begin, end);
  }

  /** This range's kind and label over other bounds. */
  public KeyRange withBounds(byte[] newBegin, byte[] newEnd) {
    return newBegin == begin && newEnd == end ? this : new KeyRange(table, kind, label, newBegin, newEnd);
  }

  public boolean overlaps(KeyRange other) {
    return table.equals(other.table)
        && (other.end == null || Keys.compare(begin, other.end) < 0)
        && (end == null || Keys.compare(other.begin, end) < 0);
  }

  /** Equal when table, kind, label and both bounds are equal by content (a record compares arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && table.equals(r.table) && kind == r.kind && label.equals(r.label)
        && Arrays.equals(begin, r.begin) && Arrays.equals(end, r.end);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, kind, label, Arrays.hashCode(begin), Arrays.hashCode(end));
  }

  @Override
  public String toString() {
    return table + " [" + Keys.show(begin) + ", " + Keys.show(end) + ")";
  }
}
