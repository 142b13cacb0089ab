package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The interleavings of {@link SkipHintRaces}, run on a real store with the patched classes: every scenario must
 * return the key created into the dead head. Then the same scenarios on copies of the patched {@code SkipHints}
 * with one safety step taken out, compiled here: each copy must fail the scenario that step exists for, so the
 * scenarios can tell a protocol that hides keys from one that does not.
 */
class SkipHintRacesTest {
  private static final Path GENERATED = PatchedBuild.moduleDir()
      .resolve("target/generated-sources/ozone-patched/org/apache/hadoop/hdds/utils/db/SkipHints.java");

  @Test
  void everyInterleavingListsTheCreatedKey() throws Exception {
    List<String> lines = OmJvm.patched().run(SkipHintRaces.class, Path.of("target/om-jvm/skip-hint-races"), 300);
    assertEquals(5, lines.size(), String.join("\n", lines));
    for (String line : lines) {
      assertTrue(line.startsWith("ok "), line);
    }
  }

  @ParameterizedTest(name = "without {0}")
  @CsvSource(delimiter = '|', value = {
      // the retire a put does: a hint learned earlier stays past the new key
      "retire|  private void retire(byte[] key) {\\n    if (size == 0) {"
          + "|  private void retire(byte[] key) {\\n    if (true) {|retireOnCreate",
      // the ring of settled keys: the listing whose view predates the commit installs its hint
      "ring|for (long seq = start.settledBefore + 1; seq <= now; seq++) {"
          + "|for (long seq = now + 1; seq <= now; seq++) {|viewThenCommit",
      // the pending check: a hint over a put applied but not committed reaches a reader after the commit
      "pending|if (firstPending != null && Arrays.compareUnsigned(firstPending, found) < 0) {"
          + "|if (false) {|appliedNotCommitted",
  })
  void removingASafetyStepFailsItsScenario(String step, String from, String to, String scenario) throws Exception {
    String source = Files.readString(GENERATED);
    String unescapedFrom = from.replace("\\n", "\n");
    assertTrue(source.contains(unescapedFrom), "SkipHints.java no longer has the " + step + " step: " + from);
    Path work = Path.of("target/om-jvm/skip-hint-mutant-" + step).toAbsolutePath();
    Path classes = compileMutant(source.replace(unescapedFrom, to.replace("\\n", "\n")), work);

    List<String> lines = OmJvm.patched().withClassesFirst(classes).run(SkipHintRaces.class, work, 300);
    List<String> failed = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("FAIL ")) {
        failed.add(line.split(" ")[1]);
      }
    }
    assertTrue(failed.contains(scenario), "without the " + step + " step " + scenario + " still passes:\n"
        + String.join("\n", lines));
  }

  private static Path compileMutant(String source, Path work) throws Exception {
    Path src = work.resolve("src/org/apache/hadoop/hdds/utils/db/SkipHints.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    Path classes = work.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String cp = String.join(File.pathSeparator, OmJvm.patched().classPath());
    int rc = javac.run(null, null, null, "-classpath", cp, "-d", classes.toString(), "-proc:none", "-nowarn",
        "-encoding", StandardCharsets.UTF_8.name().toLowerCase(Locale.ROOT), src.toString());
    assertEquals(0, rc, "the mutated SkipHints does not compile");
    return classes;
  }
}
