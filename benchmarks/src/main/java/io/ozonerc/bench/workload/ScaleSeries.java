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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What {@code --scale} prints after its comparisons: the steps run, and range against none at each. */
final class ScaleSeries {

  private ScaleSeries() {
  }

  /** What the scale.md header says in place of one comparison's operation count, e.g. "1e5 and 1e7 operations ...". */
  static String stepsText(List<TombstoneBenchmark.ScaleStep> steps) {
    List<String> labels = new ArrayList<>();
    steps.forEach(s -> labels.add(s.label()));
    String last = labels.remove(labels.size() - 1);
    return labels.isEmpty() ? last + " operations (one comparison)"
        : String.join(", ", labels) + " and " + last + " operations (one comparison each)";
  }

  /** One row per step run, the published gain next to the step it was published for. */
  static String table(List<TombstoneBenchmark.ScaleStep> steps, List<Report> done) {
    StringBuilder s = new StringBuilder("| operations | none list p99 ms | range list p99 ms | range gain (p99) "
        + "| none DB seek avg us | range DB seek avg us | range seek gain | published HDDS-12682 seek gain "
        + "| skips/list none -> range | range compactions |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < done.size(); i++) {
      Report rep = done.get(i);
      RunResult none = rep.get("none");
      RunResult range = rep.get("range");
      if (none == null || range == null) {
        s.append(String.format(Locale.ROOT, "| %,d | n/a (none or range not available) |||||| %s |||%n",
            steps.get(i).ops(), steps.get(i).published()));
        continue;
      }
      boolean worked = rep.all("range").stream().allMatch(RunResult::didWork);
      s.append(String.format(Locale.ROOT, "| %,d | %s | %s | %s | %s | %s | %s | %s | %s -> %s | %s |%n",
          steps.get(i).ops(),
          rep.stat("none", r -> Report.p99(r) / 1e6).format("%.2f"),
          rep.stat("range", r -> Report.p99(r) / 1e6).format("%.2f"),
          worked ? rep.ratio("none", "range", Report::p99).format("%.1f") + "x" : "NO VERDICT (range idle)",
          rep.stat("none", r -> r.seeks().averageMicros()).format("%.0f"),
          rep.stat("range", r -> r.seeks().averageMicros()).format("%.0f"),
          worked ? rep.ratio("none", "range", r -> r.seeks().averageMicros()).format("%.1f") + "x"
              : "NO VERDICT (range idle)", steps.get(i).published(),
          rep.stat("none", RunResult::skipsPerList).format("%,.0f"),
          rep.stat("range", RunResult::skipsPerList).format("%,.0f"),
          rep.stat("range", RunResult::manualCompactions).format("%.0f")));
    }
    return s.toString();
  }
}
