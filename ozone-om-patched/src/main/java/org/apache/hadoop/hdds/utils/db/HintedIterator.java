/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hadoop.hdds.utils.db;

import java.util.Arrays;
import org.apache.hadoop.hdds.utils.db.managed.ManagedRocksIterator;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A byte-array iterator whose seeks and steps use and learn the dead spans of a table's {@link SkipHints} (which
 * read teaches which span, and why using one never hides a live key, is told there). Its prefix bounds it
 * (iterate_upper_bound); with no prefix it reads the whole table and is positioned at the table's first live key
 * when made.
 */
final class HintedIterator extends RDBStoreByteArrayIterator {
  /** Logs as SkipHints does: the skip hints have one log name. */
  private static final Logger LOG = LoggerFactory.getLogger(SkipHints.class);

  private final SkipHints hints;
  private final SkipHints.Start start;
  /** The stamp of the spans this iterator learns: the view clock ticked after its view was taken. */
  private final long stamp;
  /** The first key after the prefix, where a bounded iterator ends; null for the whole table. */
  private final byte[] end;

  HintedIterator(ManagedRocksIterator iterator, RDBTable table, byte[] prefix, byte[] end, IteratorType type,
      SkipHints hints, SkipHints.Start start) {
    super(iterator, table, prefix, type, false);
    this.hints = hints;
    this.start = start;
    this.stamp = hints.viewTaken();
    this.end = end;
    if (prefix == null || prefix.length == 0) {
      seek(SkipHints.TABLE_START);
    }
  }

  @Override
  void seek0(byte[] target) {
    final DeadSpan span = hints.usableAt(target, start);
    final byte[] to = span == null ? target : span.end();
    final long began = System.nanoTime();
    super.seek0(to);
    final long took = System.nanoTime() - began;
    if (span != null) {
      hints.used(span);
    }
    if (start.learnable()
        && (span != null || took >= hints.learnThresholdNanos() || Arrays.equals(target, start.prefix()))) {
      learnFrom(to);
    }
  }

  /** A whole-table iterator's seekToFirst (the OM's scans call it again after making the iterator) uses spans too. */
  @Override
  void seekToFirst0() {
    seek0(SkipHints.TABLE_START);
  }

  @Override
  void advance(byte[] key) {
    final RocksIterator i = getRocksDBIterator().get();
    final DeadSpan span = key == null ? null : hints.usableAfter(key, start);
    if (span != null) {
      i.seek(span.end());
      hints.used(span);
      if (start.learnable()) {
        learnFrom(span.end());
      }
      return;
    }
    if (key == null || !start.learnable()) {
      i.next();
      return;
    }
    final long began = System.nanoTime(); // timed only when the step may teach a span
    i.next();
    if (System.nanoTime() - began >= hints.learnThresholdNanos()) {
      learnFrom(Arrays.copyOf(key, key.length + 1));
    }
  }

  /** Learns [from, the key the iterator stopped at), if that is further on. */
  private void learnFrom(byte[] from) {
    final byte[] found = firstFound();
    if (found != null && Arrays.compareUnsigned(found, from) > 0) {
      hints.learn(start, stamp, from, found);
    }
  }

  /**
   * The key the iterator stopped at; the end of the prefix when it found none; null (learn nothing) when the
   * iterator is not valid because of an error, not because the range ended.
   */
  private byte[] firstFound() {
    ManagedRocksIterator i = getRocksDBIterator();
    if (i.get().isValid()) {
      return i.get().key();
    }
    try {
      i.get().status();
    } catch (RocksDBException e) {
      LOG.warn("Not learning a skip hint for {} after a failed seek: {}", hints.table(), e.toString());
      return null;
    }
    return end;
  }
}
