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

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Byte-string keys as RocksDB orders them (unsigned lexicographic), with the two helpers the planner needs:
 * the exclusive end of a prefix and a position estimate used to share one SST file's counts between ranges.
 * A {@code null} end means "past the last key".
 */
public final class Keys {
  private Keys() { }

  public static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * {@link #compare} as a comparator. A class of its own, not a method reference: a plan made right after the OM
   * starts would otherwise pay for spinning the lambda's class (see {@link RangePlanner#plan}).
   */
  static final Comparator<byte[]> ORDER = new Comparator<>() {
    @Override
    public int compare(byte[] a, byte[] b) {
      return Keys.compare(a, b);
    }
  };

  /** Compares exclusive ends, where {@code null} is +infinity. */
  public static int compareEnds(byte[] a, byte[] b) {
    if (a == null) {
      return b == null ? 0 : 1;
    }
    return b == null ? -1 : compare(a, b);
  }

  /**
   * The smallest key greater than every key that starts with {@code prefix}: the prefix with its last byte below
   * 0xFF incremented and the rest dropped. {@code "/vol/bucket/"} gives {@code "/vol/bucket0"}, never the next
   * bucket's first key. {@code null} when the prefix is all 0xFF (no upper bound).
   */
  public static byte[] prefixSuccessor(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if ((prefix[i] & 0xFF) != 0xFF) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  /** The smallest key strictly greater than {@code key}: key + 0x00. Turns an inclusive largest key exclusive. */
  public static byte[] keySuccessor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  /** Bytes of 0xFF that close {@link #inclusiveEnd}: more than any OM key, which is text, ever holds in a row. */
  static final int FF_RUN = 16;

  /**
   * An inclusive last key for the exclusive end {@code end}, for calls such as RocksDB's {@code compactRange} that
   * take their end inclusive: so {@code end} itself is left out. With a last byte of 0x00 that is {@code end}
   * without it, exactly; otherwise the last byte less one followed by {@value #FF_RUN} bytes of 0xFF, which leaves
   * out only keys with a longer run of 0xFF there (no text key has one). {@code null} stays null (no end).
   */
  public static byte[] inclusiveEnd(byte[] end) {
    if (end == null || end.length == 0) {
      return end;
    }
    int last = end.length - 1;
    if (end[last] == 0) {
      return Arrays.copyOf(end, last);
    }
    byte[] out = Arrays.copyOf(end, end.length + FF_RUN);
    out[last]--;
    Arrays.fill(out, end.length, out.length, (byte) 0xFF);
    return out;
  }

  /** Whether {@code keySuccessor(key) >= bound}, without building the successor. */
  static boolean successorAtOrAfter(byte[] key, byte[] bound) {
    if (compare(key, bound) >= 0) {
      return true;
    }
    // key < bound: the successor key + 0x00 reaches bound only by being it.
    return bound.length == key.length + 1 && bound[key.length] == 0
        && Arrays.equals(key, 0, key.length, bound, 0, key.length);
  }

  /**
   * The search over sorted keys the planner makes: in {@code keys} ascending ({@code null} elements stand for
   * +infinity and may only end the array), the first index whose key is at or after {@code key} (strictly after
   * with {@code after}), or {@code keys.length} when there is none. See {@link #gallop}.
   */
  static int search(byte[][] keys, byte[] key, boolean after, int hint, PlanWork work) {
    return gallop(keys.length, hint, new KeysAtOrAfter(keys, key, after), work);
  }

  /** Number of keys in sorted {@code keys} strictly below {@code bound} ({@link #search} from the start, uncounted). */
  static int countBelow(byte[][] keys, byte[] bound) {
    return search(keys, bound, false, 0, PlanWork.unbounded());
  }

  /**
   * What {@link #gallop} searches: a test over the indexes of a sorted array, false up to some index and true from
   * there on. An abstract class with two small subclasses, not an {@code IntPredicate} lambda: a plan searches
   * millions of times, and the first plan of a fresh JVM paid for spinning a class per lambda and for calls through
   * an interface while its code still ran interpreted or in C1 (docs/facts.md, "Planner time").
   */
  abstract static class Reached {
    abstract boolean at(int i);
  }

  /** Sorted keys: the element at i is at or after the key looked for (strictly after with {@code after}). */
  private static final class KeysAtOrAfter extends Reached {
    private final byte[][] keys;
    private final byte[] key;
    private final boolean after;

    KeysAtOrAfter(byte[][] keys, byte[] key, boolean after) {
      this.keys = keys;
      this.key = key;
      this.after = after;
    }

    @Override
    boolean at(int i) {
      return atOrAfter(keys[i], key, after);
    }
  }

  /**
   * The planner's one binary search: the first index in [0, n) where {@code reached} holds, or {@code n} when it
   * holds nowhere; {@code reached} must be false up to some index and true from there on. It searches outwards
   * from {@code hint} in doubling steps, then bisects: O(log d) tests for an answer d places from the hint. A plan
   * asks for its ranges in key order, so d is small and a search costs a few tests. Each test is a step of
   * {@code work}.
   */
  static int gallop(int n, int hint, Reached reached, PlanWork work) {
    if (n == 0) {
      return 0;
    }
    int h = Math.min(Math.max(hint, 0), n - 1);
    int lo;
    int hi;
    work.step();
    if (reached.at(h)) { // the answer is at or before h
      hi = h;
      lo = 0;
      for (int step = 1; hi - step >= 0; step <<= 1) {
        work.step();
        if (!reached.at(hi - step)) {
          lo = hi - step + 1;
          break;
        }
        hi -= step;
      }
    } else { // the answer is after h
      lo = h + 1;
      hi = n;
      for (int step = 1; lo + step - 1 < n; step <<= 1) {
        work.step();
        if (reached.at(lo + step - 1)) {
          hi = lo + step - 1;
          break;
        }
        lo += step;
      }
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      work.step();
      if (reached.at(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static boolean atOrAfter(byte[] element, byte[] key, boolean after) {
    if (element == null) {
      return true;
    }
    int c = compare(element, key);
    return c > 0 || (c == 0 && !after);
  }

  /** Whether {@code keys} ascend (equal neighbours allowed), for skipping a sort of keys that come sorted. */
  static boolean ascending(byte[][] keys) {
    for (int i = 1; i < keys.length; i++) {
      if (compare(keys[i - 1], keys[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /** True when [smallest, largest] (inclusive) and [begin, end) share a key. */
  public static boolean overlaps(byte[] smallest, byte[] largest, byte[] begin, byte[] end) {
    return compare(largest, begin) >= 0 && (end == null || compare(smallest, end) < 0);
  }

  /**
   * Estimated share of a file's keys that fall in [begin, end), for a file spanning [smallest, largest].
   *
   * <p>RocksDB reports counts per file, not per key range, and {@code getPropertiesOfTablesInRange} is broken in
   * rocksdbjni 7.7.3. So a file that straddles a range boundary is split by linear interpolation over its key
   * span: keys are read as base-256 fractions from the first byte where smallest and largest differ, 7 bytes deep
   * (56 bits, exact in a double). This is the estimate RocksDB's own ApproximateSizes makes at block granularity;
   * at file granularity it assumes keys are spread evenly, which holds for the OM's monotonic ids and is the
   * best one can do without reading the file. Files wholly inside the range return exactly 1.
   */
  public static double overlapFraction(byte[] smallest, byte[] largest, byte[] begin, byte[] end) {
    if (!overlaps(smallest, largest, begin, end)) {
      return 0.0;
    }
    boolean startsInside = compare(smallest, begin) >= 0;
    boolean endsInside = end == null || compare(largest, end) < 0;
    if (startsInside && endsInside) {
      return 1.0;
    }
    int common = commonPrefixLength(smallest, largest);
    double lo = position(smallest, common);
    double hi = position(largest, common);
    if (hi <= lo) {
      return 1.0; // span too narrow to interpolate; the file overlaps, so count it whole
    }
    double from = startsInside ? lo : Math.max(lo, position(begin, common, smallest));
    double to = endsInside ? hi : Math.min(hi, position(end, common, smallest));
    return Math.max(0.0, Math.min(1.0, (to - from) / (hi - lo)));
  }

  private static int commonPrefixLength(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    int i = 0;
    while (i < n && a[i] == b[i]) {
      i++;
    }
    return i;
  }

  private static double position(byte[] key, int from) {
    double value = 0;
    double scale = 1.0 / 256;
    for (int i = from; i < from + 7; i++) {
      int b = i < key.length ? key[i] & 0xFF : 0;
      value += b * scale;
      scale /= 256;
    }
    return value;
  }

  /**
   * Position of a boundary key relative to a file whose keys share {@code common} leading bytes with
   * {@code reference}. A boundary that diverges earlier lies wholly before (0) or after (1) the file's span.
   */
  private static double position(byte[] boundary, int common, byte[] reference) {
    int shared = commonPrefixLength(boundary, reference);
    if (shared < common) {
      return compare(boundary, reference) < 0 ? 0.0 : 1.0;
    }
    return position(boundary, common);
  }

  /** Printable form for logs, fixtures and the CLI: ASCII as is, other bytes as \xHH; null end as "+inf". */
  public static String show(byte[] key) {
    if (key == null) {
      return "+inf";
    }
    StringBuilder sb = new StringBuilder(key.length);
    for (byte b : key) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.toString();
  }

  /** Inverse of {@link #show}: "+inf" is null, \xHH escapes are bytes. */
  public static byte[] parse(String shown) {
    if ("+inf".equals(shown)) {
      return null;
    }
    byte[] out = new byte[shown.length()];
    int n = 0;
    for (int i = 0; i < shown.length(); i++) {
      char c = shown.charAt(i);
      if (c == '\\' && i + 3 < shown.length() && shown.charAt(i + 1) == 'x') {
        out[n++] = (byte) Integer.parseInt(shown.substring(i + 2, i + 4), 16);
        i += 3;
      } else {
        out[n++] = (byte) c;
      }
    }
    return Arrays.copyOf(out, n);
  }
}
