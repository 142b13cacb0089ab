package io.ozonerc.compaction.plan;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One range, what is in it, and what the planner made of it.
 *
 * <p>A plan assesses every bucket and gap of every table (200,000 ranges on an OM with 100,000 buckets), and
 * nearly all fall below the thresholds. For those, the cost of a compaction ({@link RangeStats#files()},
 * {@link RangeStats#fileBytes()}, ...) and the words of {@link #why()} are worked out when first asked (a report
 * prints a few of them), not during the plan; the counts the verdict rests on ({@link #score()}, the estimates) are
 * known from the start. Asking gives the same values either way. Safe to read from any thread.
 */
public final class RangeAssessment {
  private final KeyRange range;
  private final KeyRange probed;
  private final RangeStats estimate; // the counts; the cost fields may still be zero (see stats())
  private final Verdict verdict;
  private final boolean forceBottommost;
  private final Supplier<RangeStats> stats;
  private final Supplier<String> why;

  /**
   * @param range           the key range a compaction would cover
   * @param stats           counts from the SST facts
   * @param verdict         the decision
   * @param why             the decision in words, with the numbers it rests on
   * @param forceBottommost compact with RocksDB's {@code kForce} (see {@link BottommostMode})
   */
  public RangeAssessment(KeyRange range, RangeStats stats, Verdict verdict, String why, boolean forceBottommost) {
    this(range, range, stats, new Known<>(stats), verdict, new Known<>(why), forceBottommost);
  }

  /** With the cost and the words worked out on first use: {@code estimate} carries every count but the cost. */
  RangeAssessment(KeyRange range, KeyRange probed, RangeStats estimate, Supplier<RangeStats> stats,
      Verdict verdict, Supplier<String> why, boolean forceBottommost) {
    this.range = Objects.requireNonNull(range);
    this.probed = Objects.requireNonNull(probed);
    this.estimate = Objects.requireNonNull(estimate);
    this.stats = once(stats);
    this.verdict = Objects.requireNonNull(verdict);
    this.why = once(why);
    this.forceBottommost = forceBottommost;
  }

  /** {@code source}, asked once, under a lock (a plan's indexes are not thread-safe); itself when it already is. */
  static <T> Supplier<T> once(Supplier<T> source) {
    return source instanceof WhenAsked<T> w ? w : new Once<>(source);
  }

  /**
   * A value worked out when first asked, once, under a lock. The planner builds its lazy cost and words as
   * subclasses, one object each: a plan makes one assessment per bucket, and wrapping them again for every
   * assessment doubled the objects of a plan's commonest path.
   */
  abstract static class WhenAsked<T> implements Supplier<T> {
    private boolean done;
    private T value;

    abstract T work();

    @Override
    public final synchronized T get() {
      if (!done) {
        value = work();
        done = true;
      }
      return value;
    }
  }

  /** A value known from the start (a class, not a lambda: see {@link WhenAsked}). */
  private static final class Known<T> extends WhenAsked<T> {
    private final T value;

    Known(T value) {
      this.value = value;
    }

    @Override
    T work() {
      return value;
    }
  }

  private static final class Once<T> extends WhenAsked<T> {
    private Supplier<T> source;

    Once(Supplier<T> source) {
      this.source = source;
    }

    @Override
    T work() {
      T value = source.get();
      source = null;
      return value;
    }
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
    return new RangeAssessment(range, probedRange, estimate, stats, verdict, why, forceBottommost);
  }

  /** Counts from the SST facts, with the cost of compacting the range. */
  public RangeStats stats() {
    return stats.get();
  }

  /** The counts without asking for the cost (its fields may be zero): what the plan itself needs. */
  RangeStats estimate() {
    return estimate;
  }

  public Verdict verdict() {
    return verdict;
  }

  /** The decision in words, with the numbers it rests on. */
  public String why() {
    return why.get();
  }

  public boolean forceBottommost() {
    return forceBottommost;
  }

  /** {@link RangeStats#score()}: from the counts alone. */
  public double score() {
    return estimate.score();
  }

  RangeAssessment with(Verdict newVerdict, String newWhy) {
    return new RangeAssessment(range, probed, estimate, stats, newVerdict, new Known<>(newWhy), forceBottommost);
  }

  /** One line, e.g. {@code keyTable /v/b/ [/v/b/, /v/b0) tombstones=95000 ... planned: ...}. */
  public String describe() {
    RangeStats stats = stats();
    return String.format(Locale.ROOT,
        "%s %s [%s, %s) tombstones=%d entries=%d ratio=%.2f dead=%d score=%d files=%d L%d-L%d file-entries=%d "
            + "bytes=%d bottommost=%s %s: %s",
        range.table(), range.label(), Keys.show(range.begin()), Keys.show(range.end()),
        Math.round(stats.tombstones()), Math.round(stats.entries()), stats.tombstoneRatio(),
        Math.round(stats.deadKeys()), Math.round(stats.score()), stats.files(), stats.shallowestLevel(),
        stats.deepestLevel(), stats.fileEntries(), stats.fileBytes(), forceBottommost ? "force" : "skip",
        verdict, why());
  }

  /** Equal when range, probed range, stats, verdict, words and bottommost mode are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof RangeAssessment a && range.equals(a.range) && probed.equals(a.probed) && stats().equals(a.stats())
        && verdict == a.verdict && why().equals(a.why()) && forceBottommost == a.forceBottommost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(range, stats(), verdict, why(), forceBottommost);
  }

  @Override
  public String toString() {
    return "RangeAssessment[range=" + range + ", stats=" + stats() + ", verdict=" + verdict + ", why=" + why()
        + ", forceBottommost=" + forceBottommost + "]";
  }
}
