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

import java.util.List;

/**
 * A range whose compaction removed no tombstone, and the files it left. Tombstones a compaction cannot drop (at the
 * bottom with {@code bottommost.mode=skip}, or held by a snapshot) stay where they are, and the range still
 * qualifies: without a memory of this, every round would compact it again and a range ranked behind it would never
 * get its turn. Until its files change (a flush adds one, a compaction rewrites one) another compaction would
 * remove nothing either, so the planner leaves it out ({@link Verdict#NO_PROGRESS}).
 *
 * @param range the range as it was compacted
 * @param files the table's files overlapping it afterwards, as {@code name@Llevel:bytes}, in name order
 */
public record NoProgress(KeyRange range, List<String> files) {

  public NoProgress {
    files = List.copyOf(files);
  }

  /** The range and the files of {@code files} (any tables) that overlap it now. */
  public static NoProgress of(KeyRange range, List<SstFile> files) {
    return new NoProgress(range, files.stream()
        .filter(f -> f.table().equals(range.table()) && f.overlaps(range.begin(), range.end()))
        .map(f -> f.name() + "@L" + f.level() + ":" + f.sizeBytes()).sorted().toList());
  }

  /** True when {@code snapshot} (a fresh list of files) holds exactly the same files over the range. */
  public boolean unchangedIn(List<SstFile> snapshot) {
    return files.equals(of(range, snapshot).files);
  }
}
