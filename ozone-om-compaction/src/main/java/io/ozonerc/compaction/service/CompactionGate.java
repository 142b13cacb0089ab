package io.ozonerc.compaction.service;

import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.KeyRange;
import io.ozonerc.compaction.plan.MemtableFacts;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.plan.WritePressure;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The store as the service's compactor sees it, with a gate in front of {@link #compact}: the pause check and the
 * start of the compaction happen under one lock. A pause first makes {@code paused} true, then {@link #drain}s the
 * gate (takes the lock once); from then on no compaction starts, and when the drain succeeds the one that was in
 * flight has ended. Without the lock a round could pass its stop check just before the pause and start a
 * compaction just after it. Every other call goes straight through; memtable flushes are not gated (the compactor
 * asks its stop supplier before each one).
 */
final class CompactionGate implements CompactionStore {
  /** A compaction reached the gate while paused and was not started. */
  static final class PausedException extends IOException {
    PausedException(KeyRange range) {
      super("compaction of " + RoundResult.name(range) + " not started");
    }
  }

  private final CompactionStore store;
  private final BooleanSupplier paused;
  private final ReentrantLock lock = new ReentrantLock();

  /** @param paused whether compactions may not start now; must be true before {@link #drain} is called */
  CompactionGate(CompactionStore store, BooleanSupplier paused) {
    this.store = store;
    this.paused = paused;
  }

  /**
   * Waits until no compaction is inside the store, at most {@code timeoutNanos}.
   *
   * @return false when one was still running at the end of the wait (it is left to finish; no other starts)
   */
  boolean drain(long timeoutNanos) throws InterruptedException {
    if (!lock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS)) {
      return false;
    }
    lock.unlock();
    return true;
  }

  /** @throws PausedException instead of starting the compaction while paused */
  @Override
  public void compact(KeyRange range, boolean forceBottommost) throws IOException {
    lock.lock();
    try {
      if (paused.getAsBoolean()) {
        throw new PausedException(range);
      }
      store.compact(range, forceBottommost);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<SstFile> liveFiles(Set<String> tables) throws IOException {
    return store.liveFiles(tables);
  }

  @Override
  public Map<String, List<KeyRange>> bucketRanges(Set<String> tables) throws IOException {
    return store.bucketRanges(tables);
  }

  @Override
  public List<HeadFacts> probeHeads(String table, List<KeyRange> ranges, List<SstFile> tableFiles)
      throws IOException {
    return store.probeHeads(table, ranges, tableFiles);
  }

  @Override
  public List<MemtableFacts> memtables(Set<String> tables) throws IOException {
    return store.memtables(tables);
  }

  @Override
  public void flush(String table) throws IOException {
    store.flush(table);
  }

  @Override
  public WritePressure writePressure() throws IOException {
    return store.writePressure();
  }
}
