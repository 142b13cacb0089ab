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

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A MiniOzoneCluster started by this module's tests runs an OM made of the patched classes. */
class PatchedClusterTest {
  @Test
  void theRunningOmUsesThePatchedClasses() throws Exception {
    try (OmCluster c = OmCluster.start(OmCluster.quietConf())) {
      for (Object part : new Object[] {c.om().getKeyManager(), c.om().getMetadataManager()}) {
        String name = part.getClass().getName();
        if (PatchedBuild.patchedClassNames().contains(name)) {
          assertTrue(PatchedBuild.isPatched(part.getClass()), name + " from " + PatchedBuild.loadedFrom(
              part.getClass()));
        }
      }
      assertTrue(PatchedBuild.isPatched(c.om().getKeyManager().getClass()));
      c.iterSkips(); // throws unless RocksDB statistics are on, as the skip counts of later tests need
    }
  }
}
