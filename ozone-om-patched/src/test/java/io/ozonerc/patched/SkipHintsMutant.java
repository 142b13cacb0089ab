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

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A copy of {@code SkipHints.java} (this module's source; the skip-hints patch adds it), or of another patched file
 * of its package, with one piece of text replaced (one safety step taken
 * out), compiled here into its own class directory. {@link #jvm()} runs a main on the patched classes with that
 * copy ahead of them, so a test can show its scenario tells the real class from the broken one.
 *
 * <p>Replacements are written with {@code \n} (backslash, n) for a line break, so they fit a {@code @CsvSource} row.
 */
record SkipHintsMutant(Path work, Path classes) {
  static final Path SOURCE = PatchedBuild.moduleDir()
      .resolve("src/main/java/org/apache/hadoop/hdds/utils/db/SkipHints.java");

  /** The retire a put does (on announce and on settle): without it a hint learned earlier stays past a new key. */
  static final String RETIRE_FROM = "  private void retire(byte[] key) {\\n    if (holding(key) == null) {";
  static final String RETIRE_TO = "  private void retire(byte[] key) {\\n    if (true) {";

  /** The patched 2.2.0 files of the skip hints' package, as the build generated them. */
  static final Path GENERATED = PatchedBuild.moduleDir()
      .resolve("target/generated-sources/ozone-patched/org/apache/hadoop/hdds/utils/db");

  /**
   * Compiles {@code SkipHints.java} with {@code from} replaced by {@code to} into
   * {@code target/om-jvm/skip-hint-mutant-NAME}. Fails if the source no longer has {@code from} (the source changed
   * under the test) or if the copy does not compile.
   */
  static SkipHintsMutant compile(String name, String from, String to) throws Exception {
    return compile(name, SOURCE, from, to);
  }

  /** As {@link #compile(String, String, String)}, for another source file of the package (every place replaced). */
  static SkipHintsMutant compile(String name, Path source, String from, String to) throws Exception {
    return compileAll(name, source, List.of(from.replace("\\n", "\n"), to.replace("\\n", "\n")));
  }

  /**
   * A copy of {@code source} with several replacements, {@code fromTo} holding each text to find followed by its
   * replacement (real line breaks here); each text must be in the source.
   */
  static SkipHintsMutant compileAll(String name, Path source, List<String> fromTo) throws Exception {
    String text = Files.readString(source);
    for (int i = 0; i < fromTo.size(); i += 2) {
      assertTrue(text.contains(fromTo.get(i)), source.getFileName() + " no longer has the " + name + " text: "
          + fromTo.get(i));
      text = text.replace(fromTo.get(i), fromTo.get(i + 1));
    }
    Path work = Path.of("target/om-jvm/skip-hint-mutant-" + name).toAbsolutePath();
    Path src = work.resolve("src/org/apache/hadoop/hdds/utils/db").resolve(source.getFileName());
    Files.createDirectories(src.getParent());
    Files.writeString(src, text);
    Path classes = work.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String cp = String.join(File.pathSeparator, OmJvm.patched().classPath());
    int rc = javac.run(null, null, null, "-classpath", cp, "-d", classes.toString(), "-proc:none", "-nowarn",
        "-encoding", StandardCharsets.UTF_8.name().toLowerCase(Locale.ROOT), src.toString());
    assertEquals(0, rc, "the " + source.getFileName() + " without the " + name + " step does not compile");
    return new SkipHintsMutant(work, classes);
  }

  /** The patched JVM with this copy of {@code SkipHints} ahead of the patched one. */
  OmJvm jvm() {
    return OmJvm.patched().withClassesFirst(classes);
  }
}
