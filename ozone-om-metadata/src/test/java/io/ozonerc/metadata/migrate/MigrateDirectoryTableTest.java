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

package io.ozonerc.metadata.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.metadata.DirectoryFormat;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The migration tool against a real om.db written by a real {@link OmMetadataManagerImpl}: protobuf -> trimmed ->
 * protobuf, checked row by row against what was written, and the OM reading the result through its own tables.
 */
class MigrateDirectoryTableTest {
  private static final int ROWS = 3000;
  /** Small batches so the run commits several of them. */
  private static final int BATCH = 700;

  @TempDir
  Path dir;

  private OzoneConfiguration conf() {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    return conf;
  }

  private File omDb() {
    return dir.resolve("om.db").toFile();
  }

  /** Writes ROWS directories of a tree through the OM's own directoryTable; returns them by key. */
  private Map<String, OmDirectoryInfo> writeTree() throws Exception {
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf(), null);
    Map<String, OmDirectoryInfo> written = new LinkedHashMap<>();
    Random random = new Random(42);
    try {
      Table<String, OmDirectoryInfo> table = om.getDirectoryTable();
      long volumeId = -9223372036854775552L;
      long bucketId = -9223372036854775296L;
      List<Long> parents = new ArrayList<>(List.of(bucketId));
      for (int i = 0; i < ROWS; i++) {
        long tx = 1000 + i;
        long parent = parents.get(random.nextInt(parents.size()));
        OmDirectoryInfo info = OmDirectoryInfo.newBuilder()
            .setName(i % 7 == 0 ? "目录-" + i : "dir-" + i)
            .setParentObjectID(parent)
            .setObjectID((2L << 62) | (tx << 8))
            .setUpdateID(tx + random.nextInt(3))
            .setCreationTime(1_732_000_000_000L + i)
            .setModificationTime(1_732_000_000_000L + i + random.nextInt(1000))
            .setOwner("hadoop")
            .setAcls(List.of(OzoneAcl.of(ACLIdentityType.USER, "hadoop", OzoneAcl.AclScope.ACCESS, ACLType.ALL),
                OzoneAcl.of(ACLIdentityType.GROUP, "hadoop", OzoneAcl.AclScope.ACCESS, ACLType.READ,
                    ACLType.LIST)))
            .build();
        if (i % 11 == 0) {
          info = info.toBuilder().addAllMetadata(Map.of("layout", "fso")).build();
        }
        String key = om.getOzonePathKey(volumeId, bucketId, parent, info.getName());
        table.put(key, info);
        written.put(key, info);
        parents.add(info.getObjectID());
      }
    } finally {
      om.stop();
    }
    return written;
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    return new CommandLine(new MigrateDirectoryTableCommand())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setOut(new PrintWriter(out, true))
        .setErr(new PrintWriter(err, true))
        .execute(args);
  }

  /** Every row of the offline table: in the expected format, and decoding to exactly what was written. */
  private void assertTable(Map<String, OmDirectoryInfo> written, DirectoryFormat.Kind kind) throws Exception {
    try (RDBStore store = OfflineOmDb.open(omDb())) {
      Table<byte[], byte[]> table = store.getTable(DirectoryTableMigrator.DIRECTORY_TABLE);
      int rows = 0;
      try (Table.KeyValueIterator<byte[], byte[]> it = table.iterator()) {
        while (it.hasNext()) {
          Table.KeyValue<byte[], byte[]> row = it.next();
          String key = new String(row.getKey(), java.nio.charset.StandardCharsets.UTF_8);
          assertEquals(kind, DirectoryFormat.kindOf(row.getValue()), key);
          assertEquals(written.get(key), TrimmedDirectoryCodec.decode(key, row.getValue()), key);
          rows++;
        }
      }
      assertEquals(written.size(), rows);
    }
  }

  @Test
  void roundTripProtobufTrimmedProtobuf() throws Exception {
    Map<String, OmDirectoryInfo> written = writeTree();
    assertTable(written, DirectoryFormat.Kind.LEGACY_PROTOBUF);

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, run(out, err, "--db", omDb().toString(), "--to", "trimmed", "--dry-run"), err.toString());
    assertTable(written, DirectoryFormat.Kind.LEGACY_PROTOBUF); // dry run wrote nothing

    assertEquals(0, run(out, err, "--db", omDb().toString(), "--to", "trimmed", "--batch-size",
        String.valueOf(BATCH)), err.toString());
    assertTrue(out.toString().contains("rows=" + ROWS + " rewritten=" + ROWS), out.toString());
    assertTable(written, DirectoryFormat.Kind.TRIMMED);

    // A second run finds nothing to do and still verifies.
    assertEquals(0, run(out, err, "--db", omDb().toString(), "--to", "TRIMMED"), err.toString());
    assertTrue(out.toString().contains("rows=" + ROWS + " rewritten=0"), out.toString());

    assertEquals(0, run(out, err, "--db", omDb().toString(), "--to", "protobuf", "--batch-size",
        String.valueOf(BATCH)), err.toString());
    assertTable(written, DirectoryFormat.Kind.LEGACY_PROTOBUF);

    // The OM reads the migrated-back table with its own codec.
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf(), null);
    try {
      for (Map.Entry<String, OmDirectoryInfo> e : written.entrySet()) {
        assertEquals(e.getValue(), om.getDirectoryTable().getSkipCache(e.getKey()));
      }
    } finally {
      om.stop();
    }
  }

  @Test
  void digestsMatchAcrossFormats() throws Exception {
    writeTree();
    DirectoryTableMigrator.Result toTrimmed;
    DirectoryTableMigrator.Result back;
    try (RDBStore store = OfflineOmDb.open(omDb())) {
      toTrimmed = new DirectoryTableMigrator(store, BATCH).migrate(DirectoryTableMigrator.Target.TRIMMED, false);
    }
    try (RDBStore store = OfflineOmDb.open(omDb())) {
      back = new DirectoryTableMigrator(store, BATCH).migrate(DirectoryTableMigrator.Target.PROTOBUF, false);
    }
    assertEquals(toTrimmed.digestBefore, toTrimmed.digestAfter);
    assertEquals(toTrimmed.digestAfter, back.digestAfter);
    assertEquals(ROWS, back.rows);
    assertTrue(toTrimmed.bytesAfter < toTrimmed.bytesBefore / 2,
        "trimmed table " + toTrimmed.bytesAfter + " B vs protobuf " + toTrimmed.bytesBefore + " B");
    assertEquals(toTrimmed.bytesBefore, back.bytesAfter);
  }

  @Test
  void refusesDbHeldByRunningOm() throws Exception {
    writeTree();
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf(), null); // holds om.db/LOCK, like a running OM
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(MigrateDirectoryTableCommand.DB_IN_USE, run(out, err, "--db", omDb().toString(), "--to", "trimmed"));
      assertTrue(err.toString().startsWith("Refusing to open " + omDb() + ": its RocksDB lock file "), err.toString());
      assertTrue(!err.toString().contains("\tat "), "no stack trace: " + err);
      assertThrows(OfflineOmDb.LockedException.class, () -> OfflineOmDb.open(omDb()));
      // Nothing was rewritten under the OM.
      try (Table.KeyValueIterator<byte[], byte[]> it =
               om.getStore().getTable(DirectoryTableMigrator.DIRECTORY_TABLE).iterator()) {
        assertEquals(DirectoryFormat.Kind.LEGACY_PROTOBUF, DirectoryFormat.kindOf(it.next().getValue()));
      }
    } finally {
      om.stop();
    }
  }

  @Test
  void refusesDirectoryThatIsNoDb() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(MigrateDirectoryTableCommand.FAILED,
        run(out, err, "--db", dir.resolve("nothing-here").toString(), "--to", "trimmed"));
    assertTrue(err.toString().contains("not a RocksDB directory"), err.toString());
  }
}
