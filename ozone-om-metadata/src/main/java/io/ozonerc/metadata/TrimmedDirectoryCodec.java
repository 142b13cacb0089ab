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

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdds.utils.db.Codec;
import org.apache.hadoop.hdds.utils.db.CodecException;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.DirectoryInfo;

/**
 * Reads and writes whole {@link OmDirectoryInfo}s in the trimmed format, and reads legacy protobuf values unchanged.
 *
 * <p>Ozone's {@link Codec} decodes a value without its key, but a trimmed value needs the key for name and
 * parentObjectID. So this class writes through the {@code Codec} interface ({@link #toPersistedFormat}), reads legacy
 * values through it, and for trimmed values offers the key-aware {@link #decode(String, byte[])}; a key-less
 * {@link #fromPersistedFormat} of a trimmed value fails loudly instead of inventing a name. Code that can live with
 * the value part alone uses {@link DirectoryValueCodec}, a complete {@code Codec}.
 *
 * <p>Stateless and thread-safe.
 */
public final class TrimmedDirectoryCodec implements Codec<OmDirectoryInfo> {
  private static final TrimmedDirectoryCodec INSTANCE = new TrimmedDirectoryCodec();

  private TrimmedDirectoryCodec() {
  }

  public static TrimmedDirectoryCodec get() {
    return INSTANCE;
  }

  /** Trimmed bytes of {@code info}: its name and parentObjectID are left to the key. */
  public static byte[] encode(OmDirectoryInfo info) {
    return DirectoryValueWriter.write(info);
  }

  /** Legacy protobuf bytes, exactly as Ozone 2.2.0 writes them (for migrating back). */
  public static byte[] encodeLegacy(OmDirectoryInfo info) {
    return info.getProtobuf().toByteArray();
  }

  /**
   * Decodes a value of either format. A legacy value is read exactly as Ozone reads it (its own name and parentID
   * win); a trimmed value takes name and parentObjectID from {@code key}.
   *
   * @throws DirectoryValueException naming {@code key} on any bad input
   */
  public static OmDirectoryInfo decode(String key, byte[] value) {
    switch (DirectoryFormat.kindOf(value)) {
    case LEGACY_PROTOBUF:
      return decodeLegacy(key, value);
    case TRIMMED:
      DirectoryKey parts = DirectoryKey.parse(key);
      return new DirectoryValueView().wrap(key, value).toOmDirectoryInfo(parts.parentId(), parts.name());
    default:
      // Let the view produce the precise message (unknown version, empty, bad first byte).
      new DirectoryValueView().wrap(key, value);
      throw new DirectoryValueException.Corrupt(key, "unreadable value");
    }
  }

  /** As {@link #decode(String, byte[])}, parsing the key's parts from its bytes (the key String is only built for an
   * error message). */
  public static OmDirectoryInfo decode(byte[] key, byte[] value) {
    if (DirectoryFormat.kindOf(value) != DirectoryFormat.Kind.TRIMMED) {
      return decode(new String(key, StandardCharsets.UTF_8), value);
    }
    DirectoryKey parts = DirectoryKey.parse(key);
    return new DirectoryValueView().wrap(key, value).toOmDirectoryInfo(parts.parentId(), parts.name());
  }

  static OmDirectoryInfo decodeLegacy(String key, byte[] value) {
    try {
      return OmDirectoryInfo.getFromProtobuf(DirectoryInfo.parseFrom(value));
    } catch (InvalidProtocolBufferException | RuntimeException | AssertionError e) {
      // AssertionError: OzoneAcl.fromProtobuf's answer to rights longer than 4 bytes.
      throw new DirectoryValueException.Corrupt(key, "invalid legacy protobuf DirectoryInfo: " + e.getMessage(), e);
    }
  }

  /** objectId of a value in either format; for trimmed values reads one varint and allocates nothing. */
  public static long objectId(String key, byte[] value, DirectoryValueView reusableView) {
    if (DirectoryFormat.kindOf(value) == DirectoryFormat.Kind.LEGACY_PROTOBUF) {
      return decodeLegacy(key, value).getObjectID();
    }
    return reusableView.wrap(key, value).objectId();
  }

  @Override
  public Class<OmDirectoryInfo> getTypeClass() {
    return OmDirectoryInfo.class;
  }

  @Override
  public byte[] toPersistedFormat(OmDirectoryInfo object) {
    return encode(object);
  }

  /**
   * Reads a legacy value; a trimmed value fails with a message pointing at {@link #decode(String, byte[])}, since
   * without its key its name and parent cannot be known.
   */
  @Override
  public OmDirectoryInfo fromPersistedFormat(byte[] rawData) throws CodecException {
    try {
      if (DirectoryFormat.kindOf(rawData) == DirectoryFormat.Kind.TRIMMED) {
        throw new CodecException("trimmed directory value (length=" + rawData.length + ") holds no name or"
            + " parentObjectID; decode it with its key: TrimmedDirectoryCodec.decode(key, value)");
      }
      return decode((String) null, rawData);
    } catch (DirectoryValueException e) {
      throw new CodecException(e.getMessage(), e);
    }
  }

  @Override
  public OmDirectoryInfo copyObject(OmDirectoryInfo object) {
    return object; // immutable
  }
}
