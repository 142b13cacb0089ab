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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Key parsing: the byte path and the String path agree, and bad keys are named in the error. */
class DirectoryKeyTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "/1/2/3/a                                                          | 3                    | a",
      "/-9223372036854775552/-9223372036854775296/-9223372036854775808/x | -9223372036854775808 | x",
      "/0/0/9223372036854775807/名前 with spaces                         | 9223372036854775807  | 名前 with spaces",
      "/1/2/+5/plus                                                      | 5                    | plus",
      "/1/2/3/                                                           | 3                    | ''",
      "/1/2/3/a/b                                                        | 3                    | a/b",
  })
  void parsesParentAndName(String key, long parent, String name) {
    for (DirectoryKey k : new DirectoryKey[] {DirectoryKey.parse(key),
        DirectoryKey.parse(key.getBytes(StandardCharsets.UTF_8))}) {
      assertEquals(parent, k.parentId());
      assertEquals(name, k.name());
    }
  }

  @ParameterizedTest(name = "[{index}] ''{0}''")
  @ValueSource(strings = {"", "1/2/3/a", "/1/2/3", "/1/2/x/a", "/1/2/9223372036854775808/a",
      "/9223372036854775808/2/3/a", "/1/-9223372036854775809/3/a", "/1/2/-/a", "/a/2/3/n", "/1//3/n"})
  void rejectsMalformedKeysNamingThem(String key) {
    DirectoryValueException e = assertThrows(DirectoryValueException.Corrupt.class, () -> DirectoryKey.parse(key));
    assertEquals(key, e.getKey());
    DirectoryValueException b = assertThrows(DirectoryValueException.Corrupt.class,
        () -> DirectoryKey.parse(key.getBytes(StandardCharsets.UTF_8)));
    assertEquals(key, b.getKey());
  }
}
