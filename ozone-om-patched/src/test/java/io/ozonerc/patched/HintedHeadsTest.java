package io.ozonerc.patched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compaction service on a patched OM takes a dead head that listings skip from the skip hint, without a seek,
 * and compacts it only when its files are its own; on stock 2.2.0 classes it probes and compacts as before
 * ({@link HintedHeads} runs both cases in each JVM). Counts come from RocksDB: its seek ticker, and the dead
 * entries sized before and after the round.
 */
class HintedHeadsTest {
  /** Keys deleted at the directory's start ({@link HintedHeads}): a seek from there steps over their tombstones. */
  private static final long DELETED = 2_500;

  @Test
  void aPatchedOmsHeadIsSizedFromItsHintAndCompactedOnlyWhenCheap() throws Exception {
    Map<String, Map<String, String>> got = run(OmJvm.patched(), "patched");

    Map<String, String> shared = got.get("shared");
    assertEquals("true", shared.get("from-hint"), shared.toString());
    assertEquals("0", shared.get("seeks"), "sizing from the hint made a seek: " + shared);
    assertEquals("/vol/q/k-02500", shared.get("first"), shared.toString());
    assertTrue(Long.parseLong(shared.get("dead")) >= 200, shared.toString());
    assertEquals("skipped-by-readers", shared.get("verdict"), shared.toString());
    assertEquals("0", shared.get("compacted"), shared.toString());

    Map<String, String> own = got.get("own");
    assertEquals("true", own.get("from-hint"), own.toString());
    assertEquals("0", own.get("seeks"), own.toString());
    assertEquals("planned", own.get("verdict"), own.toString());
    assertEquals("1", own.get("compacted"), own.toString());
    assertTrue(Long.parseLong(own.get("dead-after")) < 100, "the head's compaction left it dead: " + own);

    Map<String, String> dir = got.get("directory");
    assertEquals("1", dir.get("in-round"), "the directory is a candidate of the round: " + dir);
    assertEquals("NOT_LISTED", dir.get("round-sizing"), "no listing starts there, yet it was sought: " + dir);
    assertTrue(Long.parseLong(dir.get("round-skips")) < DELETED,
        "the round's reads stepped over the directory's dead head: " + dir);
    assertEquals("0", dir.get("compacted"), dir.toString());
    assertEquals("HINT", dir.get("sizing-after-listing"), "the directory's listing left no hint: " + dir);
    assertEquals("/vol/d/logs/k-02500", dir.get("first-after-listing"), dir.toString());
  }

  @Test
  void aStockOmsHeadIsProbedAndCompactedAsBefore() throws Exception {
    Map<String, Map<String, String>> got = run(OmJvm.stock(), "stock");
    Map<String, String> dir = got.remove("directory");
    assertEquals("1", dir.get("in-round"), dir.toString());
    assertEquals("SEEK", dir.get("round-sizing"), "a stock OM's directory head is found with a seek: " + dir);
    assertTrue(Long.parseLong(dir.get("round-skips")) >= DELETED, "the probe's seek steps over the head: " + dir);
    assertEquals("1", dir.get("compacted"), dir.toString());
    assertEquals("SEEK", dir.get("sizing-after-listing"), dir.toString());
    assertEquals("/vol/d/logs/k-02500", dir.get("first-after-listing"), dir.toString());
    for (Map<String, String> c : got.values()) {
      assertEquals("false", c.get("from-hint"), c.toString());
      assertTrue(Long.parseLong(c.get("seeks")) >= 1, "a stock OM's head is found with a seek: " + c);
      assertEquals("/vol/q/k-02500", c.get("first"), c.toString());
      assertEquals("planned", c.get("verdict"), c.toString());
      assertEquals("1", c.get("compacted"), c.toString());
      assertTrue(Long.parseLong(c.get("dead-after")) < 100, c.toString());
    }
  }

  /**
   * Runs the three cases; each must keep its listing whole: 500 keys from k-02500 (the queue's, the same after the
   * round) or from logs/k-02500 (the directory's, after the round).
   */
  private static Map<String, Map<String, String>> run(OmJvm jvm, String name) throws Exception {
    List<String> lines = jvm.run(HintedHeads.class, Path.of("target/om-jvm/hinted-heads-" + name), 300);
    assertEquals(3, lines.size(), String.join("\n", lines));
    Map<String, Map<String, String>> out = new HashMap<>();
    for (String line : lines) {
      Map<String, String> kv = new HashMap<>();
      for (String w : line.split(" ")) {
        int eq = w.indexOf('=');
        kv.put(w.substring(0, eq), w.substring(eq + 1));
      }
      boolean directory = "directory".equals(kv.get("case"));
      if (!directory) {
        assertEquals("true", kv.get("lists-equal"), line);
      }
      assertEquals("500", kv.get("listed"), line);
      assertEquals(directory ? "logs/k-02500" : "k-02500", kv.get("first-listed"), line);
      out.put(kv.get("case"), kv);
    }
    return out;
  }
}
