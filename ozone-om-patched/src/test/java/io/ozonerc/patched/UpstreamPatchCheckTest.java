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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.patch.PatchedSources;
import io.ozonerc.patch.UnifiedDiff;
import io.ozonerc.patch.UnifiedDiff.FilePatch;
import io.ozonerc.patch.UnifiedDiff.PatchException;
import io.ozonerc.patch.UpstreamPatch;
import io.ozonerc.testsupport.RepoPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Keeps the patch set from rotting. It checks the patches as an Ozone developer gets them: the build's
 * {@code target/upstream-patches/*.patch}, which are {@code dev-support/patches/*.patch} with the files they add
 * (this module's {@code src/main/java}) put back in; they must hold every change of {@code dev-support/patches}
 * and nothing else. Each patch must apply exactly (no fuzz, no offset) to the
 * Ozone 2.2.0 source files it touches, read from the {@code -sources} jars the build copied to
 * {@code target/ozone-sources}, and the patched files must compile, each patch alone, against the Ozone 2.2.0 jars
 * and this project's modules (the test class path without this module's own patched classes). {@code git apply}
 * must agree with our applier to the byte, so what an Ozone developer gets is what this test compiled.
 */
class UpstreamPatchCheckTest {
  private static final String OZONE_VERSION = "2.2.0";

  static Stream<Path> patches() throws IOException {
    Path dir = upstreamPatches();
    List<Path> found;
    try (Stream<Path> s = Files.list(dir)) {
      found = s.filter(p -> p.getFileName().toString().endsWith(".patch")).sorted().toList();
    }
    assertFalse(found.isEmpty(), "no patches in " + dir);
    return found.stream();
  }

  @ParameterizedTest
  @MethodSource("patches")
  void appliesExactlyAndCompilesAgainstOzone(Path patchFile, @TempDir Path tmp) throws Exception {
    String patchText = Files.readString(patchFile);
    List<FilePatch> files = UnifiedDiff.parse(patchText);
    List<String> bases = PatchedSources.appliesAfter(patchText);
    Map<FilePatch, String> originals = new LinkedHashMap<>();
    List<Path> patchedSources = new ArrayList<>();
    for (FilePatch f : files) {
      String original = textBefore(f, bases);
      originals.put(f, original);
      String patched;
      try {
        patched = UnifiedDiff.apply(original, f);
      } catch (PatchException e) {
        throw new AssertionError(patchFile.getFileName() + " no longer applies to Ozone " + OZONE_VERSION + ": "
            + e.getMessage(), e);
      }
      Path out = tmp.resolve("src").resolve(javaPath(f.path()));
      Files.createDirectories(out.getParent());
      Files.writeString(out, patched);
      patchedSources.add(out);
    }

    // A patch on top of others compiles with their other files too (what it calls may be added there).
    List<Path> withBases = new ArrayList<>(patchedSources);
    for (String base : bases) {
      for (FilePatch b : UnifiedDiff.parse(Files.readString(upstreamPatches().resolve(base)))) {
        Path out = tmp.resolve("src").resolve(javaPath(b.path()));
        if (files.stream().noneMatch(f -> f.path().equals(b.path())) && !Files.exists(out)) {
          Files.createDirectories(out.getParent());
          Files.writeString(out, UnifiedDiff.apply(readFromSourcesJar(b.path()), b));
          withBases.add(out);
        }
      }
    }
    List<String> errors = compile(withBases, tmp.resolve("classes"));
    assertTrue(errors.isEmpty(), patchFile.getFileName() + " applies but does not compile against Ozone "
        + OZONE_VERSION + ":\n" + String.join("\n", errors));
    for (Path src : patchedSources) {
      Path rel = tmp.resolve("src").relativize(src);
      Path cls = tmp.resolve("classes").resolve(rel.toString().replaceAll("\\.java$", ".class"));
      assertTrue(Files.exists(cls), "no class for " + rel);
    }

    sameAsGitApply(patchFile, originals, tmp);
  }

  /**
   * The wiring itself, so a patch that applies and compiles but lost its point cannot pass: KeyManagerImpl's
   * bytecode must refer to the service class and to the factory that keeps a disabled service thread-free.
   */
  @Test
  void keyManagerCreatesTheService(@TempDir Path tmp) throws Exception {
    String bytecode = patchedBytecode("HDDS-range-compaction-2.2.0.patch", "org/apache/hadoop/ozone/om/KeyManagerImpl",
        tmp);
    for (String ref : List.of("io/ozonerc/compaction/service/RangeCompactionService", "createIfEnabled")) {
      assertTrue(bytecode.contains(ref), "patched KeyManagerImpl.class does not refer to " + ref);
    }
  }

  /**
   * The same for the directory patch: OmMetadataManagerImpl must open its directoryTable through the key-aware table
   * and read the value format from the configuration.
   */
  @Test
  void metadataManagerReadsDirectoriesWithTheirKeys(@TempDir Path tmp) throws Exception {
    String bytecode = patchedBytecode("HDDS-trimmed-directory-values-2.2.0.patch",
        "org/apache/hadoop/ozone/om/OmMetadataManagerImpl", tmp);
    for (String ref : List.of("io/ozonerc/metadata/om/KeyAwareDirectoryTable",
        "io/ozonerc/metadata/om/DirectoryValueFormat", "fromConfig")) {
      assertTrue(bytecode.contains(ref), "patched OmMetadataManagerImpl.class does not refer to " + ref);
    }
  }

  /** Applies one patch's hunks for {@code className} (a path without .java) alone; returns the compiled class. */
  private static String patchedBytecode(String patchName, String className, Path tmp) throws Exception {
    Path patchFile = upstreamPatches().resolve(patchName);
    FilePatch fp = UnifiedDiff.parse(Files.readString(patchFile)).stream()
        .filter(f -> f.path().endsWith("/" + className + ".java")).findFirst()
        .orElseThrow(() -> new AssertionError(patchFile + " does not touch " + className));
    String patched = UnifiedDiff.apply(readFromSourcesJar(fp.path()), fp);
    Path src = tmp.resolve("src").resolve(javaPath(fp.path()));
    Files.createDirectories(src.getParent());
    Files.writeString(src, patched);
    assertEquals(List.of(), compile(List.of(src), tmp.resolve("classes")));
    return new String(Files.readAllBytes(tmp.resolve("classes").resolve(className + ".class")),
        StandardCharsets.ISO_8859_1);
  }

  /**
   * The build's patched sources are what {@code git apply} of every patch, one after the other in name order, makes
   * of a 2.2.0 tree: what an operator builds from a source tree is what this module's tests ran.
   */
  @Test
  void buildOutputIsAllPatchesAppliedInTurn(@TempDir Path tmp) throws Exception {
    Path tree = tmp.resolve("git-tree");
    // The release patches in name order, then those written on top of them.
    List<Path> all = patches().sorted(Comparator.comparing(UpstreamPatchCheckTest::isStacked)).toList();
    Map<String, Path> touched = new LinkedHashMap<>();
    for (Path patch : all) {
      for (FilePatch f : UnifiedDiff.parse(Files.readString(patch))) {
        Path p = tree.resolve(f.path());
        if (touched.putIfAbsent(f.path(), p) == null && !f.creates()) {
          Files.createDirectories(p.getParent());
          Files.writeString(p, readFromSourcesJar(f.path()));
        }
      }
    }
    for (Path patch : all) {
      gitApply(patch, tree, tmp.resolve("git-apply.log"));
    }
    Path generated = PatchedBuild.moduleDir().resolve("target/generated-sources/ozone-patched");
    Path added = PatchedBuild.moduleDir().resolve("src/main/java");
    for (Map.Entry<String, Path> e : touched.entrySet()) {
      Path built = generated.resolve(javaPath(e.getKey()));
      if (!Files.exists(built)) {
        built = added.resolve(javaPath(e.getKey()));
      }
      assertEquals(Files.readString(e.getValue()), Files.readString(built),
          "the build's " + e.getKey() + " differs from git apply of " + all.size() + " patches");
    }
  }

  private static boolean isStacked(Path patch) {
    try {
      return !PatchedSources.appliesAfter(Files.readString(patch)).isEmpty();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The text a patch's change of one file applies to: empty for a new file, else the 2.2.0 file with the patches
   * it applies after (those that touch the file) applied.
   */
  private static String textBefore(FilePatch f, List<String> bases) throws IOException, PatchException {
    if (f.creates()) {
      return "";
    }
    String original = readFromSourcesJar(f.path());
    List<FilePatch> under = new ArrayList<>();
    for (String base : bases) {
      Path basePatch = upstreamPatches().resolve(base);
      for (FilePatch b : UnifiedDiff.parse(Files.readString(basePatch))) {
        if (b.path().equals(f.path())) {
          under.add(b);
        }
      }
    }
    return under.isEmpty() ? original : UnifiedDiff.applyAll(original, under);
  }

  /** Javac over the patched files with the 2.2.0 jars and this project's modules; errors as text. */
  private static List<String> compile(List<Path> sources, Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertNotNull(javac, "no system Java compiler (running on a JRE?)");
    Files.createDirectories(classes);
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      String stock = String.join(java.io.File.pathSeparator, OmJvm.stock().classPath());
      List<String> options = List.of("-classpath", stock, "-d", classes.toString(),
          "-proc:none", "-nowarn", "-encoding", "UTF-8");
      Boolean ok = javac.getTask(null, fm, diagnostics, options, null,
          fm.getJavaFileObjectsFromPaths(sources)).call();
      List<String> errors = diagnostics.getDiagnostics().stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
          .collect(Collectors.toList());
      if (!ok && errors.isEmpty()) {
        errors.add("javac failed without an error diagnostic");
      }
      return errors;
    }
  }

  /** {@code git apply} on the same originals must produce exactly what our applier produced. */
  private static void sameAsGitApply(Path patchFile, Map<FilePatch, String> originals, Path tmp) throws Exception {
    Path tree = tmp.resolve("git-tree");
    for (Map.Entry<FilePatch, String> e : originals.entrySet()) {
      if (e.getKey().creates()) {
        continue;
      }
      Path p = tree.resolve(e.getKey().path());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue());
    }
    gitApply(patchFile, tree, tmp.resolve("git-apply.log"));
    for (FilePatch f : originals.keySet()) {
      String ours = Files.readString(tmp.resolve("src").resolve(javaPath(f.path())));
      assertEquals(ours, Files.readString(tree.resolve(f.path())), "git apply and our applier differ on " + f.path());
    }
  }

  private static void gitApply(Path patchFile, Path tree, Path log) throws Exception {
    Process git = new ProcessBuilder("git", "apply", "--whitespace=error-all", patchFile.toAbsolutePath().toString())
        .directory(tree.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!git.waitFor(60, TimeUnit.SECONDS)) {
      git.destroyForcibly();
      fail("git apply did not finish in 60 s");
    }
    assertEquals(0, git.exitValue(), "git apply " + patchFile.getFileName() + " failed:\n" + Files.readString(log));
  }

  /** The 2.2.0 text of a file named by its path in the Ozone tree, from the -sources jars the build copied. */
  private static String readFromSourcesJar(String ozonePath) throws IOException {
    List<Path> jars;
    try (Stream<Path> s = Files.list(PatchedBuild.moduleDir().resolve("target/ozone-sources"))) {
      jars = s.filter(p -> p.getFileName().toString().endsWith("-" + OZONE_VERSION + "-sources.jar")).sorted()
          .toList();
    }
    try {
      return PatchedSources.readFromJars(jars, javaPath(ozonePath));
    } catch (PatchException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  private static String javaPath(String ozonePath) {
    try {
      return PatchedSources.javaPath(ozonePath);
    } catch (PatchException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** The patches as the build wrote them for upstream: dev-support/patches with their added files put back in. */
  static Path upstreamPatches() {
    return PatchedBuild.moduleDir().resolve("target/upstream-patches");
  }

  /**
   * The upstream patches are exactly the set in dev-support/patches, each with the new-file diffs of the sources its
   * "Adds:" line names, and those diffs recreate this module's sources byte for byte; every source there is added by
   * some patch (else it would ship in the OM overlay and in no upstream change).
   */
  @Test
  void upstreamPatchesAreTheSetWithItsAddedSources() throws Exception {
    Path set = RepoPaths.root().resolve("dev-support/patches");
    List<String> names;
    try (Stream<Path> s = Files.list(set)) {
      names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".patch")).sorted().toList();
    }
    try (Stream<Path> s = Files.list(upstreamPatches())) {
      assertEquals(names, s.map(p -> p.getFileName().toString()).sorted().toList());
    }
    Path sources = PatchedBuild.moduleDir().resolve("src/main/java");
    List<String> addedSources = new ArrayList<>();
    for (String name : names) {
      String text = Files.readString(set.resolve(name));
      String upstream = Files.readString(upstreamPatches().resolve(name));
      String withoutAdded = text;
      for (String path : UpstreamPatch.adds(text)) {
        FilePatch created = UnifiedDiff.parse(upstream).stream().filter(f -> f.path().equals(path)).findFirst()
            .orElseThrow(() -> new AssertionError(name + " adds " + path + " but its upstream patch lacks it"));
        assertTrue(created.creates(), path);
        assertEquals(Files.readString(sources.resolve(javaPath(path))), UnifiedDiff.apply("", created),
            "the upstream " + name + " does not recreate " + path);
        addedSources.add(javaPath(path));
      }
      List<String> upstreamPaths = UnifiedDiff.parse(upstream).stream().map(FilePatch::path).toList();
      List<String> setPaths = new ArrayList<>(UnifiedDiff.parse(withoutAdded).stream().map(FilePatch::path).toList());
      setPaths.addAll(UpstreamPatch.adds(text));
      assertEquals(setPaths.stream().sorted().toList(), upstreamPaths.stream().sorted().toList(), name);
    }
    List<String> present;
    try (Stream<Path> s = Files.walk(sources)) {
      present = s.filter(p -> p.toString().endsWith(".java")).map(p -> sources.relativize(p).toString()).sorted()
          .toList();
    }
    assertEquals(present, addedSources.stream().sorted().toList(), "sources in " + sources + " no patch adds");
  }
}
