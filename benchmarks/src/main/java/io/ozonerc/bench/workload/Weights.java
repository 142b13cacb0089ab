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

package io.ozonerc.bench.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Operation weights, written {@code create:20,delete:8,list:1}. Each drawn operation is create, delete or list with
 * probability weight / sum. Parsing rejects anything it cannot read exactly: unknown names, repeated names, negative
 * or non-integer weights, and a zero sum, each with a message that quotes the input.
 */
record Weights(int create, int delete, int list) {

  static final String DEFAULT = "create:20,delete:8,list:1";

  Weights {
    if (create < 0 || delete < 0 || list < 0) {
      throw new IllegalArgumentException("weights must not be negative: create=" + create + ", delete=" + delete
          + ", list=" + list);
    }
    if ((long) create + delete + list == 0) {
      throw new IllegalArgumentException("weights sum to zero: at least one of create, delete, list must be > 0");
    }
  }

  int sum() {
    return create + delete + list;
  }

  static Weights parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty weights; expected e.g. '" + DEFAULT + "'");
    }
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      String[] kv = part.trim().split(":");
      if (kv.length != 2) {
        throw new IllegalArgumentException("cannot parse weight '" + part.trim() + "' in '" + text
            + "'; expected name:integer, e.g. '" + DEFAULT + "'");
      }
      String name = kv[0].trim().toLowerCase(java.util.Locale.ROOT);
      if (!name.equals("create") && !name.equals("delete") && !name.equals("list")) {
        throw new IllegalArgumentException("unknown operation '" + kv[0].trim() + "' in weights '" + text
            + "'; known: create, delete, list");
      }
      int value;
      try {
        value = Integer.parseInt(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("weight of '" + name + "' is not an integer: '" + kv[1].trim()
            + "' in '" + text + "'");
      }
      if (value < 0) {
        throw new IllegalArgumentException("weight of '" + name + "' is negative (" + value + ") in '" + text + "'");
      }
      if (seen.put(name, value) != null) {
        throw new IllegalArgumentException("operation '" + name + "' given twice in weights '" + text + "'");
      }
    }
    return new Weights(seen.getOrDefault("create", 0), seen.getOrDefault("delete", 0), seen.getOrDefault("list", 0));
  }

  @Override
  public String toString() {
    return "create:" + create + ",delete:" + delete + ",list:" + list;
  }
}
