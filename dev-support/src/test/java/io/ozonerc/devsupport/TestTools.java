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

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus and promtool for the monitoring checks, installed by {@code dev-support/install-test-tools} (apt).
 * Where they cannot be installed, a developer's run skips the check with the script's reason; a CI run
 * ({@code CI} set, as every CI service sets it) fails instead, so CI never passes without the check.
 */
final class TestTools {
  private TestTools() { }

  static void ensureInstalled(Path root) throws IOException, InterruptedException {
    Path log = Files.createTempFile("install-test-tools", ".log");
    try {
      Process p = new ProcessBuilder("bash", root.resolve("dev-support/install-test-tools").toString())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(600, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail("dev-support/install-test-tools did not finish in 600 s");
      }
      if (p.exitValue() != 0) {
        String reason = "dev-support/install-test-tools could not provide prometheus and promtool: "
            + Files.readString(log).trim();
        if (System.getenv("CI") != null) {
          fail(reason);
        }
        Assumptions.abort(reason);
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
