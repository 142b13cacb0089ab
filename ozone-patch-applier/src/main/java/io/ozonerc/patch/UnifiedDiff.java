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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader and applier of unified diffs, for checking that a patch still fits the exact text it was written
 * against, and for building the patched sources from it. Unlike {@code patch} or {@code git apply} it has no fuzz and
 * no offset: every hunk must sit at the line its header names, every context and removed line must match byte for byte,
 * and the header counts must agree with the hunk body. Text before a file's {@code ---} line (a description,
 * {@code diff --git}, {@code index}) is ignored, as both tools ignore it. A new file ({@code --- /dev/null}) is a patch
 * of the empty text. Not supported, and rejected: "\ No newline at end of file", renames, binary patches, deleted
 * files.
 */
public final class UnifiedDiff {
  private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*$");

  private UnifiedDiff() { }

  /**
   * One file's change: the path after the {@code a/}, {@code b/} prefix (patch -p1), its hunks in order, and whether
   * it creates the file ({@code --- /dev/null}; its one hunk then applies to the empty text).
   */
  public record FilePatch(String path, List<Hunk> hunks, boolean creates) { }

  /** One hunk: 1-based start lines and counts as its header says, body lines with their ' ', '-', '+' marks. */
  public record Hunk(int oldStart, int oldCount, int newStart, int newCount, List<String> body) {
    String header() {
      return "@@ -" + oldStart + "," + oldCount + " +" + newStart + "," + newCount + " @@";
    }
  }

  /** Why a patch cannot be read or does not apply; the message names the file, the hunk and the line. */
  public static final class PatchException extends Exception {
    public PatchException(String message) {
      super(message);
    }
  }

