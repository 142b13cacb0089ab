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
import java.util.Objects;

/**
 * One range, what is in it, and what the planner made of it: a plain value, safe to read from any thread.
 *
 * <p>A plan assesses every bucket and gap of every table (200,000 ranges on an OM with 100,000 buckets), and
 * nearly all fall below the thresholds. For those a plan leaves out the cost of a compaction
 * ({@link RangeStats#files()}, {@link RangeStats#fileBytes()}, ...) and the words of {@link #why()}: they are not
 * {@link #explained()}, and {@link RangePlanner#explain} works them out from the table's files when a report
 * prints one. The counts the verdict rests on ({@link #score()}, the estimates) are there either way. Every other
 * assessment is explained.
 */
public final class RangeAssessment {
  private final KeyRange range;
  private final KeyRange probed;
  private final RangeStats stats; // the cost fields are zero until explained
  private final Verdict verdict;
  private final String why; // null until explained
  private final boolean forceBottommost;
  private final PlannerSettings thresholds; // what an unexplained verdict was judged by; null once explained

  /**
   * @param range           the key range a compaction would cover
   * @param stats           counts from the SST facts, with the cost of compacting the range
   * @param verdict         the decision
   * @param why             the decision in words, with the numbers it rests on
   * @param forceBottommost compact with RocksDB's {@code kForce} (see {@link BottommostMode})
   */
  public RangeAssessment(KeyRange range, RangeStats stats, Verdict verdict, String why, boolean forceBottommost) {
    this(range, range, stats, verdict, Objects.requireNonNull(why), forceBottommost, null);
  }

  private RangeAssessment(KeyRange range, KeyRange probed, RangeStats stats, Verdict verdict, String why,
      boolean forceBottommost, PlannerSettings thresholds) {
    this.range = Objects.requireNonNull(range);
    this.probed = Objects.requireNonNull(probed);
    this.stats = Objects.requireNonNull(stats);
    this.verdict = Objects.requireNonNull(verdict);
    this.why = why;
    this.forceBottommost = forceBottommost;
    this.thresholds = thresholds;
  }

  /** Below {@code s}'s thresholds by {@code estimate} (no cost yet), without words until explained. */
  static RangeAssessment unexplained(KeyRange range, RangeStats estimate, boolean forceBottommost, PlannerSettings s) {
    return new RangeAssessment(range, range, estimate, Verdict.BELOW_THRESHOLD, null, forceBottommost,
        Objects.requireNonNull(s));
  }

  public KeyRange range() {
    return range;
  }

  /**
   * The range whose facts decide this assessment again: for a dead head ({@link KeyRange.Kind#isHead}) the range
   * its probe read (a table, a bucket or a directory), since the head itself ends wherever the first live key is at
   * the time; for any other kind the range itself.
   */
  public KeyRange probed() {
    return probed;
  }

  /** This assessment as a head found by probing {@code probedRange}. */
  public RangeAssessment probedOver(KeyRange probedRange) {
    return new RangeAssessment(range, probedRange, stats, verdict, why, forceBottommost, thresholds);
  }

  /** Counts from the SST facts; with the cost of compacting the range once {@link #explained()}, else zero cost. */
  public RangeStats stats() {
    return stats;
  }

  public Verdict verdict() {
    return verdict;
  }

  /** The decision in words, with the numbers it rests on; null until {@link #explained()}. */
  public String why() {
    return why;
  }

  /** Whether the cost and the words are worked out: false only for a plan's ranges below the thresholds. */
  public boolean explained() {
    return why != null;
  }

  /** The thresholds an unexplained verdict was judged by (for its words); null once explained. */
  PlannerSettings thresholds() {
    return thresholds;
  }

  public boolean forceBottommost() {
    return forceBottommost;
  }

  /** {@link RangeStats#score()}: from the counts alone. */
  public double score() {
    return stats.score();
  }

  /** This explained assessment with another verdict and words. */
  RangeAssessment with(Verdict newVerdict, String newWhy) {
    return new RangeAssessment(range, probed, stats, newVerdict, Objects.requireNonNull(newWhy), forceBottommost,
        null);
  }

  /** This unexplained assessment with its cost and words ({@link RangePlanner#explain}). */
  RangeAssessment explainedAs(RangeStats withCost, String words) {
    return new RangeAssessment(range, probed, withCost, verdict, Objects.requireNonNull(words), forceBottommost,
        null);
  }

  /**
   * One line, e.g. {@code keyTable /v/b/ [/v/b/, /v/b0) tombstones=95000 ... planned: ...}; without the cost and
   * the words until explained.
   */
  public String describe() {
    String counts = String.format(Locale.ROOT, "%s %s [%s, %s) tombstones=%d entries=%d ratio=%.2f dead=%d score=%d",
        range.table(), range.label(), Keys.show(range.begin()), Keys.show(range.end()),
        Math.round(stats.tombstones()), Math.round(stats.entries()), stats.tombstoneRatio(),
        Math.round(stats.deadKeys()), Math.round(stats.score()));
    if (!explained()) {
      return counts + " " + verdict + " (cost and words not worked out)";
    }
    return counts + String.format(Locale.ROOT, " files=%d L%d-L%d file-entries=%d bytes=%d bottommost=%s %s: %s",
        stats.files(), stats.shallowestLevel(), stats.deepestLevel(), stats.fileEntries(), stats.fileBytes(),
        forceBottommost ? "force" : "skip", verdict, why);
  }

  /** Equal when range, probed range, stats, verdict, words and bottommost mode are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof RangeAssessment a && range.equals(a.range) && probed.equals(a.probed) && stats.equals(a.stats)
        && verdict == a.verdict && Objects.equals(why, a.why) && forceBottommost == a.forceBottommost
        && Objects.equals(thresholds, a.thresholds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(range, stats, verdict, why, forceBottommost);
  }

  @Override
  public String toString() {
    return "RangeAssessment[range=" + range + ", stats=" + stats + ", verdict=" + verdict + ", why=" + why
        + ", forceBottommost=" + forceBottommost + "]";
  }
}
