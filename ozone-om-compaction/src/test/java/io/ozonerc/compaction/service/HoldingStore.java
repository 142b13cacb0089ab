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

import io.ozonerc.compaction.plan.KeyRange;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds the first compaction that begins while armed until the test releases it (a deterministic "round in
 * progress"), and counts the compactions that began and ended inside the real store.
 */
class HoldingStore extends ForwardingStore {
  final CountDownLatch inCompaction = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicInteger begun = new AtomicInteger();
  final AtomicInteger ended = new AtomicInteger();
  volatile boolean armed;

  /** Armed from the start: holds the first compaction. */
  HoldingStore(CompactionStore delegate) {
    this(delegate, true);
  }

  HoldingStore(CompactionStore delegate, boolean armed) {
    super(delegate);
    this.armed = armed;
  }

  @Override
  public void compact(KeyRange range, boolean force) throws IOException {
    begun.incrementAndGet();
    try {
      if (armed) {
        armed = false;
        inCompaction.countDown();
        if (!release.await(60, TimeUnit.SECONDS)) {
          throw new IOException("not released within 60 s");
        }
      }
      super.compact(range, force);
    } catch (InterruptedException e) {
      throw new IOException(e);
    } finally {
      ended.incrementAndGet();
    }
  }
}
