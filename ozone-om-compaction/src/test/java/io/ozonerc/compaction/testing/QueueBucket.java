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

package io.ozonerc.compaction.testing;

import java.io.IOException;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;

/**
 * A queue bucket {@code /v/q/} behind a live first bucket {@code /v/a/} (so the table head is live), as a
 * service sees one: keys created at the tail, the oldest deleted, every step flushed.
 */
public final class QueueBucket {
  private final OmTestStore store;
  private int head;
  private int tail;

  private QueueBucket(OmTestStore store, int tail) {
    this.store = store;
    this.tail = tail;
  }

  /** Buckets /v/a/ with 1,000 keys and /v/q/ with {@code keys}, flushed; nothing deleted yet. */
  public static QueueBucket seed(OmTestStore store, int keys) throws IOException {
    store.addBucket("v", 1, "a", 2, BucketLayout.OBJECT_STORE);
    store.addBucket("v", 1, "q", 3, BucketLayout.OBJECT_STORE);
    store.putKeys("v", "a", 0, 1_000);
    store.putKeys("v", "q", 0, keys);
    store.flush();
    return new QueueBucket(store, keys);
  }

  /** The queue moves on: {@code n} new keys at the tail, the {@code n} oldest deleted, flushed. */
  public void churn(int n) throws IOException {
    store.putKeys("v", "q", tail, tail + n);
    tail += n;
    store.deleteKeys("v", "q", head, head + n);
    head += n;
    store.flush();
  }
}
