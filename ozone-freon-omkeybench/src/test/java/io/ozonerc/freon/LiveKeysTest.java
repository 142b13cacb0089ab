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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.freon.LiveKeys.DeleteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LiveKeysTest {

  @Test
  void oldestOrderIsInsertionOrderAcrossTheRingsWrap() {
    LiveKeys keys = new LiveKeys(4);
    long next = 0;
    List<Long> taken = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      while (keys.tryAdd(next)) {
        next++;
      }
      long id = keys.take(DeleteOrder.OLDEST);
      keys.release();
      taken.add(id);
    }
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), taken);
    assertArrayEquals(new long[] {5, 6, 7}, keys.toArray());
  }

  @Test
  void aKeyBeingDeletedHoldsItsSlot() {
    LiveKeys keys = new LiveKeys(2);
    assertTrue(keys.tryAdd(1));
    assertTrue(keys.tryAdd(2));
    long id = keys.take(DeleteOrder.RANDOM);
    assertEquals(1, keys.size());
    assertFalse(keys.tryReserve(), "slot of the key in deletion is still taken");
    assertFalse(keys.tryAdd(3));
    keys.putBack(id); // the delete failed: tracked again, as the oldest
    assertEquals(id, keys.take(DeleteOrder.OLDEST));
    keys.release();
    assertTrue(keys.tryReserve());
    keys.addReserved(7);
    assertEquals(2, keys.size());
    assertEquals(0, keys.inFlight());
  }

  @Test
  void emptyGivesNone() {
    LiveKeys keys = new LiveKeys(3);
    assertEquals(LiveKeys.NONE, keys.take(DeleteOrder.RANDOM));
    assertEquals(LiveKeys.NONE, keys.take(DeleteOrder.OLDEST));
    assertEquals(LiveKeys.NONE, keys.peekRandom());
  }

  /**
   * Threads create (reserve, add) and delete (take, release) at random, as the benchmark's "all" tracking does:
   * no id is ever taken twice, every id taken was added, and live + in flight never exceeds the capacity.
   */
  @Test
  void concurrentUseNeverTakesAKeyTwiceNorExceedsTheCapacity() throws Exception {
    int capacity = 64;
    LiveKeys keys = new LiveKeys(capacity);
    AtomicLong nextId = new AtomicLong();
    Set<Long> added = ConcurrentHashMap.newKeySet();
    Set<Long> taken = ConcurrentHashMap.newKeySet();
    AtomicReference<String> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      DeleteOrder order = t % 2 == 0 ? DeleteOrder.RANDOM : DeleteOrder.OLDEST;
      threads.add(new Thread(() -> {
        for (int i = 0; i < 50_000; i++) {
          if (ThreadLocalRandom.current().nextInt(3) < 2) {
            if (keys.tryReserve()) {
              long id = nextId.getAndIncrement();
              added.add(id);
              keys.addReserved(id);
            }
          } else {
            long id = keys.take(order);
            if (id != LiveKeys.NONE) {
              if (!taken.add(id)) {
                failure.compareAndSet(null, "taken twice: " + id);
              }
              if (!added.contains(id)) {
                failure.compareAndSet(null, "taken but never added: " + id);
              }
              keys.release();
            }
          }
          synchronized (keys) {
            if (keys.size() + keys.inFlight() > capacity) {
              failure.compareAndSet(null, "live " + keys.size() + " + in flight " + keys.inFlight());
            }
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(null, failure.get());
    assertEquals(0, keys.inFlight());
    Set<Long> remaining = new HashSet<>();
    for (long id : keys.toArray()) {
      remaining.add(id);
    }
    assertEquals(keys.size(), remaining.size());
    Set<Long> expected = new HashSet<>(added);
    expected.removeAll(taken);
    assertEquals(expected, remaining, "tracked = added - taken");
    assertTrue(taken.size() > 1000, "the test exercised deletion: " + taken.size());
  }
}
