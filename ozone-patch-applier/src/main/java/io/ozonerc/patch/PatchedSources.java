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
 * upstream {@code -sources} jars, with all the patches applied ({@link UnifiedDiff#applyAll}: each patch is written
 * against the pristine release, so their order does not matter). Only those files are written; everything else
 * stays as the release jars have it.
 *
 * <pre>
 * java io.ozonerc.patch.PatchedSources PATCH_DIR SOURCES_JAR_DIR OUT_DIR
 * </pre>
 *
 * OUT_DIR is emptied first, so a patch taken out of PATCH_DIR leaves nothing behind; it then holds the Java files
 * under their package path and {@code patched-files.txt}, one line per file: its path in the upstream tree and the
 * patches that changed it.
 */
public final class PatchedSources {
  /** Where Java sources start in an upstream module, as a patch names them (patch -p1 layout). */
  static final String SOURCE_ROOT = "src/main/java/";
  static final String LISTING = "patched-files.txt";

  private PatchedSources() { }

  public static void main(String[] args) throws IOException, PatchException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: PatchedSources PATCH_DIR SOURCES_JAR_DIR OUT_DIR, got "
          + List.of(args));
    }
    Map<String, List<String>> written = write(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]));
    System.out.println("[patched-sources] " + written.size() + " file(s) from " + Path.of(args[0]).normalize()
        + " -> " + Path.of(args[2]).normalize());
  }

  /** Writes the patched files; returns each file's upstream path with the names of the patches that touch it. */
  public static Map<String, List<String>> write(Path patchDir, Path jarDir, Path out)
      throws IOException, PatchException {
    Map<String, List<FilePatch>> byFile = new TreeMap<>();
    Map<String, List<String>> patchNames = new TreeMap<>();
    for (Path patch : list(patchDir, ".patch")) {
      String name = patch.getFileName().toString();
      List<FilePatch> files;
      try {
        files = UnifiedDiff.parse(Files.readString(patch));
      } catch (PatchException e) {
        throw new PatchException(name + ": " + e.getMessage());
      }
      for (FilePatch f : files) {
        byFile.computeIfAbsent(f.path(), k -> new ArrayList<>()).add(f);
        patchNames.computeIfAbsent(f.path(), k -> new ArrayList<>()).add(name);
      }
    }
    List<Path> jars = list(jarDir, "-sources.jar");
    deleteRecursively(out);
    Files.createDirectories(out);
    StringBuilder listing = new StringBuilder();
    for (Map.Entry<String, List<FilePatch>> e : byFile.entrySet()) {
      String javaPath = javaPath(e.getKey());
      String patched;
      try {
        patched = UnifiedDiff.applyAll(readFromJars(jars, javaPath), e.getValue());
      } catch (PatchException x) {
        throw new PatchException(String.join(", ", patchNames.get(e.getKey())) + ": " + x.getMessage());
      }
      Path target = out.resolve(javaPath);
      Files.createDirectories(target.getParent());
      Files.writeString(target, patched, StandardCharsets.UTF_8);
      listing.append(e.getKey()).append(' ').append(String.join(",", patchNames.get(e.getKey()))).append('\n');
    }
    Files.writeString(out.resolve(LISTING), listing.toString(), StandardCharsets.UTF_8);
    return new LinkedHashMap<>(patchNames);
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
