package io.ozonerc.compaction.service;

import java.io.IOException;

/** The OM's store is closed or being replaced (checkpoint install, shutdown): the round waits for the next one. */
public class StoreUnavailableException extends IOException {
  public StoreUnavailableException(String message) {
    super(message);
  }
}
