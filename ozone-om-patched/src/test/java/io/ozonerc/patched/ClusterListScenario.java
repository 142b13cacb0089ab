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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.client.protocol.ClientProtocol;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OzoneFileStatus;

/**
 * Main for {@link OmJvm}: one running OM (an {@link OmCluster}), one fixed script of creates, deletes and lists
 * through the Ozone client, one line per list with its result and the internal keys RocksDB skipped for it. Run in
 * a stock and in a patched JVM, the results must be equal line by line and the skips show what the bounded list
 * iterator saves.
 *
 * <p>The keyTable, in order: {@code /vol/a-dead/} (every key deleted: the dead head of the table),
 * {@code /vol/b-live/}, {@code /vol/c-gone/} (every key deleted), {@code /vol/d-live/}, {@code /vol/e-mixed/}
 * (keys under several prefixes, some deleted). Besides, an FSO bucket (directories, files, a directory whose files
 * were all deleted) and a legacy bucket, listed with listStatus. Then seeded random list calls over all of them.
 *
 * <p>Arguments: OUT SEED RANDOM_CASES. Lines: {@code loaded CLASS FROM}, then {@code case NAME skips N -> RESULT}.
 */
public final class ClusterListScenario {
  static final int DEAD_HEAD = 1500;
  private static final String VOLUME = "vol";

