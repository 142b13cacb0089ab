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

package io.ozonerc.patch;

import io.ozonerc.patch.UnifiedDiff.FilePatch;
import io.ozonerc.patch.UnifiedDiff.PatchException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Writes the patched Java sources of a patch set: every file the patches under one directory touch, read from the
 * upstream {@code -sources} jars, with all the patches applied. A patch is written against the pristine release
 * ({@link UnifiedDiff#applyAll}: the order of those does not matter), or says in an {@value #APPLIES_AFTER} line of
 * its description which of those it is written on top of, and then applies after them. A new file's patch
 * ({@code --- /dev/null}) starts from the empty text. Only those files are written; everything else
 * stays as the release jars have it.
 *
 * <p>A file a patch adds may instead live as ordinary source under ADDED_DIR, named by the patch's
 * {@value UpstreamPatch#ADDS} line: it is compiled from there, not written to OUT_DIR, and every file under ADDED_DIR
 * must be added by exactly one patch. Each patch is also written to UPSTREAM_DIR as an Ozone developer applies it,
 * its added files put back in ({@link UpstreamPatch#render}).
 *
 * <pre>
 * java io.ozonerc.patch.PatchedSources PATCH_DIR ADDED_DIR SOURCES_JAR_DIR OUT_DIR UPSTREAM_DIR
 * </pre>
 *
 * OUT_DIR and UPSTREAM_DIR are emptied first, so a patch taken out of PATCH_DIR leaves nothing behind; OUT_DIR then
 * holds the Java files under their package path and {@code patched-files.txt}, one line per file the set changes or
 * adds: its path in the upstream tree and the patches that touch it.
 */
public final class PatchedSources {
  /** Where Java sources start in an upstream module, as a patch names them (patch -p1 layout). */
  static final String SOURCE_ROOT = "src/main/java/";
  static final String LISTING = "patched-files.txt";
  /** A description line naming the patches a patch is written on top of. */
  public static final String APPLIES_AFTER = "Applies after:";

  private PatchedSources() { }

  public static void main(String[] args) throws IOException, PatchException {
    if (args.length != 5) {
      throw new IllegalArgumentException("usage: PatchedSources PATCH_DIR ADDED_DIR SOURCES_JAR_DIR OUT_DIR "
          + "UPSTREAM_DIR, got " + List.of(args));
    }
    Map<String, List<String>> written = write(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]),
        Path.of(args[3]), Path.of(args[4]));
    System.out.println("[patched-sources] " + written.size() + " file(s) from " + Path.of(args[0]).normalize()
        + " -> " + Path.of(args[3]).normalize() + ", upstream patches -> " + Path.of(args[4]).normalize());
  }

  /**
   * Writes the patched files and the upstream patches; returns each file's upstream path with the names of the
   * patches that touch it (added files included).
   */
  public static Map<String, List<String>> write(Path patchDir, Path addedDir, Path jarDir, Path out, Path upstream)
      throws IOException, PatchException {
    Map<String, List<FilePatch>> byFile = new TreeMap<>();
    Map<String, List<String>> patchNames = new TreeMap<>();
    Map<String, List<String>> bases = new TreeMap<>();
    Map<String, String> upstreamTexts = new TreeMap<>();
    List<String> unclaimed = javaFiles(addedDir);
    for (Path patch : list(patchDir, ".patch")) {
      String name = patch.getFileName().toString();
      String text = Files.readString(patch);
      List<FilePatch> files;
      Map<String, String> added = new TreeMap<>();
      try {
        for (String path : UpstreamPatch.adds(text)) {
          String javaPath = javaPath(path);
          if (!unclaimed.remove(javaPath)) {
            throw new PatchException("adds " + path + ", but " + addedDir.resolve(javaPath) + " is not there or "
                + "another patch adds it");
          }
          added.put(path, Files.readString(addedDir.resolve(javaPath), StandardCharsets.UTF_8));
          patchNames.computeIfAbsent(path, k -> new ArrayList<>()).add(name);
        }
        String upstreamText = UpstreamPatch.render(text, added);
        checkAddedRoundTrip(upstreamText, added);
        upstreamTexts.put(name, upstreamText);
        files = text.contains("\n--- ") ? UnifiedDiff.parse(text) : List.of();
      } catch (PatchException e) {
        throw new PatchException(name + ": " + e.getMessage());
      }
      bases.put(name, appliesAfter(text));
      for (FilePatch f : files) {
        byFile.computeIfAbsent(f.path(), k -> new ArrayList<>()).add(f);
        patchNames.computeIfAbsent(f.path(), k -> new ArrayList<>()).add(name);
      }
    }
    for (Map.Entry<String, List<String>> b : bases.entrySet()) {
      for (String base : b.getValue()) {
        if (!bases.containsKey(base) || !bases.get(base).isEmpty()) {
          throw new PatchException(b.getKey() + " applies after " + base + ", which is not a patch of " + patchDir
              + " written against the release");
        }
      }
    }
    for (Map.Entry<String, List<FilePatch>> e : byFile.entrySet()) {
      String changed = e.getKey();
      if (patchNames.get(changed).size() > e.getValue().size()) {
        throw new PatchException(patchNames.get(changed) + ": " + changed + " is added from " + addedDir
            + " by one patch and changed by a diff in another; change the source instead");
      }
    }
    if (!unclaimed.isEmpty()) {
      throw new PatchException(unclaimed + " under " + addedDir + " added by no patch of " + patchDir + " (no '"
          + UpstreamPatch.ADDS + "' line names them): they would ship in the OM overlay and in no upstream change");
    }
    List<Path> jars = list(jarDir, "-sources.jar");
    deleteRecursively(out);
    Files.createDirectories(out);
    deleteRecursively(upstream);
    Files.createDirectories(upstream);
    for (Map.Entry<String, String> u : upstreamTexts.entrySet()) {
      Files.writeString(upstream.resolve(u.getKey()), u.getValue(), StandardCharsets.UTF_8);
    }
    StringBuilder listing = new StringBuilder();
    for (Map.Entry<String, List<FilePatch>> e : byFile.entrySet()) {
      String javaPath = javaPath(e.getKey());
      List<String> names = patchNames.get(e.getKey());
      String patched;
      try {
        patched = applyInOrder(e.getKey(), e.getValue(), names, bases,
            e.getValue().get(0).creates() ? "" : readFromJars(jars, javaPath));
      } catch (PatchException x) {
        throw new PatchException(String.join(", ", names) + ": " + x.getMessage());
      }
      Path target = out.resolve(javaPath);
      Files.createDirectories(target.getParent());
      Files.writeString(target, patched, StandardCharsets.UTF_8);
    }
    for (Map.Entry<String, List<String>> e : patchNames.entrySet()) {
      listing.append(e.getKey()).append(' ').append(String.join(",", e.getValue())).append('\n');
    }
    Files.writeString(out.resolve(LISTING), listing.toString(), StandardCharsets.UTF_8);
    return new LinkedHashMap<>(patchNames);
  }

  /** An upstream patch recreates each added file exactly (what git apply would write is what the build compiled). */
  private static void checkAddedRoundTrip(String upstreamText, Map<String, String> added) throws PatchException {
    for (FilePatch f : UnifiedDiff.parse(upstreamText)) {
      if (added.containsKey(f.path()) && !UnifiedDiff.apply("", f).equals(added.get(f.path()))) {
        throw new PatchException(f.path() + ": the rendered new-file diff does not recreate the source");
      }
    }
  }

  /** The Java files under {@code dir} as paths below it with '/' separators; none if it does not exist. */
  static List<String> javaFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return new ArrayList<>();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return new ArrayList<>(s.filter(p -> p.toString().endsWith(".java"))
          .map(p -> dir.relativize(p).toString().replace(java.io.File.separatorChar, '/')).sorted().toList());
    }
  }

  /**
   * One file through every patch that touches it: first those written against the release, together (order-free,
   * see {@link UnifiedDiff#applyAll}), then each patch that applies after others, in name order, exactly onto that
   * result. A later patch must name every release patch that also touches the file, since it was written against
   * their result.
   */
  static String applyInOrder(String path, List<FilePatch> patches, List<String> names, Map<String, List<String>> bases,
      String original) throws PatchException {
    List<FilePatch> first = new ArrayList<>();
    List<String> firstNames = new ArrayList<>();
    TreeMap<String, FilePatch> later = new TreeMap<>();
    for (int i = 0; i < patches.size(); i++) {
      if (patches.get(i).creates() != patches.get(0).creates()) {
        throw new PatchException(path + ": one patch creates it and another changes it");
      }
      if (bases.get(names.get(i)).isEmpty()) {
        first.add(patches.get(i));
        firstNames.add(names.get(i));
      } else {
        later.put(names.get(i), patches.get(i));
      }
    }
    String text = first.isEmpty() ? original : UnifiedDiff.applyAll(original, first);
    for (Map.Entry<String, FilePatch> l : later.entrySet()) {
      List<String> missing = new ArrayList<>(firstNames);
      missing.removeAll(bases.get(l.getKey()));
      if (!missing.isEmpty()) {
        throw new PatchException(l.getKey() + " changes " + path + ", which " + missing + " also change(s), without "
            + "applying after it");
      }
      text = UnifiedDiff.apply(text, l.getValue());
    }
    if (later.size() > 1) {
      throw new PatchException(path + ": " + later.keySet() + " each apply after others; only one may touch a file");
    }
    return text;
  }

  /**
   * The patches a patch is written on top of, from its description's {@value #APPLIES_AFTER} line (comma
   * separated file names); empty for a patch written against the release itself.
   */
  public static List<String> appliesAfter(String patchText) {
    for (String line : patchText.split("\n")) {
      if (line.startsWith("--- ")) {
        break;
      }
      if (line.startsWith(APPLIES_AFTER)) {
        List<String> names = new ArrayList<>();
        for (String n : line.substring(APPLIES_AFTER.length()).split(",")) {
          if (!n.isBlank()) {
            names.add(n.trim());
          }
        }
        return names;
      }
    }
    return List.of();
  }

  /** The path of an upstream file below its module's {@code src/main/java/}. */
  public static String javaPath(String upstreamPath) throws PatchException {
    int i = upstreamPath.indexOf(SOURCE_ROOT);
    if (i < 0 || !upstreamPath.endsWith(".java")) {
      throw new PatchException(upstreamPath + " is not a Java source under " + SOURCE_ROOT
          + "; a patch here may only change Java sources");
    }
    return upstreamPath.substring(i + SOURCE_ROOT.length());
  }

  /** The text of {@code javaPath} from the one jar that holds it. */
  public static String readFromJars(List<Path> jars, String javaPath) throws IOException, PatchException {
    String found = null;
    Path from = null;
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        ZipEntry entry = zip.getEntry(javaPath);
        if (entry == null) {
          continue;
        }
        if (from != null) {
          throw new PatchException(javaPath + " is in both " + from.getFileName() + " and " + jar.getFileName());
        }
        try (InputStream in = zip.getInputStream(entry)) {
          found = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        from = jar;
      }
    }
    if (found == null) {
      throw new PatchException(javaPath + " is in none of the sources jars " + jars.stream()
          .map(p -> p.getFileName().toString()).toList() + ": add its module's -sources jar to the build");
    }
    return found;
  }

  private static List<Path> list(Path dir, String suffix) throws IOException, PatchException {
    if (!Files.isDirectory(dir)) {
      throw new PatchException(dir + " is not a directory");
    }
    List<Path> found;
    try (Stream<Path> s = Files.list(dir)) {
      found = s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
    if (found.isEmpty()) {
      throw new PatchException("no *" + suffix + " in " + dir);
    }
    return found;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
