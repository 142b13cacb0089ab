package io.ozonerc.compaction.service;

import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;

/**
 * Why a round stops before its next compaction: shutdown or a pause, the time budget, or write pressure. The round
 * asks its {@link Check} before every compaction and every bottommost rewrite ({@link CompactionExecutor},
 * {@link PassRunner}).
 */
record Stop(Outcome outcome, String detail) {
  /** Asked before each compaction; returns why to stop, or null to go on. */
  interface Check {
    Stop check() throws IOException;
  }
}
