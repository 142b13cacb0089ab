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

package org.apache.hadoop.hdds.utils.db;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test seam that exists only in instrumented copies of {@code SkipHints} (see {@code SkipHintLearnWindowTest}):
 * the copy calls {@link #pause} at a point inside {@code learn()}, and the action a scenario set for that point runs
 * there, on the learner's thread, while the learner holds its lock. The product class has no such call.
 */
public final class LearnWindow {
  private static final Map<String, Runnable> ACTIONS = new ConcurrentHashMap<>();
  private static final Set<String> REACHED = ConcurrentHashMap.newKeySet();

  private LearnWindow() { }

  /** Runs {@code action} the next time the learner reaches {@code point}. */
  public static void at(String point, Runnable action) {
    ACTIONS.put(point, action);
  }

  /** Called by the instrumented copy. */
  public static void pause(String point) {
    REACHED.add(point);
    Runnable action = ACTIONS.remove(point);
    if (action != null) {
      action.run();
    }
  }

  /** Whether the learner reached {@code point} (false in the product class, which never calls {@link #pause}). */
  public static boolean reached(String point) {
    return REACHED.contains(point);
  }
}
