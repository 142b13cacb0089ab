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

/**
 * RocksDB's own signals that foreground writes are, or are about to be, held back. A round stops at the first
 * one, because a manual compaction competes with the background compactions that relieve them.
 *
 * @param maxPendingCompactionBytes largest {@code rocksdb.estimate-pending-compaction-bytes} of any column family
 * @param maxLevel0Files            largest {@code rocksdb.num-files-at-level0} of any column family
 * @param delayedWriteRate          {@code rocksdb.actual-delayed-write-rate}: non-zero while writes are slowed
 * @param writeStopped              {@code rocksdb.is-write-stopped}
 */
public record WritePressure(long maxPendingCompactionBytes, long maxLevel0Files, long delayedWriteRate,
    boolean writeStopped) {

  /**
   * Why a round must stop now, or {@code null} to go on. A limit is reached at {@code value >= limit}, so a limit
   * of 0 always stops (a way to pause the service without restarting the OM).
   */
  public String reasonToStop(long pendingBytesLimit, long level0FilesLimit) {
    if (writeStopped) {
      return "RocksDB reports writes stopped";
    }
    if (delayedWriteRate > 0) {
      return String.format(Locale.ROOT, "RocksDB is delaying writes (%d B/s)", delayedWriteRate);
    }
    if (maxPendingCompactionBytes >= pendingBytesLimit) {
      return "pending compaction bytes " + maxPendingCompactionBytes + " >= limit " + pendingBytesLimit;
    }
    if (maxLevel0Files >= level0FilesLimit) {
      return "level-0 files " + maxLevel0Files + " >= limit " + level0FilesLimit;
    }
    return null;
  }
}
