package io.ozonerc.patched;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Main for {@link OmJvm}: writes "class location" for every class the patch set changes, as this JVM loads it. */
public final class WhereLoaded {
  private WhereLoaded() { }

  public static void main(String[] args) throws Exception {
    List<String> lines = new ArrayList<>();
    for (String name : PatchedBuild.patchedClassNames()) {
      lines.add(name + " " + PatchedBuild.loadedFrom(Class.forName(name)));
    }
    Files.write(Path.of(args[0]), lines);
  }
}
