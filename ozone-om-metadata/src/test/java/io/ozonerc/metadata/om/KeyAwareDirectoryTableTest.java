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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.metadata.DirectoryFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.CodecException;
import org.apache.hadoop.hdds.utils.db.DBStore;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.hdds.utils.db.Table.KeyValue;
import org.apache.hadoop.hdds.utils.db.cache.CacheKey;
import org.apache.hadoop.hdds.utils.db.cache.CacheValue;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.codec.OMDBDefinition;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link KeyAwareDirectoryTable} on the store of a real {@link OmMetadataManagerImpl}: what it writes is on disk in
 * the configured format (raw bytes read back), every read path returns exactly the directories written in either
 * format, the OM's cache semantics are kept, and bad bytes or a key that disagrees with its directory fail with the
 * key in the message.
 */
class KeyAwareDirectoryTableTest {
  private static final long VOLUME = -9223372036854775552L;
  private static final long BUCKET = -9223372036854775296L;
  private static final int ROWS = 500;

  @TempDir
  Path dir;
  private OmMetadataManagerImpl om;
  private DBStore store;
  private Table<byte[], byte[]> raw;

  @BeforeEach
  void open() throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    om = new OmMetadataManagerImpl(conf, null);
    store = om.getStore();
    raw = store.getTable(OMDBDefinition.DIRECTORY_TABLE);
  }

  @AfterEach
  void close() throws Exception {
    om.stop();
  }

  /** A tree of ROWS directories under one bucket, keyed as the OM keys them, sorted by key. */
  private static TreeMap<String, OmDirectoryInfo> tree(long seed) {
    Random random = new Random(seed);
    TreeMap<String, OmDirectoryInfo> rows = new TreeMap<>();
    List<Long> parents = new ArrayList<>(List.of(BUCKET));
    for (int i = 0; i < ROWS; i++) {
      long objectId = (2L << 62) | ((1000L + i) << 8);
      OmDirectoryInfo.Builder b = OmDirectoryInfo.newBuilder()
          .setName(i % 9 == 0 ? "目录-" + i : "dir-" + i)
          .setParentObjectID(parents.get(random.nextInt(parents.size())))
          .setObjectID(objectId)
          .setUpdateID(1000L + i)
          .setCreationTime(1_732_000_000_000L + i)
          .setModificationTime(1_732_000_000_000L + i + random.nextInt(1000))
          .setOwner("hadoop")
          .setAcls(List.of(OzoneAcl.of(ACLIdentityType.USER, "hadoop", OzoneAcl.AclScope.ACCESS, ACLType.ALL)));
      if (i % 13 == 0) {
        b.addAllMetadata(Map.of("layout", "fso"));
      }
      OmDirectoryInfo info = b.build();
      parents.add(objectId);
      rows.put(keyOf(info), info);
    }
    return rows;
  }

  private static String keyOf(OmDirectoryInfo info) {
    return "/" + VOLUME + "/" + BUCKET + "/" + info.getParentObjectID() + "/" + info.getName();
  }

  private void writeThrough(Table<String, OmDirectoryInfo> table, Map<String, OmDirectoryInfo> rows)
      throws Exception {
    try (BatchOperation batch = store.initBatchOperation()) {
      for (Map.Entry<String, OmDirectoryInfo> e : rows.entrySet()) {
        table.putWithBatch(batch, e.getKey(), e.getValue());
      }
      store.commitBatchOperation(batch);
    }
  }

  private byte[] rawValue(String key) throws Exception {
    return raw.get(key.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @EnumSource(DirectoryValueFormat.class)
  void writesTheConfiguredFormatAndReadsItBackOnEveryPath(DirectoryValueFormat format) throws Exception {
    KeyAwareDirectoryTable table = KeyAwareDirectoryTable.open(store, format);
    TreeMap<String, OmDirectoryInfo> rows = tree(7);
    writeThrough(table, rows);

    DirectoryFormat.Kind expected = format == DirectoryValueFormat.TRIMMED
        ? DirectoryFormat.Kind.TRIMMED : DirectoryFormat.Kind.LEGACY_PROTOBUF;
    for (String key : rows.keySet()) {
      assertEquals(expected, DirectoryFormat.kindOf(rawValue(key)), key);
    }
    if (format == DirectoryValueFormat.PROTOBUF) {
      // Byte for byte what the stock table writes.
      String key = rows.firstKey();
      assertTrue(java.util.Arrays.equals(rows.get(key).getProtobuf().toByteArray(), rawValue(key)));
    }

    assertReadsExactly(table, rows);
  }

  private static void assertReadsExactly(Table<String, OmDirectoryInfo> table, TreeMap<String, OmDirectoryInfo> rows)
      throws Exception {
    for (Map.Entry<String, OmDirectoryInfo> e : rows.entrySet()) {
      assertEquals(e.getValue(), table.get(e.getKey()));
      assertEquals(e.getValue(), table.getIfExist(e.getKey()));
      assertEquals(e.getValue(), table.getSkipCache(e.getKey()));
      assertEquals(e.getValue(), table.getReadCopy(e.getKey()));
      assertTrue(table.isExist(e.getKey()));
    }
    Map<String, OmDirectoryInfo> iterated = new LinkedHashMap<>();
    try (Table.KeyValueIterator<String, OmDirectoryInfo> it = table.iterator("/" + VOLUME + "/" + BUCKET + "/")) {
      while (it.hasNext()) {
        KeyValue<String, OmDirectoryInfo> kv = it.next();
        iterated.put(kv.getKey(), kv.getValue());
      }
    }
    assertEquals(new ArrayList<>(rows.entrySet()), new ArrayList<>(iterated.entrySet()));

    String middle = new ArrayList<>(rows.keySet()).get(rows.size() / 2);
    try (Table.KeyValueIterator<String, OmDirectoryInfo> it = table.iterator()) {
      KeyValue<String, OmDirectoryInfo> found = it.seek(middle);
      assertEquals(middle, found.getKey());
      assertEquals(rows.get(middle), found.getValue());
    }
    List<KeyValue<String, OmDirectoryInfo>> page = table.getRangeKVs(middle, 10, null);
    assertEquals(10, page.size());
    for (KeyValue<String, OmDirectoryInfo> kv : page) {
      assertEquals(rows.get(kv.getKey()), kv.getValue());
    }
    assertNull(table.get("/" + VOLUME + "/" + BUCKET + "/1/no-such-dir"));
  }

  @Test
  void bothFormatsAreReadInBothModesFromOneTable() throws Exception {
    TreeMap<String, OmDirectoryInfo> rows = tree(11);
    TreeMap<String, OmDirectoryInfo> legacyHalf = new TreeMap<>();
    TreeMap<String, OmDirectoryInfo> trimmedHalf = new TreeMap<>();
    int i = 0;
    for (Map.Entry<String, OmDirectoryInfo> e : rows.entrySet()) {
      (i++ % 2 == 0 ? legacyHalf : trimmedHalf).put(e.getKey(), e.getValue());
    }
    writeThrough(om.getDirectoryTable(), legacyHalf); // the stock table: what an existing DB holds
    writeThrough(KeyAwareDirectoryTable.open(store, DirectoryValueFormat.TRIMMED), trimmedHalf);
    assertEquals(DirectoryFormat.Kind.TRIMMED, DirectoryFormat.kindOf(rawValue(trimmedHalf.firstKey())));
    assertEquals(DirectoryFormat.Kind.LEGACY_PROTOBUF, DirectoryFormat.kindOf(rawValue(legacyHalf.firstKey())));

    for (DirectoryValueFormat format : DirectoryValueFormat.values()) {
      assertReadsExactly(KeyAwareDirectoryTable.open(store, format), rows);
    }
  }

  @Test
  void aStockReaderFailsOnATrimmedValueInsteadOfMisreadingIt() throws Exception {
    TreeMap<String, OmDirectoryInfo> rows = tree(3);
    writeThrough(KeyAwareDirectoryTable.open(store, DirectoryValueFormat.TRIMMED), rows);
    CodecException e = assertThrows(CodecException.class, () -> om.getDirectoryTable().getSkipCache(rows.firstKey()));
    assertTrue(e.getMessage() != null, "a parse error, not a value");
  }

  @Test
  void cacheIsConsultedFirstAsTheTypedTableDoes() throws Exception {
    KeyAwareDirectoryTable table = KeyAwareDirectoryTable.open(store, DirectoryValueFormat.TRIMMED);
    TreeMap<String, OmDirectoryInfo> rows = tree(5);
    writeThrough(table, rows);
    String deleted = rows.firstKey();
    String updated = rows.lastKey();
    OmDirectoryInfo newer = rows.get(updated).toBuilder().setModificationTime(42).build();

    table.addCacheEntry(new CacheKey<>(deleted), CacheValue.get(7L));
    table.addCacheEntry(new CacheKey<>(updated), CacheValue.get(7L, newer));
    assertNull(table.get(deleted));
    assertNull(table.getIfExist(deleted));
    assertEquals(rows.get(deleted), table.getSkipCache(deleted), "the DB still has it until the batch flushes");
    assertEquals(newer, table.get(updated));
    assertEquals(rows.get(updated), table.getSkipCache(updated));
  }

  @Test
  void corruptValuesFailNamingTheKey() throws Exception {
    KeyAwareDirectoryTable table = KeyAwareDirectoryTable.open(store, DirectoryValueFormat.PROTOBUF);
    String truncated = "/" + VOLUME + "/" + BUCKET + "/" + BUCKET + "/truncated";
    String unknownVersion = "/" + VOLUME + "/" + BUCKET + "/" + BUCKET + "/from-the-future";
    byte[] trimmed = DirectoryValueFormat.TRIMMED.encode(tree(1).firstEntry().getValue());
    raw.put(truncated.getBytes(StandardCharsets.UTF_8), java.util.Arrays.copyOf(trimmed, 3));
    raw.put(unknownVersion.getBytes(StandardCharsets.UTF_8), new byte[] {(byte) ((5 << 3) | 7), 1, 2});

    for (String key : List.of(truncated, unknownVersion)) {
      CodecException e = assertThrows(CodecException.class, () -> table.get(key));
      assertTrue(e.getMessage().contains("'" + key + "'"), e.getMessage());
      assertTrue(e.getMessage().startsWith(OMDBDefinition.DIRECTORY_TABLE + " value of key"), e.getMessage());
    }
    try (Table.KeyValueIterator<String, OmDirectoryInfo> it = table.iterator()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, it::next);
      assertTrue(e.getMessage().contains("'" + unknownVersion + "'"), e.getMessage()); // sorts first
      CodecException sought = assertThrows(CodecException.class, () -> it.seek(truncated));
      assertTrue(sought.getMessage().contains("'" + truncated + "'"), sought.getMessage());
    }
  }

  @Test
  void aTrimmedWriteUnderAKeyThatDisagreesWithItsDirectoryIsRefused() throws Exception {
    KeyAwareDirectoryTable table = KeyAwareDirectoryTable.open(store, DirectoryValueFormat.TRIMMED);
    OmDirectoryInfo info = tree(2).firstEntry().getValue();
    String wrongName = "/" + VOLUME + "/" + BUCKET + "/" + info.getParentObjectID() + "/other-name";
    CodecException e = assertThrows(CodecException.class, () -> table.put(wrongName, info));
    assertTrue(e.getMessage().contains("'" + wrongName + "'"), e.getMessage());
    assertNull(rawValue(wrongName), "nothing written");
    String notADirectoryKey = "no-slashes";
    assertThrows(CodecException.class, () -> table.put(notADirectoryKey, info));
    assertNull(rawValue(notADirectoryKey), "nothing written");
  }

  @Test
  void formatComesFromOneValidatedKey() {
    OzoneConfiguration conf = new OzoneConfiguration();
    assertEquals(DirectoryValueFormat.PROTOBUF, DirectoryValueFormat.fromConfig(conf));
    conf.set(DirectoryValueFormat.KEY, " Trimmed ");
    assertEquals(DirectoryValueFormat.TRIMMED, DirectoryValueFormat.fromConfig(conf));
    conf.set(DirectoryValueFormat.KEY, "protobuf");
    assertEquals(DirectoryValueFormat.PROTOBUF, DirectoryValueFormat.fromConfig(conf));
    conf.set(DirectoryValueFormat.KEY, "flatbuffers");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DirectoryValueFormat.fromConfig(conf));
    assertEquals("ozone.om.directory.value.format='flatbuffers' is not a directory value format; use protobuf"
        + " (the default, what a stock OM writes) or trimmed", e.getMessage());
  }
}
