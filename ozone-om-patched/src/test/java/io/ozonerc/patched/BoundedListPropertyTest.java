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
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Property: the bounded listKeys returns exactly what the stock 2.2.0 listKeys returns. The same seeded cases
 * ({@link StoreListCases}: random bucket, prefix, start key, page size, paging to the end, table cache entries) run
 * on a real {@code OmMetadataManagerImpl} in a stock JVM (2.2.0 jars only) and in a patched one, and every line
 * must match. The stock run is the reference; nothing here models listKeys.
 */
class BoundedListPropertyTest {
  private static final int CASES = 400;
  // A key written only to the table cache has a size of 100,000 or more (StoreListCases.fill).
  private static final Pattern CACHE_ONLY_VERSION = Pattern.compile(":1\\d{5} ");

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void boundedListReturnsWhatStockReturns(long seed) throws Exception {
    Path work = Path.of("target/om-jvm/store-list-" + seed);
    List<String> stock = OmJvm.stock().run(StoreListCases.class, work, 300, String.valueOf(seed),
        String.valueOf(CASES));
    List<String> patched = OmJvm.patched().run(StoreListCases.class, work, 300, String.valueOf(seed),
        String.valueOf(CASES));
    assertEquals(CASES + 1, stock.size());
    assertEquals(stock.size(), patched.size());
    for (int i = 1; i < stock.size(); i++) {
      assertEquals(stock.get(i), patched.get(i), "seed " + seed);
    }

    // The cases are not vacuous: many return keys, some page, some see keys only the cache holds, some fail.
    List<String> cases = stock.subList(1, stock.size());
    assertTrue(cases.stream().filter(l -> l.matches(".* -> \\S+:\\d+ .*")).count() > CASES / 5, "few results");
    assertTrue(cases.stream().filter(l -> l.contains("| ") && l.endsWith("|end")).count() > 10, "few paged lists");
    assertTrue(cases.stream().anyMatch(l -> CACHE_ONLY_VERSION.matcher(l).find()), "no cache-only key listed");
    assertTrue(cases.stream().anyMatch(l -> l.endsWith("error BUCKET_NOT_FOUND")), "no missing bucket case");

    // A 10-key list of b1 right after the dead a0 (3,000 keys, each a value and a tombstone in two L0 files):
    // stock steps over all 6,000 to reach the first live key of the table, the bounded list over none of them,
    // only over the few deleted keys among b1's first.
    long stockSkips = skips(stock.get(0));
    long patchedSkips = skips(patched.get(0));
    assertTrue(stockSkips - patchedSkips >= 2 * 3000, "stock " + stockSkips + ", patched " + patchedSkips);
    assertTrue(patchedSkips < 100, "patched skipped " + patchedSkips);
  }

  private static long skips(String line) {
    assertTrue(line.startsWith("skips-after-dead-head "), line);
    return Long.parseLong(line.substring(line.indexOf(' ') + 1));
  }
}
