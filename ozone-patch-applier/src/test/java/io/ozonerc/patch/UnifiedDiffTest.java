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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.patch.UnifiedDiff.FilePatch;
import io.ozonerc.patch.UnifiedDiff.PatchException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The applier the upstream patch check relies on: it must take a good patch and refuse anything approximate. */
class UnifiedDiffTest {
  private static final String ORIGINAL = """
      one
      two
      three
      four
      five
      six
      seven
      """;

  private static final String GOOD = """
      A description, ignored like git apply ignores it.

      diff --git a/dir/f.txt b/dir/f.txt
      --- a/dir/f.txt
      +++ b/dir/f.txt
      @@ -1,2 +1,3 @@
       one
      +one and a half
       two
      @@ -5,3 +6,2 @@
       five
      -six
       seven
      """;

  @Test
  void appliesHunksAtTheirLines() throws PatchException {
    List<FilePatch> files = UnifiedDiff.parse(GOOD);
    assertEquals(1, files.size());
    assertEquals("dir/f.txt", files.get(0).path());
    assertEquals("""
        one
        one and a half
        two
        three
        four
        five
        seven
        """, UnifiedDiff.apply(ORIGINAL, files.get(0)));
  }

  @Test
  void refusesContextThatDiffers() throws PatchException {
    FilePatch p = UnifiedDiff.parse(GOOD.replace(" five\n", " FIVE\n")).get(0);
    PatchException e = assertThrows(PatchException.class, () -> UnifiedDiff.apply(ORIGINAL, p));
    assertTrue(e.getMessage().contains("line 5 is") && e.getMessage().contains("'FIVE'"), e.getMessage());
  }

  // Right text, wrong place: patch(1) would apply it with an offset; we must not.
  @Test
  void refusesAHunkThatOnlyMatchesElsewhere() throws PatchException {
    FilePatch p = UnifiedDiff.parse(GOOD.replace("@@ -5,3 +6,2 @@", "@@ -4,3 +5,2 @@")).get(0);
    assertThrows(PatchException.class, () -> UnifiedDiff.apply(ORIGINAL, p));
  }

  @Test
  void refusesInconsistentNewStart() throws PatchException {
    FilePatch p = UnifiedDiff.parse(GOOD.replace("@@ -5,3 +6,2 @@", "@@ -5,3 +5,2 @@")).get(0);
    PatchException e = assertThrows(PatchException.class, () -> UnifiedDiff.apply(ORIGINAL, p));
    assertTrue(e.getMessage().contains("new start should be 6"), e.getMessage());
  }

  @Test
  void refusesBodyThatDisagreesWithItsHeader() {
    PatchException e = assertThrows(PatchException.class,
        () -> UnifiedDiff.parse(GOOD.replace("@@ -1,2 +1,3 @@", "@@ -1,3 +1,4 @@")));
    assertTrue(e.getMessage().contains("without ' ', '-' or '+'") || e.getMessage().contains("body has"),
        e.getMessage());
  }

  @Test
  void refusesAStrippedBlankContextLine() {
    String original = "a\n\nb\n";
    String patch = "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n a\n\n+x\n b\n";
    PatchException e = assertThrows(PatchException.class, () -> UnifiedDiff.parse(patch));
    assertTrue(e.getMessage().contains("stripped"), e.getMessage());
    // With its space the same hunk applies.
    assertEquals("a\n\nx\nb\n", applyOne(original, patch.replace(" a\n\n+x", " a\n \n+x")));
  }

  @Test
  void refusesNoPatchAtAll() {
    assertThrows(PatchException.class, () -> UnifiedDiff.parse("just words\n"));
  }

  // Two patches written against the same release text merge in one pass, in either order.
  @Test
  void appliesTwoIndependentPatchesOfOneFile() throws PatchException {
    FilePatch first = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n").get(0);
    FilePatch second = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -5,3 +5,2 @@\n five\n-six\n seven\n").get(0);
    String both = UnifiedDiff.apply(ORIGINAL, UnifiedDiff.parse(GOOD).get(0));
    assertEquals(both, UnifiedDiff.applyAll(ORIGINAL, List.of(first, second)));
    assertEquals(both, UnifiedDiff.applyAll(ORIGINAL, List.of(second, first)));
  }

  @Test
  void refusesTwoPatchesThatShareALine() throws PatchException {
    FilePatch first = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n").get(0);
    FilePatch second = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -2,2 +2,1 @@\n two\n-three\n").get(0);
    PatchException e = assertThrows(PatchException.class,
        () -> UnifiedDiff.applyAll(ORIGINAL, List.of(first, second)));
    assertTrue(e.getMessage().contains("overlap"), e.getMessage());
  }

  @Test
  void createsANewFileFromTheEmptyText() throws PatchException {
    FilePatch f = UnifiedDiff.parse("diff --git a/d/N.java b/d/N.java\nnew file mode 100644\n--- /dev/null\n"
        + "+++ b/d/N.java\n@@ -0,0 +1,2 @@\n+class N {\n+}\n").get(0);
    assertTrue(f.creates());
    assertEquals("d/N.java", f.path());
    assertEquals("class N {\n}\n", UnifiedDiff.apply("", f));
  }

  @Test
  void refusesDeletingAFile() {
    PatchException e = assertThrows(PatchException.class,
        () -> UnifiedDiff.parse("--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-one\n"));
    assertTrue(e.getMessage().contains("deleting a file"), e.getMessage());
  }

  // A patch that applies after another is written against that one's result, and goes after the release patches.
  @Test
  void appliesALaterPatchOnTheResultOfItsBase() throws PatchException {
    FilePatch base = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n").get(0);
    FilePatch later = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n-one and a half\n+1.5\n two\n").get(0);
    java.util.Map<String, List<String>> bases = java.util.Map.of("base.patch", List.of(),
        "later.patch", List.of("base.patch"), "other.patch", List.of());
    String out = PatchedSources.applyInOrder("f", List.of(later, base), List.of("later.patch", "base.patch"), bases,
        ORIGINAL);
    assertTrue(out.startsWith("one\n1.5\ntwo\n"), out);

    // A release patch the later one does not name also changes the file: its lines would be off.
    FilePatch other = UnifiedDiff.parse("--- a/f\n+++ b/f\n@@ -5,3 +5,2 @@\n five\n-six\n seven\n").get(0);
    PatchException e = assertThrows(PatchException.class, () -> PatchedSources.applyInOrder("f",
        List.of(later, base, other), List.of("later.patch", "base.patch", "other.patch"), bases, ORIGINAL));
    assertTrue(e.getMessage().contains("[other.patch] also change(s)"), e.getMessage());
  }

  @Test
  void readsTheAppliesAfterLine() {
    assertEquals(List.of("a.patch", "b.patch"),
        PatchedSources.appliesAfter("Title\n\nApplies after: a.patch, b.patch\n\n--- a/f\n+++ b/f\n"));
    assertEquals(List.of(), PatchedSources.appliesAfter("Title\n--- a/f\n+++ b/f\nApplies after: x.patch\n"));
  }

  private static String applyOne(String original, String patch) {
    try {
      return UnifiedDiff.apply(original, UnifiedDiff.parse(patch).get(0));
    } catch (PatchException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
