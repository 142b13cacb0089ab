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

/**
 * A dead span [lo, hi) of a table's {@link SkipHints} and the stamp of the newest view it was learned from. Its
 * fields are the hints' to read and set, under the rules their class comment gives.
 */
final class DeadSpan {
  final byte[] lo;
  final byte[] hi;
  final long stamp;
  /** The view clock when a reader last used it (racy: only orders eviction). */
  volatile long lastUsed;
  /** Set once its learner's check passed; until then no reader uses it. */
  volatile boolean installed;

  DeadSpan(byte[] lo, byte[] hi, long stamp, long lastUsed) {
    this.lo = lo;
    this.hi = hi;
    this.stamp = stamp;
    this.lastUsed = lastUsed;
  }

  byte[] end() {
    return hi;
  }
}
