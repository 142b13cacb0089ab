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
 * Primitive codings of the trimmed format: LEB128 varints, zigzag, the objectId rotation, and strings as
 * generalized UTF-8 (standard UTF-8, except that a lone UTF-16 surrogate is written as its 3-byte form so that every
 * Java String, however odd, round-trips exactly; protobuf would silently turn it into '?').
 *
 * <p>Readers are strict: a value has exactly one accepted spelling of each number and string, so whatever bytes
 * the decoder accepts re-encode to themselves. Errors are reported as {@link Malformed} with a short reason; the
 * callers add the key.
 */
final class Wire {
  private Wire() {
  }

  /** Reason a slice of bytes is not valid; callers turn it into a {@link DirectoryValueException} naming the key. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String reason) {
      super(reason, null, false, false);
    }
  }

  // ---- numbers -------------------------------------------------------------------------------------------------

  /** Bytes a LEB128 varint of {@code v} (read as unsigned 64 bits) takes: 1 per started 7 bits, 1..10. */
  static int varintSize(long v) {
    int bits = 64 - Long.numberOfLeadingZeros(v | 1);
    return (bits + 6) / 7;
  }

  static int writeVarint(byte[] dst, int pos, long v) {
    while ((v & ~0x7FL) != 0) {
      dst[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    dst[pos++] = (byte) v;
    return pos;
  }

  /** Zigzag maps small negative and positive deltas to small unsigned numbers: 0,-1,1,-2 -> 0,1,2,3. */
  static long zigzag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  static long unzigzag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  /**
   * Ozone object ids are {@code epoch << 62 | txId << 8 | index} with epoch 2 under Ratis, so the top bit is set and
   * a plain varint would take 10 bytes. Rotating left by 2 moves the epoch to the bottom: {@code txId << 10 | index
   * << 2 | epoch}, which for a txId below 2^25 fits 5 varint bytes, below 2^32 fits 6. Rotation is a bijection, so any
   * long (also ids that do not follow this layout) round-trips.
   */
  static long packObjectId(long objectId) {
    return Long.rotateLeft(objectId, 2);
  }

  static long unpackObjectId(long packed) {
    return Long.rotateRight(packed, 2);
  }

  /**
   * The Ratis transaction that created the object, as far as the id layout says: packed >>> 10. A directory's
   * updateId is that transaction until something changes it later, so updateId is stored as a zigzag delta from this
   * base (usually 1 byte). Arithmetic is modulo 2^64, so the delta round-trips for any pair of longs.
   */
  static long updateIdBase(long objectId) {
    return packObjectId(objectId) >>> 10;
  }

  // ---- strings -------------------------------------------------------------------------------------------------

  /** Encoded length of {@code s} in generalized UTF-8. */
  static int stringSize(String s) {
    int n = s.length();
    int size = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        if (c < 0x800) {
          size += 1;
        } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          size += 2; // 4 bytes for the pair of 2 chars
          i++;
        } else {
          size += 2;
        }
      }
    }
    return size;
  }

  static int writeString(byte[] dst, int pos, String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[pos++] = (byte) c;
      } else if (c < 0x800) {
        dst[pos++] = (byte) (0xC0 | (c >>> 6));
        dst[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        dst[pos++] = (byte) (0xF0 | (cp >>> 18));
        dst[pos++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
        dst[pos++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
        dst[pos++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        dst[pos++] = (byte) (0xE0 | (c >>> 12));
        dst[pos++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
        dst[pos++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return pos;
  }

  /**
   * Decodes {@code len} bytes at {@code off}. Rejects everything {@link #writeString} never writes: bad lead or
   * continuation bytes, overlong forms, code points above U+10FFFF, and a high surrogate in 3-byte form directly
   * followed by a low one (the writer would have used the 4-byte form for that pair).
   */
  static String readString(byte[] b, int off, int len) throws Malformed {
    int end = off + len;
    int i = off;
    while (i < end && b[i] >= 0) {
      i++;
    }
    if (i == end) {
      // All ASCII, the usual case: Latin-1 decoding of ASCII is a plain copy into a compact String.
      return new String(b, off, len, StandardCharsets.ISO_8859_1);
    }
    char[] out = new char[len];
    int n = 0;
    for (int j = off; j < i; j++) {
      out[n++] = (char) b[j];
    }
    boolean lastWasLoneHigh = false;
    while (i < end) {
      int b0 = b[i] & 0xFF;
      if (b0 < 0x80) {
        out[n++] = (char) b0;
        i++;
        lastWasLoneHigh = false;
      } else if (b0 >= 0xC2 && b0 <= 0xDF) {
        int b1 = continuation(b, i + 1, end);
        out[n++] = (char) (((b0 & 0x1F) << 6) | b1);
        i += 2;
        lastWasLoneHigh = false;
      } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        int b1 = continuation(b, i + 1, end);
        int b2 = continuation(b, i + 2, end);
        int c = ((b0 & 0x0F) << 12) | (b1 << 6) | b2;
        if (c < 0x800) {
          throw new Malformed("overlong 3-byte string character");
        }
        if (Character.isLowSurrogate((char) c) && lastWasLoneHigh) {
          throw new Malformed("surrogate pair written as two 3-byte characters");
        }
        lastWasLoneHigh = Character.isHighSurrogate((char) c);
        out[n++] = (char) c;
        i += 3;
      } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        int b1 = continuation(b, i + 1, end);
        int b2 = continuation(b, i + 2, end);
        int b3 = continuation(b, i + 3, end);
        int cp = ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3;
        if (cp < 0x10000 || cp > Character.MAX_CODE_POINT) {
          throw new Malformed("4-byte string character out of range");
        }
        out[n++] = Character.highSurrogate(cp);
        out[n++] = Character.lowSurrogate(cp);
        i += 4;
        lastWasLoneHigh = false;
      } else {
        throw new Malformed("invalid UTF-8 lead byte 0x" + Integer.toHexString(b0));
      }
    }
    return new String(out, 0, n);
  }

  private static int continuation(byte[] b, int i, int end) throws Malformed {
    if (i >= end) {
      throw new Malformed("string ends inside a multi-byte character");
    }
    int c = b[i] & 0xFF;
    if ((c & 0xC0) != 0x80) {
      throw new Malformed("invalid UTF-8 continuation byte 0x" + Integer.toHexString(c));
    }
    return c & 0x3F;
  }
}
