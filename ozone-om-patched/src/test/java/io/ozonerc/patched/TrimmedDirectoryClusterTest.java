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

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trimmed directory format in a running OM: {@link DirectoryScript} (tree, list, rename, recursive delete, OM
 * restart, list; restart with the format off, list, write, list) in a JVM whose OM is the patched one with
 * {@code ozone.om.directory.value.format=trimmed}, and the same script in a JVM with the stock 2.2.0 OM. What the
 * client sees must be identical line for line; the patched OM's directoryTable must really hold trimmed values on
 * disk (so the comparison is not vacuous), and after the format is turned off new rows are protobuf while the old
 * trimmed rows still read. Then the downgrade: the stock OM cannot read that DB's directoryTable, the offline tool
 * migrates it back, and the stock OM reads every row.
 */
class TrimmedDirectoryClusterTest {
  private static final Pattern RAW = Pattern.compile("^raw (.+) trimmed=(\\d+) protobuf=(\\d+) other=(\\d+)$");

  @TempDir
  Path work;

  @Test
  void trimmedValuesInARunningOmListExactlyAsStockAndStayReadableWithTheFormatOff() throws Exception {
    OmJvm.Both both = OmJvm.runBoth(DirectoryScript.class, work.resolve("script"), 900, "trimmed");
    List<String> patched = both.patched();
    List<String> stock = both.stock();

    List<String> patchedLists = startingWith(patched, "list ");
    assertEquals(startingWith(stock, "list "), patchedLists);
    assertTrue(patchedLists.stream().anyMatch(l -> l.startsWith("list after restart status a/renamed/c/file1 file")),
        String.join("\n", patchedLists));
    assertTrue(patchedLists.stream().anyMatch(l -> l.startsWith("list created with format off status after-off/n dir")),
        String.join("\n", patchedLists));
    assertTrue(patchedLists.stream().filter(l -> l.startsWith("list after restart "))
        .noneMatch(l -> l.contains(" q") || l.contains("moved-x/y")), String.join("\n", patchedLists));

    Map<String, int[]> p = raw(patched);
    Map<String, int[]> s = raw(stock);
    assertEquals(List.of("before restart", "after restart", "format off"), List.copyOf(p.keySet()));
    for (String phase : List.of("before restart", "after restart")) {
      int[] c = p.get(phase);
      assertTrue(c[0] > 10 && c[1] == 0 && c[2] == 0, phase + ": patched OM's directoryTable on disk holds trimmed="
          + c[0] + " protobuf=" + c[1] + " other=" + c[2] + "; expected trimmed values only");
    }
    int[] off = p.get("format off");
    assertEquals(2, off[1], "after-off and after-off/n are written as protobuf with the format off");
    assertTrue(off[0] > 10 && off[2] == 0, "the trimmed rows are still there and were read: trimmed=" + off[0]);
    for (int[] c : s.values()) {
      assertTrue(c[0] == 0 && c[1] > 10 && c[2] == 0, "the stock OM writes protobuf only");
    }

    List<String> downgrade = OmJvm.stock().run(StockOmReadsDirectories.class, work.resolve("downgrade"), 300,
        work.resolve("script/patched-DirectoryScript.out.db").toString());
    startingWith(patched, "raw ").forEach(l -> System.out.println("patched OM: " + l));
    startingWith(stock, "raw ").forEach(l -> System.out.println("stock OM: " + l));
    downgrade.forEach(l -> System.out.println("downgrade: " + l));
    assertTrue(downgrade.get(0).startsWith("read before migration failed after rows="), downgrade.get(0));
    int rows = off[0] + off[1];
    assertEquals("migrated rows=" + rows + " digest equal=true", downgrade.get(1));
    assertEquals("read after migration rows=" + rows, downgrade.get(2));
  }

  private static List<String> startingWith(List<String> lines, String prefix) {
    return lines.stream().filter(l -> l.startsWith(prefix)).collect(Collectors.toList());
  }

  /** Phase -> {trimmed, protobuf, other} from the {@code raw} lines. */
  private static Map<String, int[]> raw(List<String> lines) {
    Map<String, int[]> out = new LinkedHashMap<>();
    for (String l : startingWith(lines, "raw ")) {
      Matcher m = RAW.matcher(l);
      assertTrue(m.matches(), l);
      out.put(m.group(1), new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4))});
    }
    return out;
  }
}
