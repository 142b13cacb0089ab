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
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdds.utils.db.FamilyWriteScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The interleavings of {@link SkipHintRaces}, run on a real store with the patched classes: every scenario must
 * return the key created into the dead head. Then the same scenarios on copies of the patched {@code SkipHints} and
 * the classes beside it with one safety step taken out, compiled here: each copy must fail the scenario that step
 * exists for, so the scenarios can tell a protocol that hides keys from one that does not.
 */
class SkipHintRacesTest {
  @Test
  void everyInterleavingListsTheCreatedKey() throws Exception {
    List<String> lines = OmJvm.patched().run(SkipHintRaces.class, Path.of("target/om-jvm/skip-hint-races"), 300);
    assertEquals(SkipHintRaces.SCENARIOS.size(), lines.size(), String.join("\n", lines));
    for (String line : lines) {
      assertTrue(line.startsWith("ok "), line);
    }
    System.out.println(String.join("\n", lines));
  }

  @ParameterizedTest(name = "without {0}")
  @CsvSource(delimiter = '|', value = {
      // the retire a put does: a hint learned earlier stays past the new key
      "retire|" + SkipHintsMutant.RETIRE_FROM + "|" + SkipHintsMutant.RETIRE_TO + "|retireOnCreate",
      // the same at a whole-table iterator's start: a put into the dead head of deletedTable stays hidden
      "retire-at-table-start|" + SkipHintsMutant.RETIRE_FROM + "|" + SkipHintsMutant.RETIRE_TO
          + "|tableStartDeletedTable",
      // the ring of settled keys: the listing whose view predates the commit installs its hint
      "ring|for (long seq = start.settledBefore + 1; seq <= now; seq++) {"
          + "|for (long seq = now + 1; seq <= now; seq++) {|viewThenCommit",
      // the same ring, for a span learned by a listing's step
      "ring-step|for (long seq = start.settledBefore + 1; seq <= now; seq++) {"
          + "|for (long seq = now + 1; seq <= now; seq++) {|stepViewThenCommit",
      // the retire, for a span learned from a marker inside the dead head
      "retire-marker|" + SkipHintsMutant.RETIRE_FROM + "|" + SkipHintsMutant.RETIRE_TO + "|markerInsideDeadSpan",
      // the retire, for a span learned by a listing's step
      "retire-step|" + SkipHintsMutant.RETIRE_FROM + "|" + SkipHintsMutant.RETIRE_TO + "|stepIntoDeadSpan",
      // the stamp check at a seek: a span learned from a newer view hides a key the older reader's view holds
      "seek-stamp|return s != null && s.installed && s.stamp <= start.useLimit ? s : null;"
          + "|return s != null && s.installed ? s : null;|hintFromNewerView",
      // the stamp check at a step: the same, for a listing stepping from a live key
      "step-stamp|return s != null && s.installed && s.stamp <= start.useLimit && spans.get(s.lo) == s ? s : null;"
          + "|return s != null && s.installed && spans.get(s.lo) == s ? s : null;|stepSpanFromNewerView",
      // a merged span keeps the newest stamp of its pieces: with the oldest, a reader between them jumps a live key
      "merge-stamp|mergedStamp = Math.max(mergedStamp, s.stamp);|mergedStamp = Math.min(mergedStamp, s.stamp);"
          + "|mergedSpanFromNewerView",
      // the pending check: a hint over a put applied but not committed reaches a reader after the commit
      "pending|if (firstPending != null && Arrays.compareUnsigned(firstPending, hi) < 0) {"
          + "|if (false) {|appliedNotCommitted",
      // the status check after a seek that found nothing: a seek that failed is learned as an empty span
      "status|i.get().status();|if (false) {\\n          i.get().status();\\n        }|failedSeekLearnsNothing",
  })
  void removingASafetyStepFailsItsScenario(String step, String from, String to, String scenario) throws Exception {
    SkipHintsMutant mutant = SkipHintsMutant.compile(step, from, to);
    List<String> lines = mutant.jvm().run(SkipHintRaces.class, mutant.work(), 300, scenario);
    List<String> failed = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("FAIL ")) {
        failed.add(line.split(" ")[1]);
      }
    }
    assertTrue(failed.contains(scenario), "without the " + step + " step " + scenario + " still passes:\n"
        + String.join("\n", lines));
    System.out.println("without the " + step + " step:\n" + String.join("\n", lines));
  }

  /**
   * The steps that announce a put to its column family's hints, each taken out of a compiled copy of the patched
   * file that holds it: the writers that pass there must then write past a hint and lose their key in
   * {@link FamilyWriteScenario}, while the other writers still pass.
   */
  @ParameterizedTest(name = "without {0}")
  @CsvSource(delimiter = '|', value = {
      "batch-announce|RDBBatchOperation.java|    hints.announce(key);\\n    runAfterClose(() -> hints.settle(key));"
          + "|    return;|SECOND_TABLE_OBJECT_BATCH RAW_TABLE_BATCH",
      "direct-put-announce|RocksDatabase.java|final SkipHints hints = family.getSkipHints();"
          + "\\n    final byte[] announced|final SkipHints hints = null;\\n    final byte[] announced"
          + "|SECOND_TABLE_OBJECT_DIRECT_PUT RAW_TABLE_DIRECT_PUT",
      "ingest-announce|RocksDatabase.java|final SkipHints hints = family.getSkipHints();\\n    if (hints != null) {"
          + "\\n      hints.announceEverything();|final SkipHints hints = null;\\n    if (hints != null) {"
          + "\\n      hints.announceEverything();|INGESTED_FILE",
  })
  void removingAWriteHookLetsItsWritersPastTheHint(String step, String file, String from, String to, String writers)
      throws Exception {
    SkipHintsMutant mutant = SkipHintsMutant.compile(step, SkipHintsMutant.GENERATED.resolve(file), from, to);
    List<String> lines = mutant.jvm().run(FamilyWriteScenario.class, mutant.work(), 300);
    List<String> broken = List.of(writers.split(" "));
    assertEquals(FamilyWriteScenario.Writer.values().length, lines.size(), String.join("\n", lines));
    for (String line : lines) {
      String writer = line.split("[ :]")[1];
      assertEquals(broken.contains(writer), line.startsWith("FAIL "), "without the " + step + " step:\n"
          + String.join("\n", lines));
    }
    System.out.println("without the " + step + " step:\n" + String.join("\n", lines));
  }
}
