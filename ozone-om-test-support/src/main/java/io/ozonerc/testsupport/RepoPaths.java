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
