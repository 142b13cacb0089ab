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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Ozone's own tests, run from the 2.2.0 test jars by the {@code upstream-list-tests} execution, come from those jars
 * and see the patched classes: each class the patch set changes, looked up through the class loader of the upstream
 * test classes, is the one in {@code target/classes}. The MiniOzoneCluster of the nested cluster tests runs in this
 * JVM, on this class path. Run only by that execution (its name matches no default include).
 */
class UpstreamClassPathCheck {
  private static final String OM_TESTS = "org.apache.hadoop.ozone.om.TestOmMetadataManager";
  private static final String CLUSTER_TESTS = "org.apache.ozone.test.TestOzoneIntegrationNonHA";

  @Test
  void upstreamTestsComeFromTheTestJarsAndLoadThePatchedClasses() throws Exception {
    for (String[] t : new String[][] {
        {OM_TESTS, "ozone-manager-2.2.0-tests.jar"},
        {CLUSTER_TESTS, "ozone-integration-test-2.2.0-tests.jar"}}) {
      Class<?> upstream = Class.forName(t[0]);
      Path jar = PatchedBuild.loadedFrom(upstream);
      assertEquals(t[1], jar.getFileName().toString(), t[0] + " loaded from " + jar);
      for (String name : PatchedBuild.patchedClassNames()) {
        Class<?> c = Class.forName(name, false, upstream.getClassLoader());
        assertTrue(PatchedBuild.isPatched(c),
            name + ", seen from " + t[0] + ", loaded from " + PatchedBuild.loadedFrom(c));
      }
    }
  }
}
