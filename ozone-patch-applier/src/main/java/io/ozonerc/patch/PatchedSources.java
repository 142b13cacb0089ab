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
  /** A description line naming the patches a patch is written on top of. */
  public static final String APPLIES_AFTER = "Applies after:";

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
    Map<String, List<String>> bases = new TreeMap<>();
    for (Path patch : list(patchDir, ".patch")) {
      String name = patch.getFileName().toString();
      String text = Files.readString(patch);
      List<FilePatch> files;
      try {
        files = UnifiedDiff.parse(text);
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
    List<Path> jars = list(jarDir, "-sources.jar");
    deleteRecursively(out);
    Files.createDirectories(out);
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
      listing.append(e.getKey()).append(' ').append(String.join(",", names)).append('\n');
    }
    Files.writeString(out.resolve(LISTING), listing.toString(), StandardCharsets.UTF_8);
    return new LinkedHashMap<>(patchNames);
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
