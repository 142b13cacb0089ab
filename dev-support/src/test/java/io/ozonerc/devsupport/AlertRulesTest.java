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

package io.ozonerc.devsupport;

import static io.ozonerc.devsupport.ComposeFilesTest.list;
import static io.ozonerc.devsupport.ComposeFilesTest.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.testsupport.RepoPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code compose/range-compaction-alerts.yml}: promtool accepts the rules and their unit tests
 * ({@code compose/range-compaction-alerts-test.yml}) pass; every alert is tested both firing and silent, is
 * described in docs/monitoring.md, and reaches the compose Prometheus (listed in prometheus.yml's
 * {@code rule_files}, mounted next to it by monitoring.yaml). Prometheus and promtool come from
 * {@code dev-support/install-test-tools}: without them a developer's run is skipped with the reason, a CI run fails.
 */
class AlertRulesTest {
  static final String RULES = "range-compaction-alerts.yml";
  static final String RULES_TEST = "range-compaction-alerts-test.yml";

  private final Path root = RepoPaths.root();
  private final Path compose = root.resolve("compose");

  @Test
  void promtoolAcceptsTheRules() throws Exception {
    TestTools.ensureInstalled(root);
    String out = promtool("check", "rules", RULES);
    assertTrue(out.contains("SUCCESS: " + alertNames().size() + " rules found"), out);
  }

  @Test
  void promtoolUnitTestsPass() throws Exception {
    TestTools.ensureInstalled(root);
    String out = promtool("test", "rules", RULES_TEST);
    assertTrue(out.contains("SUCCESS"), out);
  }

  /** Each alert has a test case where it fires and one where it must stay silent. */
  @Test
  void everyAlertIsTestedFiringAndSilent() throws IOException {
    Map<String, Object> tests = yaml(RULES_TEST);
    assertEquals(List.of(RULES), tests.get("rule_files"));
    Set<String> firing = new TreeSet<>();
    Set<String> silent = new TreeSet<>();
    for (Object t : list(tests.get("tests"))) {
      for (Object a : list(map(t).get("alert_rule_test"))) {
        String name = String.valueOf(map(a).get("alertname"));
        (list(map(a).get("exp_alerts")).isEmpty() ? silent : firing).add(name);
      }
    }
    Set<String> names = new TreeSet<>(alertNames());
    assertEquals(names, firing, "alerts with a test where they fire");
    assertEquals(names, silent, "alerts with a test where they stay silent");
  }

  @Test
  void everyAlertIsDocumented() throws IOException {
    String doc = Files.readString(root.resolve("docs/monitoring.md"));
    for (String name : alertNames()) {
      assertTrue(doc.contains("`" + name + "`"), "docs/monitoring.md does not describe alert " + name);
    }
  }

  /** prometheus.yml loads the rules by a path relative to itself, and monitoring.yaml mounts them there. */
  @Test
  void composePrometheusLoadsTheRules() throws IOException {
    assertEquals(List.of(RULES), yaml("prometheus.yml").get("rule_files"));
    Map<String, Object> prometheus = map(map(yaml("monitoring.yaml").get("services")).get("prometheus"));
    String config = String.valueOf(list(prometheus.get("command")).get(0)).replace("--config.file=", "");
    String configDir = config.substring(0, config.lastIndexOf('/') + 1);
    assertTrue(list(prometheus.get("volumes")).contains("./" + RULES + ":" + configDir + RULES + ":ro"),
        "monitoring.yaml mounts " + RULES + " next to " + config + ": " + prometheus.get("volumes"));
    assertTrue(Files.readString(compose.resolve("verify.sh")).contains("/api/v1/rules"),
        "compose/verify.sh checks that Prometheus evaluates the rules");
  }

  /** The alert names of the rules file, in file order. */
  List<String> alertNames() throws IOException {
    Set<String> names = new LinkedHashSet<>();
    for (Object g : list(yaml(RULES).get("groups"))) {
      for (Object r : list(map(g).get("rules"))) {
        Object alert = map(r).get("alert");
        if (alert != null) {
          assertTrue(names.add(String.valueOf(alert)), "two alerts named " + alert);
        }
      }
    }
    assertTrue(names.size() >= 4, "alerts: " + names);
    return new ArrayList<>(names);
  }

  /** Runs promtool in compose/ (the rules file names its neighbours relatively); its output, asserted exit 0. */
  private String promtool(String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("promtool"));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).directory(compose.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish: " + out);
    assertEquals(0, p.exitValue(), String.join(" ", argv) + " failed:\n" + out);
    return out;
  }

  private Map<String, Object> yaml(String file) throws IOException {
    return map(new Yaml().load(Files.readString(compose.resolve(file))));
  }
}
