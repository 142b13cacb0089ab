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

package io.ozonerc.compaction.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KeysTest {

  @ParameterizedTest(name = "successor of {0} is {1}")
  @CsvSource({
      "/vol/bucket/, /vol/bucket0",
      "/-9223372036854775552/-9223372036854775040/, /-9223372036854775552/-92233720368547750400",
      "a\\xFF, b",
      "a\\xFF\\xFF, b",
  })
  void prefixSuccessorEndsRightAfterThePrefix(String prefix, String successor) {
    assertArrayEquals(Keys.parse(successor), Keys.prefixSuccessor(Keys.parse(prefix)));
  }

  @ParameterizedTest(name = "inclusive end for {0}: {1}")
  @CsvSource({
      "/vol/b0, /vol/b/\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF\\xFF",
      "/q/key-00000010\\x00, /q/key-00000010",
  })
  void inclusiveEndLeavesTheExclusiveEndOut(String end, String inclusive) {
    byte[] e = Keys.parse(end);
    byte[] last = Keys.inclusiveEnd(e);
    assertArrayEquals(Keys.parse(inclusive), last);
    assertTrue(Keys.compare(last, e) < 0, "before the end");
  }

  @ParameterizedTest(name = "{0}, before the exclusive end /q/key-00000010, is within the inclusive end")
  @CsvSource({"/q/key-00000009", "/q/key-0000000", "/q/key-00000009\\xFF", "/q/key-0000000:", "/q/key-00000010"})
  void textKeysBeforeTheEndStayWithinTheInclusiveEnd(String key) {
    byte[] end = Keys.utf8("/q/key-00000010");
    byte[] k = Keys.parse(key);
    boolean before = Keys.compare(k, end) < 0;
    assertEquals(before, Keys.compare(k, Keys.inclusiveEnd(end)) <= 0, "inclusive end holds exactly the keys "
        + "before the end: " + key);
  }

  @org.junit.jupiter.api.Test
  void noEndStaysNoEnd() {
    assertNull(Keys.inclusiveEnd(null));
  }

  @ParameterizedTest(name = "{0} is inside the range of /vol/b/: {1}")
  @CsvSource({
      "/vol/b/key, true",
      "/vol/b/, true",
      "/vol/b0, false",       // the successor itself is outside
      "/vol/b-x/key, false",  // '-' sorts before '/': a neighbour bucket
      "/vol/bb/key, false",   // a longer bucket name sorts after the successor
      "/vol/b/\\xFF\\xFF, true",
  })
  void bucketRangeHoldsExactlyTheBucketsKeys(String key, boolean inside) {
    KeyRange r = KeyRange.bucket("keyTable", "/vol/b/");
    byte[] k = Keys.parse(key);
    assertEquals(inside, Keys.overlaps(k, k, r.begin(), r.end()));
  }

  @org.junit.jupiter.api.Test
  void allOnesPrefixHasNoUpperBound() {
    assertNull(Keys.prefixSuccessor(new byte[] {(byte) 0xFF, (byte) 0xFF}));
  }

  @org.junit.jupiter.api.Test
  void showAndParseRoundTrip() {
    byte[] key = {'/', 'a', 0, (byte) 0x80, '\\', 'z'};
    assertArrayEquals(key, Keys.parse(Keys.show(key)));
    assertTrue(Keys.show(key).contains("\\x00"));
  }

  @org.junit.jupiter.api.Test
  void fileInsideRangeCountsWholeAndOutsideNotAtAll() {
    byte[] b = Keys.utf8("/v/a/");
    byte[] e = Keys.utf8("/v/a0");
    assertEquals(1.0, Keys.overlapFraction(Keys.utf8("/v/a/k1"), Keys.utf8("/v/a/k9"), b, e));
    assertEquals(0.0, Keys.overlapFraction(Keys.utf8("/v/b/k1"), Keys.utf8("/v/b/k9"), b, e));
    double half = Keys.overlapFraction(Keys.parse("/v/a/\\x00"), Keys.parse("/v/a/\\xFE"), b, Keys.parse("/v/a/\\x7F"));
    assertEquals(0.5, half, 0.01);
  }
}
