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
