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

package io.ozonerc.metadata.om;

import io.ozonerc.metadata.DirectoryKey;
import io.ozonerc.metadata.DirectoryValueException;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.io.File;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.hdds.utils.MetadataKeyFilters.KeyPrefixFilter;
import org.apache.hadoop.hdds.utils.TableCacheMetrics;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.ByteArrayCodec;
import org.apache.hadoop.hdds.utils.db.Codec;
import org.apache.hadoop.hdds.utils.db.CodecException;
import org.apache.hadoop.hdds.utils.db.DBStore;
import org.apache.hadoop.hdds.utils.db.IteratorType;
import org.apache.hadoop.hdds.utils.db.RocksDatabaseException;
import org.apache.hadoop.hdds.utils.db.StringCodec;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.cache.CacheKey;
import org.apache.hadoop.hdds.utils.db.cache.CacheValue;
import org.apache.hadoop.hdds.utils.db.cache.TableCache.CacheType;
import org.apache.hadoop.ozone.om.codec.OMDBDefinition;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * The OM's {@code directoryTable} read with its keys: a {@code Table<String, OmDirectoryInfo>} that an
 * {@code OmMetadataManagerImpl} uses in place of the plain typed table, so a value in the trimmed format, which holds
 * no name and no parentObjectID, is always decoded together with the key that holds them.
 *
 * <p>Two views of the same column family do the work. Writes, deletes and the OM's table cache go through a typed
 * table whose value codec writes the {@link DirectoryValueFormat} chosen at start and <em>refuses to read</em>: any
 * path that reached it without a key would get an error, never a directory with a made-up name. Every read (get, the
 * iterators, {@code getRangeKVs}) looks at the cache exactly as Ozone's {@code TypedTable} does and otherwise reads
 * the raw bytes through a second, uncached view and decodes them with their key
 * ({@link TrimmedDirectoryCodec#decode(String, byte[])}): a legacy protobuf value as Ozone reads it, a trimmed value
 * with name and parent from the key. A value that is neither raises a {@link CodecException} naming the table and
 * the key.
 *
 * <p>A stock reader (another Ozone build, {@code ozone debug ldb}, Recon's update handler) decodes with protobuf
 * only; a trimmed value's first byte is a protobuf tag of wire type 7, which no protobuf parser accepts, so such a
 * reader fails on it instead of reading something wrong (docs/directory-format.md, docs/install.md).
 */
public final class KeyAwareDirectoryTable implements Table<String, OmDirectoryInfo> {
  private final Table<String, OmDirectoryInfo> writes;
  private final Table<String, byte[]> bytes;
  private final DirectoryValueFormat format;

  private KeyAwareDirectoryTable(Table<String, OmDirectoryInfo> writes, Table<String, byte[]> bytes,
      DirectoryValueFormat format) {
    this.writes = writes;
    this.bytes = bytes;
    this.format = format;
  }

  /**
   * The directoryTable of {@code store}, writing {@code format}, with the partial cache Ozone gives this table.
   */
  public static KeyAwareDirectoryTable open(DBStore store, DirectoryValueFormat format)
      throws RocksDatabaseException, CodecException {
    return open(store, OMDBDefinition.DIRECTORY_TABLE, format);
  }

  /** As {@link #open(DBStore, DirectoryValueFormat)}, for a column family of directory rows under another name. */
  public static KeyAwareDirectoryTable open(DBStore store, String name, DirectoryValueFormat format)
      throws RocksDatabaseException, CodecException {
    Objects.requireNonNull(format, "format == null");
    return new KeyAwareDirectoryTable(
        store.getTable(name, StringCodec.get(), new WriteOnlyCodec(format), CacheType.PARTIAL_CACHE),
        store.getTable(name, StringCodec.get(), ByteArrayCodec.get(), CacheType.NO_CACHE),
        format);
  }

  /** The format new values are written in. */
  public DirectoryValueFormat format() {
    return format;
  }

  // ---- reads: cache first (as TypedTable), then the bytes decoded with their key ----

  @Override
  public OmDirectoryInfo get(String key) throws RocksDatabaseException, CodecException {
    CacheValue<OmDirectoryInfo> cached = writes.getCacheValue(new CacheKey<>(key));
    return cached != null ? cached.getCacheValue() : decode(key, bytes.get(key));
  }

  @Override
  public OmDirectoryInfo getIfExist(String key) throws RocksDatabaseException, CodecException {
    CacheValue<OmDirectoryInfo> cached = writes.getCacheValue(new CacheKey<>(key));
    return cached != null ? cached.getCacheValue() : decode(key, bytes.getIfExist(key));
  }

  @Override
  public OmDirectoryInfo getReadCopy(String key) throws RocksDatabaseException, CodecException {
    return get(key); // OmDirectoryInfo's own codec copies shallowly: a read copy is the same object
  }

  @Override
  public OmDirectoryInfo getSkipCache(String key) throws RocksDatabaseException, CodecException {
    return decode(key, bytes.get(key));
  }

  @Override
  public boolean isExist(String key) throws RocksDatabaseException, CodecException {
    return writes.isExist(key); // cache, then the key alone: no value is decoded
  }

  @Override
  public KeyValueIterator<String, OmDirectoryInfo> iterator(String prefix, IteratorType type)
      throws RocksDatabaseException, CodecException {
    return new DecodingIterator(bytes.iterator(prefix, type));
  }

  @Override
  public List<KeyValue<String, OmDirectoryInfo>> getRangeKVs(String startKey, int count, String prefix,
      KeyPrefixFilter filter, boolean isSequential) throws RocksDatabaseException, CodecException {
    List<KeyValue<String, byte[]>> raw = bytes.getRangeKVs(startKey, count, prefix, filter, isSequential);
    List<KeyValue<String, OmDirectoryInfo>> out = new ArrayList<>(raw.size());
    for (KeyValue<String, byte[]> kv : raw) {
      out.add(decode(kv));
    }
    return out;
  }

  // ---- writes, deletes and the cache: the typed table that writes the configured format ----

  @Override
  public void put(String key, OmDirectoryInfo value) throws RocksDatabaseException, CodecException {
    writes.put(key, checkKeyHoldsTrimmedFields(key, value));
  }

  @Override
  public void putWithBatch(BatchOperation batch, String key, OmDirectoryInfo value)
      throws RocksDatabaseException, CodecException {
    writes.putWithBatch(batch, key, checkKeyHoldsTrimmedFields(key, value));
  }

  @Override
  public void delete(String key) throws RocksDatabaseException, CodecException {
    writes.delete(key);
  }

  @Override
  public void deleteWithBatch(BatchOperation batch, String key) throws CodecException {
    writes.deleteWithBatch(batch, key);
  }

  @Override
  public void deleteRange(String beginKey, String endKey) throws RocksDatabaseException, CodecException {
    writes.deleteRange(beginKey, endKey);
  }

  @Override
  public void deleteBatchWithPrefix(BatchOperation batch, String prefix) throws RocksDatabaseException,
      CodecException {
    writes.deleteBatchWithPrefix(batch, prefix);
  }

  @Override
  public void addCacheEntry(CacheKey<String> cacheKey, CacheValue<OmDirectoryInfo> cacheValue) {
    writes.addCacheEntry(cacheKey, cacheValue);
  }

  @Override
  public CacheValue<OmDirectoryInfo> getCacheValue(CacheKey<String> cacheKey) {
    return writes.getCacheValue(cacheKey);
  }

  @Override
  public Iterator<Map.Entry<CacheKey<String>, CacheValue<OmDirectoryInfo>>> cacheIterator() {
    return writes.cacheIterator();
  }

  @Override
  public void cleanupCache(List<Long> epochs) {
    writes.cleanupCache(epochs);
  }

  @Override
  public TableCacheMetrics createCacheMetrics() {
    return writes.createCacheMetrics();
  }

  @Override
  public boolean isEmpty() throws RocksDatabaseException {
    return writes.isEmpty();
  }

  @Override
  public long getEstimatedKeyCount() throws RocksDatabaseException {
    return writes.getEstimatedKeyCount();
  }

  @Override
  public String getName() {
    return writes.getName();
  }

  @Override
  public void dumpToFileWithPrefix(File externalFile, String prefix) throws RocksDatabaseException, CodecException {
    writes.dumpToFileWithPrefix(externalFile, prefix);
  }

  @Override
  public void loadFromFile(File externalFile) throws RocksDatabaseException {
    writes.loadFromFile(externalFile);
  }

  @Override
  public String toString() {
    return "KeyAwareDirectoryTable-" + getName() + "(writes " + format.configName() + ")";
  }

  // ---- decoding ----

  private OmDirectoryInfo decode(String key, byte[] value) throws CodecException {
    if (value == null) {
      return null;
    }
    try {
      return TrimmedDirectoryCodec.decode(key, value);
    } catch (DirectoryValueException e) {
      throw new CodecException(e.getMessage(), e); // "directoryTable value of key '...': what is wrong"
    }
  }

  private KeyValue<String, OmDirectoryInfo> decode(KeyValue<String, byte[]> raw) throws CodecException {
    byte[] value = raw.getValue();
    return value == null ? Table.newKeyValue(raw.getKey(), null)
        : Table.newKeyValue(raw.getKey(), decode(raw.getKey(), value), value.length);
  }

  /**
   * A trimmed value keeps no name and no parentObjectID, so the key must say the same as the value, or the write
   * would silently rename or move the directory. Ozone builds every directoryTable key from exactly these two
   * fields; this check costs one key parse per write.
   */
  private OmDirectoryInfo checkKeyHoldsTrimmedFields(String key, OmDirectoryInfo value) throws CodecException {
    if (format != DirectoryValueFormat.TRIMMED || value == null) {
      return value;
    }
    DirectoryKey parts;
    try {
      parts = DirectoryKey.parse(key);
    } catch (DirectoryValueException e) {
      throw new CodecException(getName() + ": cannot write a trimmed value: " + e.getMessage(), e);
    }
    if (parts.parentId() != value.getParentObjectID() || !parts.name().equals(value.getName())) {
      throw new CodecException(getName() + ": cannot write a trimmed value under key '" + key + "': the key says"
          + " parent " + parts.parentId() + " name '" + parts.name() + "', the directory says parent "
          + value.getParentObjectID() + " name '" + value.getName() + "'");
    }
    return value;
  }

  /** Iterates the raw bytes and decodes each value with its key. */
  private final class DecodingIterator implements KeyValueIterator<String, OmDirectoryInfo> {
    private final KeyValueIterator<String, byte[]> raw;

    DecodingIterator(KeyValueIterator<String, byte[]> raw) {
      this.raw = raw;
    }

    @Override
    public boolean hasNext() {
      return raw.hasNext();
    }

    @Override
    public KeyValue<String, OmDirectoryInfo> next() {
      try {
        return decode(raw.next());
      } catch (CodecException e) {
        throw new IllegalStateException("Failed next() in " + KeyAwareDirectoryTable.this + ": " + e.getMessage(),
            e);
      }
    }

    @Override
    public KeyValue<String, OmDirectoryInfo> seek(String key) throws RocksDatabaseException, CodecException {
      KeyValue<String, byte[]> found = raw.seek(key);
      return found == null ? null : decode(found);
    }

    @Override
    public void seekToFirst() {
      raw.seekToFirst();
    }

    @Override
    public void seekToLast() {
      raw.seekToLast();
    }

    @Override
    public void removeFromDB() throws RocksDatabaseException, CodecException {
      raw.removeFromDB();
    }

    @Override
    public void close() throws RocksDatabaseException {
      raw.close();
    }
  }

  /**
   * The value codec of the write view: encodes the configured format, and never decodes, since a trimmed value
   * cannot be read without its key. Copies like OmDirectoryInfo's own codec (shallow: the objects are not changed
   * in place once cached).
   */
  static final class WriteOnlyCodec implements Codec<OmDirectoryInfo> {
    private final DirectoryValueFormat format;

    WriteOnlyCodec(DirectoryValueFormat format) {
      this.format = format;
    }

    @Override
    public Class<OmDirectoryInfo> getTypeClass() {
      return OmDirectoryInfo.class;
    }

    @Override
    public byte[] toPersistedFormat(OmDirectoryInfo info) {
      return format.encode(info);
    }

    @Override
    public OmDirectoryInfo fromPersistedFormat(byte[] rawData) throws CodecException {
      throw new CodecException("directoryTable values are decoded with their key by "
          + KeyAwareDirectoryTable.class.getName() + "; this codec only writes (" + format.configName() + ")");
    }

    @Override
    public OmDirectoryInfo copyObject(OmDirectoryInfo info) {
      return OmDirectoryInfo.getCodec().copyObject(info);
    }
  }
}
