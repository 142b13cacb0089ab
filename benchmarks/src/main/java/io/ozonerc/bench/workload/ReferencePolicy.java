package io.ozonerc.bench.workload;

import java.time.Duration;

/** {@code reference}: the published HDDS-12682 design ({@link ReferenceRangeCompactor}) every {@code interval}. */
final class ReferencePolicy extends PeriodicPolicy {

  private final long minTombstones;
  private final double ratio;
  private final long maxEntriesPerSst;
  private ReferenceRangeCompactor compactor;

  ReferencePolicy(Duration interval, long minTombstones, double ratio, long maxEntriesPerSst) {
    super(interval);
    this.minTombstones = minTombstones;
    this.ratio = ratio;
    this.maxEntriesPerSst = maxEntriesPerSst;
  }

  @Override
  public String name() {
    return "reference";
  }

  @Override
  public void start(BenchStore store) {
    compactor = new ReferenceRangeCompactor(store.metadataManager(), store.db(), minTombstones, ratio,
        maxEntriesPerSst);
    super.start(store);
  }

  @Override
  void round(BenchStore store) throws Exception {
    compactor.runRound(this);
  }
}
