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
