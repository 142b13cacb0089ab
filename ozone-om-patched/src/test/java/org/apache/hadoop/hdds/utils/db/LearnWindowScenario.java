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

package org.apache.hadoop.hdds.utils.db;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;

/**
 * Races inside a learner's critical section, run on an instrumented copy of {@code SkipHints} whose {@code learn()}
 * calls {@link LearnWindow#pause} while the merged span is in the map but not yet checked ("checking") and while
 * the pieces it absorbs are out of the map and the merged span not yet in ("merging"). Each scenario writes
 * {@code ok NAME ...} or {@code FAIL NAME ...}. The OM's write and read steps are the class's own (announce,
 * settle, a reader's start and view tick, the look-ups a reader makes at a seek or a step), on a table's hints
 * without a store: what these races decide is whether a reader may use a span, which needs no RocksDB.
 */
public final class LearnWindowScenario {
  private static final byte[] PREFIX = bytes("/v/b/");

  private LearnWindowScenario() { }

  public static void main(String[] args) throws Exception {
    Files.write(Path.of(args[0]), List.of(refusedSpanUnseen(), announcedWhileMerging()));
  }

  /**
   * Learner L's view lacks k150, which a put committed after it; reader R's view, newer, holds it. L steps from k100
   * to k200 and learns (k100, k200). While L checks that span (before it finds k150 in the ring and refuses), R asks
   * for a span at k150 (a seek) and after k100 (a step): it must get none.
   */
  static String refusedSpanUnseen() {
    SkipHints h = hints();
    SkipHints.Start l = h.start(PREFIX);
    long stamp = h.viewTaken();
    h.settle(h.announce(bytes("/v/b/k150")));
    SkipHints.Start r = h.start(PREFIX);
    h.viewTaken();
    boolean[] seen = new boolean[2];
    LearnWindow.at("checking", () -> {
      seen[0] = h.usableAt(bytes("/v/b/k150"), r) != null;
      seen[1] = h.usableAfter(bytes("/v/b/k100"), r) != null;
    });
    h.learn(l, stamp, bytes("/v/b/k100\0"), bytes("/v/b/k200"));
    boolean reached = LearnWindow.reached("checking");
    boolean ok = reached && !seen[0] && !seen[1] && h.size() == 0 && h.refused() == 1;
    return (ok ? "ok" : "FAIL") + " refusedSpanUnseen window-reached=" + reached + " seek-used-it=" + seen[0]
        + " step-used-it=" + seen[1] + " spans=" + h.size() + " refused=" + h.refused();
  }

  /**
   * A = [k100, k150) is installed. Learner L learns [k150, k200), which touches A, so A is merged in. While A is out
   * of the map and the merged span not yet in, a batch announces a put of k120 (inside A): its look-up finds no span
   * to retire. The batch commits; a reader whose view is taken then holds k120 and must not find a span over it.
   */
  static String announcedWhileMerging() {
    SkipHints h = hints();
    SkipHints.Start a = h.start(PREFIX);
    h.learn(a, h.viewTaken(), bytes("/v/b/k100"), bytes("/v/b/k150"));
    int before = h.size();
    SkipHints.Start l = h.start(PREFIX);
    long stamp = h.viewTaken();
    byte[] k = bytes("/v/b/k120");
    LearnWindow.at("merging", () -> h.announce(k));
    h.learn(l, stamp, bytes("/v/b/k150"), bytes("/v/b/k200"));
    boolean reached = LearnWindow.reached("merging");
    SkipHints.Start r = h.start(PREFIX);          // after the commit
    h.viewTaken();
    boolean hidden = h.usableAt(k, r) != null;
    h.settle(k);                                  // the batch is closed
    boolean ok = reached && before == 1 && h.pendingKeys() == 0 && !hidden;
    return (ok ? "ok" : "FAIL") + " announcedWhileMerging window-reached=" + reached + " span-over-pending-put="
        + hidden + " refused=" + h.refused();
  }

  private static SkipHints hints() {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(SkipHintSettings.LEARN_THRESHOLD_KEY, "0");
    return new SkipHints("keyTable", SkipHintSettings.fromConfig(conf));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
