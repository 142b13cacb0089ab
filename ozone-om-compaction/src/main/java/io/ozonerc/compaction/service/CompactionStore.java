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
 * Everything the service needs from the OM's store, and nothing more. The real implementation is
 * {@link io.ozonerc.compaction.om.OmCompactionStore}; tests wrap it to inject failures or hold a compaction open.
 * Each call resolves the store afresh, so a store the OM closed and reopened is never used stale.
 */
public interface CompactionStore {
  /** Live SST files of the given tables. */
  List<SstFile> liveFiles(Set<String> tables) throws IOException;

  /** Per table, one key range per bucket prefix (from the OM's volume and bucket tables). */
  Map<String, List<KeyRange>> bucketRanges(Set<String> tables) throws IOException;

  /**
   * Dead heads of {@code ranges}, all of {@code table}: where each range's first live key is and how many internal
   * keys precede it. {@code tableFiles} are the table's live files. Reads only. Where the OM's read path keeps a
   * skip hint at a range's start, the head is the span listings skip, sized without a seek
   * ({@link HeadFacts#skippedByReaders()}).
   */
  List<HeadFacts> probeHeads(String table, List<KeyRange> ranges, List<SstFile> tableFiles) throws IOException;

  /**
   * Entries and tombstones of {@code ranges}, all of {@code table}, counted in the table's live files
   * {@code tableFiles} ({@link RangeCount}): files wholly inside by their properties, files straddling a range read
   * over it. Reads files only. A range whose file was deleted meanwhile is left out of the result.
   */
  List<RangeCount> countRanges(String table, List<KeyRange> ranges, List<SstFile> tableFiles) throws IOException;

  /** Entries and deletes in each table's memtables (active and immutable). */
  List<MemtableFacts> memtables(Set<String> tables) throws IOException;

  /** Flushes one table's memtable to an SST file and waits for it. */
  void flush(String table) throws IOException;

  /** The store's current write-pressure signals. */
  WritePressure writePressure() throws IOException;

  /** Compacts [begin, end) of the range's table; non-exclusive, one subcompaction. Blocks until done. */
  void compact(KeyRange range, boolean forceBottommost) throws IOException;
}
