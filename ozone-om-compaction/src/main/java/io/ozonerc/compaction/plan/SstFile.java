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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What RocksDB reports about one live SST file (from {@code LiveFileMetaData}), frozen for the planner.
 *
 * @param table          column family name (an OM table name)
 * @param name           file name, e.g. {@code /000123.sst}; identifies a file across snapshots
 * @param level          LSM level; level 0 files overlap each other and are ordered by {@code largestSeqno}
 * @param smallestKey    smallest user key in the file (inclusive)
 * @param largestKey     largest user key in the file (inclusive)
 * @param entries        internal entries, puts and deletions together ({@code num_entries})
 * @param deletions      deletion entries, i.e. tombstones ({@code num_deletions})
 * @param sizeBytes      file size on disk
 * @param largestSeqno   newest sequence number in the file, orders overlapping level-0 files
 * @param beingCompacted RocksDB is compacting this file right now
 */
public record SstFile(String table, String name, int level, byte[] smallestKey, byte[] largestKey,
    long entries, long deletions, long sizeBytes, long largestSeqno, boolean beingCompacted) {

  public SstFile {
    if (entries < 0 || deletions < 0 || sizeBytes < 0 || level < 0) {
      throw new IllegalArgumentException("negative count in SST facts of " + name);
    }
  }

  /** Equal when every fact is equal, the keys by content (a record would compare the arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof SstFile f && table.equals(f.table) && name.equals(f.name) && level == f.level
        && Arrays.equals(smallestKey, f.smallestKey) && Arrays.equals(largestKey, f.largestKey)
        && entries == f.entries && deletions == f.deletions && sizeBytes == f.sizeBytes
        && largestSeqno == f.largestSeqno && beingCompacted == f.beingCompacted;
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, name, level, Arrays.hashCode(smallestKey), Arrays.hashCode(largestKey), entries,
        deletions, sizeBytes, largestSeqno, beingCompacted);
  }

  @Override
  public String toString() {
    return "SstFile[" + table + " " + name + " L" + level + " " + Keys.show(smallestKey) + ".."
        + Keys.show(largestKey) + " entries=" + entries + " deletions=" + deletions + " bytes=" + sizeBytes
        + " seq=" + largestSeqno + (beingCompacted ? " busy" : "") + "]";
  }

  boolean overlaps(byte[] begin, byte[] end) {
    return Keys.overlaps(smallestKey, largestKey, begin, end);
  }

  /** {@code files} by table, in their order. */
  public static Map<String, List<SstFile>> byTable(List<SstFile> files) {
    Map<String, List<SstFile>> out = new HashMap<>();
    for (SstFile f : files) {
      out.computeIfAbsent(f.table(), t -> new ArrayList<>()).add(f);
    }
    return out;
  }
}
