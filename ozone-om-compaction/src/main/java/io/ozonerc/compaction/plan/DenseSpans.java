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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tombstone-dense files of one table, for {@link RangePlanner#denseSubRange}: per tombstone ratio, the files
 * whose own deletions / entries reach it, indexed like the table's, and the span of the dense level-0 files of each
 * stretch of level 0 ({@link TableFacts#l0Stretch}). Built when a plan first asks for a ratio; not thread-safe.
 */
final class DenseSpans {
  private final TableFacts t;
  private final LevelFiles[] levels;
  private final PlanWork work;
  private final Map<Double, LevelFiles[]> denseByRatio = new HashMap<>();
  private double denseRatio;
  private LevelFiles[] denseFor;
  private byte[][][] denseL0Span; // [k]: span of the dense files among t.l0Covering(k), null when none

  DenseSpans(TableFacts t, LevelFiles[] levels, PlanWork work) {
    this.t = t;
    this.levels = levels;
    this.work = work;
  }

  /** Per level, the files whose own deletions / entries reach {@code ratio}, indexed; built once per ratio. */
  private LevelFiles[] denseByRatio(double ratio) {
    LevelFiles[] out = denseByRatio.get(ratio);
    if (out == null) {
      out = new LevelFiles[levels.length];
      for (int l = 0; l < levels.length; l++) {
        if (levels[l] != null) {
          List<SstFile> d = new ArrayList<>();
          for (SstFile f : levels[l].files) {
            if (f.entries() > 0 && (double) f.deletions() / f.entries() >= ratio) {
              d.add(f);
            }
          }
          out[l] = d.isEmpty() ? null : new LevelFiles(l, d, work);
        }
      }
      denseByRatio.put(ratio, out);
    }
    return out;
  }

  /**
   * The key span [smallest, largest] of the files overlapping [begin, end) whose own deletions / entries reach
   * {@code ratio}, or null when there is none.
   */
  byte[][] span(byte[] begin, byte[] end, double ratio) {
    if (denseFor == null || denseRatio != ratio) { // one ratio per plan: no map lookup (and boxing) per range
      denseRatio = ratio;
      denseFor = denseByRatio(ratio);
      denseL0Span = new byte[t.l0Stretches()][][];
      for (int k = 0; k < t.l0Stretches(); k++) {
        for (int i : t.l0Covering(k)) {
          SstFile f = levels[0].files[i];
          if (f.entries() > 0 && (double) f.deletions() / f.entries() >= ratio) { // as denseByRatio picks them
            byte[][] span = denseL0Span[k];
            denseL0Span[k] = span == null ? new byte[][] {f.smallestKey(), f.largestKey()} : new byte[][] {
                Keys.compare(f.smallestKey(), span[0]) < 0 ? f.smallestKey() : span[0],
                Keys.compare(f.largestKey(), span[1]) > 0 ? f.largestKey() : span[1]};
          }
        }
      }
    }
    LevelFiles[] dense = denseFor;
    byte[] lo = null;
    byte[] hi = null;
    int stretch = t.l0Stretch(begin, end);
    for (LevelFiles lf : dense) {
      if (lf == null) {
        continue;
      }
      if (lf.level == 0 && stretch >= 0) { // the dense level-0 files covering the range's stretch of level 0
        byte[][] span = denseL0Span[stretch];
        if (span != null) {
          lo = lo == null || Keys.compare(span[0], lo) < 0 ? span[0] : lo;
          hi = hi == null || Keys.compare(span[1], hi) > 0 ? span[1] : hi;
        }
        continue;
      }
      int from = 0;
      int to = lf.files.length;
      if (lf.disjoint) {
        from = lf.from(begin);
        to = lf.to(end, false);
      }
      for (int i = from; i < to; i++) {
        if (!lf.disjoint && !lf.overlaps(i, begin, end, false)) {
          continue;
        }
        SstFile f = lf.files[i];
        lo = lo == null || Keys.compare(f.smallestKey(), lo) < 0 ? f.smallestKey() : lo;
        hi = hi == null || Keys.compare(f.largestKey(), hi) > 0 ? f.largestKey() : hi;
        if (lf.disjoint && i == from && to - from > 2) {
          i = to - 2; // in a disjoint level only the first and the last file can widen the span
        }
      }
    }
    return lo == null ? null : new byte[][] {lo, hi};
  }
}
