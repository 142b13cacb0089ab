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

package io.ozonerc.freon;

import java.util.ArrayList;
import java.util.List;

/**
 * Ids of keys created while the tracked set was full ({@code --tracking published}: such keys are never deleted),
 * append-only in chunks of 4096: O(1) per key, never a copy of what is already there. {@link LiveKeys} holds the
 * tracked ones.
 */
final class UntrackedKeys {
  private static final int CHUNK = 4096;
  private final List<long[]> chunks = new ArrayList<>();
  private int size;

  synchronized void add(long id) {
    if (size % CHUNK == 0) {
      chunks.add(new long[CHUNK]);
    }
    chunks.get(size / CHUNK)[size % CHUNK] = id;
    size++;
  }

  synchronized long[] toArray() {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = chunks.get(i / CHUNK)[i % CHUNK];
    }
    return out;
  }
}
