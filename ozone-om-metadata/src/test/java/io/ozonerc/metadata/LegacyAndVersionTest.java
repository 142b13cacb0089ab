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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.hdds.utils.db.CodecException;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.DirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;
import org.junit.jupiter.api.Test;

/** Legacy protobuf values read unchanged; the header family cannot start protobuf; future versions fail clearly. */
class LegacyAndVersionTest {
  @Test
  void readsValuesWrittenByOzonesOwnCodec() throws Exception {
    RandomDirectories gen = new RandomDirectories(7);
    for (int i = 0; i < 500; i++) {
      OmDirectoryInfo info = gen.directory();
      byte[] legacy = OmDirectoryInfo.getCodec().toPersistedFormat(info);
      assertEquals(DirectoryFormat.Kind.LEGACY_PROTOBUF, DirectoryFormat.kindOf(legacy));
      OmDirectoryInfo expected = OmDirectoryInfo.getCodec().fromPersistedFormat(legacy);
      // Any key: a legacy value carries its own name and parent, exactly as Ozone reads it.
      assertEquals(expected, TrimmedDirectoryCodec.decode("/1/2/3/other", legacy));
      assertEquals(expected, TrimmedDirectoryCodec.get().fromPersistedFormat(legacy));
      assertEquals(DirectoryValue.of(expected), DirectoryValueCodec.get().fromPersistedFormat(legacy));
    }
  }

  /** A proto2 parser accepts fields in any order; a value starting with objectID (tag 0x30) is still legacy. */
  @Test
  void readsLegacyWithFieldsOutOfOrder() throws IOException {
    OmDirectoryInfo info = StudyObjectSizeTest.studyObject("hadoop", "hadoop");
    DirectoryInfo p = info.getProtobuf();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeUInt64(6, p.getObjectID());
    out.writeString(9, p.getOwnerName());
    for (OzoneAclInfo acl : p.getAclsList()) {
      out.writeMessage(5, acl);
    }
    out.writeUInt64(8, p.getParentID());
    out.writeUInt64(7, p.getUpdateID());
    out.writeUInt64(3, p.getModificationTime());
    out.writeUInt64(2, p.getCreationTime());
    out.writeString(1, p.getName());
    out.flush();
    byte[] value = bytes.toByteArray();
    assertEquals(0x30, value[0] & 0xFF);
    assertEquals(DirectoryFormat.Kind.LEGACY_PROTOBUF, DirectoryFormat.kindOf(value));
    assertEquals(info, TrimmedDirectoryCodec.decode("/1/2/3/x", value));
  }

  /**
   * The claim the header rests on, checked against the real parser: every first byte with wire type 6 or 7 makes
   * protobuf reject the message, even partially parsed (so not just for a missing required field), whatever follows.
   */
  @Test
  void noWireType6Or7FirstByteParsesAsProtobuf() {
    byte[] valid = StudyObjectSizeTest.studyObject("hadoop", "hadoop").getProtobuf().toByteArray();
    int rejected = 0;
    for (int b = 0; b < 256; b++) {
      if ((b & 7) < 6) {
        continue;
      }
      for (byte[] tail : new byte[][] {{}, {0x01}, {0x01, 0x02}, valid}) {
        byte[] value = new byte[1 + tail.length];
        value[0] = (byte) b;
        System.arraycopy(tail, 0, value, 1, tail.length);
        assertThrows(InvalidProtocolBufferException.class, () -> DirectoryInfo.parser().parsePartialFrom(value),
            () -> "first byte 0x" + Integer.toHexString(value[0] & 0xFF));
        rejected++;
      }
    }
    assertEquals(64 * 4, rejected);
  }

  @Test
  void ourHeaderIsInTheRejectedFamily() {
    assertEquals(7, DirectoryFormat.HEADER_V1 & 7);
    assertEquals(1, DirectoryFormat.versionOf(DirectoryFormat.HEADER_V1));
  }

  @Test
  void futureVersionIsAClearError() {
    byte[] value = TrimmedDirectoryCodec.encode(StudyObjectSizeTest.studyObject("hadoop", "hadoop"));
    for (int version : new int[] {0, 2, 31}) {
      byte[] future = Arrays.copyOf(value, value.length);
      future[0] = (byte) ((version << 3) | 7);
      DirectoryValueException.UnsupportedVersion e = assertThrows(DirectoryValueException.UnsupportedVersion.class,
          () -> TrimmedDirectoryCodec.decode("/1/2/3/dir-0001", future));
      assertEquals(version, e.getVersion());
      assertEquals("/1/2/3/dir-0001", e.getKey());
      assertTrue(e.getMessage().contains("version " + version), e.getMessage());
    }
  }

  @Test
  void keylessCodecRefusesTrimmedValue() {
    byte[] value = TrimmedDirectoryCodec.encode(StudyObjectSizeTest.studyObject("hadoop", "hadoop"));
    CodecException e = assertThrows(CodecException.class, () -> TrimmedDirectoryCodec.get().fromPersistedFormat(value));
    assertTrue(e.getMessage().contains("decode(key, value)"), e.getMessage());
  }

  @Test
  void corruptLegacyNamesKey() {
    byte[] legacy = StudyObjectSizeTest.studyObject("hadoop", "hadoop").getProtobuf().toByteArray();
    byte[] cut = Arrays.copyOf(legacy, legacy.length / 2);
    DirectoryValueException e = assertThrows(DirectoryValueException.class,
        () -> TrimmedDirectoryCodec.decode("/9/8/7/half", cut));
    assertEquals("/9/8/7/half", e.getKey());
  }
}
