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
import java.util.List;
import org.apache.hadoop.ozone.om.KeyManagerImpl;
import org.junit.jupiter.api.Test;

/**
 * The build's patched classes are the ones this module's tests load, and {@link OmJvm#stock()} really runs the
 * 2.2.0 jars: each patched class is looked up in-process, in a patched JVM and in a stock JVM.
 */
class PatchedBuildTest {
  @Test
  void testsLoadThePatchedClasses() throws Exception {
    for (String name : PatchedBuild.patchedClassNames()) {
      Class<?> c = Class.forName(name);
      assertTrue(PatchedBuild.isPatched(c), name + " loaded from " + PatchedBuild.loadedFrom(c));
    }
    // Behaviour only the range-compaction patch has: KeyManagerImpl holds the service.
    assertEquals("io.ozonerc.compaction.service.RangeCompactionService",
        KeyManagerImpl.class.getDeclaredField("rangeCompactionService").getType().getName());
  }

  @Test
  void forkedJvmsLoadPatchedOrStockClasses() throws Exception {
    Path work = Path.of("target/om-jvm/where-loaded");
    List<String> names = PatchedBuild.patchedClassNames();
    List<String> patched = OmJvm.patched().run(WhereLoaded.class, work, 120);
    List<String> stock = OmJvm.stock().run(WhereLoaded.class, work, 120);
    assertEquals(names.size(), patched.size());
    assertEquals(names.size(), stock.size());
    List<String> added = PatchedBuild.addedClassNames();
    assertTrue(added.contains("org.apache.hadoop.hdds.utils.db.SkipHints"), "added classes: " + added);
    for (int i = 0; i < names.size(); i++) {
      assertEquals(names.get(i) + " " + PatchedBuild.classesDir(), patched.get(i));
      if (added.contains(names.get(i))) {
        assertEquals(names.get(i) + " absent", stock.get(i), "a class a patch adds is not in 2.2.0");
      } else {
        assertTrue(stock.get(i).startsWith(names.get(i) + " ") && stock.get(i).endsWith("-2.2.0.jar"),
            "stock JVM loaded " + stock.get(i));
      }
    }
  }
}
