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

package io.ozonerc.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every scenario in {@code src/test/resources/planner/*.txt} ({@link PlannerFixtures}: one file per topic,
 * each case ending in its action, {@code plan}, {@code probes} or {@code heads}) and compares the printed output.
 * To regenerate expected output after an intended change, run with {@code -Dplanner.rewrite=true} and review the
 * diff line by line before committing it.
 */
class PlannerFixtureTest {
  private static final Path DIR = Path.of("src/test/resources/planner");

  @TestFactory
  Stream<DynamicTest> scenarios() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> paths = Files.list(DIR)) {
      for (Path p : paths.filter(x -> x.toString().endsWith(".txt")).sorted().toList()) {
        List<PlannerFixtures.Case> cases = PlannerFixtures.read(p);
        List<List<String>> actual = new ArrayList<>();
        for (PlannerFixtures.Case c : cases) {
          actual.add(PlannerFixtures.run(c));
        }
        if (Boolean.getBoolean("planner.rewrite")) {
          PlannerFixtures.rewrite(p, cases, actual);
        }
        for (int i = 0; i < cases.size(); i++) {
          PlannerFixtures.Case c = cases.get(i);
          List<String> got = actual.get(i);
          tests.add(DynamicTest.dynamicTest(c.file() + ":" + c.line() + " " + c.about(),
              () -> assertEquals(String.join("\n", c.expected()), String.join("\n", got))));
        }
      }
    }
    return tests.stream();
  }
}
