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

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** How a test JVM that will never finish is ended. */
class OmJvmTest {

  /**
   * A main that logs what Ozone's ExitUtils logs when a service fails to start, then never returns: a MiniOzoneCluster
   * whose start failed behaves so (its other threads keep the JVM alive).
   */
  public static final class HangsAfterTerminating {
    public static void main(String[] args) throws InterruptedException {
      System.out.println("ERROR ExitUtils: " + OmJvm.TERMINATING + " -1: failed to start the OM");
      System.out.flush();
      new CountDownLatch(1).await();
    }
  }

  /**
   * Ended as soon as the line is in its log, not at the timeout: the only way to the message checked here. Without
   * the log watch the run would wait out the 600 s and fail with "did not finish" instead.
   */
  @Test
  void aJvmThatLogsItIsTerminatingIsEndedWithTheLine() {
    AssertionError e = assertThrows(AssertionError.class, () -> OmJvm.stock().run(HangsAfterTerminating.class,
        Path.of("target/om-jvm/terminating"), 600));
    assertTrue(e.getMessage().contains("and was ended") && e.getMessage().contains("failed to start the OM"),
        e.getMessage());
  }
}
