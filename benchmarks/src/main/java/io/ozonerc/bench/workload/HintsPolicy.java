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

package io.ozonerc.bench.workload;

import java.util.Locale;

/**
 * The two policies that list through the patched OM with skip hints on ({@code docs/skip-hints.md}): {@code hints}
 * (no compaction: RocksDB's automatic compactions only, as {@code none}) and {@code range+hints}, the product (the
 * {@code range} service with the same settings). They run only in a child JVM with ozone-om-patched's classes first
 * ({@link ChildRun}); the store is opened with hints on, and this wrapper reads the keyTable's hint counters at the
 * start and end of the run.
 */
final class HintsPolicy implements Policy {

  static final String HINTS = "hints";
  static final String RANGE_HINTS = "range+hints";

  private final String name;
  private final Policy inner;
  private BenchStore store;
  private RunResult.Hints before;
  private RunResult.Hints after;

  HintsPolicy(String name, Policy inner) {
    this.name = name;
    this.inner = inner;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void start(BenchStore s) throws Exception {
    SkipHintCounters.requireEnabled(s);
    store = s;
    before = SkipHintCounters.read(s);
    inner.start(s);
  }

  @Override
  public void close() throws Exception {
    inner.close();
    if (store != null) {
      after = SkipHintCounters.read(store);
    }
  }

  @Override
  public RunResult.Hints hints() {
    return before == null || after == null ? null : after.minus(before);
  }

  @Override
  public long compactions() {
    return inner.compactions();
  }

  @Override
  public long compactionNanos() {
    return inner.compactionNanos();
  }

  @Override
  public long tombstonesRemoved() {
    return inner.tombstonesRemoved();
  }

  @Override
  public long headEntriesRemoved() {
    return inner.headEntriesRemoved();
  }

  @Override
  public long flushes() {
    return inner.flushes();
  }

  @Override
  public long compactedBytes() {
    return inner.compactedBytes();
  }

  @Override
  public String detail() {
    return inner.detail();
  }

  @Override
  public Throwable failure() {
    return inner.failure();
  }

  /** One line on the hints' work, e.g. for the report. */
  static String describe(RunResult.Hints h) {
    return h == null ? "no hint counters" : String.format(Locale.ROOT, "%,d seeks jumped, %,d hints learned, %,d "
        + "retired, %,d refused, %,d evicted, %,d held at the end (keyTable)", h.used(), h.learned(), h.retired(),
        h.refused(), h.evicted(), h.held());
  }
}
