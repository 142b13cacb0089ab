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

package io.ozonerc.compaction.rocks;

import org.apache.hadoop.hdds.utils.db.managed.ManagedReadOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedSlice;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Status;

/**
 * What a table's memtables (active and immutable) hold in a key span, read with memtable-only seeks that never
 * touch an SST file: whether they hold anything, and how many internal keys a dead span holds. Callers hold the
 * store's close guard ({@link HeadProbe}).
 */
final class MemtableSpan {
  /** Relative precision of {@link #count}: it stops when the count is known to within 1/16. */
  private static final int COUNT_PRECISION = 16;

  private MemtableSpan() { }

  /**
   * Internal keys the table's memtables hold in [begin, end), a span with no live key: counted to within
   * 1/{@value #COUNT_PRECISION} below, by memtable-only seeks, with RocksDB's {@code estimate} as the first guess.
   * Fewer than 3 are below what a seek sees: then the estimate, capped at 2 ({@link #checked}). At most
   * {@link HeadProbe#MAX_SKIPS}. A live key written into the span while it is counted stops the seeks made after
   * it; what earlier seeks found stands.
   *
   * <p>The estimate alone will not do for a head: it is a walk down the skip list's levels, and one shape of head
   * read from a third of what is there to all of it from run to run (docs/facts.md, RocksDB limits). A seek
   * counts instead: {@link #holds} answers "at least n" in about n skip-list steps. The search tries the estimate
   * and one step of 1/16 beyond it, then doubles or halves until the answer changes and halves the gap. In skip-list
   * steps, n being what is there: 2-3n when the estimate is right, up to 9n when it is 2-3 times off either way,
   * up to 18n when it is 0 or a thousand times too many (a model of this loop over 6,000 counts).
   */
  static long count(RocksDB raw, ColumnFamilyHandle cf, byte[] begin, byte[] end, long estimate)
      throws RocksDBException {
    long atLeast = 3; // the memtable holds at least this many
    if (!holds(raw, cf, begin, end, atLeast)) {
      return checked(estimate, false);
    }
    long below; // and fewer than this
    long guess = Math.min(Math.max(atLeast + 1, estimate), HeadProbe.MAX_SKIPS);
    long step = Math.max(1, guess / COUNT_PRECISION); // a right estimate is settled by one more seek
    if (holds(raw, cf, begin, end, guess)) {
      atLeast = guess;
      while (true) { // up: one step, then doubling
        if (atLeast >= HeadProbe.MAX_SKIPS) {
          return atLeast; // as far as the probe's own seek goes
        }
        long next = Math.min(atLeast + step, HeadProbe.MAX_SKIPS);
        if (!holds(raw, cf, begin, end, next)) {
          below = next;
          break;
        }
        atLeast = next;
        step = atLeast;
      }
    } else {
      below = guess;
      long next = below - step;
      while (next > atLeast) { // down: one step, then halving
        if (holds(raw, cf, begin, end, next)) {
          atLeast = next;
          break;
        }
        below = next;
        next = below / 2;
      }
    }
    while (below - atLeast > Math.max(1, atLeast / COUNT_PRECISION)) {
      long mid = atLeast + (below - atLeast) / 2;
      if (holds(raw, cf, begin, end, mid)) {
        atLeast = mid;
      } else {
        below = mid;
      }
    }
    return atLeast;
  }

  /**
   * RocksDB's memtable estimate for a range, checked against the memtable itself. The estimate is a skip-list walk:
   * it reads 0 for a few entries among many (3 or 10 deletes beside 50,000 puts, measured) and can read hundreds
   * where there are tens. {@link #holdsAny} sees any live key and any 3 internal keys, so: when it sees
   * some, at least 1; when it does not, at most the 2 internal keys it cannot see.
   */
  static long checked(long estimate, boolean holdsAny) {
    return holdsAny ? Math.max(1, estimate) : Math.min(2, estimate);
  }

  /**
   * Whether the table's memtables (active and immutable) hold a key in [begin, end), {@code end == null} meaning
   * to the table's end: any live key, or three or more internal keys, are seen; one or two dead internal keys
   * alone (a tombstone, the value it hides) are not ({@link #seek}). Never reads an SST file.
   */
  static boolean holdsAny(RocksDB raw, ColumnFamilyHandle cf, byte[] begin, byte[] end) throws RocksDBException {
    return seek(raw, cf, begin, end, 1) != MemtableSeek.END;
  }

  /**
   * Whether the table's memtables hold at least {@code n} (3 or more) internal keys from {@code begin} on, before
   * {@code end}: a seek stopped by the skip cap ({@link #seek}). About n skip-list steps. With a live key inside
   * the bound, it answers for the dead keys before it and the live key itself (n - 1 dead ones are enough).
   */
  static boolean holds(RocksDB raw, ColumnFamilyHandle cf, byte[] begin, byte[] end, long n)
      throws RocksDBException {
    if (n < 3) {
      throw new IllegalArgumentException("a memtable seek sees 3 or more internal keys, not " + n);
    }
    return seek(raw, cf, begin, end, n - 2) == MemtableSeek.SKIP_CAP;
  }

  /** Where a memtable-only seek stopped. */
  private enum MemtableSeek { LIVE_KEY, END, SKIP_CAP }

  /**
   * A memtable-only seek at {@code begin}, bounded by {@code end} and by {@code maxSkips} skippable internal keys.
   * Tombstones and the values they hide are stepped over and counted; RocksDB stops with {@code Incomplete} when
   * it comes to the span's internal key number maxSkips + 2, dead or live. So in a span ending at its first live
   * key SKIP_CAP means maxSkips + 2 or more internal keys; with a live key inside the bound, maxSkips + 1 or more
   * before it (both checked down to single tombstones and tombstone-value pairs by HeadProbeTest).
   */
  private static MemtableSeek seek(RocksDB raw, ColumnFamilyHandle cf, byte[] begin, byte[] end, long maxSkips)
      throws RocksDBException {
    try (ManagedReadOptions options = new ManagedReadOptions();
         ManagedSlice upper = end == null ? null : new ManagedSlice(end)) {
      options.setReadTier(ReadTier.MEMTABLE_TIER);
      options.setFillCache(false);
      options.setMaxSkippableInternalKeys(maxSkips);
      if (upper != null) {
        options.setIterateUpperBound(upper);
      }
      try (RocksIterator it = raw.newIterator(cf, options)) {
        it.seek(begin);
        if (it.isValid()) {
          return MemtableSeek.LIVE_KEY;
        }
        try {
          it.status();
          return MemtableSeek.END;
        } catch (RocksDBException e) {
          if (e.getStatus() != null && e.getStatus().getCode() == Status.Code.Incomplete) {
            return MemtableSeek.SKIP_CAP;
          }
          throw e;
        }
      }
    }
  }
}
