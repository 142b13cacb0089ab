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

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TableFacts#straddledGap}: a gap between two neighbouring buckets that no file begins or ends in holds
 * nothing by estimate, so a plan leaves it out without assessing it. Each case puts one file over buckets /v/b1/
 * and /v/b2/ (keys given without the volume) and asks about the gap between them.
 */
class StraddledGapTest {
  private static final KeyRange B1 = KeyRange.bucket("t", "/v/b1/");
  private static final KeyRange B2 = KeyRange.bucket("t", "/v/b2/");

  @ParameterizedTest(name = "file [{0}, {1}]: straddled gap = {2}")
  @CsvSource({
      // smallest, largest, straddled: the gap is [/v/b10, /v/b2/)
      "/v/b1/k1, /v/b2/k1, true",     // spans the gap: its entries are in b1 and b2
      "/v/a, /v/c, true",             // spans both buckets and the gap
      "/v/b1/k1, /v/b1/k9, true",     // inside b1, does not reach the gap
      "/v/b1/k1, /v/b10, false",      // ends in the gap
      "/v/b10, /v/b2/k1, false",      // begins in the gap
      "/v/b100, /v/b101, false",      // wholly inside the gap (keys of a deleted bucket)
  })
  void gapBetweenNeighbours(String smallest, String largest, boolean straddled) {
    TableFacts t = TableFacts.of(List.of(file(smallest, largest)), List.of(B2, B1));
    assertEquals(straddled, t.straddledGap(B1.end(), B2.begin()));
    // The estimate agrees: a straddled gap holds no entry.
    if (straddled) {
      assertEquals(0.0, RangeStats.estimate(t, B1.end(), B2.begin()).entries());
    }
  }

  @ParameterizedTest(name = "[{0}, {1}) is not a gap between neighbours")
  @CsvSource({
      "'', /v/b1/",         // before the first bucket: one neighbour only
      "/v/b2/k, /v/b3",     // inside a bucket
      "/v/b10, /v/b15",     // ends before the next bucket begins
  })
  void onlyGapsBetweenTwoNeighbouringBuckets(String begin, String end) {
    TableFacts t = TableFacts.of(List.of(file("/v/a", "/v/c")), List.of(B1, B2));
    assertEquals(false, t.straddledGap(Keys.utf8(begin), Keys.utf8(end)));
  }

  @Test
  void overlappingBucketsAreNeverShortcut() {
    KeyRange wide = new KeyRange("t", KeyRange.Kind.BUCKET, "wide", Keys.utf8("/v/b1/"), Keys.utf8("/v/b1/z"));
    TableFacts t = TableFacts.of(List.of(file("/v/a", "/v/c")), List.of(B1, wide, B2));
    assertEquals(false, t.straddledGap(B1.end(), B2.begin()));
  }

  private static SstFile file(String smallest, String largest) {
    return new SstFile("t", "/1.sst", 1, Keys.utf8(smallest), Keys.utf8(largest), 1_000, 100, 100_000, 1, false);
  }
}
