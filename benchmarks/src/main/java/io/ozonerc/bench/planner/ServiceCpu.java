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

package io.ozonerc.bench.planner;

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.service.RangeCompactor;
import io.ozonerc.compaction.service.RoundListener;
import io.ozonerc.compaction.service.RoundResult;
import io.ozonerc.compaction.service.RoundSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hdds.client.RatisReplicationConfig;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.protocol.proto.HddsProtos;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.Codec;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.RocksDatabase;
import org.apache.hadoop.hdds.utils.db.managed.ManagedEnvOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedIngestExternalFileOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedOptions;
import org.apache.hadoop.hdds.utils.db.managed.ManagedSstFileWriter;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OmBucketInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyInfo;
import org.apache.hadoop.ozone.om.helpers.OmKeyLocationInfoGroup;
import org.apache.hadoop.ozone.om.helpers.OmVolumeArgs;
import org.rocksdb.RocksDBException;

/**
 * The range compaction service's CPU on an idle OM of a large shape: a real OM metadata store
 * ({@link OmMetadataManagerImpl} on a directory under target/) whose keyTable holds {@code files} SST files over
 * {@code buckets} buckets of one volume, and the service's own round ({@link RangeCompactor#run}) and head check
 * ({@link RangeCompactor#checkHeads}) on it with every setting at its default, on this thread, so that
 * {@link ThreadMXBean#getCurrentThreadCpuTime} counts all of it, RocksDB's reads through JNI included.
 *
 * <p>The shape: every bucket holds {@value #KEYS_PER_BUCKET} keys with real {@code OmKeyInfo} values; the files
 * are written with RocksDB's SST writer, one per run of consecutive buckets, and ingested together, so they lie side
 * by side in the bottommost level (as most of a large OM's data does). One key in 100 is a tombstone, far below
 * every threshold: idle means nothing qualifies, so the service plans and probes and compacts nothing, which is
 * what it costs on an OM where it has nothing to do. A busy OM pays for the compactions it asks for, which are the
 * point of the service and measured by the workload benchmark instead.
 *
 * <p>What it prints: CPU milliseconds per round and per head check (median of the measured ones, after warm-up),
 * and the share of one core at the default schedule: a round every {@code interval} (10 min) and a head check every
 * {@code head.check.interval} (5 s; the service stretches it up to {@code head.check.max.interval}, 30 s, while no
 * head grows, so the 5 s figure is the idle OM's upper bound). Target: at most 1% of a core. Run it with
 * {@code dev-support/bench-planner --service-cpu}.
 */
final class ServiceCpu {
  private static final int KEYS_PER_BUCKET = 10;
  private static final double TARGET_CORE_SHARE = 0.01;
  private static final String VOLUME = "vol";

  private ServiceCpu() { }

