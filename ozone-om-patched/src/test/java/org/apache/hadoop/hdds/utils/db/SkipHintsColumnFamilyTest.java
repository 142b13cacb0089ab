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

import static org.apache.hadoop.hdds.utils.db.FamilyWriteScenario.PREFIX;
import static org.apache.hadoop.hdds.utils.db.FamilyWriteScenario.TABLE;
import static org.apache.hadoop.hdds.utils.db.FamilyWriteScenario.bytes;
import static org.apache.hadoop.hdds.utils.db.FamilyWriteScenario.key;
import static org.apache.hadoop.hdds.utils.db.FamilyWriteScenario.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.managed.ManagedDBOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Where the hint state lives and what bounds it: one state per column family of an open store, reached by every
 * writer ({@link FamilyWriteScenario}); a store whose writes may return before they are visible is refused; the
 * puts tracked as pending are bounded. On real RocksDB stores with the patched classes.
 */
class SkipHintsColumnFamilyTest {

  @Test
  void everyTableObjectOfAFamilySharesOneState(@TempDir Path tmp) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    try (DBStore store = open(conf, tmp.resolve("om"), null);
         SkipHintGroup group = new SkipHintGroup(SkipHintSettings.fromConfig(conf))) {
      group.attach(store);
      SkipHints a = ((TypedTable<?, ?>) store.getTable(TABLE, StringCodec.get(), StringCodec.get())).getSkipHints();
      SkipHints b = ((TypedTable<?, ?>) store.getTable(TABLE, StringCodec.get(), StringCodec.get())).getSkipHints();
      assertNotNull(a);
      assertSame(a, b);
      assertSame(a, ((RDBTable) store.getTable(TABLE)).getColumnFamily().getSkipHints());
    }
  }

  @ParameterizedTest
  @EnumSource(FamilyWriteScenario.Writer.class)
  void aPutThroughAnyWayIntoTheFamilyRetiresItsHint(FamilyWriteScenario.Writer writer, @TempDir Path tmp)
      throws Exception {
    assertEquals("ok " + writer, FamilyWriteScenario.run(writer, tmp));
  }

  /**
   * RocksDB's unordered_write lets a put return before a new iterator sees it; the argument needs the opposite: with
   * hints on the store is refused, with them off it gets none.
   */
  @Test
  void aStoreWithUnorderedWriteIsRefused(@TempDir Path tmp) throws Exception {
    OzoneConfiguration conf = new OzoneConfiguration();
    try (DBStore store = open(conf, tmp.resolve("om"), unorderedWrite());
         SkipHintGroup group = new SkipHintGroup(SkipHintSettings.fromConfig(conf))) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> group.attach(store));
      assertTrue(e.getMessage().contains("unordered_write=true")
          && e.getMessage().contains(SkipHintSettings.ENABLED_KEY), e.getMessage());
      assertNull(((RDBStore) store).getDb().getColumnFamily(TABLE).getSkipHints(), "no family got hints");
    }
    // With hints off the OM starts, and the store gets none: turning them on online cannot reach it.
    conf.setBoolean(SkipHintSettings.ENABLED_KEY, false);
    try (DBStore store = open(conf, tmp.resolve("om"), unorderedWrite());
         SkipHintGroup group = new SkipHintGroup(SkipHintSettings.fromConfig(conf))) {
      group.attach(store);
      group.reconfigureEnabled("true");
      assertNull(((RDBStore) store).getDb().getColumnFamily(TABLE).getSkipHints(), "no family got hints");
      assertTrue(group.tables().isEmpty());
    }
  }

  /** RocksDB options with unordered_write; the store that opens with them closes them. */
  private static ManagedDBOptions unorderedWrite() {
    ManagedDBOptions options = new ManagedDBOptions();
    options.setCreateIfMissing(true);
    options.setCreateMissingColumnFamilies(true);
    options.setUnorderedWrite(true);
    return options;
  }

  /**
   * A cache put whose epoch is never cleaned would stay pending for good. Past {@link SkipHints#MAX_CACHED} cache
   * records the oldest epoch is settled early (safe: the batch that commits a put announces it again), so the
   * records stay bounded and the table keeps learning.
   */
  @Test
  void cacheRecordsAreBounded() {
    SkipHints hints = new SkipHints(TABLE, SkipHintSettings.fromConfig(new OzoneConfiguration()));
    for (long epoch = 0; epoch < SkipHints.MAX_CACHED; epoch++) {
      hints.announceCached(bytes("/vol/other/" + epoch), epoch);
    }
    assertEquals(SkipHints.MAX_CACHED, hints.pendingKeys());
    hints.announceCached(bytes("/vol/other/one-more"), SkipHints.MAX_CACHED);
    assertEquals(SkipHints.MAX_CACHED, hints.pendingKeys(), "the oldest epoch settled");
    hints.learn(hints.start(bytes("/vol/other/")), bytes("/vol/other/0"));
    assertEquals(1, hints.size(), "a span whose only pending put was settled early is learned");
    hints.learn(hints.start(bytes("/vol/other/")), bytes("/vol/other/2"));
    assertEquals(0, hints.size(), "a span over a put still pending is refused");
  }

  /**
   * Puts pending in one batch are not bounded: a double-buffer flush of many bulk deletes (1,000 deletedTable puts
   * each) holds more than {@link SkipHints#MAX_CACHED} of them, and hints must keep working after it closes.
   */
  @Test
  void aLargeBatchDoesNotTurnHintsOff() {
    SkipHints hints = new SkipHints(TABLE, SkipHintSettings.fromConfig(new OzoneConfiguration()));
    java.util.List<byte[]> batch = new java.util.ArrayList<>();
    for (long i = 0; i <= SkipHints.MAX_CACHED; i++) {
      batch.add(hints.announce(bytes("/vol/other/" + i)));
    }
    hints.learn(hints.start(bytes(PREFIX)), bytes(key(16)));
    assertEquals(1, hints.size(), "learns beside a pending batch");
    batch.forEach(hints::settle);
    assertEquals(0, hints.pendingKeys());
    hints.learn(hints.start(bytes("/vol/other/")), bytes("/vol/other/9"));
    assertEquals(2, hints.size(), "learns in the batch's span once it is settled");
  }
}
