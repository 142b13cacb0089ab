package io.ozonerc.compaction.plan;

import java.util.Locale;

/**
 * One range, what is in it, and what the planner made of it.
 *
 * @param range           the key range a compaction would cover
 * @param stats           counts from the SST facts
 * @param verdict         the decision
 * @param why             the decision in words, with the numbers it rests on
 * @param forceBottommost compact with RocksDB's {@code kForce} (see {@link BottommostMode})
 */
public record RangeAssessment(KeyRange range, RangeStats stats, Verdict verdict, String why,
    boolean forceBottommost) {

  public double score() {
    return stats.score();
  }

  RangeAssessment with(Verdict newVerdict, String newWhy) {
    return new RangeAssessment(range, stats, newVerdict, newWhy, forceBottommost);
  }

  /** One line, e.g. {@code keyTable /v/b/ [/v/b/, /v/b0) tombstones=95000 ... planned: ...}. */
  public String describe() {
    return String.format(Locale.ROOT,
        "%s %s [%s, %s) tombstones=%d entries=%d ratio=%.2f dead=%d score=%d files=%d L%d-L%d file-entries=%d "
            + "bytes=%d bottommost=%s %s: %s",
        range.table(), range.label(), Keys.show(range.begin()), Keys.show(range.end()),
        Math.round(stats.tombstones()), Math.round(stats.entries()), stats.tombstoneRatio(),
        Math.round(stats.deadKeys()), Math.round(stats.score()), stats.files(), stats.shallowestLevel(),
        stats.deepestLevel(), stats.fileEntries(), stats.fileBytes(), forceBottommost ? "force" : "skip",
        verdict, why);
  }
}
