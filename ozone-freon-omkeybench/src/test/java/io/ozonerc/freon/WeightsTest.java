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

package io.ozonerc.freon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.freon.Weights.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WeightsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // spec | create | delete | list
      "create:20,delete:8,list:1 | 20 | 8 | 1",
      "CREATE:1, Delete:2          | 1  | 2 | 0",
      "list:5                      | 0  | 0 | 5"})
  void parses(String spec, int create, int delete, int list) {
    Weights w = Weights.parse(spec);
    assertEquals(create, w.weight(Op.CREATE));
    assertEquals(delete, w.weight(Op.DELETE));
    assertEquals(list, w.weight(Op.LIST));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      // spec | part of the message
      "create:x                | is not an integer",
      "create:0,delete:0       | sum to 0",
      "create:-1,delete:3      | negative",
      "read:1                  | unknown operation 'read'",
      "create                  | is not op:weight",
      "create:1,create:2       | given twice",
      "create:1,               | is not op:weight"})
  void rejects(String spec, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Weights.parse(spec));
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void picksByCumulativeWeight() {
    Weights w = Weights.parse("create:20,delete:8,list:1");
    assertEquals(29, w.total());
    assertEquals(Op.CREATE, w.pick(0));
    assertEquals(Op.CREATE, w.pick(19));
    assertEquals(Op.DELETE, w.pick(20));
    assertEquals(Op.DELETE, w.pick(27));
    assertEquals(Op.LIST, w.pick(28));
  }
}
