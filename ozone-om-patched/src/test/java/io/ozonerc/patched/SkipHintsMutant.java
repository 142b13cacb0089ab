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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A copy of the skip hints' sources ({@code SkipHints.java} and the classes beside it, this module's sources; the
 * skip-hints patch adds them), or of another patched file of their package, with pieces of text replaced (one
 * safety step taken out), compiled here into its own class directory. {@link #jvm()} runs a main on the patched
 * classes with that copy ahead of them, so a test can show its scenario tells the real classes from the broken ones.
 *
 * <p>Replacements are written with {@code \n} (backslash, n) for a line break, so they fit a {@code @CsvSource} row.
 */
record SkipHintsMutant(Path work, Path classes) {
  /** The directory of the skip hints' sources: every Java file there is copied and compiled together. */
  static final Path SOURCE_DIR = PatchedBuild.moduleDir().resolve("src/main/java/org/apache/hadoop/hdds/utils/db");

  /** The retire a put does (on announce and on settle): without it a hint learned earlier stays past a new key. */
  static final String RETIRE_FROM = "  private void retire(byte[] key) {\\n    if (holding(key) == null) {";
  static final String RETIRE_TO = "  private void retire(byte[] key) {\\n    if (true) {";

  /** The patched 2.2.0 files of the skip hints' package, as the build generated them. */
  static final Path GENERATED = PatchedBuild.moduleDir()
      .resolve("target/generated-sources/ozone-patched/org/apache/hadoop/hdds/utils/db");

  /** The skip hints' sources, in name order. */
  static List<Path> sources() throws IOException {
    try (Stream<Path> s = Files.list(SOURCE_DIR)) {
      return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  /**
   * Compiles the skip hints' sources with {@code from} replaced by {@code to} into
   * {@code target/om-jvm/skip-hint-mutant-NAME}. Fails if no source has {@code from} any more (the sources changed
   * under the test) or if the copy does not compile.
   */
  static SkipHintsMutant compile(String name, String from, String to) throws Exception {
    return compileAll(name, sources(), lines(from, to));
  }

  /** As {@link #compile(String, String, String)}, for another source file of the package alone. */
  static SkipHintsMutant compile(String name, Path source, String from, String to) throws Exception {
    return compileAll(name, List.of(source), lines(from, to));
  }

  private static List<String> lines(String from, String to) {
    return List.of(from.replace("\\n", "\n"), to.replace("\\n", "\n"));
  }

  /**
   * A copy of {@code sources}, compiled together, with several replacements, in order: {@code fromTo} holds each
   * text to find followed by its replacement (real line breaks here). Each text must be in at least one of the
   * sources; every place that has it is replaced.
   */
  static SkipHintsMutant compileAll(String name, List<Path> sources, List<String> fromTo) throws Exception {
    Map<Path, String> texts = new LinkedHashMap<>();
    for (Path source : sources) {
      texts.put(source, Files.readString(source));
    }
    for (int i = 0; i < fromTo.size(); i += 2) {
      final String from = fromTo.get(i);
      final String to = fromTo.get(i + 1);
      assertTrue(texts.values().stream().anyMatch(t -> t.contains(from)), names(sources) + " no longer have the "
          + name + " text: " + from);
      texts.replaceAll((source, text) -> text.replace(from, to));
    }
    Path work = Path.of("target/om-jvm/skip-hint-mutant-" + name).toAbsolutePath();
    Path srcDir = work.resolve("src/org/apache/hadoop/hdds/utils/db");
    Files.createDirectories(srcDir);
    List<String> copies = new ArrayList<>();
    for (Map.Entry<Path, String> e : texts.entrySet()) {
      Path copy = srcDir.resolve(e.getKey().getFileName());
      Files.writeString(copy, e.getValue());
      copies.add(copy.toString());
    }
    Path classes = work.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String cp = String.join(File.pathSeparator, OmJvm.patched().classPath());
    List<String> args = new ArrayList<>(List.of("-classpath", cp, "-d", classes.toString(), "-proc:none", "-nowarn",
        "-encoding", StandardCharsets.UTF_8.name().toLowerCase(Locale.ROOT)));
    args.addAll(copies);
    int rc = javac.run(null, null, null, args.toArray(new String[0]));
    assertEquals(0, rc, "the " + names(sources) + " without the " + name + " step do not compile");
    return new SkipHintsMutant(work, classes);
  }

  private static String names(List<Path> sources) {
    return sources.stream().map(p -> p.getFileName().toString()).toList().toString();
  }

  /** The patched JVM with this copy ahead of the patched classes. */
  OmJvm jvm() {
    return OmJvm.patched().withClassesFirst(classes);
  }
}
