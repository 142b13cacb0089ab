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

/**
 * What counting a range's SST files found: its internal entries and its tombstones, exact for the live files of
 * the moment, the memtables left out. A file wholly inside the range counts by its properties
 * ({@code num_entries}, {@code num_deletions}); a file that straddles the range's bounds is read over the range
 * itself, key by key ({@code rocks.RangeCounter}), so its share is measured, not guessed from where its keys lie.
 *
 * <p>Why count: a flush holds every bucket written since the last one, so one bucket's deletes sit in level-0
 * files with the puts of hundreds of other buckets. The planner's estimate shares such a file's deletions between
 * the ranges it spans by key position ({@link BucketShares}), which can give a bucket holding all of them a
 * small fraction: the bucket is never compacted, and a listing of it keeps stepping over every tombstone. The
 * count is what a full listing of the range reads: every tombstone in it.
 *
 * @param range       the range counted (a bucket)
 * @param entries     internal entries in it: puts and tombstones of every file
 * @param tombstones  tombstones in it
 * @param filesRead   straddling files read over the range (the others were counted by their properties)
 */
public record RangeCount(KeyRange range, long entries, long tombstones, int filesRead) {
  public RangeCount {
    if (entries < 0 || tombstones < 0 || tombstones > entries || filesRead < 0) {
      throw new IllegalArgumentException("impossible count of " + range + ": " + tombstones + " tombstones in "
          + entries + " entries");
    }
  }
}
