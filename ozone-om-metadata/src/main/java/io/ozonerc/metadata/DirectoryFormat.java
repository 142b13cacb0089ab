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

import java.nio.ByteBuffer;

/**
 * The trimmed, versioned value format of the OM {@code directoryTable}; the byte-by-byte layout is in
 * {@code docs/directory-format.md}.
 *
 * <h2>Telling the two formats apart by the first byte</h2>
 * A legacy value is a serialized protobuf {@code DirectoryInfo} (OmClientProtocol.proto in Ozone 2.2.0):
 * <pre>
 *   1 name string (wire type 2)      tag byte 0x0A     6 objectID uint64 (wire type 0)  tag byte 0x30
 *   2 creationTime uint64 (0)        tag byte 0x10     7 updateID uint64 (0)            tag byte 0x38
 *   3 modificationTime uint64 (0)    tag byte 0x18     8 parentID uint64 (0)            tag byte 0x40
 *   4 metadata KeyValue (2)          tag byte 0x22     9 ownerName string (2)           tag byte 0x4A
 *   5 acls OzoneAclInfo (2)          tag byte 0x2A
 * </pre>
 * Java protobuf writes fields in number order, so Ozone's writer always starts with 0x0A; but a proto2 parser
 * accepts fields in any order and skips unknown field numbers, so any of the above, or any other tag of a valid
 * wire type, may legally come first. A tag is a varint {@code (fieldNumber << 3) | wireType} and the first byte of
 * any varint carries its lowest 7 bits, so the low three bits of a value's first byte are always the wire type of its
 * first field. Protobuf defines wire types 0..5 only; a parser throws {@code InvalidProtocolBufferException} on 6 or 7
 * whatever the field number. Therefore <b>no byte with {@code (b & 7) == 7} can start a valid protobuf message</b>,
 * and that is the family our header bytes come from: header = {@code (version << 3) | 7}, giving 32 versions
 * (0x07, 0x0F, ..., 0xFF). Version 0 (0x07) is reserved and never written; version 1 is 0x0F. A first byte whose
 * low bits are 6 is neither format and is reported as corrupt.
 *
 * <h2>Why no global string dictionary</h2>
 * Each OM replica applies Ratis log entries to its own RocksDB; a dictionary grown at write time would have to be
 * replicated through Ratis too, or replicas would disagree on what an index means. Repeated strings are only shared
 * inside one value (owner and ACL names are usually the same user), which every replica computes identically.
 */
public final class DirectoryFormat {
  /** Low three bits of every trimmed-format header byte: protobuf wire type 7 does not exist. */
  static final int HEADER_MARK = 0b111;
  /** Protobuf wire type 6 does not exist either: such a first byte is neither format. */
  static final int INVALID_WIRE_TYPE_6 = 0b110;

  /** Version written today. */
  public static final int CURRENT_VERSION = 1;
  /** First byte of a version-1 value: (1 << 3) | 7 = 0x0F. */
  public static final byte HEADER_V1 = (byte) ((1 << 3) | HEADER_MARK);

  /** What a stored value is, by its first byte. */
  public enum Kind {
    /** Serialized protobuf DirectoryInfo (what Ozone 2.2.0 writes). */
    LEGACY_PROTOBUF,
    /** Trimmed format, a version this code reads. */
    TRIMMED,
    /** Trimmed format from a newer writer. */
    TRIMMED_UNKNOWN_VERSION,
    /** Empty, or a first byte no writer produces. */
    INVALID
  }

  private DirectoryFormat() {
  }

  /** Classifies a value by its first byte; reads nothing else. */
  public static Kind kindOf(byte[] value) {
    return value == null || value.length == 0 ? Kind.INVALID : kindOfFirstByte(value[0]);
  }

  /** Classifies a value whose first byte is {@code first}. */
  public static Kind kindOfFirstByte(byte first) {
    int low = first & 7;
    if (low == HEADER_MARK) {
      return versionOf(first) == CURRENT_VERSION ? Kind.TRIMMED : Kind.TRIMMED_UNKNOWN_VERSION;
    }
    if (low == INVALID_WIRE_TYPE_6) {
      return Kind.INVALID;
    }
    return Kind.LEGACY_PROTOBUF;
  }

  /** Version number carried by a trimmed-format header byte. */
  public static int versionOf(byte header) {
    return (header & 0xFF) >>> 3;
  }

  /**
   * Reads the objectId of a trimmed value held in a buffer (e.g. a direct buffer filled by RocksDB), from the
   * buffer's position to its limit, without moving the position and without allocating.
   */
  public static long objectId(ByteBuffer value) {
    int p = value.position();
    int lim = value.limit();
    if (p >= lim || kindOfFirstByte(value.get(p)) != Kind.TRIMMED) {
      throw new DirectoryValueException.Corrupt(null, "buffer does not hold a trimmed-format value");
    }
    p++;
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= lim) {
        throw new DirectoryValueException.Corrupt(null, "truncated: value ends inside the objectId");
      }
      byte x = value.get(p++);
      if (x >= 0) {
        if ((x == 0 && shift > 0) || (shift == 63 && x > 1)) {
          throw new DirectoryValueException.Corrupt(null, "objectId is not a canonical varint");
        }
        return Wire.unpackObjectId(result | ((long) x << shift));
      }
      result |= (long) (x & 0x7F) << shift;
    }
    throw new DirectoryValueException.Corrupt(null, "objectId varint longer than 10 bytes");
  }
}
