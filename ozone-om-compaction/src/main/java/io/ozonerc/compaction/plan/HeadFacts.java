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

/**
 * What one probe found at the start of a range: where the first live key is, and how many internal keys a seek at
 * {@code begin} steps over before reaching it (the range's <em>dead head</em>).
 *
 * <p>Everything in [begin, firstLive) is dead by definition: a seek returns the first live key at or after
 * {@code begin}, so every internal key RocksDB holds before it is a tombstone or a value a tombstone hides. The
 * count is not a scan: RocksDB's approximate sizes estimate the SST part, and bounded memtable-only seeks count
 * the memtable part (see {@code rocks.HeadProbe}).
 *
 * @param range       the probed range: a bucket prefix range, or a whole table ({@link #isTableHead()})
 * @param firstLive   the first live key in the range, or {@code null} when the range holds none (then the whole
 *                    range is dead) or the probe gave up after {@code truncated} skips
 * @param deadEntries estimated internal keys in [begin, firstLive): SST entries plus memtable entries
 * @param deadBytes   RocksDB's approximate SST bytes of [begin, firstLive)
 * @param truncated   the probe stopped after its skip cap without finding a live key; the dead head is at least
 *                    that long and its end is unknown, so the whole range stands for it
 * @param memDead     of {@code deadEntries}, those in the table's memtables: when there are any, a
 *                    {@code compactRange} of the head flushes the memtable first
 * @param memOutside  memtable entries of the table outside {@code range}: the file that flush writes reaches
 *                    beyond the range (on a busy OM a flush holds every bucket's writes)
 * @param skippedByReaders the OM's read path holds a skip hint at {@code begin}: listings from there jump to
 *                    {@code firstLive} (the hint) and pay nothing for the span, so it costs space only. The span
 *                    was sized from the hint, without a seek; keys deleted past the hint since it was learned are
 *                    not counted (the next listing pays for those once and advances the hint)
 */
public record HeadFacts(KeyRange range, byte[] firstLive, long deadEntries, long deadBytes, boolean truncated,
    long memDead, long memOutside, boolean skippedByReaders) {

  /** Label of a range that stands for a whole table: the keys before its first live key. */
  public static final String TABLE_HEAD = "(table head)";

  public HeadFacts {
    if (deadEntries < 0 || deadBytes < 0 || memDead < 0 || memOutside < 0) {
      throw new IllegalArgumentException("negative dead head of " + range);
    }
  }

  /** A head with nothing in the memtables. */
  public HeadFacts(KeyRange range, byte[] firstLive, long deadEntries, long deadBytes, boolean truncated) {
    this(range, firstLive, deadEntries, deadBytes, truncated, 0, 0, false);
  }

  /** The range of a whole table, probed from its first byte. */
  public static KeyRange tableRange(String table) {
    return new KeyRange(table, KeyRange.Kind.TABLE, TABLE_HEAD, new byte[0], null);
  }

  public boolean isTableHead() {
    return range.kind() == KeyRange.Kind.TABLE;
  }

  /**
   * The dead span itself, [begin, firstLive); the whole range when it has no live key (or the probe gave up);
   * {@code null} when {@code begin} itself is live. Its kind is the probed range's head kind
   * ({@link KeyRange.Kind#headKind}).
   */
  public KeyRange deadSpan() {
    if (firstLive == null) {
      return wholeRangeAsHead();
    }
    return Keys.compare(firstLive, range.begin()) <= 0 ? null : wholeRangeAsHead().withBounds(range.begin(), firstLive);
  }

  /** The probed range with the head's kind: what a head stands for when its span is not known or is empty. */
  public KeyRange wholeRangeAsHead() {
    return range.asHead();
  }
}
