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

package io.ozonerc.bench.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The operators' table from hand-made runs: maxima and means over the samples, ratios to none, no ideal rows. */
class OperatorTableTest {

  private static RunResult run(String policy, long writeMicros, long stallMicros, long[] l0, long[] pendingMb) {
    Histogram list = new Histogram(3_600_000_000_000L, 3);
    Histogram create = new Histogram(3_600_000_000_000L, 3);
    Histogram delete = new Histogram(3_600_000_000_000L, 3);
    for (int i = 0; i < 100; i++) {
      list.recordValue(1_000_000);
      create.recordValue(writeMicros * 1000);
      delete.recordValue(2 * writeMicros * 1000);
    }
    List<RunResult.Sample> series = new ArrayList<>();
    for (int i = 0; i < l0.length; i++) {
      series.add(new RunResult.Sample(policy, i + 1, i * 100, 1, 1, 1, 0, 0, 0, l0[i], pendingMb[i] << 20,
          stallMicros));
    }
    return new RunResult(policy, null, list, create, delete, 1000, 1_000_000_000L, 0, 0, 0, 0, 0, 0,
        new BenchStore.TableFacts(0, 0, 0, 0, 0), 0, 10, 10, "", series, new RunResult.Seeks(1, 1, 1, 0),
        stallMicros, 0, 0, 0);
  }

  @Test
  void maximaMeansAndRatiosToNone() {
    Map<String, List<RunResult>> runs = new LinkedHashMap<>();
    runs.put("none", List.of(run("none", 100, 0, new long[] {2, 6, 4}, new long[] {10, 40, 20})));
    runs.put("range", List.of(run("range", 150, 2_500, new long[] {1, 3, 2}, new long[] {5, 20, 0})));
    runs.put("ideal", List.of(run("ideal", 100, 0, new long[] {0}, new long[] {0})));
    String t = OperatorTable.table(new Report("t", "s", 1000, Report.Targets.QUEUE, 4 << 20, runs));
    // none: create p99 100 us, delete 200 us, L0 max 6, mean 4.0, pending max 40 MB, no stall
    assertTrue(t.contains("| none | 100 | 200 | 6 | 4.0 | 40.0 | 0.0 |"), t);
    // range: writes 1.5x none's, L0 max 3 and mean 2.0, pending max 20 MB = 0.5x none, 2.5 ms stalled
    assertTrue(t.contains("| range | 150 (1.50x none) | 300 (1.50x none) | 3 | 2.0 | 20.0 (0.50x none) | 2.5 |"), t);
    assertFalse(t.contains("| ideal |"), t);
  }
}
