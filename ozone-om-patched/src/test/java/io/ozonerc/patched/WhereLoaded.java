package io.ozonerc.patched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Main for {@link OmJvm}: writes "class location" for every class the patch set changes or adds, as this JVM loads it ("absent" if it has no such class). */
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
