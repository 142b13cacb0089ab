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

package io.ozonerc.compaction.plan;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the choosing remembers from one round to the next: compactions that made no progress, bucket heads that
 * were found dead, and where the rotating probes stand. The executor only reports what happened; this class
 * decides what to keep, and the planners read it. Pure: no store, no clock. One round at a time uses it (the
 * round's caller serialises rounds).
 *
 * <h2>No progress</h2>
 * A compaction that leaves its range as it found it (see {@link #madeNoProgress}) would do so again on the same
 * files: tombstones at the bottom under {@code bottommost.mode=skip}, or held by a snapshot. It is remembered with
 * the files it left ({@link NoProgress}); while they stay the same the range is left out (the range planner gets
 * {@link #unchangedRanges}, the executor asks {@link #stuck} on its re-check), so the ranges behind it get their
 * turn. A flush or a compaction that changes those files forgets it. A head is remembered under its probed range
 * as a head ({@link KeyRange#asHead}), so it never collides with a compaction of the whole bucket.
 *
 * <h2>Hot heads</h2>
 * Bucket ranges whose dead head reached {@code dead.head.min.keys} when probed: a head check between rounds
 * re-probes just them (a queue's head regrows within seconds of its compaction).
 *
 * <h2>Eviction</h2>
 * One rule for both memories: least recently touched first, beyond {@link #NO_PROGRESS_LIMIT} and
 * {@link #HOT_HEADS} entries. Both are hints: forgetting one costs a compaction or a probe, not a key.
 */
public final class PlanMemory {
  /** No-progress ranges remembered at most. */
  public static final int NO_PROGRESS_LIMIT = 1024;
  /** Bucket heads remembered for head checks: one seek each per check, so 64 keeps a check to a few ms. */
  public static final int HOT_HEADS = 64;

  private final Map<KeyRange, NoProgress> noProgress = new LinkedHashMap<>();
  private final Map<KeyRange, Long> hotHeads = new LinkedHashMap<>();
  private long rotation;

  /** The key a planned compaction is remembered under: its range, or for a head its probed range as a head. */
  public static KeyRange key(RangeAssessment planned) {
    return planned.range().kind().isHead() ? planned.probed().asHead() : planned.range();
  }

  /**
   * Whether a finished compaction (bottommost rewrite included, when one was due) made no progress: for a head,
   * its fresh probe still qualifies (the seek still steps over enough dead entries); for any other range, not one
   * tombstone went.
   *
   * @param tombstonesRemoved tombstones the range's facts lost, before to after
   * @param stillQualifies    the re-check after the compaction still plans it
   */
  public static boolean madeNoProgress(RangeAssessment planned, long tombstonesRemoved, boolean stillQualifies) {
    return planned.range().kind().isHead() ? stillQualifies : tombstonesRemoved == 0;
  }

  /** Remembers that {@code key}'s compaction made no progress, with the files of {@code files} over it now. */
  public void rememberNoProgress(KeyRange key, List<SstFile> files) {
    noProgress.remove(key);
    noProgress.put(key, NoProgress.of(key, files));
    evictOldest(noProgress, NO_PROGRESS_LIMIT);
  }

  /** Forgets {@code key}'s no-progress entry: its compaction made progress, or it is not finished. */
  public void forget(KeyRange key) {
    noProgress.remove(key);
  }

  /** True while {@code key} is remembered and its files in {@code files} are unchanged; forgets it otherwise. */
  public boolean stuck(KeyRange key, List<SstFile> files) {
    NoProgress n = noProgress.get(key);
    if (n != null && !n.unchangedIn(files)) {
      noProgress.remove(key);
      return false;
    }
    return n != null;
  }

  /**
   * The remembered ranges (not heads) whose files are unchanged in {@code files}, for the range planner; every
   * remembered entry over a table of {@code files} whose files changed is forgotten.
   */
  public List<KeyRange> unchangedRanges(List<SstFile> files) {
    noProgress.values().removeIf(n -> !n.unchangedIn(files));
    return noProgress.keySet().stream().filter(r -> !r.kind().isHead()).toList();
  }

  /** Remembers the bucket heads of {@code probed} that reached {@code minDead}, most recent last. */
  public void rememberHot(List<HeadFacts> probed, long minDead) {
    for (HeadFacts h : probed) {
      if (!h.isTableHead() && h.deadEntries() >= minDead) {
        hotHeads.remove(h.range());
        hotHeads.put(h.range(), h.deadEntries());
      }
    }
    evictOldest(hotHeads, HOT_HEADS);
  }

  /** The remembered hot bucket ranges of {@code table}, least recently found dead first. */
  public List<KeyRange> hotHeads(String table) {
    return hotHeads.keySet().stream().filter(r -> r.table().equals(table)).toList();
  }

  /** Where the rotating half of a round's probes starts ({@link HeadPlanner#pickProbes}). */
  public long rotation() {
    return rotation;
  }

  /** Moves the rotation on; once per full round. */
  public void rotate() {
    rotation++;
  }

  private static void evictOldest(Map<KeyRange, ?> map, int limit) {
    Iterator<KeyRange> oldest = map.keySet().iterator();
    while (map.size() > limit) {
      oldest.next();
      oldest.remove();
    }
  }
}