  static void run(int files, int buckets, Path dir) throws Exception {
    long t0 = System.nanoTime();
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, dir.toString());
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf, null);
    try {
      build(om, dir, files, buckets);
      RocksDatabase db = ((RDBStore) om.getStore()).getDb();
      long keyTableFiles = db.getLiveFilesMetaData().stream()
          .filter(f -> new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals("keyTable")).count();
      System.out.printf(Locale.ROOT, "store: keyTable in %d SST files over %d buckets, %d keys (1 in 100 a "
          + "tombstone), built in %.0f s under %s%n", keyTableFiles, buckets, (long) buckets * KEYS_PER_BUCKET,
          (System.nanoTime() - t0) / 1e9, dir);

      RangeCompactionConfig config = RangeCompactionConfig.from(conf);
      RoundSettings settings = RoundSettings.of(config, config.plannerSettings());
      RangeCompactor compactor = new RangeCompactor(new OmCompactionStore(om), System::nanoTime,
          new RoundListener() { });
      Measure round = measure("round", 3, 9, () -> compactor.run(settings, () -> false));
      Measure check = measure("head check", 20, 60, () -> compactor.checkHeads(settings, () -> false));
      double interval = config.getInterval().toMillis();
      double checkBase = config.getHeadCheckInterval().toMillis();
      double checkIdle = config.getHeadCheckMaxInterval().toMillis();
      double share = round.cpuMs / interval + check.cpuMs / checkBase;
      double shareIdle = round.cpuMs / interval + check.cpuMs / checkIdle;
      System.out.printf(Locale.ROOT, "round: %.1f ms CPU (median of %d; range %.1f..%.1f), outcome %s%n",
          round.cpuMs, round.samples.length, round.samples[0], round.samples[round.samples.length - 1],
          round.outcome);
      System.out.printf(Locale.ROOT, "head check: %.2f ms CPU (median of %d; range %.2f..%.2f), outcome %s%n",
          check.cpuMs, check.samples.length, check.samples[0], check.samples[check.samples.length - 1],
          check.outcome);
      System.out.printf(Locale.ROOT, "share of a core at the defaults: a round every %.0f s and a head check every "
          + "%.0f s = %.3f%% (a head check every %.0f s, as while no head grows: %.3f%%)%n", interval / 1000,
          checkBase / 1000, share * 100, checkIdle / 1000, shareIdle * 100);
      System.out.printf(Locale.ROOT, "target: the service's CPU on an idle OM of %d files x %d buckets <= %.0f%% of "
          + "a core: %s (%.3f%%, %.2f x target)%n", files, buckets, TARGET_CORE_SHARE * 100,
          share <= TARGET_CORE_SHARE ? "MET" : "MISSED", share * 100, share / TARGET_CORE_SHARE);
    } finally {
      om.stop();
    }
  }

  private record Measure(double cpuMs, double[] samples, String outcome) { }

  private interface Step {
    RoundResult run() throws IOException;
  }

  /** Thread CPU per call: {@code warmUp} calls first, then the median of {@code n}. */
  private static Measure measure(String what, int warmUp, int n, Step step) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    RoundResult last = null;
    for (int i = 0; i < warmUp; i++) {
      last = step.run();
    }
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      long c = threads.getCurrentThreadCpuTime();
      last = step.run();
      ms[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
    }
    Arrays.sort(ms);
    return new Measure(ms[n / 2], ms, last == null ? "none" : last.outcome() + " " + last.detail());
  }

  /** The volume, the buckets (one batch), and keyTable as {@code files} SST files ingested side by side. */
  private static void build(OmMetadataManagerImpl om, Path dir, int files, int buckets)
      throws IOException, RocksDBException {
    om.getVolumeTable().put(om.getVolumeKey(VOLUME), OmVolumeArgs.newBuilder().setVolume(VOLUME)
        .setAdminName("admin").setOwnerName("owner").setObjectID(1).setUpdateID(1).setCreationTime(1).build());
    try (BatchOperation batch = om.getStore().initBatchOperation()) {
      for (int b = 0; b < buckets; b++) {
        om.getBucketTable().putWithBatch(batch, om.getBucketKey(VOLUME, bucket(b)), OmBucketInfo.newBuilder()
            .setVolumeName(VOLUME).setBucketName(bucket(b)).setObjectID(10L + b).setUpdateID(1).setCreationTime(1)
            .setBucketLayout(BucketLayout.OBJECT_STORE).build());
      }
      om.getStore().commitBatchOperation(batch);
    }
    om.getStore().flushDB();

    Path sst = Files.createDirectories(dir.resolve("ingest"));
    Codec<OmKeyInfo> codec = OmKeyInfo.getCodec();
    List<String> written = new ArrayList<>();
    long id = 0;
    try (ManagedEnvOptions env = new ManagedEnvOptions(); ManagedOptions options = new ManagedOptions()) {
      for (int f = 0; f < files; f++) {
        int from = (int) ((long) f * buckets / files);
        int to = (int) ((long) (f + 1) * buckets / files);
        String path = sst.resolve(String.format("%06d.sst", f)).toString();
        try (ManagedSstFileWriter w = new ManagedSstFileWriter(env, options)) {
          w.open(path);
          for (int b = from; b < to; b++) {
            for (int k = 0; k < KEYS_PER_BUCKET; k++, id++) {
              String key = String.format("k%08d", k);
              byte[] name = om.getOzoneKey(VOLUME, bucket(b), key).getBytes(StandardCharsets.UTF_8);
              if (id % 100 == 37) {
                w.delete(name);
              } else {
                w.put(name, codec.toPersistedFormat(keyInfo(bucket(b), key, id)));
              }
            }
          }
          w.finish();
        }
        written.add(path);
      }
    }
    RocksDatabase db = ((RDBStore) om.getStore()).getDb();
    try (ManagedIngestExternalFileOptions ingest = new ManagedIngestExternalFileOptions()) {
      ingest.setMoveFiles(true);
      db.ingestExternalFile(db.getColumnFamily("keyTable"), written, ingest);
    }
  }

  private static String bucket(int b) {
    return String.format("b%06d", b);
  }

  private static OmKeyInfo keyInfo(String bucket, String key, long id) {
    return new OmKeyInfo.Builder().setVolumeName(VOLUME).setBucketName(bucket).setKeyName(key)
        .setReplicationConfig(RatisReplicationConfig.getInstance(HddsProtos.ReplicationFactor.THREE))
        .setObjectID(1_000_000L + id).setUpdateID(id).setCreationTime(1_700_000_000_000L + id)
        .setModificationTime(1_700_000_000_000L + id).setDataSize(0).setOwnerName("owner")
        .setOmKeyLocationInfos(Collections.singletonList(new OmKeyLocationInfoGroup(0, new ArrayList<>())))
        .build();
  }
}
