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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.patched.OmJvm;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The memory a table's skip hints hold, measured: one hint per bucket for 100,000 buckets (start
 * {@code /volume-0001/bucket-000042/}, hint a 40-byte key), and the bound keeping a table at its maximum. In the
 * patched {@code SkipHints}' own package, to learn hints without a store. The figure is in docs/facts.md.
 */
class SkipHintsMemoryTest {
  private static final int BUCKETS = 100_000;

  /** Measured in a fresh JVM, so no other test's threads or garbage move the heap between the two readings. */
  @Test
  void oneHintPerBucketFor100000Buckets() throws Exception {
    double bytesPerHint = measured("prefix-start spans", "", BUCKETS) / BUCKETS;
    // docs/skip-hints.md gives about 280 bytes per span; the measurement must be near it, not a multiple.
    assertTrue(bytesPerHint > 100 && bytesPerHint < 400, bytesPerHint + " bytes per hint");
  }

  /**
   * The same bound filled with spans learned from listing steps: (key, next key) of 60-byte keys, each also in the
   * index by the key it follows, the larger kind. The figure is in docs/facts.md.
   */
  @Test
  void stepSpansAtTheDefaultBound() throws Exception {
    double mb = measured("step spans", "steps", SkipHintSettings.MAX_ENTRIES_DEFAULT) / 1e6;
    assertTrue(mb > 10 && mb < 80, mb + " MB");
  }

  /**
   * The most a table's pending records hold: {@link SkipHints#MAX_CACHED} cache puts of 60-byte keys whose epochs
   * (10,000 of 10 puts) are never cleaned, the case the bound exists for. The figure is in docs/facts.md.
   */
  @Test
  void pendingRecordsAtTheirBound() throws Exception {
    double mb = measured("pending puts", "pending", SkipHints.MAX_CACHED) / 1e6;
    // SkipHints.MAX_CACHED's comment and docs/skip-hints.md give about 22 MB: the measurement must be near it.
    assertTrue(mb > 8 && mb < 40, mb + " MB");
  }

  /**
   * A table at both bounds at once: spans learned from steps at the default bound and cache records at theirs, in
   * one {@code SkipHints}. This is the most one hinted table holds; the target is 64 MB. The figure is in
   * docs/facts.md.
   */
  @Test
  void aTableAtBothBounds() throws Exception {
    double mb = measured("spans and pending puts", "table", SkipHintSettings.MAX_ENTRIES_DEFAULT + SkipHints.MAX_CACHED)
        / 1e6;
    assertTrue(mb < 64, mb + " MB");
  }

  /**
   * Runs {@link #main} in mode {@code mode} in a fresh JVM, checks it held {@code expected} entries, prints and
   * returns the heap they hold in bytes.
   */
  private static double measured(String what, String mode, long expected) throws Exception {
    List<String> out = OmJvm.patched().run(SkipHintsMemoryTest.class, Path.of("target/om-jvm/skip-hint-memory"), 120,
        mode.isEmpty() ? new String[0] : new String[] {mode});
    assertEquals(1, out.size(), out.toString());
    String[] f = out.get(0).split(" ");
    assertEquals(String.valueOf(expected), f[0], what + " held");
    double bytes = Double.parseDouble(f[1]);
    System.out.printf("skip hints: %,d %s hold %.1f MB, %.0f bytes each%n", expected, what, bytes / 1e6,
        bytes / expected);
    return bytes;
  }

  /**
   * Main for {@link OmJvm}: writes "COUNT BYTES" for one hint per bucket of 100,000, or with "pending" the pending
   * records at their bound, with "steps" the step spans at the default bound, with "table" both in one table.
   */
  public static void main(String[] args) throws Exception {
    String mode = args.length > 1 ? args[1] : "";
    long before = usedAfterGc();
    SkipHints hints = new SkipHints("keyTable", SkipHintSettings.fromConfig(new OzoneConfiguration()));
    long count;
    switch (mode) {
    case "pending" -> {
      pendAtTheBound(hints);
      count = hints.pendingKeys();
    }
    case "steps" -> {
      learnStepsAtTheBound(hints);
      count = hints.size();
    }
    case "table" -> {
      learnStepsAtTheBound(hints);
      pendAtTheBound(hints);
      count = hints.size() + hints.pendingKeys();
    }
    default -> {
      fill(hints, BUCKETS);
      count = hints.size();
    }
    }
    long after = usedAfterGc();
    Files.write(Path.of(args[0]), List.of(count + " " + (after - before)));
  }

  /** {@link SkipHints#MAX_CACHED} cache puts of 60-byte keys, 10 per epoch, no epoch cleaned. */
  private static void pendAtTheBound(SkipHints hints) {
    for (long i = 0; i < SkipHints.MAX_CACHED; i++) {
      String key = String.format("/volume-0001/bucket-000042/key-%029d", i); // 60 bytes
      hints.announceCached(key.getBytes(StandardCharsets.UTF_8), i / 10);
    }
  }

  /**
   * Spans learned from listing steps at the default bound: every other key of another bucket, so no two spans
   * touch, (key 2i, key 2i+1) for 100,000 values of i.
   */
  private static void learnStepsAtTheBound(SkipHints hints) {
    for (long i = 0; i < SkipHintSettings.MAX_ENTRIES_DEFAULT; i++) {
      byte[] from = String.format("/volume-0001/bucket-000043/key-%029d", 2 * i).getBytes(StandardCharsets.UTF_8);
      byte[] to = String.format("/volume-0001/bucket-000043/key-%029d", 2 * i + 1).getBytes(StandardCharsets.UTF_8);
      SkipHints.Start s = hints.start(null);
      hints.learn(s, hints.viewTaken(), java.util.Arrays.copyOf(from, from.length + 1), to);
    }
  }

  @Test
  void theBoundKeepsATableAtItsMaximum() {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.setInt(SkipHintSettings.MAX_ENTRIES_KEY, 1_000);
    SkipHints hints = new SkipHints("keyTable", SkipHintSettings.fromConfig(conf));
    fill(hints, 5_000);
    // Past the bound the least recently used go, down to 15/16 of it, so the table holds between 937 and 1,000.
    assertTrue(hints.size() <= 1_000 && hints.size() >= 1_000 - 1_000 / 16, "spans held: " + hints.size());
    assertEquals(5_000 - hints.size(), hints.evicted());
  }

  private static void fill(SkipHints hints, int buckets) {
    for (int b = 0; b < buckets; b++) {
      String start = String.format("/volume-0001/bucket-%06d/", b);
      SkipHints.Start s = hints.start(start.getBytes(StandardCharsets.UTF_8));
      hints.learn(s, (start + "key-00000000000000000042").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static long usedAfterGc() {
    MemoryMXBean m = ManagementFactory.getMemoryMXBean();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      best = Math.min(best, m.getHeapMemoryUsage().getUsed());
    }
    return best;
  }
}
