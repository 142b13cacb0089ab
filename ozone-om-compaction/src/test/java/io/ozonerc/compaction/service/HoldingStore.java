package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.KeyRange;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;

/** Holds every compaction at its start until the test releases it: a deterministic "round in progress". */
class HoldingStore extends ForwardingStore {
  final CountDownLatch inCompaction = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);

  HoldingStore(CompactionStore delegate) {
    super(delegate);
  }

  @Override
  public void compact(KeyRange range, boolean force) throws IOException {
    inCompaction.countDown();
    try {
      release.await();
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
    super.compact(range, force);
  }
}
