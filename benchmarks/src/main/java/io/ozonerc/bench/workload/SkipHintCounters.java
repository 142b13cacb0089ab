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

package io.ozonerc.bench.workload;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Reads the skip hints of HDDS-skip-hints-2.2.0.patch through reflection. {@code SkipHints},
 * {@code TypedTable.getSkipHints()} and {@code OmMetadataManagerImpl.getSkipHints()} exist only on the patched class
 * path (ozone-om-patched), while this module compiles against, and its parent JVM runs on, stock Ozone 2.2.0: no
 * class here links to them. Only the hint policies call this, in the child JVM that has the patched classes first.
 */
final class SkipHintCounters {

  static final String SKIP_HINTS_CLASS = "org.apache.hadoop.hdds.utils.db.SkipHints";

  private SkipHintCounters() {
  }

  /** True when the classes loaded here carry the skip hints patch. */
  static boolean loaded() {
    try {
      Class.forName(SKIP_HINTS_CLASS, false, SkipHintCounters.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * Fails unless {@code store} learns and uses hints: the patched classes, the OM's group of hints attached by
   * {@code OmMetadataManagerImpl.start()}, switched on.
   */
  static void requireEnabled(BenchStore store) {
    Object group = call(store.metadataManager(), "getSkipHints");
    if (group == null) {
      throw new IllegalStateException("the OM metadata store has no skip hints (OmMetadataManagerImpl from "
          + RunResult.omClassesHere() + ")");
    }
    Object settings = call(group, "settings");
    if (!Boolean.TRUE.equals(call(settings, "isEnabled"))) {
      throw new IllegalStateException("skip hints are off in the store (" + BenchStore.SKIP_HINTS_KEY + ")");
    }
  }

  /** The keyTable's counters now (cumulative since the store opened). */
  static RunResult.Hints read(BenchStore store) {
    Object hints = call(store.keyTable(), "getSkipHints");
    if (hints == null) {
      throw new IllegalStateException("the keyTable (" + store.keyTable().getClass().getName() + ") has no skip "
          + "hints");
    }
    return new RunResult.Hints(number(hints, "used"), number(hints, "learned"), number(hints, "refused"),
        number(hints, "retired"), number(hints, "evicted"), number(hints, "size"));
  }

  private static long number(Object target, String method) {
    return ((Number) call(target, method)).longValue();
  }

  private static Object call(Object target, String method) {
    Method m;
    try {
      m = target.getClass().getMethod(method);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(target.getClass().getName() + " has no " + method + "(): the classes loaded "
          + "here are not those of HDDS-skip-hints-2.2.0.patch (OmMetadataManagerImpl from "
          + RunResult.omClassesHere() + ")", e);
    }
    try {
      return m.invoke(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(method + "() failed: " + e.getCause(), e.getCause());
    }
  }
}
