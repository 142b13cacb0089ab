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

package io.ozonerc.compaction.om;

import io.ozonerc.compaction.plan.KeyRange;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The spans an OM's listings skip, read from the skip hints of an OM patched with
 * {@code HDDS-skip-hints-2.2.0.patch}: per table, each hint's start and the key listings from there jump to.
 *
 * <p>The plugin is built against stock Ozone 2.2.0 and runs on it, where the metadata manager has no
 * {@code getSkipHints()}; so the patched API is reached by reflection, and anything else (stock classes, hints
 * turned off, a store that has none yet, an API that does not match) reads as "no spans": the service then
 * probes every head with a seek, as it does on a stock OM.
 *
 * <p>Advisory: the service sizes the spans with RocksDB's approximate sizes to decide whether a
 * compaction is worth it. It never reads keys through a hint, never installs or retires one (a look-up counts as
 * a use in the hints' LRU order, nothing more), and a span retired the moment after it was read only makes one
 * estimate stale, as a seek's finding would be.
 */
final class SkipHintSpans {
  private static final Logger LOG = LoggerFactory.getLogger(SkipHintSpans.class);
  private static final AtomicBoolean WARNED = new AtomicBoolean();

  private SkipHintSpans() { }

  /**
   * The hints of {@code table} now at the starts of {@code ranges}, start to hint; empty when the OM keeps none
   * (see the class comment). Looks up only those starts: the OM's hint map stays locked for microseconds.
   */
  static Map<ByteBuffer, byte[]> of(OMMetadataManager metadata, String table, List<KeyRange> ranges) {
    try {
      Method groupGetter = GETTERS.get(metadata.getClass());
      if (groupGetter == null || ranges.isEmpty()) {
        return Map.of(); // stock OM classes
      }
      Object group = groupGetter.invoke(metadata);
      if (group == null) {
        return Map.of(); // a store without hints (stopped, snapshot)
      }
      for (Object hints : (List<?>) TABLES.get(group.getClass()).invoke(group)) {
        Method[] api = HINTS.get(hints.getClass());
        if (table.equals(api[0].invoke(hints))) {
          byte[][] starts = ranges.stream().map(KeyRange::begin).toArray(byte[][]::new);
          byte[][] found = (byte[][]) api[1].invoke(hints, (Object) starts);
          Map<ByteBuffer, byte[]> out = new HashMap<>();
          for (int i = 0; i < starts.length; i++) {
            if (found[i] != null) {
              out.put(ByteBuffer.wrap(starts[i]), found[i]);
            }
          }
          return out;
        }
      }
      return Map.of();
    } catch (ReflectiveOperationException | ClassCastException | ArrayIndexOutOfBoundsException
        | IllegalStateException e) {
      Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause()
          : e.getCause() instanceof NoSuchMethodException ? e.getCause() : e;
      if (WARNED.compareAndSet(false, true)) {
        LOG.warn("Cannot read the OM's skip hints ({}); dead heads are probed with seeks instead", cause.toString());
      }
      return Map.of();
    }
  }

  /** The metadata manager's {@code getSkipHints()}, or null (stock classes); looked up once per class. */
  private static final ClassValue<Method> GETTERS = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      try {
        return type.getMethod("getSkipHints");
      } catch (NoSuchMethodException e) {
        return null;
      }
    }
  };

  /** The hint group's {@code tables()}; looked up once per class. */
  private static final ClassValue<Method> TABLES = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      return method(type, "tables");
    }
  };

  /** A table's hints' {@code table()} and {@code hintsAt(byte[][])}; looked up once per class. */
  private static final ClassValue<Method[]> HINTS = new ClassValue<>() {
    @Override
    protected Method[] computeValue(Class<?> type) {
      return new Method[] {method(type, "table"), method(type, "hintsAt", byte[][].class)};
    }
  };

  /** A public method the patched API must have; an API that does not match reads as "no spans" (see of). */
  private static Method method(Class<?> type, String name, Class<?>... parameters) {
    try {
      return type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(type.getName() + " has no " + name, e);
    }
  }
}
