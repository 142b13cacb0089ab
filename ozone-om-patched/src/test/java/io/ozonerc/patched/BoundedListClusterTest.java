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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A running OM with the bounded list iterators next to a stock 2.2.0 OM: {@link ClusterListScenario} in a stock JVM
 * and in a patched JVM (each a MiniOzoneCluster), then every list result compared and the internal keys RocksDB
 * skipped per list set side by side.
 */
class BoundedListClusterTest {
  private static final int DEAD = ClusterListScenario.DEAD_HEAD;
  private static final int C_GONE = 400;

  static Map<String, Case> stock;
  static Map<String, Case> patched;

  record Case(long skips, String result) { }

  @BeforeAll
  static void runBoth() throws Exception {
    Path work = Path.of("target/om-jvm/cluster-list");
    OmJvm.Both both = OmJvm.runBoth(ClusterListScenario.class, work, 900, "7", "120");
    List<String> s = both.stock();
    List<String> p = both.patched();
    for (String line : s) {
      if (line.startsWith("loaded ")) {
        assertTrue(line.endsWith("-2.2.0.jar"), "stock JVM: " + line);
      }
    }
    for (String line : p) {
      if (line.startsWith("loaded ")) {
        assertTrue(line.endsWith(" " + PatchedBuild.classesDir()), "patched JVM: " + line);
      }
    }
    stock = parse(s);
    patched = parse(p);
  }

  private static Map<String, Case> parse(List<String> lines) {
    Map<String, Case> cases = new LinkedHashMap<>();
    for (String line : lines) {
      if (line.startsWith("case ")) {
        int skips = line.indexOf(" skips ");
        int arrow = line.indexOf(" -> ", skips);
        cases.put(line.substring(5, skips), new Case(Long.parseLong(line.substring(skips + 7, arrow)),
            line.substring(arrow + 4)));
      }
    }
    return cases;
  }

  @Test
  void everyListReturnsWhatStockReturns() {
    assertEquals(stock.keySet(), patched.keySet());
    assertTrue(stock.size() > 130, "only " + stock.size() + " cases");
    for (String name : stock.keySet()) {
      assertEquals(stock.get(name).result(), patched.get(name).result(), name);
    }
    // Not vacuous: the live buckets list their keys, the dead ones nothing.
    assertTrue(stock.get("b-live to its end, c-gone after it").result().startsWith("k-00000 k-00001 "));
    assertEquals("| ", stock.get("a-dead").result());
    assertEquals("| ", stock.get("c-gone").result());
  }

  @Test
  void aListAfterTheDeadHeadSkipsNothing() {
    // Stock seeks to the first live key of the whole keyTable first, over every tombstone of a-dead.
    assertSkips("b-live after the dead head", DEAD, 10);
    assertSkips("d-live after c-gone", DEAD, 10);
    assertSkips("b-live pages of 7", DEAD, 10);
    assertSkips("b-live from a start key", DEAD, 10);
  }

  @Test
  void theUpperBoundStopsAtTheEndOfTheBucket() {
    // Reading b-live to its end: stock's last next() goes on over all of c-gone to d-live's first key.
    assertSkips("b-live to its end, c-gone after it", DEAD + C_GONE, 10);
    // A bucket whose keys are all deleted: its own tombstones stay (compaction's job), the ones after it do not.
    Case gone = patched.get("c-gone");
    assertTrue(gone.skips() >= C_GONE && gone.skips() < C_GONE + 50, "c-gone: patched skipped " + gone.skips());
    assertTrue(stock.get("c-gone").skips() >= DEAD + C_GONE, "c-gone: stock " + stock.get("c-gone").skips());
  }

  @Test
  void noListSkipsMoreThanStock() {
    long stockTotal = 0;
    long patchedTotal = 0;
    for (String name : stock.keySet()) {
      long s = stock.get(name).skips();
      long p = patched.get(name).skips();
      assertTrue(p <= s, name + ": patched skipped " + p + ", stock " + s);
      stockTotal += s;
      patchedTotal += p;
    }
    assertTrue(patchedTotal * 2 < stockTotal, "patched " + patchedTotal + " vs stock " + stockTotal);
  }

  private static void assertSkips(String name, long stockAtLeast, long patchedAtMost) {
    long s = stock.get(name).skips();
    long p = patched.get(name).skips();
    assertTrue(s >= stockAtLeast, name + ": stock skipped only " + s);
    assertTrue(p <= patchedAtMost, name + ": patched skipped " + p + " (stock " + s + ")");
  }
}
