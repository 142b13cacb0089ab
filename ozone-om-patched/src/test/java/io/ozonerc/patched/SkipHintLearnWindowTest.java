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

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdds.utils.db.LearnWindowScenario;
import org.junit.jupiter.api.Test;

/**
 * The races inside a learner's critical section ({@link LearnWindowScenario}), on copies of {@code SkipHints}
 * instrumented to pause there: as written every scenario passes; with the step each race needs taken out of the
 * copy, that race's scenario fails. A reader must not use a span its learner has put in the map but not yet checked
 * (the installed flag), and a learner must check the whole merged span, since a writer that looked while the
 * absorbed pieces were out of the map found none of them.
 */
class SkipHintLearnWindowTest {
  /** The learn() points the scenarios pause at, as text inserted into the copy. */
  private static final List<String> PAUSES = List.of(
      "      VarHandle.fullFence(); // the span in the map before reading the pending marks and the ring"
          + " (see retire)\n",
      "      VarHandle.fullFence(); // the span in the map before reading the pending marks and the ring (see retire)\n"
          + "      LearnWindow.pause(\"checking\");\n",
      "        remove(s);\n      }\n",
      "        remove(s);\n      }\n      LearnWindow.pause(\"merging\");\n");

  @Test
  void asWrittenNoReaderUsesASpanThatIsNotChecked() throws Exception {
    assertEquals(List.of("refusedSpanUnseen", "announcedWhileMerging"), passing(run("learn-window", PAUSES)));
  }

  @Test
  void withoutTheInstalledCheckAReaderUsesASpanAboutToBeRefused() throws Exception {
    List<String> steps = new ArrayList<>(PAUSES);
    steps.addAll(List.of(
        "return s != null && s.installed && s.stamp <= start.useLimit ? s : null;",
        "return s != null && s.stamp <= start.useLimit ? s : null;",
        "return s != null && s.installed && s.stamp <= start.useLimit && spans.get(s.lo) == s ? s : null;",
        "return s != null && s.stamp <= start.useLimit && spans.get(s.lo) == s ? s : null;"));
    assertEquals(List.of("announcedWhileMerging"), passing(run("learn-window-no-installed", steps)));
  }

  @Test
  void checkingOnlyTheNewPieceMissesAPutAnnouncedWhileMerging() throws Exception {
    List<String> steps = new ArrayList<>(PAUSES);
    steps.addAll(List.of("if (conflicts(start, mergedLo, mergedHi)) {", "if (conflicts(start, lo, hi)) {"));
    assertEquals(List.of("refusedSpanUnseen"), passing(run("learn-window-new-piece-only", steps)));
  }

  private static List<String> run(String name, List<String> fromTo) throws Exception {
    SkipHintsMutant copy = SkipHintsMutant.compileAll(name, SkipHintsMutant.sources(), fromTo);
    List<String> lines = copy.jvm().run(LearnWindowScenario.class, copy.work(), 120);
    System.out.println(name + ":\n" + String.join("\n", lines));
    return lines;
  }

  private static List<String> passing(List<String> lines) {
    List<String> ok = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("ok ")) {
        ok.add(line.split(" ")[1]);
      }
    }
    return ok;
  }
}
