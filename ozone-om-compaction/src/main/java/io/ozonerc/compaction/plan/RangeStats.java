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

import java.util.List;

/**
 * What the SST facts say about one key range: estimated counts inside it and the cost of compacting it.
 *
 * <p>Estimates ({@code entries}, {@code tombstones}, {@code hiddenPuts}) share straddling files by where the data
 * below them lies: the model is described at {@link BucketShares}, next to its code. Costs ({@code files},
 * {@code fileEntries}, {@code fileBytes}) count whole files, and not only the files overlapping the range: the
 * files RocksDB will pick for {@code compactRange} of it, level-0 files straddling other buckets and the files
 * below them included (see {@link CompactionCost}).
 *
 * @param entries           estimated internal entries in the range, puts and tombstones
 * @param tombstones        estimated tombstones in the range
 * @param hiddenPuts        estimated older puts those tombstones hide (see {@link #of})
 * @param bottomTombstones  estimated tombstones in the deepest level holding the range (0 when that is level 0)
 * @param fileEntries       entries of the files a compaction of the range rewrites (see {@link CompactionCost})
 * @param fileBytes         bytes of those files: what one compaction of the range reads and rewrites
 * @param files             number of those files
 * @param shallowestLevel   smallest level of an overlapping file (-1 when none)
 * @param deepestLevel      largest level of an overlapping file (-1 when none)
 * @param busy              an overlapping or picked file is being compacted by RocksDB now
 */
