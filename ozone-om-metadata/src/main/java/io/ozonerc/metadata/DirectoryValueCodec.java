package io.ozonerc.metadata;

import org.apache.hadoop.hdds.utils.db.Codec;
import org.apache.hadoop.hdds.utils.db.CodecException;

/**
 * A complete Ozone {@link Codec} for the value part of a directory ({@link DirectoryValue}): writes the trimmed
 * format and reads both it and legacy protobuf values (dropping the legacy name and parentID, which the key holds).
 * Usable as the value codec of a {@code Table<String, DirectoryValue>}. Stateless and thread-safe.
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
