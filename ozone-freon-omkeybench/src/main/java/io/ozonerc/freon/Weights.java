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

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/** The operation mix of {@code --weights create:W,delete:W,list:W}: each operation drawn with probability W / sum. */
final class Weights {
  /** The operations of the benchmark, in report order. */
  enum Op { CREATE, DELETE, LIST }

  private final int create;
  private final int delete;
  private final int list;

  private Weights(int create, int delete, int list) {
    this.create = create;
    this.delete = delete;
    this.list = list;
  }

  /**
   * Parses {@code op:weight} pairs separated by commas, ops named case-insensitively; an op left out weighs 0.
   * Throws IllegalArgumentException saying what is wrong with {@code spec}: a pair that is not op:weight, an unknown
   * op, a repeated op, a weight that is not a non-negative integer, or weights summing to 0.
   */
  static Weights parse(String spec) {
    Map<Op, Integer> w = new EnumMap<>(Op.class);
    for (String pair : spec.split(",", -1)) {
      String[] kv = pair.trim().split(":", -1);
      if (kv.length != 2) {
        throw new IllegalArgumentException("'" + pair.trim() + "' is not op:weight");
      }
      Op op;
      try {
        op = Op.valueOf(kv[0].trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown operation '" + kv[0].trim() + "' (create, delete, list)");
      }
      int weight;
      try {
        weight = Integer.parseInt(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("weight '" + kv[1].trim() + "' of " + op + " is not an integer");
      }
      if (weight < 0) {
        throw new IllegalArgumentException("weight of " + op + " is negative: " + weight);
      }
      if (w.put(op, weight) != null) {
        throw new IllegalArgumentException(op + " is given twice");
      }
    }
    Weights out = new Weights(w.getOrDefault(Op.CREATE, 0), w.getOrDefault(Op.DELETE, 0),
        w.getOrDefault(Op.LIST, 0));
    if ((long) out.create + out.delete + out.list == 0) {
      throw new IllegalArgumentException("weights sum to 0");
    }
    if ((long) out.create + out.delete + out.list > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("weights sum above " + Integer.MAX_VALUE);
    }
    return out;
  }

  int total() {
    return create + delete + list;
  }

  int weight(Op op) {
    switch (op) {
    case CREATE:
      return create;
    case DELETE:
      return delete;
    default:
      return list;
    }
  }

  /** The operation for a uniform draw {@code r} in [0, total()). */
  Op pick(int r) {
    if (r < create) {
      return Op.CREATE;
    }
    return r < create + delete ? Op.DELETE : Op.LIST;
  }

  @Override
  public String toString() {
    return "create:" + create + ",delete:" + delete + ",list:" + list;
  }
}