public record RangeStats(double entries, double tombstones, double hiddenPuts, double bottomTombstones,
    long fileEntries, long fileBytes, int files, int shallowestLevel, int deepestLevel, boolean busy) {

  /** Internal keys a full scan of the range steps over without returning: tombstones plus the puts they hide. */
  public double deadKeys() {
    return tombstones + hiddenPuts;
  }

  /** Tombstones per entry: the ratio the tombstone.ratio threshold is compared with (TiKV's and HDDS-12682's). */
  public double tombstoneRatio() {
    return entries <= 0 ? 0 : tombstones / entries;
  }

  /**
   * Whether a compaction of the range must wait for RocksDB's own level-0 compaction: it would take level-0 files
   * (which on a busy OM span other ranges) and rewrite more than {@code max.compaction.entries}. Below level 0 a
   * range the plan could not split is compacted whatever its cost. From the SST facts alone, so the same for a
   * head, a counted bucket or a directory before and after it is probed or counted.
   */
  public boolean waitsForLevel0(PlannerSettings s) {
    return shallowestLevel == 0 && fileEntries > s.maxCompactionEntries();
  }

  /**
   * Ranking score: {@code deadKeys x deadKeys / entries}.
   *
   * <p>TiKV ranks by tombstones x tombstone ratio. We count what a reader pays instead: an iterator entering the
   * range steps over every tombstone and every older put a tombstone hides (two skips per deleted key when its
   * value sits below, docs/facts.md), so {@code deadKeys} replaces {@code tombstones}, and the density
   * {@code deadKeys / entries} replaces the ratio. Tombstones sitting over live data therefore count double, and
   * tombstones already at the bottom with nothing under them count once: they cost one skip each and need a
   * rewrite of bottom files to remove. Example: a bucket of 100k puts with 95k deletes flushed above them has
   * entries 195k, dead 190k, density 0.97, score 185k; the same 95k tombstones compacted to the bottom over
   * nothing (a snapshot kept them) have entries 100k, dead 95k, density 0.95, score 90k.
   */
  public double score() {
    return entries <= 0 ? 0 : deadKeys() * (deadKeys() / entries);
  }

  /**
   * The stats of [begin, end) over {@code files} (one table's) and that table's {@code buckets}, with the cost of a
   * compaction that also rewrites the bottommost level (see {@link CompactionCost}). Indexes the files first; a
   * caller assessing many ranges builds one {@link TableFacts} and calls {@link #of(TableFacts, byte[], byte[],
   * boolean)}.
   */
  public static RangeStats of(List<SstFile> files, List<KeyRange> buckets, byte[] begin, byte[] end) {
    return of(TableFacts.of(files, buckets), begin, end, true);
  }

  /**
   * Adds up the files of {@code t} that overlap [begin, end). Buckets guide how a file that straddles buckets is
   * shared (see {@link BucketShares}); the cost is what {@code compactRange(begin, end)} will rewrite.
   *
   * <p>Hidden puts: level-0 files are separate sorted runs ordered newest first by sequence number, every deeper
   * level is one run. Walking the runs from the oldest (deepest) up, each run's tombstones hide at most as many
   * puts as are still visible beneath them; visible puts then grow by the run's own puts. This assumes a
   * tombstone's key was written earlier (true for the OM, which only deletes keys it has), and never counts a put
   * hidden twice.
   *
   * <p>Cost: per level two binary searches; files wholly inside come from prefix sums, only the first and last
   * file of a level's run are shared; level-0 files one by one. O(levels x log files + level-0 files).
   */
  public static RangeStats of(TableFacts t, byte[] begin, byte[] end, boolean forceBottommost) {
    return estimate(t, begin, end).withCost(CompactionCost.estimate(t, begin, end, forceBottommost));
  }

  /** The estimates alone, with no cost (zero files): what a reader of [begin, end) meets. */
  static RangeStats estimate(TableFacts t, byte[] begin, byte[] end) {
    int stretch = t.wholeBucketStretch(begin, end);
    if (stretch < 0) {
      return estimateFromFiles(t, begin, end);
    }
    RangeStats kept = t.stretchEstimate(stretch); // the same as every whole bucket's of this stretch
    if (kept == null) {
      kept = estimateFromFiles(t, begin, end);
      t.rememberStretchEstimate(stretch, kept);
    }
    return kept;
  }

  /** {@link #estimate} worked out from the files, never from a stretch's kept estimate. */
  static RangeStats estimateFromFiles(TableFacts t, byte[] begin, byte[] end) {
    int deepest = -1;
    int shallowest = -1;
    double entries = 0;
    double tombstones = 0;
    double hidden = 0;
    double bottom = 0;
    double visiblePuts = 0;
    boolean busy = false;
    for (int level = t.maxLevel(); level >= 1; level--) {
      LevelFiles lf = t.level(level);
      if (lf == null) {
        continue;
      }
      double runEntries = 0; // entries and tombstones of this level's part of the range
      double runTombstones = 0;
      boolean any = false;
      if (lf.disjoint) {
        int from = t.from(lf, begin);
        int to = t.to(lf, end);
        if (to > from) {
          any = true;
          busy |= lf.busy(from, to);
          if (to - from >= 3) { // files strictly between the first and the last lie wholly inside
            runEntries += lf.entries(from + 1, to - 1);
            runTombstones += lf.deletions(from + 1, to - 1);
          }
          t.work().step();
          double share = t.shares().overlappingShare(lf, from, begin, end); // the run [from, to) overlaps
          runEntries += lf.files[from].entries() * share;
          runTombstones += lf.files[from].deletions() * share;
          if (to - 1 > from) {
            t.work().step();
            share = t.shares().overlappingShare(lf, to - 1, begin, end);
            runEntries += lf.files[to - 1].entries() * share;
            runTombstones += lf.files[to - 1].deletions() * share;
          }
        }
      } else {
        for (int i = 0; i < lf.files.length; i++) {
          if (lf.overlaps(i, begin, end, false)) {
            any = true;
            busy |= lf.files[i].beingCompacted();
            t.work().step();
            double share = t.shares().overlappingShare(lf, i, begin, end);
            runEntries += lf.files[i].entries() * share;
            runTombstones += lf.files[i].deletions() * share;
          }
        }
      }
      if (!any) {
        continue;
      }
      deepest = deepest < 0 ? level : deepest;
      shallowest = level;
      double runHides = Math.min(runTombstones, visiblePuts);
      hidden += runHides;
      visiblePuts += (runEntries - runTombstones) - runHides;
      entries += runEntries;
      tombstones += runTombstones;
      if (level == deepest) {
        bottom += runTombstones;
      }
    }
    // Level 0: each file is a run of its own, oldest (lowest sequence number) first.
    LevelFiles l0 = t.level(0);
    int stretch = t.l0Stretch(begin, end);
    int[] order = l0 == null ? new int[0] : stretch >= 0 ? t.l0Covering(stretch) : l0.bySeqno;
    for (int i : order) {
      if (stretch < 0 && !l0.overlaps(i, begin, end, false)) {
        continue;
      }
      t.work().step();
      // A file covering the range's stretch of level 0 straddles both its ends.
      double share = stretch >= 0 ? t.shares().straddlingShare(l0, i, begin, end, begin, end)
          : t.shares().overlappingShare(l0, i, begin, end);
      double runEntries = 0;
      double runTombstones = 0;
      runEntries += l0.files[i].entries() * share;
      runTombstones += l0.files[i].deletions() * share;
      busy |= l0.files[i].beingCompacted();
      deepest = deepest < 0 ? 0 : deepest;
      shallowest = 0;
      double runHides = Math.min(runTombstones, visiblePuts);
      hidden += runHides;
      visiblePuts += (runEntries - runTombstones) - runHides;
      entries += runEntries;
      tombstones += runTombstones;
    }
    return new RangeStats(entries, tombstones, hidden, bottom, 0, 0, 0, shallowest, deepest, busy);
  }

  /** The same estimates with the cost of a compaction; none when the range holds no file. */
  RangeStats withCost(CompactionCost cost) {
    if (deepestLevel < 0) {
      return this;
    }
    return new RangeStats(entries, tombstones, hiddenPuts, bottomTombstones, cost.entries(), cost.bytes(),
        cost.files(), shallowestLevel, deepestLevel, busy || cost.busy());
  }
}