  public static List<FilePatch> parse(String patch) throws PatchException {
    List<String> lines = splitLines(patch);
    List<FilePatch> files = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.startsWith("GIT binary patch") || line.startsWith("rename from ")) {
        throw new PatchException("unsupported patch content at line " + (i + 1) + ": " + line);
      }
      if (!line.startsWith("--- ")) {
        i++;
        continue;
      }
      if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("+++ ")) {
        throw new PatchException("line " + (i + 1) + ": '---' not followed by '+++'");
      }
      if (lines.get(i + 1).substring(4).split("\t", 2)[0].equals("/dev/null")) {
        throw new PatchException("line " + (i + 2) + ": deleting a file is not supported");
      }
      String newPath = stripPrefix(lines.get(i + 1).substring(4), "b/", i + 1);
      boolean creates = lines.get(i).substring(4).split("\t", 2)[0].equals("/dev/null");
      String oldPath = creates ? newPath : stripPrefix(lines.get(i).substring(4), "a/", i);
      if (!oldPath.equals(newPath)) {
        throw new PatchException("line " + (i + 1) + ": renames are not supported (" + oldPath + " -> " + newPath
            + ")");
      }
      i += 2;
      List<Hunk> hunks = new ArrayList<>();
      while (i < lines.size() && lines.get(i).startsWith("@@")) {
        Matcher m = HUNK.matcher(lines.get(i));
        if (!m.matches()) {
          throw new PatchException(oldPath + " line " + (i + 1) + ": bad hunk header " + lines.get(i));
        }
        int oldStart = Integer.parseInt(m.group(1));
        int oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
        int newStart = Integer.parseInt(m.group(3));
        int newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
        i++;
        List<String> body = new ArrayList<>();
        int olds = 0;
        int news = 0;
        while (olds < oldCount || news < newCount) {
          if (i >= lines.size()) {
            throw new PatchException(oldPath + ": hunk " + m.group() + " ends early (patch truncated?)");
          }
          String b = lines.get(i);
          char mark = b.isEmpty() ? '?' : b.charAt(0);
          switch (mark) {
          case ' ' -> {
            olds++;
            news++;
          }
          case '-' -> olds++;
          case '+' -> news++;
          default -> throw new PatchException(oldPath + " line " + (i + 1) + ": hunk body line without ' ', '-' "
              + "or '+' (an editor may have stripped a blank context line's space): '" + b + "'");
          }
          body.add(b);
          i++;
        }
        if (olds != oldCount || news != newCount) {
          throw new PatchException(oldPath + ": hunk " + m.group() + " body has " + olds + " old and " + news
              + " new lines");
        }
        if (i < lines.size() && lines.get(i).startsWith("\\")) {
          throw new PatchException(oldPath + " line " + (i + 1) + ": '" + lines.get(i) + "' is not supported");
        }
        hunks.add(new Hunk(oldStart, oldCount, newStart, newCount, body));
      }
      if (hunks.isEmpty()) {
        throw new PatchException(oldPath + ": no hunks");
      }
      if (creates && (hunks.size() != 1 || hunks.get(0).oldCount() != 0)) {
        throw new PatchException(oldPath + ": a new file's patch must be one hunk with no old lines");
      }
      files.add(new FilePatch(oldPath, hunks, creates));
    }
    if (files.isEmpty()) {
      throw new PatchException("no file changes found");
    }
    return files;
  }

  /**
   * Applies every hunk of {@code file} to {@code original} exactly where its header says; fails on the first hunk
   * whose old lines differ from the text, whose position disagrees with the hunks before it, or that overlaps one.
   */
  public static String apply(String original, FilePatch file) throws PatchException {
    return applyHunks(original, file.path(), file.hunks(), true);
  }

  /**
   * Applies several patches of the same file, each written against {@code original} (not against each other), in
   * one pass: each must apply alone (see {@link #apply}), and no two may touch or overlap the same old lines, so
   * the result does not depend on their order. This is what applying them one after the other with {@code git
   * apply} gives, since git shifts a later hunk by the lines the earlier patches added above it.
   */
  public static String applyAll(String original, List<FilePatch> patches) throws PatchException {
    if (patches.isEmpty()) {
      throw new PatchException("no patches to apply");
    }
    String path = patches.get(0).path();
    List<Hunk> all = new ArrayList<>();
    for (FilePatch p : patches) {
      if (!p.path().equals(path)) {
        throw new PatchException("applyAll over different files: " + path + " and " + p.path());
      }
      applyHunks(original, path, p.hunks(), true);
      all.addAll(p.hunks());
    }
    all.sort(Comparator.comparingInt(UnifiedDiff::oldIndex));
    for (int i = 1; i < all.size(); i++) {
      Hunk before = all.get(i - 1);
      Hunk after = all.get(i);
      // Strictly apart: two hunks that share even a context line would each assume the other's old text.
      if (oldIndex(after) < oldIndex(before) + before.oldCount()) {
        throw new PatchException(path + ": hunks " + before.header() + " and " + after.header()
            + " of two patches overlap; rebase one patch on the other");
      }
    }
    return applyHunks(original, path, all, false);
  }

  /** 0-based index of the first old line a hunk covers ("-l,0" inserts after line l). */
  private static int oldIndex(Hunk h) {
    return h.oldCount() == 0 ? h.oldStart() : h.oldStart() - 1;
  }

  private static String applyHunks(String original, String path, List<Hunk> hunks, boolean checkNewStart)
      throws PatchException {
    List<String> in = splitLines(original);
    List<String> out = new ArrayList<>();
    int next = 0;      // index in `in` of the first line not yet copied
    int shift = 0;     // new line number minus old line number after the hunks applied so far
    for (Hunk h : hunks) {
      int at = oldIndex(h);
      int expectedNewStart = h.newCount() == 0 ? at + shift : at + shift + 1;
      if (checkNewStart && h.newStart() != expectedNewStart) {
        throw new PatchException(path + " " + h.header() + ": new start should be " + expectedNewStart);
      }
      if (at < next) {
        throw new PatchException(path + " " + h.header() + ": overlaps or precedes the previous hunk");
      }
      if (at + h.oldCount() > in.size()) {
        throw new PatchException(path + " " + h.header() + ": past the end of the file (" + in.size()
            + " lines)");
      }
      out.addAll(in.subList(next, at));
      int k = at;
      for (String b : h.body()) {
        String text = b.substring(1);
        if (b.charAt(0) != '+') {
          if (!in.get(k).equals(text)) {
            throw new PatchException(path + " " + h.header() + ": line " + (k + 1) + " is\n  '" + in.get(k)
                + "'\nbut the patch expects\n  '" + text + "'");
          }
          k++;
        }
        if (b.charAt(0) != '-') {
          out.add(text);
        }
      }
      next = k;
      shift += h.newCount() - h.oldCount();
    }
    out.addAll(in.subList(next, in.size()));
    String joined = String.join("\n", out);
    return original.endsWith("\n") || original.isEmpty() ? joined + "\n" : joined;
  }

  private static String stripPrefix(String path, String prefix, int lineIndex) throws PatchException {
    String p = path.split("\t", 2)[0];
    if (!p.startsWith(prefix)) {
      throw new PatchException("line " + (lineIndex + 1) + ": expected a path starting with " + prefix
          + " (patch -p1 layout), got " + path);
    }
    return p.substring(prefix.length());
  }

  /** Lines without their terminators; a final newline does not make an extra empty line. CR is kept. */
  private static List<String> splitLines(String text) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }
}
