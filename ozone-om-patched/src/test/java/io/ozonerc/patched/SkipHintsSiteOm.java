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
import org.apache.hadoop.hdds.utils.db.SkipHintSettings;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;

/**
 * Run by {@link SkipHintsSiteTest} in a JVM whose class path starts with a directory holding an
 * {@code ozone-site.xml}: starts a MiniOzoneCluster on it and writes the skip hint settings its OM runs with, or,
 * if the OM does not start, the error and where it was thrown.
 *
 * <p>Argument: the output file.
 */
public final class SkipHintsSiteOm {
  private SkipHintsSiteOm() { }

  public static void main(String[] args) throws Exception {
    List<String> out = new ArrayList<>();
    try (OmCluster c = OmCluster.start(OmCluster.quietConf())) {
      SkipHintSettings s = ((OmMetadataManagerImpl) c.om().getMetadataManager()).getSkipHints().settings();
      out.add("started enabled=" + s.isEnabled() + " max.entries=" + s.maxEntries() + " learn.threshold.ns="
          + s.learnThresholdNanos());
    } catch (Throwable e) {
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      boolean inConstructor = false;
      boolean rpcStarted = false;
      for (StackTraceElement f : root.getStackTrace()) {
        inConstructor |= f.getClassName().equals("org.apache.hadoop.ozone.om.OzoneManager")
            && f.getMethodName().equals("<init>");
        rpcStarted |= f.getClassName().equals("org.apache.hadoop.ozone.om.OzoneManager")
            && f.getMethodName().equals("start");
      }
      out.add("failed " + root.getClass().getSimpleName() + ": " + root.getMessage());
      out.add("thrown in the OzoneManager constructor: " + inConstructor + ", in OzoneManager.start: " + rpcStarted);
    }
    Files.write(Path.of(args[0]), out);
    System.exit(0); // a MiniOzoneCluster may leave non-daemon threads behind
  }
}
