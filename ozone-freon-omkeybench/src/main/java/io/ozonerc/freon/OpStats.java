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

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one operation did over the run: a Dropwizard {@link Timer} (the type freon's report prints) whose reservoir
 * is a {@link LatencyHistogram} of the whole run instead of Dropwizard's default, which forgets everything older
 * than about five minutes; and a count of draws skipped because no tracked key existed.
 */
final class OpStats {
  private final LatencyHistogram histogram = new LatencyHistogram();
  private final Timer timer = new Timer(new WholeRunReservoir(histogram));
  private final LongAdder skipped = new LongAdder();
  private LatencyHistogram.Snapshot lastInterval = histogram.snapshot();

  Timer timer() {
    return timer;
  }

  void record(long nanos) {
    timer.update(nanos, TimeUnit.NANOSECONDS);
  }

  void skip() {
    skipped.increment();
  }

  long skipped() {
    return skipped.sum();
  }

  LatencyHistogram.Snapshot total() {
    return histogram.snapshot();
  }

  /** What was recorded since the previous call (the first call: since the start). One caller thread only. */
  LatencyHistogram.Snapshot nextInterval() {
    LatencyHistogram.Snapshot now = histogram.snapshot();
    LatencyHistogram.Snapshot interval = now.since(lastInterval);
    lastInterval = now;
    return interval;
  }

  /** A Dropwizard reservoir that keeps every value of the run, in {@link LatencyHistogram} buckets. */
  static final class WholeRunReservoir implements Reservoir {
    private final LatencyHistogram histogram;

    WholeRunReservoir(LatencyHistogram histogram) {
      this.histogram = histogram;
    }

    @Override
    public int size() {
      return (int) Math.min(Integer.MAX_VALUE, histogram.snapshot().count());
    }

    @Override
    public void update(long value) {
      histogram.record(value);
    }

    @Override
    public Snapshot getSnapshot() {
      return new BucketSnapshot(histogram.snapshot());
    }
  }

  /** Dropwizard's view of a histogram snapshot; values in the recorded unit (nanoseconds). */
  static final class BucketSnapshot extends Snapshot {
    private final LatencyHistogram.Snapshot s;

    BucketSnapshot(LatencyHistogram.Snapshot s) {
      this.s = s;
    }

    @Override
    public double getValue(double quantile) {
      return s.valueAt(quantile);
    }

    /** Buckets, not samples, are kept: no reporter freon uses asks for the raw values. */
    @Override
    public long[] getValues() {
      throw new UnsupportedOperationException("a whole-run histogram keeps bucket counts, not samples");
    }

    @Override
    public int size() {
      return (int) Math.min(Integer.MAX_VALUE, s.count());
    }

    @Override
    public long getMax() {
      return s.max();
    }

    @Override
    public double getMean() {
      return s.mean();
    }

    @Override
    public long getMin() {
      return s.min();
    }

    @Override
    public double getStdDev() {
      return s.stdDev();
    }

    @Override
    public void dump(OutputStream output) {
      PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(output, StandardCharsets.UTF_8));
      out.print(s.dump());
      out.flush();
    }
  }
}
