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

package io.ozonerc.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Property: for any OmDirectoryInfo, decode(key, encode(info)) equals info, and the view reads the same fields. */
class DirectoryValueRoundTripTest {
  private static final int CASES_PER_SEED = 1500;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 20261122})
  void roundTripsRandomDirectories(long seed) throws Exception {
    RandomDirectories gen = new RandomDirectories(seed);
    DirectoryValueView view = new DirectoryValueView();
    for (int i = 0; i < CASES_PER_SEED; i++) {
      OmDirectoryInfo info = gen.directory();
      String key = gen.keyOf(info);
      byte[] bytes = TrimmedDirectoryCodec.encode(info);

      assertEquals(DirectoryFormat.Kind.TRIMMED, DirectoryFormat.kindOf(bytes));
      OmDirectoryInfo back = TrimmedDirectoryCodec.decode(key, bytes);
      assertEquals(info, back, () -> "seed " + seed + " case " + info);
      // Raw-key path agrees with the String path on the same key bytes (UTF-8 turns a lone surrogate in a key
      // into '?', as Ozone's key codec does, so compare like with like).
      byte[] rawKey = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(TrimmedDirectoryCodec.decode(new String(rawKey, java.nio.charset.StandardCharsets.UTF_8), bytes),
          TrimmedDirectoryCodec.decode(rawKey, bytes));
      // equals() ignores nothing that matters, but say the parts explicitly for a readable failure.
      assertEquals(info.getName(), back.getName());
      assertEquals(info.getParentObjectID(), back.getParentObjectID());
      assertEquals(info.getOwner(), back.getOwner());
      assertEquals(info.getAcls(), back.getAcls());
      assertEquals(info.getMetadata(), back.getMetadata());

      // Encoding is a function of the value: re-encoding the decoded object gives the same bytes.
      assertArrayEquals(bytes, TrimmedDirectoryCodec.encode(back));

      // Value-only codec.
      DirectoryValue value = DirectoryValueCodec.get().fromPersistedFormat(bytes);
      assertEquals(DirectoryValue.of(info), value);
      assertArrayEquals(bytes, DirectoryValueCodec.get().toPersistedFormat(value));

      // The lazy view, field by field, in an order that starts with strings (index first, fixed fields later).
      view.wrap(key, bytes);
      assertEquals(info.getOwner(), view.owner());
      assertEquals(info.getObjectID(), view.objectId());
      assertEquals(info.getUpdateID(), view.updateId());
      assertEquals(info.getCreationTime(), view.creationTime());
      assertEquals(info.getModificationTime(), view.modificationTime());
      List<OzoneAcl> acls = info.getAcls();
      assertEquals(acls.size(), view.aclCount());
      for (int a = 0; a < acls.size(); a++) {
        assertEquals(acls.get(a).getType(), view.aclType(a));
        assertEquals(acls.get(a).getName(), view.aclName(a));
        assertEquals(acls.get(a).getAclScope(), view.aclScope(a));
        assertEquals(acls.get(a), view.acl(a));
      }
      Map<String, String> md = info.getMetadata();
      assertEquals(md.size(), view.metadataCount());
      assertEquals(md, view.metadata());
      assertEquals(bytes.length, view.length());
    }
  }

  @ParameterizedTest(name = "owner={0}")
  @ValueSource(strings = {"", "hadoop"})
  void emptyAndNullFields(String owner) {
    OmDirectoryInfo withOwner = OmDirectoryInfo.newBuilder().setName("").setOwner(owner).build();
    OmDirectoryInfo noOwner = OmDirectoryInfo.newBuilder().setName("x").setObjectID(0).build();
    assertEquals(withOwner, TrimmedDirectoryCodec.decode("/0/0/0/", TrimmedDirectoryCodec.encode(withOwner)));
    OmDirectoryInfo back = TrimmedDirectoryCodec.decode("/0/0/0/x", TrimmedDirectoryCodec.encode(noOwner));
    assertNull(back.getOwner());
    assertEquals(noOwner, back);
  }
}
