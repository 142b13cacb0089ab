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

package io.ozonerc.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code ozone-site.xml} as an operator writes it, and a fresh JVM that finds it where Ozone looks: first on
 * the class path (the {@code ozone} launcher puts {@code $OZONE_CONF_DIR} there). Configuration precedence can only
 * be tested this way: keys set with {@code conf.set} survive Hadoop's reloads, site-file values do not, and which
 * class a JVM loads first decides the order of Hadoop's default resources for the rest of its life.
 */
public final class SiteConfJvm {
  private final Path confDir;

  private SiteConfJvm(Path confDir) {
    this.confDir = confDir;
  }

  /** Writes {@code <dir>/ozone-site.xml} with {@code values} (and nothing else) and returns a launcher for it. */
  public static SiteConfJvm withSite(Path dir, Map<String, String> values) throws IOException {
    Files.createDirectories(dir);
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    values.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    xml.append("</configuration>\n");
    Files.writeString(dir.resolve("ozone-site.xml"), xml, StandardCharsets.UTF_8);
    return new SiteConfJvm(dir);
  }

  public Path confDir() {
    return confDir;
  }

  /**
   * The site file read in this JVM, as an added resource after Ozone's defaults (where the OM finds it on its
   * class path): for tests that run a round or a service in-process on an operator's settings.
   */
  public org.apache.hadoop.hdds.conf.OzoneConfiguration load() {
    org.apache.hadoop.hdds.conf.OzoneConfiguration conf = new org.apache.hadoop.hdds.conf.OzoneConfiguration();
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve("ozone-site.xml").toUri()));
    return conf;
  }

  /** Exit status and everything the JVM printed (stdout, then stderr). */
  public record Result(int status, String out, String err) {
    @Override
    public String toString() {
      return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** Runs {@code main} with {@code args} on the conf directory plus this JVM's class path; at most 3 minutes. */
  public Result run(String main, String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile(confDir, "out", ".txt");
    Path err = Files.createTempFile(confDir, "err", ".txt");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-Dnative.lib.tmp.dir=" + confDir,
        "-cp", confDir + File.pathSeparator + System.getProperty("java.class.path"), main));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).directory(confDir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      throw new IllegalStateException(main + " did not exit within 3 minutes; output: " + out + ", " + err);
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }
}
