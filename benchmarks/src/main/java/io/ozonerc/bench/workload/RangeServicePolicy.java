package io.ozonerc.bench.workload;

import java.time.Duration;

/**
 * {@code range}: the project's own range compaction service. Placeholder until io.ozonerc.compaction's service
 * lands: {@link #create} reports it unavailable, and the comparison prints that instead of numbers.
 */
final class RangeServicePolicy {

  /** The service's knobs, as the benchmark passes them to its configuration. */
  record Settings(Duration interval, long minTombstones, double ratio, long maxCompactionEntries, int rangesPerRun) {
  }

  private RangeServicePolicy() {
  }

  static Policy create(Settings settings) {
    throw new UnsupportedOperationException("io.ozonerc.compaction.service.RangeCompactionService is not in this "
        + "build yet");
  }
}
