package io.ozonerc.compaction.cluster;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository's dev-support/ is, seen from a test (surefire runs in the module directory). */
final class RepoPaths {
  private RepoPaths() { }

  static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("dev-support"))) {
      p = p.getParent();
    }
    assertNotNull(p, "no dev-support/ above " + Path.of("").toAbsolutePath());
    return p;
  }
}
