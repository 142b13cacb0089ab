package io.ozonerc.compaction.plan;

/**
 * A round's budget as a plan spends it, best candidate first: at most {@code ranges.per.run} compactions and
 * {@code bytes.per.run} file bytes (0: no byte limit), the first candidate always within the byte limit so a
 * range larger than the limit is not starved. Range plans and head plans spend budgets of their own (a round
 * compacts its heads, then plans its ranges), by the same rule.
 */
final class Budget {
  private final PlannerSettings settings;
  private int taken;
  private long bytes;

  Budget(PlannerSettings settings) {
    this.settings = settings;
  }

  /** Takes {@code a} and returns null when it fits; otherwise returns it as {@link Verdict#OVER_BUDGET}. */
  RangeAssessment take(RangeAssessment a) {
    long cost = a.stats().fileBytes();
    if (taken >= settings.rangesPerRun()) {
      return a.with(Verdict.OVER_BUDGET, "ranges.per.run=" + settings.rangesPerRun() + " reached");
    }
    if (taken > 0 && settings.maxBytesPerRun() > 0 && bytes + cost > settings.maxBytesPerRun()) {
      return a.with(Verdict.OVER_BUDGET, "bytes " + bytes + "+" + cost + " > bytes.per.run="
          + settings.maxBytesPerRun());
    }
    taken++;
    bytes += cost;
    return null;
  }
}
