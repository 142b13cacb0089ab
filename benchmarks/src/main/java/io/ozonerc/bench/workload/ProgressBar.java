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

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on stderr for the whole comparison: current run, its operations done, and an ETA for all
 * runs, estimated as if the remaining runs each took as long as the average finished run (the first run's ETA
 * extrapolates from its own progress). Without a console it prints a line every 10% instead of redrawing.
 */
final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintStream err;
  private final int runs;
  private final boolean enabled;
  private final boolean redraw;
  private final long t0 = System.nanoTime();
  private int finishedRuns;
  private String current = "";
  private long total = 1;
  private long lastDraw;
  private int lastDecile = -1;

  ProgressBar(PrintStream err, int runs, boolean enabled) {
    this.err = err;
    this.runs = Math.max(1, runs);
    this.enabled = enabled;
    this.redraw = System.console() != null;
  }

  void startRun(String name, long totalOps) {
    current = name;
    total = Math.max(1, totalOps);
    lastDecile = -1;
  }

  void update(long done) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    double runFraction = Math.min(1.0, (double) done / total);
    double overall = (finishedRuns + runFraction) / runs;
    double elapsed = (now - t0) / 1e9;
    String eta = overall <= 0.001 ? "--:--" : clock(elapsed / overall - elapsed);
    int filled = (int) Math.round(runFraction * WIDTH);
    String line = String.format(Locale.ROOT, "[%s%s] %3.0f%% run %d/%d %-9s %,d/%,d ops  elapsed %s  ETA %s",
        "#".repeat(filled), "-".repeat(WIDTH - filled), runFraction * 100, finishedRuns + 1, runs, current, done,
        total, clock(elapsed), eta);
    if (redraw) {
      if (now - lastDraw > 200_000_000L || done >= total) {
        err.print("\r" + line);
        err.flush();
        lastDraw = now;
      }
    } else {
      int decile = (int) (runFraction * 10);
      if (decile != lastDecile) {
        err.println(line);
        lastDecile = decile;
      }
    }
  }

  void endRun() {
    finishedRuns++;
    if (enabled && redraw) {
      err.print("\r" + " ".repeat(110) + "\r");
      err.flush();
    }
  }

  static String clock(double seconds) {
    long s = Math.max(0, Math.round(seconds));
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
