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

package io.ozonerc.metadata;

import java.nio.charset.StandardCharsets;

/**
 * The parts of a {@code directoryTable} key {@code /volumeId/bucketId/parentId/name} that the trimmed value leaves
 * out. Ids are decimal longs as {@code OmMetadataManagerImpl.getOzonePathKey} writes them (object ids under Ratis
 * have the top bit set, so they print negative). The name is everything after the fourth '/'.
 */
public final class DirectoryKey {
  private final long parentId;
  private final String name;

  private DirectoryKey(long parentId, String name) {
    this.parentId = parentId;
    this.name = name;
  }

  public long parentId() {
    return parentId;
  }

  public String name() {
    return name;
  }

  /**
   * Parses the raw key bytes (UTF-8) without building the whole key String: the parent id is read from its ASCII
   * digits and only the name is decoded.
   *
   * @throws DirectoryValueException.Corrupt when the key does not have the four-part shape
   */
  public static DirectoryKey parse(byte[] key) {
    // Volume and bucket ids are only checked for shape (sign and digits); only the parent id is converted.
    int s1 = key.length > 0 && key[0] == '/' ? 0 : -1;
    int s2 = s1 < 0 ? -1 : skipId(key, s1 + 1);
    int s3 = s2 < 0 ? -1 : skipId(key, s2 + 1);
    int s4 = s3 < 0 ? -1 : skipId(key, s3 + 1);
    if (s4 > 0) {
      try {
        long parent = parseLong(key, s3 + 1, s4);
        return new DirectoryKey(parent, new String(key, s4 + 1, key.length - s4 - 1, StandardCharsets.UTF_8));
      } catch (NumberFormatException e) {
        // fall through to the String path, which reports the precise problem
      }
    }
    return parse(new String(key, StandardCharsets.UTF_8)); // slow path: parses all three ids or says what is wrong
  }

  private static final byte[] MAX_DIGITS = "9223372036854775807".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MIN_DIGITS = "9223372036854775808".getBytes(StandardCharsets.US_ASCII);

  /**
   * From {@code from}, skips an optional '-' and the digits of a long (1..19 digits, 19-digit ones no larger than
   * Long.MAX_VALUE, or -Long.MIN_VALUE when negative); returns the index of the '/' that must follow, or -1.
   */
  private static int skipId(byte[] key, int from) {
    boolean negative = from < key.length && key[from] == '-';
    int i = negative ? from + 1 : from;
    int digitsFrom = i;
    while (i < key.length && key[i] >= '0' && key[i] <= '9') {
      i++;
    }
    int digits = i - digitsFrom;
    if (digits < 1 || digits > 19 || i >= key.length || key[i] != '/') {
      return -1;
    }
    if (digits == 19) {
      byte[] limit = negative ? MIN_DIGITS : MAX_DIGITS;
      for (int d = 0; d < 19; d++) {
        int c = key[digitsFrom + d] - limit[d];
        if (c != 0) {
          return c < 0 ? i : -1;
        }
      }
    }
    return i;
  }

  /** Decimal long in {@code [from, to)} as Long.parseLong reads it, without allocating. */
  private static long parseLong(byte[] b, int from, int to) {
    if (from >= to) {
      throw new NumberFormatException("empty");
    }
    boolean negative = b[from] == '-';
    int i = negative ? from + 1 : from;
    if (i == to) {
      throw new NumberFormatException("sign only");
    }
    long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
    long multmin = limit / 10;
    long v = 0; // accumulated negatively so that Long.MIN_VALUE fits
    for (; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9 || v < multmin) {
        throw new NumberFormatException("not a long");
      }
      v *= 10;
      if (v < limit + d) {
        throw new NumberFormatException("overflow");
      }
      v -= d;
    }
    return negative ? v : -v;
  }

  /** @throws DirectoryValueException.Corrupt when the key does not have the four-part shape */
  public static DirectoryKey parse(String key) {
    int[] slash = new int[4];
    int from = 0;
    for (int i = 0; i < 4; i++) {
      int at = key.indexOf('/', from);
      if (at < 0) {
        throw new DirectoryValueException.Corrupt(key, "key is not /volumeId/bucketId/parentId/name");
      }
      slash[i] = at;
      from = at + 1;
    }
    if (slash[0] != 0) {
      throw new DirectoryValueException.Corrupt(key, "key does not start with '/'");
    }
    long parent;
    try {
      parent = Long.parseLong(key, slash[2] + 1, slash[3], 10);
      Long.parseLong(key, 1, slash[1], 10);
      Long.parseLong(key, slash[1] + 1, slash[2], 10);
    } catch (NumberFormatException e) {
      throw new DirectoryValueException.Corrupt(key, "key ids are not decimal longs", e);
    }
    return new DirectoryKey(parent, key.substring(slash[3] + 1));
  }
}
