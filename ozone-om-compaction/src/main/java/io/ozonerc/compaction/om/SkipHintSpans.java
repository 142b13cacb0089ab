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
      Method groupGetter = publicMethod(metadata.getClass(), "getSkipHints");
      if (groupGetter == null || ranges.isEmpty()) {
        return Map.of(); // stock OM classes
      }
      Object group = groupGetter.invoke(metadata);
      if (group == null) {
        return Map.of(); // a store without hints (stopped, snapshot)
      }
      for (Object hints : (List<?>) group.getClass().getMethod("tables").invoke(group)) {
        if (table.equals(hints.getClass().getMethod("table").invoke(hints))) {
          byte[][] starts = ranges.stream().map(KeyRange::begin).toArray(byte[][]::new);
          byte[][] found = (byte[][]) hints.getClass().getMethod("hintsAt", byte[][].class)
              .invoke(hints, (Object) starts);
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
    } catch (ReflectiveOperationException | ClassCastException | ArrayIndexOutOfBoundsException e) {
      Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
      if (WARNED.compareAndSet(false, true)) {
        LOG.warn("Cannot read the OM's skip hints ({}); dead heads are probed with seeks instead", cause.toString());
      }
      return Map.of();
    }
  }

  private static Method publicMethod(Class<?> type, String name) {
    try {
      return type.getMethod(name);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }
}
