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

package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.ReconfigurationException;
import org.apache.hadoop.hdds.utils.db.SkipHintSettings;
import org.apache.hadoop.hdds.utils.db.SkipHints;
import org.apache.hadoop.hdds.utils.db.TypedTable;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.OmSnapshot;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.ratis.util.function.UncheckedAutoCloseableSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Skip hints in a running patched OM (MiniOzoneCluster): a queue bucket whose listings jump over the dead head they
 * already crossed, RocksDB's own skip counter showing it; a key created into the dead head listed at once; the
 * switch turned off and on online; a bad value refused naming key and value; a snapshot's store without hints;
 * the hints dropped when the OM restarts. The tests share one cluster and run in order, each from the state the
 * previous one left.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SkipHintsClusterTest {
  private static final String VOLUME = "vol";
  private static final String QUEUE = "queue";
  private static final int KEYS = 600;
  private static final int DEAD = 400;

  static OmCluster c;
  static OzoneBucket bucket;
  static List<String> expected = new ArrayList<>();

  @BeforeAll
  static void queueWithDeadHead() throws Exception {
    c = OmCluster.start(OmCluster.quietConf());
    c.client().getObjectStore().createVolume(VOLUME);
    OzoneVolume v = c.client().getObjectStore().getVolume(VOLUME);
    v.createBucket(QUEUE, BucketArgs.newBuilder().setBucketLayout(BucketLayout.OBJECT_STORE).build());
    bucket = v.getBucket(QUEUE);
    List<String> dead = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      String name = String.format("k-%04d", i);
      bucket.createKey(name, 0).close();
      (i < DEAD ? dead : expected).add(name);
    }
    for (int i = 0; i < dead.size(); i += 200) {
      bucket.deleteKeys(new ArrayList<>(dead.subList(i, i + 200)));
    }
    c.awaitApplied();
  }

  @AfterAll
  static void stop() throws Exception {
    if (c != null) {
      c.close();
    }
  }

  @Test
  @Order(1)
  void theSecondListingJumpsOverTheDeadHead() throws Exception {
    long s0 = c.iterSkips();
    assertEquals(expected.subList(0, 10), list(10));
    long s1 = c.iterSkips();
    long usedBefore = keyHints().used();
    assertEquals(expected.subList(0, 10), list(10));
    long s2 = c.iterSkips();
    // The first listing steps over the 400 deletes (values and tombstones, 800 internal keys), the second over none.
    assertTrue(s1 - s0 >= DEAD, "first listing skipped " + (s1 - s0));
    assertTrue(s2 - s1 < 10, "second listing skipped " + (s2 - s1));
    assertTrue(keyHints().used() > usedBefore, "no seek jumped");
    assertTrue(keyHints().size() > 0, "no hint held");
  }

  @Test
  @Order(2)
  void aKeyCreatedIntoTheDeadHeadIsListedAtOnce() throws Exception {
    long retired = keyHints().retired();
    bucket.createKey("k-0123", 0).close();
    assertEquals("k-0123", list(1).get(0), "the new key is in the hinted span");
    assertTrue(keyHints().retired() > retired, "the create did not retire the hint");
    c.awaitApplied();
    assertEquals("k-0123", list(1).get(0), "after the flush");
    bucket.deleteKey("k-0123");
    c.awaitApplied();
    assertEquals(expected.subList(0, 10), list(10));
  }

  @Test
  @Order(3)
  void theSwitchTurnsHintsOffAndOnOnline() throws Exception {
    OzoneManager om = c.om();
    list(10);
    assertTrue(keyHints().size() > 0);
    om.getReconfigurationHandler().reconfigureProperty(SkipHintSettings.ENABLED_KEY, "false");
    assertEquals(0, keyHints().size(), "off drops the hints held");
    long used = keyHints().used();
    long learned = keyHints().learned();
    assertEquals(expected.subList(0, 10), list(10));
    assertEquals(expected.subList(0, 10), list(10));
    assertEquals(used, keyHints().used(), "a hint was used while off");
    assertEquals(learned, keyHints().learned(), "a hint was learned while off");
    assertEquals("false", om.getConfiguration().get(SkipHintSettings.ENABLED_KEY), "the OM's configuration shows it");

    om.getReconfigurationHandler().reconfigureProperty(SkipHintSettings.ENABLED_KEY, "true");
    assertEquals(expected.subList(0, 10), list(10));
    assertEquals(expected.subList(0, 10), list(10));
    assertTrue(keyHints().used() > used, "hints not used after turning them back on");
  }

  @Test
  @Order(4)
  void aBadValueIsRefusedNamingKeyAndValue() throws Exception {
    ReconfigurationException e = assertThrows(ReconfigurationException.class,
        () -> c.om().getReconfigurationHandler().reconfigureProperty(SkipHintSettings.ENABLED_KEY, "maybe"));
    String msg = e.getMessage() + " / " + e.getCause();
    assertTrue(msg.contains(SkipHintSettings.ENABLED_KEY) && msg.contains("maybe"), msg);
    assertTrue(c.om().getReconfigurationHandler().listReconfigureProperties().contains(SkipHintSettings.ENABLED_KEY));
  }

  @Test
  @Order(5)
  void aSnapshotsStoreHasNoHintsAndListsItsOwnKeys() throws Exception {
    list(10);
    c.client().getObjectStore().createSnapshot(VOLUME, QUEUE, "snap1");
    bucket.createKey("k-0007", 0).close(); // into the live store's hinted dead head, after the snapshot
    try (UncheckedAutoCloseableSupplier<OmSnapshot> snap = c.om().getOmSnapshotManager()
        .getSnapshot(VOLUME, QUEUE, "snap1")) {
      OmMetadataManagerImpl m = (OmMetadataManagerImpl) snap.get().getMetadataManager();
      assertEquals(null, m.getSkipHints(), "a snapshot's store gets no hints");
      assertEquals(null, ((TypedTable<?, ?>) m.getKeyTable(BucketLayout.OBJECT_STORE)).getSkipHints());
    }
    assertEquals(expected.subList(0, 10), list(".snapshot/snap1/", 10));
    assertEquals("k-0007", list(1).get(0));
    bucket.deleteKey("k-0007");
    c.awaitApplied();
    assertEquals(expected.subList(0, 10), list(10));
  }

  @Test
  @Order(6)
  void aRestartStartsWithoutHints() throws Exception {
    list(10);
    SkipHints before = keyHints();
    assertTrue(before.size() > 0);
    c.cluster().restartOzoneManager();
    c.cluster().waitForClusterToBeReady();
    SkipHints after = keyHints();
    assertNotSame(before, after, "the reopened store has new tables and new hints");
    assertEquals(0, after.size());
    assertEquals(expected.subList(0, 10), list(10));
    assertEquals(expected, list(1000));
    assertEquals(expected.subList(0, 10), list(10));
    assertTrue(after.used() > 0, "the reopened store learns again");
  }

  private static SkipHints keyHints() {
    OmMetadataManagerImpl m = (OmMetadataManagerImpl) c.om().getMetadataManager();
    assertNotNull(m.getSkipHints(), "the active store has hints");
    SkipHints h = ((TypedTable<?, ?>) m.getKeyTable(BucketLayout.OBJECT_STORE)).getSkipHints();
    assertNotNull(h);
    assertFalse(m.getSkipHints().tables().isEmpty());
    return h;
  }

  /** The first {@code n} keys of the queue, through the client and the OM's RPC listKeys. */
  private static List<String> list(int n) throws Exception {
    return list("", n);
  }

  private static List<String> list(String prefix, int n) throws Exception {
    List<String> names = new ArrayList<>();
    Iterator<? extends OzoneKey> it = c.client().getObjectStore().getVolume(VOLUME).getBucket(QUEUE)
        .listKeys(prefix);
    while (it.hasNext() && names.size() < n) {
      names.add(it.next().getName().substring(prefix.length()));
    }
    return names;
  }
}
