package io.ozonerc.compaction.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the SST facts say about one key range: estimated counts inside it and the exact cost of compacting it.
 *
 * <p>Estimates ({@code entries}, {@code tombstones}, {@code hiddenPuts}) share straddling files by where the data below them lies (see
 * {@link #share}); costs ({@code fileEntries}, {@code fileBytes}) count every overlapping file whole,
 * because a compaction reads and rewrites whole files.
 *
 * @param entries           estimated internal entries in the range, puts and tombstones
 * @param tombstones        estimated tombstones in the range
 * @param hiddenPuts        estimated older puts those tombstones hide (see {@link #of})
 * @param bottomTombstones  estimated tombstones in the deepest level holding the range (0 when that is level 0)
 * @param fileEntries       entries of all overlapping files, counted whole: what one compaction of it processes
 * @param fileBytes         bytes of all overlapping files, counted whole: what one compaction of it reads
 * @param files             number of overlapping files
 * @param shallowestLevel   smallest level of an overlapping file (-1 when none)
 * @param deepestLevel      largest level of an overlapping file (-1 when none)
 * @param busy              an overlapping file is being compacted by RocksDB now
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
   * Adds up the files of {@code files} that overlap [begin, end). {@code buckets} are the table's bucket ranges,
   * sorted by begin; they guide how a file that straddles buckets is shared (see {@link #share}).
   *
   * <p>Hidden puts: level-0 files are separate sorted runs ordered newest first by sequence number, every deeper
   * level is one run. Walking the runs from the oldest (deepest) up, each run's tombstones hide at most as many
   * puts as are still visible beneath them; visible puts then grow by the run's own puts. This assumes a
   * tombstone's key was written earlier (true for the OM, which only deletes keys it has), and never counts a put
   * hidden twice.
   */
  public static RangeStats of(List<SstFile> files, List<KeyRange> buckets, byte[] begin, byte[] end) {
    List<SstFile> overlapping = new ArrayList<>();
    for (SstFile f : files) {
      if (f.overlaps(begin, end)) {
        overlapping.add(f);
      }
    }
    if (overlapping.isEmpty()) {
      return new RangeStats(0, 0, 0, 0, 0, 0, 0, -1, -1, false);
    }
    // Oldest run first: deepest level first; within level 0, lowest sequence number first.
    overlapping.sort(Comparator.comparingInt(SstFile::level).reversed()
        .thenComparingLong(SstFile::largestSeqno));
    int deepest = overlapping.get(0).level();
    int shallowest = overlapping.get(overlapping.size() - 1).level();
    double entries = 0;
    double tombstones = 0;
    double hidden = 0;
    double bottom = 0;
    double visiblePuts = 0;
    long fileEntries = 0;
    long fileBytes = 0;
    boolean busy = false;
    int i = 0;
    while (i < overlapping.size()) {
      // One run: a single level-0 file, or every file of one deeper level.
      int level = overlapping.get(i).level();
      double runEntries = 0;
      double runTombstones = 0;
      do {
        SstFile f = overlapping.get(i);
        double share = share(f, files, buckets, begin, end);
        runEntries += f.entries() * share;
        runTombstones += f.deletions() * share;
        fileEntries += f.entries();
        fileBytes += f.sizeBytes();
        busy |= f.beingCompacted();
        i++;
      } while (level > 0 && i < overlapping.size() && overlapping.get(i).level() == level);
      double runHides = Math.min(runTombstones, visiblePuts);
      hidden += runHides;
      visiblePuts += (runEntries - runTombstones) - runHides;
      entries += runEntries;
      tombstones += runTombstones;
      if (level == deepest && deepest > 0) {
        bottom += runTombstones;
      }
    }
    return new RangeStats(entries, tombstones, hidden, bottom, fileEntries, fileBytes, overlapping.size(),
        shallowest, deepest, busy);
  }

  /**
   * Estimated share of file {@code f}'s entries that lie in [begin, end).
   *
   * <p>A file wholly inside counts whole. A file that straddles a boundary (a flush holds every bucket written
   * since the last one) is shared, first choice, by where the deeper levels keep their data inside the file's span:
   * the entries of deeper files, each shared by key interpolation. Deleted keys were written before, so they sit
   * over their older values; a tombstone-only L0 file spanning the tail of bucket a and all of bucket b then lands
   * on b, where the data is.
   *
   * <p>With nothing below (all of it in L0, or a bottom file holding several small buckets) the file is shared
   * equally among the buckets it touches, and within a bucket by key interpolation over the part of the file
   * inside that bucket, where keys share the bucket prefix and interpolation is sound. Plain interpolation over the
   * whole file would not do: the byte naming the bucket dominates it, and a file spanning {@code /v/a/...} to
   * {@code /v/b/...} would give nearly all its entries to the empty gap between the buckets. Gaps get nothing
   * from a file that touches a bucket; a file touching none falls back to interpolation.
   */
  static double share(SstFile f, List<SstFile> files, List<KeyRange> buckets, byte[] begin, byte[] end) {
    if (!f.overlaps(begin, end)) {
      return 0.0;
    }
    boolean startsInside = Keys.compare(f.smallestKey(), begin) >= 0;
    boolean endsInside = end == null || Keys.compare(f.largestKey(), end) < 0;
    if (startsInside && endsInside) {
      return 1.0;
    }
    byte[] spanEnd = Keys.keySuccessor(f.largestKey());
    byte[] lo = startsInside ? f.smallestKey() : begin;
    byte[] hi = endsInside ? spanEnd : end;
    double whole = densityBelow(f, files, f.smallestKey(), spanEnd);
    if (whole > 0) {
      return Math.min(1.0, densityBelow(f, files, lo, hi) / whole);
    }
    List<KeyRange> touched = buckets.stream().filter(b -> f.overlaps(b.begin(), b.end())).toList();
    if (touched.isEmpty()) {
      return Keys.overlapFraction(f.smallestKey(), f.largestKey(), begin, end);
    }
    double sum = 0;
    for (KeyRange b : touched) {
      // The part of f inside bucket b, and how much of that part [begin, end) covers.
      byte[] partLo = Keys.compare(f.smallestKey(), b.begin()) > 0 ? f.smallestKey() : b.begin();
      byte[] partHi = b.end() == null || Keys.compare(f.largestKey(), b.end()) < 0 ? f.largestKey() : b.end();
      sum += Keys.overlapFraction(partLo, partHi, begin, end);
    }
    return sum / touched.size();
  }

  /** Entries of files deeper than {@code f} that fall in [begin, end), each shared by key interpolation. */
  private static double densityBelow(SstFile f, List<SstFile> files, byte[] begin, byte[] end) {
    double sum = 0;
    for (SstFile g : files) {
      if (g.level() > f.level() && g.overlaps(begin, end)) {
        sum += g.entries() * Keys.overlapFraction(g.smallestKey(), g.largestKey(), begin, end);
      }
    }
    return sum;
  }
}
