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

import jakarta.annotation.Nonnull;
import java.nio.ByteBuffer;
import org.apache.hadoop.hdds.utils.db.Codec;
import org.apache.hadoop.hdds.utils.db.CodecBuffer;
import org.apache.hadoop.hdds.utils.db.CodecException;

/**
 * A complete Ozone {@link Codec} for the value part of a directory ({@link DirectoryValue}): writes the trimmed
 * format and reads both it and legacy protobuf values (dropping the legacy name and parentID, which the key holds).
 * Usable as the value codec of a {@code Table<String, DirectoryValue>}. Supports {@link CodecBuffer}s like Ozone's
 * own OmDirectoryInfo codec does, so a {@code TypedTable} with Ozone's String key codec reads through the same
 * direct-buffer path for both formats (the value is copied out of the direct buffer once and decoded from the heap
 * copy). Stateless and thread-safe.
 */
public final class DirectoryValueCodec implements Codec<DirectoryValue> {
  private static final DirectoryValueCodec INSTANCE = new DirectoryValueCodec();

  private DirectoryValueCodec() {
  }

  public static DirectoryValueCodec get() {
    return INSTANCE;
  }

  @Override
  public Class<DirectoryValue> getTypeClass() {
    return DirectoryValue.class;
  }

  @Override
  public boolean supportCodecBuffer() {
    return true;
  }

  @Override
  public CodecBuffer toCodecBuffer(@Nonnull DirectoryValue object, CodecBuffer.Allocator allocator) {
    byte[] bytes = DirectoryValueWriter.write(object);
    return allocator.apply(bytes.length).put(ByteBuffer.wrap(bytes));
  }

  @Override
  public DirectoryValue fromCodecBuffer(@Nonnull CodecBuffer buffer) throws CodecException {
    ByteBuffer in = buffer.asReadOnlyByteBuffer();
    byte[] bytes = new byte[in.remaining()];
    in.get(bytes);
    return fromPersistedFormat(bytes);
  }

  @Override
  public byte[] toPersistedFormat(DirectoryValue object) {
    return DirectoryValueWriter.write(object);
  }

  @Override
  public DirectoryValue fromPersistedFormat(byte[] rawData) throws CodecException {
    try {
      if (DirectoryFormat.kindOf(rawData) == DirectoryFormat.Kind.LEGACY_PROTOBUF) {
        return DirectoryValue.of(TrimmedDirectoryCodec.decodeLegacy(null, rawData));
      }
      return new DirectoryValueView().wrap(rawData).toDirectoryValue();
    } catch (DirectoryValueException e) {
      throw new CodecException(e.getMessage(), e);
    }
  }

  @Override
  public DirectoryValue copyObject(DirectoryValue object) {
    return object; // immutable
  }
}
