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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** --size: what it multiplies, what it leaves to explicit options, and the values it refuses. */
class SizeFactorTest {

  @TempDir
  Path out;

  private static TombstoneBenchmark.Sized sized(String... args) {
    TombstoneBenchmark bench = new TombstoneBenchmark();
    new CommandLine(bench).parseArgs(args);
    return bench.sized();
  }

  @Test
  void multipliesTheDefaultStoreAndRun() {
    assertEquals(new TombstoneBenchmark.Sized(300_000, 1_500_000, 300_000, 1000, 25_000), sized());
    assertEquals(new TombstoneBenchmark.Sized(1_200_000, 6_000_000, 1_200_000, 4000, 100_000), sized("--size", "4"));
    assertEquals(new TombstoneBenchmark.Sized(750_000, 3_750_000, 750_000, 2500, 62_500), sized("--size=2.5"));
    // another preset's defaults: random-churn has no expiry bucket, so 0 stays 0
    assertEquals(new TombstoneBenchmark.Sized(500_000, 3_000_000, 0, 2000, 50_000),
        sized("--workload", "random-churn", "--size", "2"));
  }

  @Test
  void explicitOptionsKeepTheirValue() {
    assertEquals(new TombstoneBenchmark.Sized(600_000, 6_000_000, 2_000_000, 4000, 100_000),
        sized("--size", "4", "--expiry-keys", "2000000", "--ops", "600000"));
    assertEquals(new TombstoneBenchmark.Sized(1_200_000, 100, 1_200_000, 7, 3), sized("--size", "4", "--cold-keys",
        "100", "--expiry-lists", "7", "--live-cap", "3"));
    // an explicit value equal to the default still wins over the factor
    assertEquals(1000, sized("--size", "3", "--expiry-lists", "1000").expiryLists());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.5", "0", "-2", "1001", "four", "NaN", "Infinity", "1e2", "4d", ""})
  void badValuesFailNamingTheOptionAndTheValue(String value) {
    TombstoneBenchmark bench = new TombstoneBenchmark();
    new CommandLine(bench).parseArgs("--size", value);
    CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class, bench::sized);
    assertEquals("--size must be a decimal number in [1, 1000] (e.g. 4 or 2.5), got '" + value + "'", e.getMessage());
  }

  /** Through the command line: a usage error (exit 2) before anything runs. */
  @Test
  void aBadSizeIsAUsageErrorBeforeAnythingRuns() {
    StringWriter err = new StringWriter();
    TombstoneBenchmark bench = new TombstoneBenchmark();
    CommandLine cmd = new CommandLine(bench);
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute("--size", "0.25", "--no-progress", "--out", out.toString());
    assertEquals(2, code, err.toString());
    assertTrue(err.toString().contains("--size must be a decimal number in [1, 1000] (e.g. 4 or 2.5), got '0.25'"),
        err.toString());
    assertTrue(bench.reports.isEmpty());
  }

  @Test
  void countsRoundToTheNearestInteger() {
    assertEquals(5, new SizeFactor(1.5).times(3)); // 4.5 rounds up
    assertEquals(10L, new SizeFactor(3.33).times(3L)); // 9.99
    assertThrows(IllegalArgumentException.class, () -> new SizeFactor(0.99));
  }
}
