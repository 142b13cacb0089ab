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

/**
 * A compaction policy under test: what runs in the background while the workload runs. Each run gets a fresh store
 * and a fresh policy; {@link #start} is called after the store is open and before the first operation, {@link #close}
 * after the last one (it must wait for a compaction in flight).
 */
interface Policy extends AutoCloseable {

  String name();

  void start(BenchStore store) throws Exception;

  @Override
  void close() throws Exception;

  /** Manual compactions this policy issued (compactRange calls). */
  long compactions();

  /** Wall time spent inside those compactions. */
  long compactionNanos();

  /**
   * Tombstones the policy's own compactions removed as the policy counts them, or -1 when it does not count them.
   * A policy that counts and removed none did no work, whatever number of compactions it reports.
   */
  default long tombstonesRemoved() {
    return -1;
  }

  /** Dead entries the policy's head compactions removed, as it counts them, or -1 when it does not. */
  default long headEntriesRemoved() {
    return -1;
  }

  /** Memtable flushes the policy asked for (0 when it asks for none). */
  default long flushes() {
    return 0;
  }

  /** Bytes the policy's own compactions processed, as the policy counts them (0 when it does not count them). */
  default long compactedBytes() {
    return 0;
  }

  /** One line on what the policy did beyond the counters, or "" (e.g. the service's own metrics). */
  default String detail() {
    return "";
  }

  /** The keyTable's skip hint counters over the run, or null for a policy that lists without hints. */
  default RunResult.Hints hints() {
    return null;
  }

  /** The first error a background round hit, or null: a failed policy must not look like a quiet one. */
  default Throwable failure() {
    return null;
  }

  /** {@code none}: RocksDB's own automatic compactions only ({@code ideal} runs under it too, by its own name). */
  final class None implements Policy {
    private final String name;

    None() {
      this("none");
    }

    None(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void start(BenchStore store) {
    }

    @Override
    public void close() {
    }

    @Override
    public long compactions() {
      return 0;
    }

    @Override
    public long compactionNanos() {
      return 0;
    }
  }
}
