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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the main job's short table ({@link Report#shortTable}) into a Markdown file between two marker lines, so
 * that the README's current table is what the command last printed, never typed in by hand:
 * {@code dev-support/bench-tombstones --readme README.md}. Everything outside the markers stays as it was.
 */
final class ReadmeTable {
  static final String BEGIN = "<!-- main-job-table:begin -->";
  static final String END = "<!-- main-job-table:end -->";

  private ReadmeTable() { }

  /**
   * The file's text, after checking that it has both markers in order.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException naming the file when it lacks either marker, or has them out of order
   */
  static String check(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("--readme " + file + ": no such file");
    }
    String text = Files.readString(file);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("--readme " + file + " has no line " + BEGIN + " followed by a line " + END
          + ": the table is written between them");
    }
    return text;
  }

  /**
   * Replaces what lies between the markers in {@code file} with {@code caption} and {@code table}.
   *
   * @throws IOException when the file cannot be read or written
   * @throws IllegalArgumentException naming the file when it lacks either marker, or has them out of order
   */
  static void update(Path file, String caption, String table) throws IOException {
    String text = check(file);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    String block = BEGIN + "\n" + caption + "\n\n" + table + END;
    Files.writeString(file, text.substring(0, begin) + block + text.substring(end + END.length()));
  }
}
