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

package io.ozonerc.compaction.om;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.RangeCompactionConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bad range compaction value stops the starter before Ozone creates the OzoneManager, so no port is opened.
 *
 * <p>The OM storage here is never initialised. Creating an OzoneManager on it fails inside its constructor
 * ("OM Storage is not initialized yet"), before RPC, Ratis or HTTP; that is what a good configuration gets. A bad value
 * must fail earlier, with our message: proof that the check runs before the OM exists.
 */
class RangeCompactionOmStarterTest {

  private static OzoneConfiguration conf(Path dir) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.metadata.dirs", dir.toString());
    conf.set("ozone.om.db.dirs", dir.resolve("om-db").toString());
    conf.set(RangeCompactionConfig.ENABLED_KEY, "true");
    return conf;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"start", "bootstrap", "upgrade"})
  void badValueFailsBeforeTheOzoneManagerIsCreated(String form, @TempDir Path dir) {
    OzoneConfiguration conf = conf(dir);
    conf.set("ozone.om.range.compaction.interval", "500us");
    RangeCompactionOmStarter starter = new RangeCompactionOmStarter();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
      switch (form) {
      case "start" -> starter.start(conf);
      case "bootstrap" -> starter.bootstrap(conf, false);
      default -> starter.startAndCancelPrepare(conf);
      }
    });
    assertTrue(e.getMessage().contains("ozone.om.range.compaction.interval") && e.getMessage().contains("500us"),
        e.getMessage());
    assertFalse(Files.exists(dir.resolve("om")), "no OM storage touched");
  }

  @org.junit.jupiter.api.Test
  void goodValuesReachTheOzoneManagerConstructor(@TempDir Path dir) {
    OzoneConfiguration conf = conf(dir);
    conf.set("ozone.om.range.compaction.interval", "1ms");
    IOException e = assertThrows(IOException.class, () -> new RangeCompactionOmStarter().start(conf));
    assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getClassName().equals(OzoneManager.class.getName())
        && f.getMethodName().equals("<init>")), "failed inside the OzoneManager constructor: " + e);
  }
}
