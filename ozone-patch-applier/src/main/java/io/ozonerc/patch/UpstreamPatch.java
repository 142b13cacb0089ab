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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One change as an Ozone developer applies it: a patch of {@code dev-support/patches} with the files it adds put
 * back in. A patch there holds only its changes to upstream files; a file it adds is ordinary source in this
 * repository (so it is read, compiled and tested like the rest), named in the patch's description by an
 * {@value #ADDS} line with its path in the upstream tree. {@link #render} writes each such file as the
 * {@code git diff} of a new file and puts it among the patch's other files in path order, which is where
 * {@code git diff} would have put it.
 */
public final class UpstreamPatch {
  /** A description line naming, comma separated, the upstream paths of the files a patch adds. */
  public static final String ADDS = "Adds:";

  private static final String FILE_HEADER = "diff --git a/";

  private UpstreamPatch() { }

  /** The upstream paths a patch adds, from its description's {@value #ADDS} lines; empty if none. */
  public static List<String> adds(String patchText) {
    List<String> paths = new ArrayList<>();
    for (String line : patchText.split("\n")) {
      if (line.startsWith("--- ") || line.startsWith(FILE_HEADER)) {
        break;
      }
      if (line.startsWith(ADDS)) {
        for (String p : line.substring(ADDS.length()).split(",")) {
          if (!p.isBlank()) {
            paths.add(p.trim());
          }
        }
      }
    }
    return paths;
  }

  /**
   * The upstream-ready text of {@code patchText}: each of {@code added} (upstream path to the file's text) as a new
   * file's diff, inserted before the first file whose path sorts after it. Fails if the patch also changes an added
   * path, or an added text does not end with a line break (git would mark it, and the strict applier refuses it).
   */
  public static String render(String patchText, Map<String, String> added) throws PatchException {
    List<FilePatch> changed = patchText.contains("\n--- ") ? UnifiedDiff.parse(patchText) : List.of();
    for (FilePatch f : changed) {
      if (added.containsKey(f.path())) {
        throw new PatchException(f.path() + " is both added from the sources and changed by the patch");
      }
    }
    List<Integer> starts = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    int at = 0;
    while (at < patchText.length()) {
      int end = patchText.indexOf('\n', at);
      end = end < 0 ? patchText.length() : end + 1;
      String line = patchText.substring(at, end);
      if (line.startsWith(FILE_HEADER)) {
        starts.add(at);
        paths.add(line.substring(FILE_HEADER.length(), line.indexOf(" b/")));
      }
      at = end;
    }
    StringBuilder out = new StringBuilder();
    int copied = 0;
    int next = 0;
    for (Map.Entry<String, String> a : new TreeMap<>(added).entrySet()) {
      while (next < paths.size() && paths.get(next).compareTo(a.getKey()) < 0) {
        next++;
      }
      int insertAt = next < starts.size() ? starts.get(next) : patchText.length();
      out.append(patchText, copied, insertAt);
      copied = insertAt;
      if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
        out.append('\n');
      }
      out.append(newFileDiff(a.getKey(), a.getValue()));
    }
    out.append(patchText, copied, patchText.length());
    return out.toString();
  }

  /** The {@code git diff} of a new file {@code path} holding {@code text}, with git's blob id in its index line. */
  static String newFileDiff(String path, String text) throws PatchException {
    if (text.isEmpty() || !text.endsWith("\n")) {
      throw new PatchException(path + ": an added file must be non-empty and end with a line break");
    }
    String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
    StringBuilder d = new StringBuilder();
    d.append("diff --git a/").append(path).append(" b/").append(path).append('\n')
        .append("new file mode 100644\n")
        .append("index 0000000..").append(blobId(text), 0, 7).append('\n')
        .append("--- /dev/null\n")
        .append("+++ b/").append(path).append('\n')
        .append(lines.length == 1 ? "@@ -0,0 +1 @@\n" : "@@ -0,0 +1," + lines.length + " @@\n");
    for (String l : lines) {
      d.append('+').append(l).append('\n');
    }
    return d.toString();
  }

  /** Git's object id of a file's content: SHA-1 of {@code "blob " + length + "\0" + bytes}. */
  static String blobId(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(("blob " + bytes.length + "\0").getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(sha1.digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }
}
