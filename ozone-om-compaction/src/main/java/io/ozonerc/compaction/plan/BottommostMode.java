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

import java.util.Locale;

/**
 * Whether a range compaction also rewrites the files it finds in the range's bottommost level.
 *
 * <p>A manual compaction merges each level of the range into the one below; the last merge writes into the
 * bottommost level, where tombstones with nothing under them are dropped. Files that already sit in the bottommost
 * level are only rewritten when asked (RocksDB's {@code kForce}), and in rocksdbjni 7.7.3 that also rewrites the
 * files the same call has just written there ({@code kForceOptimized}, which avoids it, is not in the Java API).
 */
public enum BottommostMode {
  /** Never rewrite bottommost files ({@code kSkip}); tombstones already at the bottom stay. */
  SKIP,
  /** Always rewrite bottommost files ({@code kForce}): drops every tombstone, rewrites fresh output a second time. */
  FORCE,
  /**
   * Per range: force only when at least half of the range's tombstones sit in its deepest level, where nothing
   * but a bottommost rewrite removes them; otherwise skip and let the merge from above drop them. Default.
   */
  AUTO;

  /**
   * Whether a compaction that did not rewrite the bottom level must be followed, in the same round, by one of the
   * same range that does ({@code kForce}). RocksDB moves a file down without rewriting it when nothing below
   * overlaps it (a trivial move: a level-0 file holding a queue's puts and deletes lands in the bottom level with
   * every tombstone), and a merge from above leaves tombstones already at the bottom alone. Such a pass removed
   * little. Finish when at least half of the tombstones the range had before are left ({@code 2 x left >= before})
   * and at least half of those left sit in the bottommost level ({@code 2 x bottom >= left}), where only a rewrite
   * drops them. Never under {@link #SKIP} (bottom rewrites are ruled out) nor after a pass that already forced.
   *
   * @param before the range's facts before the compaction
   * @param forced whether that compaction already rewrote the bottom level
   * @param after  the range's facts after it
   */
  public boolean needsSecondPass(RangeStats before, boolean forced, RangeStats after) {
    if (this == SKIP || forced) {
      return false;
    }
    double left = after.tombstones();
    return left > 0 && 2 * left >= before.tombstones() && after.deepestLevel() > 0
        && 2 * after.bottomTombstones() >= left;
  }

  public static BottommostMode parse(String text) {
    for (BottommostMode m : values()) {
      if (m.name().equalsIgnoreCase(text.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown bottommost mode '" + text + "' (auto, skip, force)");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
