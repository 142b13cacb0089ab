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

package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.RangeCount;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.WritePressure;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Passes every call to another store. {@link CompactionGate} overrides {@link #compact}; tests override one method
 * to hold, fail or alter it (a narrow seam).
 */
class ForwardingStore implements CompactionStore {
  private final CompactionStore delegate;

  ForwardingStore(CompactionStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<SstFile> liveFiles(Set<String> tables) throws IOException {
    return delegate.liveFiles(tables);
  }

  @Override
  public Map<String, List<KeyRange>> bucketRanges(Set<String> tables) throws IOException {
    return delegate.bucketRanges(tables);
  }

  @Override
  public List<HeadFacts> probeHeads(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
      throws IOException {
    return delegate.probeHeads(table, ranges, tableFiles);
  }

  @Override
  public List<RangeCount> countRanges(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
      throws IOException {
    return delegate.countRanges(table, ranges, tableFiles);
  }

  @Override
  public List<MemtableFacts> memtables(Set<String> tables) throws IOException {
    return delegate.memtables(tables);
  }

  @Override
  public void flush(String table) throws IOException {
    delegate.flush(table);
  }

  @Override
  public WritePressure writePressure() throws IOException {
    return delegate.writePressure();
  }

  @Override
  public void compact(KeyRange range, boolean forceBottommost) throws IOException {
    delegate.compact(range, forceBottommost);
  }
}
