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

package io.ozonerc.testsupport;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository is, seen from a test: surefire runs in the module's directory, one level below it. */
public final class RepoPaths {
  private RepoPaths() { }

  /** The nearest directory at or above the working directory that holds {@code dev-support/}. */
  public static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("dev-support"))) {
      p = p.getParent();
    }
    assertNotNull(p, "no dev-support/ above " + Path.of("").toAbsolutePath());
    return p;
  }
}
