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
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link KeyRange} and {@link SstFile} compare their keys by content: equal facts read twice are equal. */
class ValueEqualityTest {
  private static SstFile file(String name, String smallest, long deletions) {
    return new SstFile("keyTable", name, 0, Keys.utf8(smallest), Keys.utf8("/v/b/k9"), 10, deletions, 100, 7, false);
  }

  @Test
  void keyRangesWithEqualBoundsAreEqual() {
    KeyRange a = KeyRange.bucket("keyTable", "/v/b/");
    KeyRange b = KeyRange.bucket("keyTable", "/v/b/"); // fresh arrays
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(Set.of(a), new HashSet<>(Set.of(b)));
    assertEquals(new KeyRange("keyTable", KeyRange.Kind.GAP, "x", Keys.utf8("/a"), null),
        new KeyRange("keyTable", KeyRange.Kind.GAP, "x", Keys.utf8("/a"), null));
    assertNotEquals(a, KeyRange.bucket("keyTable", "/v/c/"));
    assertNotEquals(a, KeyRange.bucket("fileTable", "/v/b/"));
    assertNotEquals(a, new KeyRange("keyTable", KeyRange.Kind.BUCKET, "/v/b/", Keys.utf8("/v/b/"), null));
    assertNotEquals(a, new KeyRange("keyTable", KeyRange.Kind.BUCKET, "other label", a.begin(), a.end()));
    assertNotEquals(a, a.asHead(), "a bucket and its head over the same bounds are different ranges");
  }

  @Test
  void sstFilesWithEqualFactsAreEqual() {
    SstFile a = file("/000012.sst", "/v/b/k0", 5);
    SstFile b = file("/000012.sst", "/v/b/k0", 5);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, file("/000012.sst", "/v/b/k1", 5));
    assertNotEquals(a, file("/000012.sst", "/v/b/k0", 6));
    assertNotEquals(a, file("/000013.sst", "/v/b/k0", 5));
  }
}
