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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.patch.UnifiedDiff.FilePatch;
import io.ozonerc.patch.UnifiedDiff.PatchException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Added files kept as ordinary source: put back into their patch for upstream, compiled from where they live. */
class UpstreamPatchTest {
  private static final String M = "mod/src/main/java/p/";

  /** A patch of p/B.java (upstream text "b1\nb2\n") that adds p/A.java and p/C.java from the sources. */
  private static final String PATCH = "Title\n\nAdds: " + M + "A.java, " + M + "C.java\n\n"
      + "diff --git a/" + M + "B.java b/" + M + "B.java\n"
      + "index 1111111..2222222 100644\n"
      + "--- a/" + M + "B.java\n"
      + "+++ b/" + M + "B.java\n"
      + "@@ -1,2 +1,2 @@\n b1\n-b2\n+b2 changed\n";

  @Test
  void readsTheAddsLineOfTheDescriptionOnly() {
    assertEquals(List.of(M + "A.java", M + "C.java"), UpstreamPatch.adds(PATCH));
    assertEquals(List.of(), UpstreamPatch.adds("Title\n--- a/f\n+++ b/f\nAdds: x\n"));
  }

  // Each added file goes where git diff would put it (path order), and recreates its source exactly.
  @Test
  void putsAddedFilesBackInPathOrder() throws PatchException {
    String out = UpstreamPatch.render(PATCH, Map.of(M + "C.java", "class C {\n}\n", M + "A.java", "class A {}\n"));
    List<FilePatch> files = UnifiedDiff.parse(out);
    assertEquals(List.of(M + "A.java", M + "B.java", M + "C.java"), files.stream().map(FilePatch::path).toList());
    assertEquals("class A {}\n", UnifiedDiff.apply("", files.get(0)));
    assertEquals("class C {\n}\n", UnifiedDiff.apply("", files.get(2)));
    assertEquals("b1\nb2 changed\n", UnifiedDiff.apply("b1\nb2\n", files.get(1)));
    assertTrue(out.startsWith(PATCH.substring(0, PATCH.indexOf("diff --git"))), out);
    assertTrue(out.contains("@@ -0,0 +1 @@\n+class A {}\n"), "one line: no count, as git writes it\n" + out);
  }

  @Test
  void writesGitsBlobIdOnTheIndexLine() throws PatchException {
    // git hash-object of a file holding "hello\n"
    assertEquals("ce013625030ba8dba906f756967f9e9ca394464a", UpstreamPatch.blobId("hello\n"));
    assertTrue(UpstreamPatch.newFileDiff("f.java", "hello\n").contains("\nindex 0000000..ce01362\n"));
  }

  @Test
  void refusesAnAddedFileThePatchAlsoChanges() {
    PatchException e = assertThrows(PatchException.class,
        () -> UpstreamPatch.render(PATCH, Map.of(M + "B.java", "class B {}\n")));
    assertTrue(e.getMessage().contains("both added"), e.getMessage());
  }

  @Test
  void refusesAnAddedFileWithoutAFinalLineBreak() {
    PatchException e = assertThrows(PatchException.class,
        () -> UpstreamPatch.render(PATCH, Map.of(M + "A.java", "class A {}")));
    assertTrue(e.getMessage().contains("line break"), e.getMessage());
  }

  // The whole build step: patched files from the jar, added files left to the sources, upstream patches whole.
  @Test
  void buildWritesPatchedAndUpstreamButNotAddedFiles(@TempDir Path tmp) throws Exception {
    Path set = Files.createDirectories(tmp.resolve("patches"));
    Files.writeString(set.resolve("x.patch"), PATCH);
    Path added = Files.createDirectories(tmp.resolve("added/p"));
    Files.writeString(added.resolve("A.java"), "class A {}\n");
    Files.writeString(added.resolve("C.java"), "class C {\n}\n");
    Path jars = Files.createDirectories(tmp.resolve("jars"));
    try (OutputStream f = Files.newOutputStream(jars.resolve("mod-1.0-sources.jar"));
         ZipOutputStream zip = new ZipOutputStream(f)) {
      zip.putNextEntry(new ZipEntry("p/B.java"));
      zip.write("b1\nb2\n".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    Path out = tmp.resolve("out");
    Path upstream = tmp.resolve("upstream");
    Map<String, List<String>> written = PatchedSources.write(set, tmp.resolve("added"), jars, out, upstream);
    assertEquals(List.of(M + "A.java", M + "B.java", M + "C.java"), List.copyOf(written.keySet()));
    assertEquals("b1\nb2 changed\n", Files.readString(out.resolve("p/B.java")));
    assertFalse(Files.exists(out.resolve("p/A.java")), "an added file compiles from its source, not a copy");
    assertEquals(3, Files.readAllLines(out.resolve(PatchedSources.LISTING)).size());
    assertEquals(UpstreamPatch.render(PATCH, Map.of(M + "A.java", "class A {}\n", M + "C.java", "class C {\n}\n")),
        Files.readString(upstream.resolve("x.patch")));

    // A source no patch adds would ship in the overlay and in no upstream change.
    Files.writeString(added.resolve("D.java"), "class D {}\n");
    PatchException e = assertThrows(PatchException.class,
        () -> PatchedSources.write(set, tmp.resolve("added"), jars, out, upstream));
    assertTrue(e.getMessage().contains("added by no patch"), e.getMessage());
    Files.delete(added.resolve("D.java"));

    // An added file that is not in the sources.
    Files.delete(added.resolve("C.java"));
    e = assertThrows(PatchException.class, () -> PatchedSources.write(set, tmp.resolve("added"), jars, out, upstream));
    assertTrue(e.getMessage().startsWith("x.patch: adds " + M + "C.java"), e.getMessage());
  }
}
