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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compaction service on a patched OM takes a dead head that listings skip from the skip hint, without a seek,
 * and compacts it only when its files are its own; on stock 2.2.0 classes it probes and compacts as before
 * ({@link HintedHeads} runs both cases in each JVM). Counts come from RocksDB: its seek ticker, and the dead
 * entries sized before and after the round.
 */
class HintedHeadsTest {
  @Test
  void aPatchedOmsHeadIsSizedFromItsHintAndCompactedOnlyWhenCheap() throws Exception {
    Map<String, Map<String, String>> got = run(OmJvm.patched(), "patched");

    Map<String, String> shared = got.get("shared");
    assertEquals("true", shared.get("from-hint"), shared.toString());
    assertEquals("0", shared.get("seeks"), "sizing from the hint made a seek: " + shared);
    assertEquals("/vol/q/k-02500", shared.get("first"), shared.toString());
    assertTrue(Long.parseLong(shared.get("dead")) >= 200, shared.toString());
    assertEquals("skipped-by-readers", shared.get("verdict"), shared.toString());
    assertEquals("0", shared.get("compacted"), shared.toString());

    Map<String, String> own = got.get("own");
    assertEquals("true", own.get("from-hint"), own.toString());
    assertEquals("0", own.get("seeks"), own.toString());
    assertEquals("planned", own.get("verdict"), own.toString());
    assertEquals("1", own.get("compacted"), own.toString());
    assertTrue(Long.parseLong(own.get("dead-after")) < 100, "the head's compaction left it dead: " + own);
  }

  @Test
  void aStockOmsHeadIsProbedAndCompactedAsBefore() throws Exception {
    Map<String, Map<String, String>> got = run(OmJvm.stock(), "stock");
    for (Map<String, String> c : got.values()) {
      assertEquals("false", c.get("from-hint"), c.toString());
      assertTrue(Long.parseLong(c.get("seeks")) >= 1, "a stock OM's head is found with a seek: " + c);
      assertEquals("/vol/q/k-02500", c.get("first"), c.toString());
      assertEquals("planned", c.get("verdict"), c.toString());
      assertEquals("1", c.get("compacted"), c.toString());
      assertTrue(Long.parseLong(c.get("dead-after")) < 100, c.toString());
    }
  }

  /** Runs both cases; each must keep the queue's listing whole: 500 keys from k-02500, the same after the round. */
  private static Map<String, Map<String, String>> run(OmJvm jvm, String name) throws Exception {
    List<String> lines = jvm.run(HintedHeads.class, Path.of("target/om-jvm/hinted-heads-" + name), 300);
    assertEquals(2, lines.size(), String.join("\n", lines));
    Map<String, Map<String, String>> out = new HashMap<>();
    for (String line : lines) {
      Map<String, String> kv = new HashMap<>();
      for (String w : line.split(" ")) {
        int eq = w.indexOf('=');
        kv.put(w.substring(0, eq), w.substring(eq + 1));
      }
      assertEquals("true", kv.get("lists-equal"), line);
      assertEquals("500", kv.get("listed"), line);
      assertEquals("k-02500", kv.get("first-listed"), line);
      out.put(kv.get("case"), kv);
    }
    return out;
  }
}
