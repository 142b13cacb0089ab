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
