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

package io.ozonerc.patched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Main for {@link OmJvm}: writes "class location" for every class the patch set changes or adds, as this JVM loads it
 * ("absent" if it has no such class).
 */
public final class WhereLoaded {
  private WhereLoaded() { }

  public static void main(String[] args) throws Exception {
    List<String> lines = new ArrayList<>();
    for (String name : PatchedBuild.patchedClassNames()) {
      try {
        lines.add(name + " " + PatchedBuild.loadedFrom(Class.forName(name)));
      } catch (ClassNotFoundException e) {
        lines.add(name + " absent");
      }
    }
    Files.write(Path.of(args[0]), lines);
  }
}