  private ClusterListScenario() { }

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    int randomCases = Integer.parseInt(args[2]);
    List<String> lines = new ArrayList<>();
    try (OmCluster c = OmCluster.start(OmCluster.quietConf())) {
      for (Class<?> cls : new Class<?>[] {c.om().getMetadataManager().getClass(),
          c.om().getMetadataManager().getKeyTable(BucketLayout.OBJECT_STORE).getClass()}) {
        lines.add("loaded " + cls.getName() + " " + PatchedBuild.loadedFrom(cls));
      }
      new ClusterListScenario.Run(c, lines).script(random, randomCases);
    }
    Files.write(out, lines);
    System.exit(0); // a MiniOzoneCluster may leave non-daemon threads behind
  }

  private static final class Run {
    private final OmCluster c;
    private final List<String> lines;
    private final ClientProtocol rpc;

    Run(OmCluster c, List<String> lines) {
      this.c = c;
      this.lines = lines;
      this.rpc = c.client().getProxy();
    }

    void script(Random random, int randomCases) throws Exception {
      c.client().getObjectStore().createVolume(VOLUME);
      OzoneVolume v = c.client().getObjectStore().getVolume(VOLUME);
      OzoneBucket aDead = bucket(v, "a-dead", BucketLayout.OBJECT_STORE);
      OzoneBucket bLive = bucket(v, "b-live", BucketLayout.OBJECT_STORE);
      OzoneBucket cGone = bucket(v, "c-gone", BucketLayout.OBJECT_STORE);
      OzoneBucket dLive = bucket(v, "d-live", BucketLayout.OBJECT_STORE);
      OzoneBucket eMixed = bucket(v, "e-mixed", BucketLayout.OBJECT_STORE);
      OzoneBucket fso = bucket(v, "f-fso", BucketLayout.FILE_SYSTEM_OPTIMIZED);
      OzoneBucket legacy = bucket(v, "g-legacy", BucketLayout.LEGACY);

      deleteAll(aDead, create(aDead, "k-%05d", DEAD_HEAD));
      create(bLive, "k-%05d", 250);
      deleteAll(cGone, create(cGone, "k-%05d", 400));
      create(dLive, "k-%05d", 120);
      List<String> mixed = new ArrayList<>();
      mixed.addAll(create(eMixed, "dir1/f%03d", 60));
      mixed.addAll(create(eMixed, "dir2/f%03d", 60));
      mixed.addAll(create(eMixed, "k-%04d", 80));
      deleteAll(eMixed, mixed.subList(20, 70));
      create(fso, "d0/f%03d", 40);
      create(fso, "d1/sub/f%03d", 30);
      deleteAll(fso, create(fso, "d2/f%03d", 200));
      create(fso, "d3/f%03d", 20);
      create(legacy, "dir/f%03d", 30);
      create(legacy, "k-%03d", 30);
      c.awaitApplied();
      c.flush();

      listKeys("b-live after the dead head", "b-live", "", "", 100, false);
      listKeys("b-live to its end, c-gone after it", "b-live", "", "", 1000, false);
      listKeys("b-live pages of 7", "b-live", "", "", 7, true);
      listKeys("b-live from a start key", "b-live", "", "k-00100", 50, false);
      listKeys("a-dead", "a-dead", "", "", 100, false);
      listKeys("c-gone", "c-gone", "", "", 100, false);
      listKeys("d-live after c-gone", "d-live", "", "", 1000, false);
      listKeys("e-mixed prefix dir1/", "e-mixed", "dir1/", "", 1000, false);
      listKeys("e-mixed prefix dir2/ from dir2/f030", "e-mixed", "dir2/", "dir2/f030", 10, true);
      listKeys("e-mixed prefix k-00 pages of 5", "e-mixed", "k-00", "", 5, true);
      listKeys("e-mixed start key before the prefix", "e-mixed", "k-", "dir1/f001", 10, false);
      listStatus("fso root", fso, "", false, "", 100);
      listStatus("fso d0 pages", fso, "d0/", false, "d0/f010", 10);
      listStatus("fso d2 all deleted", fso, "d2/", false, "", 100);
      listStatus("legacy root", legacy, "", false, "", 100);
      listStatus("legacy dir", legacy, "dir/", false, "", 100);
      listStatus("legacy recursive from dir/f010", legacy, "", true, "dir/f010", 1000);

      String[] buckets = {"a-dead", "b-live", "c-gone", "d-live", "e-mixed"};
      String[] prefixes = {"", "k-", "k-000", "dir1/", "dir2/f0", "dir", "zz"};
      for (int i = 0; i < randomCases; i++) {
        String bucket = buckets[random.nextInt(buckets.length)];
        String prefix = prefixes[random.nextInt(prefixes.length)];
        String start = switch (random.nextInt(4)) {
        case 0 -> "";
        case 1 -> String.format("k-%05d", random.nextInt(300));
        case 2 -> String.format("dir%d/f%03d", 1 + random.nextInt(2), random.nextInt(70));
        default -> prefix + "5";
        };
        listKeys("random " + i + " " + bucket + " prefix=" + prefix + " start=" + start, bucket, prefix, start,
            1 + random.nextInt(40), random.nextBoolean());
      }
    }

    private static OzoneBucket bucket(OzoneVolume v, String name, BucketLayout layout) throws Exception {
      v.createBucket(name, BucketArgs.newBuilder().setBucketLayout(layout).build());
      return v.getBucket(name);
    }

    private static List<String> create(OzoneBucket b, String format, int count) throws Exception {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = String.format(format, i);
        b.createKey(name, 0).close();
        names.add(name);
      }
      return names;
    }

    private static void deleteAll(OzoneBucket b, List<String> names) throws Exception {
      for (int i = 0; i < names.size(); i += 500) {
        b.deleteKeys(new ArrayList<>(names.subList(i, Math.min(names.size(), i + 500))));
      }
    }

    /** One listKeys RPC, or every page from {@code start} on; skips summed over the pages. */
    private void listKeys(String name, String bucket, String prefix, String start, int page, boolean all)
        throws Exception {
      long before = c.iterSkips();
      StringBuilder s = new StringBuilder();
      String from = start;
      while (true) {
        List<OzoneKey> keys = rpc.listKeys(VOLUME, bucket, prefix, from, page);
        for (OzoneKey k : keys) {
          s.append(k.getName()).append(' ');
        }
        s.append("| ");
        if (!all || keys.size() < page) {
          break;
        }
        from = keys.get(keys.size() - 1).getName();
      }
      lines.add("case " + name + " skips " + (c.iterSkips() - before) + " -> " + s);
    }

    private void listStatus(String name, OzoneBucket b, String key, boolean recursive, String start, int count)
        throws Exception {
      long before = c.iterSkips();
      StringBuilder s = new StringBuilder();
      try {
        for (OzoneFileStatus st : b.listStatus(key, recursive, start, count)) {
          s.append(st.getKeyInfo().getKeyName()).append(st.isDirectory() ? "/(dir) " : " ");
        }
      } catch (Exception e) {
        s.append("error ").append(e.getClass().getSimpleName()).append(' ').append(e.getMessage());
      }
      lines.add("case " + name + " skips " + (c.iterSkips() - before) + " -> " + s);
    }
  }
}
