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

import org.junit.platform.suite.api.Select;
import org.junit.platform.suite.api.Suite;

/**
 * Ozone 2.2.0's own cluster tests of the list paths, from the ozone-integration-test test jar, on the patched
 * classes. Upstream declares them as {@code @Nested} classes of the abstract {@code NonHATests}, which the concrete
 * {@code TestOzoneIntegrationNonHA} runs on one MiniOzoneCluster (started once, per-class lifecycle). Selecting that
 * whole class would also resolve its other 40-odd nested groups, whose classes need most of Ozone (shell, recon,
 * S3 gateway, ...); selecting the three nested classes with that enclosing class resolves only these, still under
 * one instance of the enclosing class, so they share its one cluster.
 *
 * <p>Run only by the {@code upstream-list-tests} surefire execution: its name matches no default include.
 */
@Suite
@Select({
    "nested-class:org.apache.ozone.test.TestOzoneIntegrationNonHA/org.apache.ozone.test.NonHATests$ListKeys",
    "nested-class:org.apache.ozone.test.TestOzoneIntegrationNonHA/org.apache.ozone.test.NonHATests$ListKeysWithFSO",
    "nested-class:org.apache.ozone.test.TestOzoneIntegrationNonHA/org.apache.ozone.test.NonHATests$ListStatus",
})
public class UpstreamListSuite {
}
