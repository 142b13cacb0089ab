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

package io.ozonerc.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seeded mutation fuzzer over the decoder, bounded by iteration count. Corpus: random valid values in both formats.
 * Mutations: bit flips, interesting bytes (0x00, 0x7F, 0x80, 0xFF), insertions, deletions, truncation, chunk
 * duplication, splices from other values.
 *
 * <p>Property for every mutant: decoding either throws {@link DirectoryValueException} naming the key, or returns a
 * value that means exactly those bytes: re-encoding it gives the mutant back (trimmed values; the reader accepts only
 * the canonical spelling). Any other
 * exception (IndexOutOfBounds, NegativeArraySize, OutOfMemory, ...) fails the test.
 */
class DecoderFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(DecoderFuzzTest.class);
  private static final long SEED = 0x5EED_2026L;
  private static final int CORPUS = 300;
  private static final int MUTANTS = 150_000;
  private static final String KEY = "/-9223372036854775552/-9223372036854775296/-9223372036854775040/fuzzed";

  @Test
  void mutantsAreRejectedWithTheKeyOrMeanExactlyTheirBytes() {
    RandomDirectories gen = new RandomDirectories(SEED);
    Random random = gen.random();
    List<byte[]> corpus = new ArrayList<>();
    for (int i = 0; i < CORPUS; i++) {
      OmDirectoryInfo info = gen.directory();
      corpus.add(i % 5 == 0 ? TrimmedDirectoryCodec.encodeLegacy(info) : TrimmedDirectoryCodec.encode(info));
    }
    DirectoryValueView view = new DirectoryValueView();
    int rejected = 0;
    int accepted = 0;
    for (int i = 0; i < MUTANTS; i++) {
      byte[] mutant = mutate(corpus.get(random.nextInt(corpus.size())), corpus, random);
      OmDirectoryInfo decoded;
      try {
        decoded = TrimmedDirectoryCodec.decode(KEY, mutant);
      } catch (DirectoryValueException e) {
        assertEquals(KEY, e.getKey());
        assertTrue(e.getMessage().contains(KEY), e.getMessage());
        rejected++;
        continue;
      }
      accepted++;
      if (DirectoryFormat.kindOf(mutant) == DirectoryFormat.Kind.TRIMMED) {
        assertArrayEquals(mutant, TrimmedDirectoryCodec.encode(decoded), "accepted bytes that re-encode differently");
        // The view's cheap path agrees with the full decode.
        assertEquals(decoded.getObjectID(), view.wrap(KEY, mutant).objectId());
      }
      // Stable: what was accepted survives its own format's encode/decode.
      byte[] reencoded = DirectoryFormat.kindOf(mutant) == DirectoryFormat.Kind.TRIMMED
          ? TrimmedDirectoryCodec.encode(decoded) : TrimmedDirectoryCodec.encodeLegacy(decoded);
      assertEquals(decoded, TrimmedDirectoryCodec.decode(KEY, reencoded));
    }
    LOG.info("fuzz: {} mutants, {} rejected, {} accepted", MUTANTS, rejected, accepted);
    assertEquals(MUTANTS, rejected + accepted);
  }

  /** Every strict prefix of a valid value is rejected (the format is prefix-free), as is any appended byte. */
  @Test
  void everyTruncationAndExtensionIsRejected() {
    RandomDirectories gen = new RandomDirectories(SEED + 1);
    for (int i = 0; i < 200; i++) {
      byte[] value = TrimmedDirectoryCodec.encode(gen.directory());
      for (int len = 0; len < value.length; len++) {
        byte[] prefix = Arrays.copyOf(value, len);
        assertThrows(DirectoryValueException.Corrupt.class, () -> TrimmedDirectoryCodec.decode(KEY, prefix),
            () -> "prefix of " + prefix.length + " of " + value.length + " bytes accepted");
      }
      byte[] longer = Arrays.copyOf(value, value.length + 1);
      longer[value.length] = (byte) gen.random().nextInt(256);
      assertThrows(DirectoryValueException.Corrupt.class, () -> TrimmedDirectoryCodec.decode(KEY, longer));
    }
  }

  /** The view's objectId alone, over random garbage after a valid header: returns or throws ours, never overruns. */
  @Test
  void objectIdOverGarbage() {
    Random random = new Random(SEED + 2);
    DirectoryValueView view = new DirectoryValueView();
    int threw = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] value = new byte[1 + random.nextInt(14)];
      random.nextBytes(value);
      value[0] = DirectoryFormat.HEADER_V1;
      try {
        view.wrap(KEY, value).objectId();
      } catch (DirectoryValueException.Corrupt e) {
        threw++;
      }
    }
    assertTrue(threw > 0, "no garbage was rejected");
  }

  private static byte[] mutate(byte[] original, List<byte[]> corpus, Random random) {
    byte[] v = original.clone();
    int rounds = 1 + random.nextInt(3);
    for (int r = 0; r < rounds; r++) {
      if (v.length == 0) {
        return v;
      }
      int at = random.nextInt(v.length);
      switch (random.nextInt(8)) {
      case 0:
        v[at] ^= (byte) (1 << random.nextInt(8));
        break;
      case 1:
        v[at] = (byte) new int[] {0x00, 0x7F, 0x80, 0xFF, 0x01, 0x0F}[random.nextInt(6)];
        break;
      case 2: { // insert a byte
        byte[] n = new byte[v.length + 1];
        System.arraycopy(v, 0, n, 0, at);
        n[at] = (byte) random.nextInt(256);
        System.arraycopy(v, at, n, at + 1, v.length - at);
        v = n;
        break;
      }
      case 3: { // delete a byte
        byte[] n = new byte[v.length - 1];
        System.arraycopy(v, 0, n, 0, at);
        System.arraycopy(v, at + 1, n, at, v.length - at - 1);
        v = n;
        break;
      }
      case 4:
        v = Arrays.copyOf(v, at);
        break;
      case 5: { // duplicate a chunk
        int len = Math.min(v.length - at, 1 + random.nextInt(8));
        byte[] n = new byte[v.length + len];
        System.arraycopy(v, 0, n, 0, at + len);
        System.arraycopy(v, at, n, at + len, v.length - at);
        v = n;
        break;
      }
      case 6: { // splice the tail of another value
        byte[] other = corpus.get(random.nextInt(corpus.size()));
        int from = random.nextInt(other.length);
        byte[] n = Arrays.copyOf(v, at + other.length - from);
        System.arraycopy(other, from, n, at, other.length - from);
        v = n;
        break;
      }
      default:
        v[at] = (byte) random.nextInt(256);
      }
    }
    return v;
  }
}
