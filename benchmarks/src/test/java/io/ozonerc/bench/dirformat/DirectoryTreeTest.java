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

package io.ozonerc.bench.dirformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ozonerc.bench.dirformat.DirectoryFormats.Format;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small tree: every walk does levels+1 lookups, and every format resolves the same path to the same ids. */
class DirectoryTreeTest {
  @TempDir
  Path data;
  private String saved;

  @BeforeEach
  void pointAtTempDir() {
    saved = System.getProperty("dirformat.data");
    System.setProperty("dirformat.data", data.toString());
  }

  @AfterEach
  void restore() {
    if (saved == null) {
      System.clearProperty("dirformat.data");
    } else {
      System.setProperty("dirformat.data", saved);
    }
  }

  @Test
  void walksResolveTheSameIdsInEveryFormat() throws Exception {
    try (DirectoryTree tree = DirectoryTree.open("3x4", 1L << 20)) {
      assertEquals(3 + 9 + 27 + 81, tree.directories);
      byte[] key = new byte[tree.maxKeyLength()];
      DirectoryFormats.Readers readers = new DirectoryFormats.Readers();
      SplittableRandom random = new SplittableRandom(1);
      for (int walk = 0; walk < 50; walk++) {
        long parent = DirectoryTree.BUCKET_ID;
        long index = -1;
        for (int level = 0; level <= tree.levels; level++) {
          int child = random.nextInt(tree.fanout);
          int len = tree.key(key, parent, child);
          byte[] k = java.util.Arrays.copyOf(key, len);
          if (level == tree.levels) {
            for (Format f : Format.values()) {
              assertNull(tree.db().get(tree.handle(f), k), "leaf has no children");
            }
            break;
          }
          index = tree.childIndex(index, child);
          long expected = DirectoryTree.objectIdOf(index);
          for (Format f : Format.values()) {
            byte[] value = tree.db().get(tree.handle(f), k);
            assertNotNull(value, f + " " + new String(k, StandardCharsets.US_ASCII));
            assertEquals(expected, readers.objectId(f, value), f.name());
          }
          OmDirectoryInfo full = TrimmedDirectoryCodec.decode(k, tree.db().get(tree.handle(Format.TRIMMED), k));
          assertEquals(parent, full.getParentObjectID());
          assertEquals(DirectoryTree.name(child), full.getName());
          parent = expected;
        }
      }
    }
  }

  /** InterleavedWalk opens one read-only instance per reader, each with its own cache, side by side. */
  @Test
  void readOnlyInstancesOpenSideBySide() throws Exception {
    try (DirectoryTree a = DirectoryTree.openReadOnly("2x2", 1L << 20);
         DirectoryTree b = DirectoryTree.openReadOnly("2x2", 1L << 20)) {
      byte[] key = new byte[a.maxKeyLength()];
      int len = a.key(key, DirectoryTree.BUCKET_ID, 1);
      byte[] k = java.util.Arrays.copyOf(key, len);
      DirectoryFormats.Readers readers = new DirectoryFormats.Readers();
      assertEquals(DirectoryTree.objectIdOf(1),
          readers.objectId(Format.TRIMMED, a.db().get(a.handle(Format.TRIMMED), k)));
      assertEquals(DirectoryTree.objectIdOf(1),
          readers.objectId(Format.PROTOBUF, b.db().get(b.handle(Format.PROTOBUF), k)));
    }
  }

  @Test
  void writesLongsAsLongToStringDoes() {
    byte[] buf = new byte[24];
    for (long v : new long[] {0, 7, -7, 10, Long.MAX_VALUE, Long.MIN_VALUE, DirectoryTree.BUCKET_ID, -1000}) {
      int end = DirectoryTree.writeLong(buf, 2, v);
      assertEquals(Long.toString(v), new String(buf, 2, end - 2, StandardCharsets.US_ASCII));
    }
  }
}
