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

package io.ozonerc.bench.dirformat;

import io.ozonerc.bench.dirformat.DirectoryFormats.Format;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * Encoded bytes per value of each format, for the objects the serialization benchmark reads. Prints a table and, with
 * an argument, writes the numbers as JSON ({"study": {"PROTOBUF": 93, ...}, ...}) for
 * {@code dev-support/dirformat-compare.py}. Sizes are a property of the encodings, so they are computed, not timed.
 *
 * <p>Run: {@code java -cp <benchmarks classpath> io.ozonerc.bench.dirformat.DirectoryFormatSizes target/sizes.json}
 */
public final class DirectoryFormatSizes {
  private DirectoryFormatSizes() {
  }

  public static Map<String, Map<Format, Integer>> sizes() {
    Map<String, OmDirectoryInfo> objects = new LinkedHashMap<>();
    objects.put("study", DirectoryFormats.studyObject());
    objects.put("heavier", DirectoryFormats.heavierObject());
    Map<String, Map<Format, Integer>> sizes = new LinkedHashMap<>();
    for (Map.Entry<String, OmDirectoryInfo> e : objects.entrySet()) {
      Map<Format, Integer> row = new LinkedHashMap<>();
      for (Format f : Format.values()) {
        row.put(f, f.encode(e.getValue()).length);
      }
      sizes.put(e.getKey(), row);
    }
    return sizes;
  }

  public static void main(String[] args) throws IOException {
    Map<String, Map<Format, Integer>> sizes = sizes();
    StringBuilder json = new StringBuilder("{");
    System.out.printf("%-8s %9s %12s %8s %14s%n", "object", "protobuf", "flatbuffers", "trimmed", "trimmed/proto");
    for (Map.Entry<String, Map<Format, Integer>> e : sizes.entrySet()) {
      Map<Format, Integer> r = e.getValue();
      System.out.printf("%-8s %9d %12d %8d %14.3f%n", e.getKey(), r.get(Format.PROTOBUF), r.get(Format.FLATBUFFERS),
          r.get(Format.TRIMMED), r.get(Format.TRIMMED) / (double) r.get(Format.PROTOBUF));
      json.append(json.length() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": {");
      int i = 0;
      for (Map.Entry<Format, Integer> c : r.entrySet()) {
        json.append(i++ > 0 ? ", " : "").append('"').append(c.getKey()).append("\": ").append(c.getValue());
      }
      json.append('}');
    }
    json.append("}\n");
    if (args.length > 0) {
      Files.write(Path.of(args[0]), json.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
