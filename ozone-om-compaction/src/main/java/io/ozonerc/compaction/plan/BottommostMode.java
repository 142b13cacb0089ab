package io.ozonerc.compaction.plan;

/**
 * Whether a range compaction also rewrites the files it finds in the range's bottommost level.
 *
 * <p>A manual compaction merges each level of the range into the one below; the last merge writes into the
 * bottommost level, where tombstones with nothing under them are dropped. Files that already sit in the bottommost
 * level are only rewritten when asked (RocksDB's {@code kForce}), and in rocksdbjni 7.7.3 that also rewrites the
 * files the same call has just written there ({@code kForceOptimized}, which avoids it, is not in the Java API).
 */
public enum BottommostMode {
  /** Never rewrite bottommost files ({@code kSkip}); tombstones already at the bottom stay. */
  SKIP,
  /** Always rewrite bottommost files ({@code kForce}): drops every tombstone, rewrites fresh output a second time. */
  FORCE,
  /**
   * Per range: force only when at least half of the range's tombstones sit in its deepest level, where nothing
   * but a bottommost rewrite removes them; otherwise skip and let the merge from above drop them. Default.
   */
  AUTO;

  public static BottommostMode parse(String text) {
    for (BottommostMode m : values()) {
      if (m.name().equalsIgnoreCase(text.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown bottommost mode '" + text + "' (auto, skip, force)");
  }

  @Override
  public String toString() {
    return name().toLowerCase();
  }
}
