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

package org.apache.hadoop.hdds.utils.db;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.managed.ManagedDBOptions;

/**
 * A hint learned through one table object, then a put into its span through another way into the same column
 * family; the listing after it must hold the key. On a real RocksDB store built by Ozone's {@code DBStoreBuilder},
 * with the patched classes (in their package, to reach the hint state). Before the hint state moved from the table
 * object to the column family, every writer here wrote past the hint and the listing lost the key.
 *
 * <p>{@link #main} runs every writer and writes one line each, {@code ok WRITER} or {@code FAIL WRITER: why}, so a
 * test can run it in a JVM whose write path lacks a step (see SkipHintRacesTest).
 */
public final class FamilyWriteScenario {
  static final String TABLE = "keyTable";
  static final String PREFIX = "/vol/bucket/";

  private FamilyWriteScenario() { }

  /** A way into the keyTable column family other than the table object that learned the hint. */
  public enum Writer {
    SECOND_TABLE_OBJECT_BATCH,
    SECOND_TABLE_OBJECT_DIRECT_PUT,
    RAW_TABLE_BATCH,
    RAW_TABLE_DIRECT_PUT,
    INGESTED_FILE
  }

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory(Path.of(args[0]).toAbsolutePath().getParent(), "family-writes");
    List<String> lines = new ArrayList<>();
    for (Writer w : Writer.values()) {
      lines.add(run(w, Files.createDirectories(work.resolve(w.name()))));
    }
    Files.write(Path.of(args[0]), lines);
  }

  /** Runs the scenario for {@code writer} in a fresh store under {@code dir}: "ok WRITER" or "FAIL WRITER: why". */
  public static String run(Writer writer, Path dir) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    // Only the listing's seek from the bucket start teaches a span here (always learned); a listing step learns one
    // only when it is slower than the threshold, which on a loaded machine the default 50us can be: at its largest
    // value no step of this tiny scenario teaches one, so what the listings use does not depend on the machine.
    conf.set(SkipHintSettings.LEARN_THRESHOLD_KEY, "1s");
    try (DBStore store = open(conf, dir.resolve("om"), null);
         SkipHintGroup group = new SkipHintGroup(SkipHintSettings.fromConfig(conf))) {
      group.attach(store);
      Table<String, String> reader = store.getTable(TABLE, StringCodec.get(), StringCodec.get());
      SkipHints hints = ((TypedTable<String, String>) reader).getSkipHints();
      if (hints == null) {
        return "FAIL " + writer + ": the family has no hints";
      }
      // key-10 .. key-19, the first six deleted: a listing from the bucket start learns PREFIX -> key-16.
      try (BatchOperation b = store.initBatchOperation()) {
        for (int i = 10; i < 20; i++) {
          reader.putWithBatch(b, key(i), "v");
        }
        store.commitBatchOperation(b);
      }
      try (BatchOperation b = store.initBatchOperation()) {
        for (int i = 10; i < 16; i++) {
          reader.deleteWithBatch(b, key(i));
        }
        store.commitBatchOperation(b);
      }
      List<String> live = List.of(key(16), key(17), key(18), key(19));
      if (!list(reader).equals(live) || !Arrays.equals(bytes(key(16)), hintAtPrefix(hints))
          || !list(reader).equals(live) || hints.used() != 1) {
        return "FAIL " + writer + ": no hint learned and used before the write (used " + hints.used() + ")";
      }

      write(writer, store, conf, dir);

      List<String> after = list(reader);
      List<String> expected = List.of(key(12), key(16), key(17), key(18), key(19));
      if (!after.equals(expected)) {
        return "FAIL " + writer + ": listed " + after + ", expected " + expected;
      }
      if (hintAtPrefix(hints) != null && Arrays.compareUnsigned(hintAtPrefix(hints), bytes(key(12))) > 0) {
        return "FAIL " + writer + ": the hint still spans the new key";
      }
      if (hints.pendingKeys() != 0) {
        return "FAIL " + writer + ": " + hints.pendingKeys() + " puts left pending";
      }
      return "ok " + writer;
    }
  }

  /** Writes key-12, inside the hinted span, the way {@code writer} names. */
  private static void write(Writer writer, DBStore store, OzoneConfiguration conf, Path dir) throws Exception {
    Table<String, String> second = store.getTable(TABLE, StringCodec.get(), StringCodec.get());
    Table<byte[], byte[]> raw = store.getTable(TABLE);
    switch (writer) {
    case SECOND_TABLE_OBJECT_BATCH:
      try (BatchOperation b = store.initBatchOperation()) {
        second.putWithBatch(b, key(12), "v");
        store.commitBatchOperation(b);
      }
      break;
    case SECOND_TABLE_OBJECT_DIRECT_PUT:
      second.put(key(12), "v");
      break;
    case RAW_TABLE_BATCH:
      try (BatchOperation b = store.initBatchOperation()) {
        raw.putWithBatch(b, bytes(key(12)), bytes("v"));
        store.commitBatchOperation(b);
      }
      break;
    case RAW_TABLE_DIRECT_PUT:
      raw.put(bytes(key(12)), bytes("v"));
      break;
    case INGESTED_FILE:
      File sst = dir.resolve("key-12.sst").toFile();
      try (DBStore other = open(conf, dir.resolve("other"), null)) {
        Table<byte[], byte[]> otherRaw = other.getTable(TABLE);
        otherRaw.put(bytes(key(12)), bytes("v"));
        otherRaw.dumpToFileWithPrefix(sst, bytes(PREFIX));
      }
      second.loadFromFile(sst);
      break;
    default:
      throw new AssertionError(writer);
    }
  }

  static DBStore open(OzoneConfiguration conf, Path dir, ManagedDBOptions options) throws Exception {
    Files.createDirectories(dir);
    DBStoreBuilder b = DBStoreBuilder.newBuilder(conf).setName("om.db").setPath(dir).addTable(TABLE);
    if (options != null) {
      b.setDBOptions(options);
    }
    return b.build();
  }

  private static byte[] hintAtPrefix(SkipHints hints) {
    return hints.hintsAt(new byte[][] {bytes(PREFIX)})[0];
  }

  private static List<String> list(Table<String, String> table) throws Exception {
    List<String> out = new ArrayList<>();
    try (Table.KeyValueIterator<String, String> it = table.boundedIterator(PREFIX)) {
      while (it.hasNext()) {
        out.add(it.next().getKey());
      }
    }
    return out;
  }

  static String key(int i) {
    return PREFIX + "key-" + i;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
