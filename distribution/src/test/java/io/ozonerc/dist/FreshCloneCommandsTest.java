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

package io.ozonerc.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.testsupport.RepoPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The commands that the README, docs/ and compose/ tell a user to run, and the dev-support scripts, work from a
 * fresh clone whose local Maven repository holds none of this project's artifacts (groupId io.ozonerc): each
 * takes them from the reactor.
 *
 * <p>The sources (no .git, no target/) are copied to target/fresh-clone/src, once for all commands. Its
 * .mvn/maven.config makes every Maven run there offline ({@code -o}) against target/fresh-clone/repo: a view of
 * the local repository this build uses (symbolic links to its folders) without io/ozonerc, which is deleted again
 * before every command, so that no command finds what an earlier one installed. Everything else (Ozone, plugins)
 * comes from the view, so nothing is downloaded. Each dev-support script runs as a user runs it, through its own
 * Maven build, with arguments that make its run part short: {@code --help}, a tiny size, {@code --build-only}, or
 * local-cluster's {@code build}; a command that has no such mode is not here, and
 * {@link #everyScriptThatRunsMavenIsRun} fails when a new one appears. Every literal {@code mvn ...} in a Markdown
 * file or under compose/ runs too, except those that run the tests (that is {@code mvn -B test} itself) or name
 * modules this repository does not have (an Ozone source tree's build). The commands share the copy's target/
 * folders: Maven 3.8 does not take a module from an earlier build's target/ when the module is not in the current
 * reactor (verified: {@code -pl benchmarks dependency:build-classpath} without {@code -am} fails there), so the
 * sharing only saves compile time.
 *
 * <p>A command may need a plugin that the outer build never used: maven-install-plugin (neither {@code mvn -B test}
 * nor the scripts install), or maven-jar-plugin after a bare {@code mvn -B test} on an empty repository (the README's
 * second command, bench-tombstones, packages). Offline, such a command cannot run; it is then reported as skipped
 * (aborted) with the missing artifact, never passed. A missing io.ozonerc artifact always fails.
 *
 * <p>Cost measured on 2 shared cores: 125-150 s for the class (the first build of the copy, omkeybench-experiment's,
 * 14-24 s; each later script 3-30 s, bench-listing-cost's 15 s warm-up the longest part; each documented command
 * 2-10 s), plus well under a second to copy the sources (about 4 MB) and link the repository view.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FreshCloneCommandsTest {

  /** The dev-support scripts that run Maven; each has a test method below. */
  private static final Set<String> SCRIPTS = Set.of("omkeybench-experiment", "local-cluster", "bench-tombstones",
      "bench-listing-cost", "bench-planner", "dirformat-bench.sh", "range-compaction-cli", "migrate-directory-table");

  private static final int TIMEOUT_SECONDS = 600;
  private static final Set<String> TEST_PHASES = Set.of("test", "package", "integration-test", "verify", "install",
      "deploy");
  /** A literal Maven command: {@code mvn} and its arguments up to a quote, parenthesis, comment or variable. */
  private static final Pattern MVN = Pattern.compile("(?<![\\w/.-])mvn((?:[ \\t]+[^\\s`'\"();|&#$\\\\]+)+)(.?)");

  /** Maven's message for an artifact that an offline build would have to download. */
  private static final Pattern OFFLINE_GAP =
      Pattern.compile("in offline mode and the artifact (\\S+) has not been downloaded from it before");

  private Path root;
  private Path work;
  private Path src;
  private Path repo;
  private Path logs;
  private Path mvn;

  private record Result(String name, int exit, String output, long seconds, Path log) {
  }

  @BeforeAll
  void copyTheSources() throws IOException {
    root = RepoPaths.root();
    work = Path.of("target/fresh-clone").toAbsolutePath();
    deleteTree(work);
    src = work.resolve("src");
    repo = work.resolve("repo");
    logs = work.resolve("logs");
    Files.createDirectories(logs);
    copySources(root, src);

    Path outer = Path.of(System.getProperty("outer.maven.repo",
        System.getProperty("user.home") + "/.m2/repository")).toAbsolutePath();
    assertTrue(Files.isDirectory(outer), "no local Maven repository at " + outer);
    Files.createDirectories(repo);
    try (Stream<Path> top = Files.list(outer)) {
      for (Path p : (Iterable<Path>) top::iterator) {
        if (p.getFileName().toString().equals("io") && Files.isDirectory(p)) {
          Files.createDirectories(repo.resolve("io"));
          try (Stream<Path> io = Files.list(p)) {
            for (Path q : (Iterable<Path>) io::iterator) {
              if (!q.getFileName().toString().equals("ozonerc")) {
                Files.createSymbolicLink(repo.resolve("io").resolve(q.getFileName()), q);
              }
            }
          }
        } else {
          Files.createSymbolicLink(repo.resolve(p.getFileName()), p);
        }
      }
    }
    // No static checks in the copy: the outer build has just run them on these same sources, and here they would
    // add a minute to this class (checkstyle and RAT a few seconds per command, SpotBugs up to a minute per command
    // that packages).
    Files.writeString(src.resolve(".mvn/maven.config"), "-B\n-o\n-Dstyle.color=never\n-Dcheckstyle.skip=true\n"
        + "-Drat.skip=true\n-Dspotbugs.skip=true\n-Dmaven.repo.local=" + repo + "\n");

    String home = System.getProperty("maven.home");
    mvn = home != null && Files.isExecutable(Path.of(home, "bin", "mvn")) ? Path.of(home, "bin", "mvn") : null;
  }

  // --- the dev-support scripts -------------------------------------------------------------------------------

  @Test
  @Order(1)
  void omkeybenchExperimentBuilds() throws Exception {
    Path out = src.resolve("target/omkeybench-experiment");
    Result r = script("omkeybench-experiment", Map.of(), "--build-only", "--out", out.toString());
    assertBuilt(r);
    List<String> cp = Arrays.asList(Files.readString(out.resolve("build/classpath")).trim().split(":"));
    for (String m : List.of("ozone-om-db-lock", "ozone-om-compaction", "ozone-freon-omkeybench",
        "ozone-om-metadata", "benchmarks")) {
      assertTrue(cp.contains(out.resolve("build/" + m).toString()), m + "'s classes on the classpath: " + cp);
    }
    assertTrue(Files.isRegularFile(out.resolve(
        "build/ozone-om-patched/org/apache/hadoop/hdds/utils/db/SkipHints.class")), "the patched OM classes");
    assertEntriesExist(cp, "omkeybench-experiment's classpath");
  }

  @Test
  @Order(2)
  void localClusterBuilds() throws Exception {
    Path dir = src.resolve("target/local-cluster");
    Result r = script("local-cluster", Map.of("LOCAL_CLUSTER_DIR", dir.toString()), "build", "--patched-om");
    assertBuilt(r);
    List<String> cp = Arrays.asList(Files.readString(dir.resolve("om-classpath")).trim().split(":"));
    assertTrue(cp.contains(dir.resolve("patched-classes").toString()), "the patched OM's classes: " + cp);
    assertTrue(cp.contains(dir.resolve("classes").toString()), "ozone-om-compaction's classes: " + cp);
    assertEntriesExist(cp.subList(1, cp.size()), "local-cluster's OM classpath");
  }

  @Test
  @Order(3)
  void benchTombstonesBuildsAndPrintsItsHelp() throws Exception {
    Result r = script("bench-tombstones", Map.of(), "--help");
    assertBuilt(r);
    assertTrue(r.output().contains("Usage: bench-tombstones"), r.output());
  }

  @Test
  @Order(4)
  void benchListingCostRunsSmall() throws Exception {
    Result r = script("bench-listing-cost", Map.of(), "1000", "3");
    assertBuilt(r);
    assertTrue(r.output().contains("per skipped internal key"), r.output());
  }

  @Test
  @Order(5)
  void benchPlannerPlansOnce() throws Exception {
    Result r = script("bench-planner", Map.of(), "--one", "1000", "1000", "1");
    assertBuilt(r);
    assertTrue(Pattern.compile("RESULT [0-9.]+ ").matcher(r.output()).find(), r.output());
  }

  @Test
  @Order(6)
  void dirformatBenchRunsOneShortSerializationPass() throws Exception {
    Result r = script("dirformat-bench.sh", Map.of("JMH_OPTS", "-f 0 -wi 0 -i 1 -r 100ms",
        "DIRFORMAT_DATA", work.resolve("dirformat-data").toString()), "serialization");
    assertBuilt(r);
    assertTrue(r.output().contains("Targets"), r.output());
  }

  @Test
  @Order(7)
  void rangeCompactionCliBuildsAndPrintsItsHelp() throws Exception {
    Result r = script("range-compaction-cli", Map.of(), "--help");
    assertBuilt(r);
    assertTrue(r.output().contains("--db"), r.output());
  }

  @Test
  @Order(8)
  void migrateDirectoryTableBuildsAndPrintsItsHelp() throws Exception {
    Result r = script("migrate-directory-table", Map.of(), "--help");
    assertBuilt(r);
    assertTrue(r.output().contains("--db"), r.output());
  }

  @Test
  @Order(9)
  void everyScriptThatRunsMavenIsRun() throws IOException {
    Set<String> found = new TreeSet<>();
    try (Stream<Path> files = Files.list(root.resolve("dev-support"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f) && Files.readString(f).lines().map(String::strip)
            .anyMatch(l -> !l.startsWith("#") && Pattern.compile("(^|[\\s(])mvn\\s").matcher(l).find())) {
          found.add(f.getFileName().toString());
        }
      }
    }
    assertEquals(new TreeSet<>(SCRIPTS), found, "dev-support scripts that run Maven vs those this test runs");
  }

  // --- the documented Maven commands ---------------------------------------------------------------------------

  /** Every literal {@code mvn ...} of the docs and compose/, once each, with where it was found. */
  List<String> documentedCommands() throws IOException {
    Map<Set<String>, String> commands = new LinkedHashMap<>();
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        Path rel = root.relativize(dir);
        return !rel.toString().isEmpty() && excluded(rel) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        Path rel = root.relativize(file);
        if (attrs.isRegularFile() && (rel.toString().endsWith(".md") || rel.startsWith("compose"))) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    files.sort(Comparator.naturalOrder());
    for (Path f : files) {
      String text = Files.readString(f);
      Matcher m = MVN.matcher(text);
      while (m.find()) {
        String next = m.group(2);
        if (next.equals("$") || next.equals("\\") || next.equals("\"")) {
          continue; // a script line with variables or continued: not literal
        }
        String command = "mvn" + m.group(1).replaceAll("[ \\t]+", " ");
        commands.putIfAbsent(tokens(command), command);
      }
    }
    // Not in the docs, but what anyone runs to use the modules from another build.
    commands.putIfAbsent(new TreeSet<>(List.of("mvn", "-DskipTests", "install")), "mvn -B -DskipTests install");
    return new ArrayList<>(commands.values());
  }

  @Test
  @Order(10)
  void theDocumentedCommandsAreFound() throws IOException {
    List<String> commands = documentedCommands();
    assertTrue(commands.stream().anyMatch(c -> tokens(c).equals(Set.of("mvn", "package", "-DskipTests"))),
        "the README's release build in " + commands);
    assertTrue(commands.stream().anyMatch(c -> tokens(c).equals(
        Set.of("mvn", "-pl", "ozone-om-compaction", "-am", "package", "-DskipTests"))), "docs/cli.md's in " + commands);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("documentedCommands")
  @Order(11)
  void documentedMavenCommandWorks(String command) throws Exception {
    List<String> args = new ArrayList<>(Arrays.asList(command.split(" ")));
    args.remove(0);
    boolean skipsTests = args.stream().anyMatch(a -> a.equals("-DskipTests") || a.equals("-Dmaven.test.skip")
        || a.equals("-Dmaven.test.skip=true"));
    Assumptions.assumeTrue(skipsTests || args.stream().noneMatch(TEST_PHASES::contains),
        "runs the tests: `mvn -B test` is that run");
    for (int i = 0; i < args.size() - 1; i++) {
      if (args.get(i).equals("-pl")) {
        for (String module : args.get(i + 1).split(",")) {
          Assumptions.assumeTrue(Files.isRegularFile(src.resolve(module).resolve("pom.xml")),
              "names module " + module + ", not in this repository (an Ozone source tree's build)");
        }
      }
    }
    boolean installs = args.contains("install") || args.contains("deploy");
    List<String> argv = new ArrayList<>();
    argv.add(mvnCommand());
    argv.addAll(args);
    Result r = run(command.replaceAll("[^A-Za-z0-9.-]+", "_"), Map.of(), argv);
    assertBuiltUnlessOffline(r);
    if (installs) {
      assertTrue(Files.isDirectory(repo.resolve("io/ozonerc")), "installed nothing: " + r.log());
    } else {
      assertFalse(Files.exists(repo.resolve("io/ozonerc")), command + " wrote io/ozonerc into the local repository");
    }
  }

  // --- helpers -----------------------------------------------------------------------------------------------

  /** A command's words but -B and -q, in no order: commands equal by these do the same build. */
  private static Set<String> tokens(String command) {
    return Arrays.stream(command.split(" ")).filter(t -> !t.equals("-B") && !t.equals("-q"))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private Result script(String name, Map<String, String> env, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of("bash", src.resolve("dev-support").resolve(name).toString()));
    argv.addAll(List.of(args));
    return run(name, env, argv);
  }

  /** Runs argv in the copy, after removing io/ozonerc from its local repository. */
  private Result run(String name, Map<String, String> env, List<String> argv) throws Exception {
    deleteTree(repo.resolve("io/ozonerc"));
    Path log = logs.resolve(name + ".log");
    ProcessBuilder pb = new ProcessBuilder(argv).directory(src.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> e = pb.environment();
    // The outer Maven's own settings (MAVEN_OPTS may name its local repository) stay out of the copy's builds.
    e.keySet().removeIf(k -> k.startsWith("MAVEN_") || k.startsWith("LOCAL_CLUSTER_")
        || k.startsWith("EXPERIMENT_"));
    e.put("JAVA_HOME", System.getProperty("java.home"));
    if (mvn != null) {
      e.put("PATH", mvn.getParent() + ":" + e.getOrDefault("PATH", "/usr/bin:/bin"));
    }
    e.putAll(env);
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
      fail(name + " did not finish in " + TIMEOUT_SECONDS + " s; log: " + log);
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    Result r = new Result(name, p.exitValue(), Files.readString(log), seconds, log);
    System.out.printf("fresh clone: %s exit %d in %d s (%s)%n", name, r.exit(), seconds, log);
    return r;
  }

  private String mvnCommand() {
    return mvn != null ? mvn.toString() : "mvn";
  }

  private void assertBuilt(Result r) {
    assertBuiltUnlessOffline(r);
    assertFalse(Files.exists(repo.resolve("io/ozonerc")), r.name() + " wrote io/ozonerc into the local repository");
  }

  /**
   * Exit 0, or else a failure naming the Maven error; except when the build stopped on an artifact from outside
   * this project that the local repository does not have and this offline build cannot download (a plugin that
   * the outer build never used, e.g. maven-install-plugin, or maven-jar-plugin after a bare {@code mvn test}):
   * then the command is not checked here, and the test says so (aborted, with the artifact).
   */
  private static void assertBuiltUnlessOffline(Result r) {
    if (r.exit() != 0) {
      Matcher m = OFFLINE_GAP.matcher(r.output());
      if (m.find() && !m.group(1).startsWith("io.ozonerc:")) {
        String reason = r.name() + ": " + m.group(1) + " is not in the local repository and this check runs"
            + " offline; not checked (log " + r.log() + ")";
        System.out.println("fresh clone: " + reason); // surefire's console does not show why a test was skipped
        Assumptions.abort(reason);
      }
    }
    assertEquals(0, r.exit(), failure(r));
  }

  /** The message of a failed command: its Maven errors (or its last lines) and where its log is. */
  private static String failure(Result r) {
    List<String> lines = r.output().lines().collect(Collectors.toList());
    List<String> errors = lines.stream().filter(l -> l.contains("[ERROR]") && !l.strip().equals("[ERROR]"))
        .limit(8).collect(Collectors.toList());
    List<String> shown = errors.isEmpty() ? lines.subList(Math.max(0, lines.size() - 30), lines.size()) : errors;
    return r.name() + " failed on a fresh clone (its local repository holds no io.ozonerc artifacts); log "
        + r.log() + ":\n" + String.join("\n", shown);
  }

  private static void assertEntriesExist(List<String> cp, String what) {
    List<String> missing = cp.stream().filter(s -> !s.isEmpty() && !Files.exists(Path.of(s)))
        .collect(Collectors.toList());
    assertEquals(List.of(), missing, what + ": entries that do not exist");
  }

  /** .git, target/ folders (the build's, at any depth) and anything else a fresh clone would not have. */
  private static boolean excluded(Path relative) {
    for (Path part : relative) {
      String n = part.toString();
      if (n.equals(".git") || n.equals("target")) {
        return true;
      }
    }
    return false;
  }

  private static void copySources(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Path rel = from.relativize(dir);
        if (!rel.toString().isEmpty() && excluded(rel)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        Files.createDirectories(to.resolve(rel.toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Path rel = from.relativize(file);
        if (!excluded(rel)) {
          Files.copy(file, to.resolve(rel.toString()), StandardCopyOption.COPY_ATTRIBUTES,
              LinkOption.NOFOLLOW_LINKS);
        }
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Deletes a tree without following symbolic links (the repository view's links point at the real one). */
  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
