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

import java.util.concurrent.ThreadLocalRandom;

/**
 * The keys a benchmark tracks as live, by numeric id, at most {@code capacity} of them, plus the slots of keys in
 * flight: being created ({@link #tryReserve}) or being deleted ({@link #take}).
 *
 * <p>One ring buffer under one lock; every operation is O(1) and allocation-free, so the lock is held for a few
 * array writes while the caller's RPC (milliseconds) runs outside it. The ring keeps insertion order, so
 * {@link DeleteOrder#OLDEST} takes the head; {@link DeleteOrder#RANDOM} swaps a random entry with the head and
 * takes that, which keeps the ring dense. (Under random deletion the order of the remaining entries is no longer
 * their age, but random deletion never asks for age.) {@link #peekRandom} reads any live entry in place.
 *
 * <p>Invariant: {@code size() + inFlight() <= capacity}. A slot stays counted while its key is being deleted, so a
 * caller that reserves before creating never has more than {@code capacity} keys in the bucket at once.
 */
final class LiveKeys {
  /** Which tracked key a delete takes. */
  enum DeleteOrder { RANDOM, OLDEST }

  static final long NONE = -1;

  private final long[] ring;
  private int head;
  private int size;
  private int inFlight;

  LiveKeys(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    ring = new long[capacity];
  }

  int capacity() {
    return ring.length;
  }

  synchronized int size() {
    return size;
  }

  synchronized int inFlight() {
    return inFlight;
  }

  /** Reserves a slot for a key about to be created; false when every slot is live or in flight. */
  synchronized boolean tryReserve() {
    if (size + inFlight >= ring.length) {
      return false;
    }
    inFlight++;
    return true;
  }

  /** The key whose slot was reserved now exists: track it (newest). */
  synchronized void addReserved(long id) {
    if (inFlight == 0) {
      throw new IllegalStateException("addReserved without a reservation");
    }
    inFlight--;
    append(id);
  }

  /** Tracks {@code id} (newest) if a slot is free; false when full (the key stays untracked). */
  synchronized boolean tryAdd(long id) {
    if (size + inFlight >= ring.length) {
      return false;
    }
    append(id);
    return true;
  }

  /**
   * Removes a tracked key for deletion and keeps its slot in flight until {@link #release} or {@link #putBack}:
   * no other caller can take the same key. {@link #NONE} when nothing is tracked.
   */
  synchronized long take(DeleteOrder order) {
    if (size == 0) {
      return NONE;
    }
    if (order == DeleteOrder.RANDOM && size > 1) {
      int pick = slot(ThreadLocalRandom.current().nextInt(size));
      long chosen = ring[pick];
      ring[pick] = ring[head];
      ring[head] = chosen;
    }
    long id = ring[head];
    head = slot(1);
    size--;
    inFlight++;
    return id;
  }

  /** Frees the slot of a key taken for deletion, or of a reservation whose create failed. */
  synchronized void release() {
    if (inFlight == 0) {
      throw new IllegalStateException("release without a slot in flight");
    }
    inFlight--;
  }

  /** A key taken for deletion was not deleted: track it again, as the oldest. */
  synchronized void putBack(long id) {
    release();
    head = slot(ring.length - 1);
    ring[head] = id;
    size++;
  }

  /** Any tracked key, left in place; {@link #NONE} when nothing is tracked. */
  synchronized long peekRandom() {
    return size == 0 ? NONE : ring[slot(ThreadLocalRandom.current().nextInt(size))];
  }

  /** Copy of the tracked ids, oldest first (for reports and tests; O(n), never on a timed path). */
  synchronized long[] toArray() {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = ring[slot(i)];
    }
    return out;
  }

  private void append(long id) {
    ring[slot(size)] = id;
    size++;
  }

  /** Ring index of the entry {@code offset} places after the head. */
  private int slot(int offset) {
    int i = head + offset;
    return i >= ring.length ? i - ring.length : i;
  }
}
