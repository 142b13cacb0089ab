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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.bench.dirformat.DirectoryFormats.Format;
import io.ozonerc.bench.dirformat.fb.DirectoryInfo;
import io.ozonerc.bench.dirformat.fb.KeyValue;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos;
import org.junit.jupiter.api.Test;

/** The three encodings the benchmarks compare hold the same directory, and every reader gets the same objectId. */
class DirectoryFormatsTest {
  @Test
  void allFormatsHoldTheSameDirectory() throws Exception {
    for (OmDirectoryInfo info : new OmDirectoryInfo[] {DirectoryFormats.studyObject(),
        DirectoryFormats.heavierObject()}) {
      String key = DirectoryFormats.key(1, 2, info.getParentObjectID(), info.getName());
      assertEquals(info, OmDirectoryInfo.getFromProtobuf(
          OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(Format.PROTOBUF.encode(info))));
      DirectoryInfo flat = DirectoryInfo.getRootAsDirectoryInfo(ByteBuffer.wrap(Format.FLATBUFFERS.encode(info)));
      assertEquals(info, FlatToOm.convert(flat, new io.ozonerc.bench.dirformat.fb.OzoneAcl(), new KeyValue()));
      assertEquals(info, TrimmedDirectoryCodec.decode(key, Format.TRIMMED.encode(info)));

      DirectoryFormats.Readers readers = new DirectoryFormats.Readers();
      for (Format f : Format.values()) {
        byte[] value = f.encode(info);
        assertEquals(info.getObjectID(), readers.objectId(f, value), f.name());
        byte[] padded = java.util.Arrays.copyOf(value, value.length + 17); // a reused, larger read buffer
        assertEquals(info.getObjectID(), readers.objectId(f, padded, value.length), f.name());
        ByteBuffer direct = ByteBuffer.allocateDirect(value.length + 17);
        direct.put(value).flip();
        assertEquals(info.getObjectID(), readers.objectId(f, direct), f.name());
      }
    }
  }

  @Test
  void sizesOrderAsTheStudyFound() {
    Map<Format, Integer> study = DirectoryFormatSizes.sizes().get("study");
    // FlatBuffers is larger than protobuf (offsets, vtables, 8-byte longs); ours is the smallest.
    assertTrue(study.get(Format.FLATBUFFERS) > study.get(Format.PROTOBUF), study.toString());
    assertTrue(study.get(Format.TRIMMED) < study.get(Format.PROTOBUF), study.toString());
  }
}
