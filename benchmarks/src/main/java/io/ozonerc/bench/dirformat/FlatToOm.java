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

import com.google.protobuf.ByteString;
import io.ozonerc.bench.dirformat.fb.DirectoryInfo;
import io.ozonerc.bench.dirformat.fb.KeyValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;

/** FlatBuffers DirectoryInfo to Ozone's OmDirectoryInfo, the FlatBuffers side of the toOmDirectoryInfo benchmark. */
final class FlatToOm {
  private FlatToOm() {
  }

  static OmDirectoryInfo convert(DirectoryInfo f, io.ozonerc.bench.dirformat.fb.OzoneAcl aclHolder, KeyValue kvHolder) {
    List<OzoneAcl> acls = new ArrayList<>(f.aclsLength());
    for (int i = 0; i < f.aclsLength(); i++) {
      io.ozonerc.bench.dirformat.fb.OzoneAcl a = f.acls(aclHolder, i);
      byte[] rights = new byte[a.rightsLength()];
      for (int r = 0; r < rights.length; r++) {
        rights[r] = (byte) a.rights(r);
      }
      acls.add(OzoneAcl.fromProtobuf(OzoneAclInfo.newBuilder()
          .setType(OzoneAclInfo.OzoneAclType.forNumber(a.type()))
          .setName(a.name())
          .setRights(ByteString.copyFrom(rights))
          .setAclScope(OzoneAclInfo.OzoneAclScope.forNumber(a.scope()))
          .build()));
    }
    OmDirectoryInfo.Builder b = OmDirectoryInfo.newBuilder()
        .setName(f.name())
        .setParentObjectID(f.parentId())
        .setObjectID(f.objectId())
        .setUpdateID(f.updateId())
        .setCreationTime(f.creationTime())
        .setModificationTime(f.modificationTime())
        .setOwner(f.ownerName())
        .setAcls(acls);
    if (f.metadataLength() > 0) {
      Map<String, String> md = new LinkedHashMap<>();
      for (int i = 0; i < f.metadataLength(); i++) {
        KeyValue kv = f.metadata(kvHolder, i);
        md.put(kv.key(), kv.value());
      }
      b.addAllMetadata(md);
    }
    return b.build();
  }
}
