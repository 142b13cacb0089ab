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

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ozonerc.bench.dirformat.fb.DirectoryInfo;
import io.ozonerc.bench.dirformat.fb.KeyValue;
import io.ozonerc.metadata.DirectoryFormat;
import io.ozonerc.metadata.DirectoryValueView;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;

/**
 * The three value formats the directory benchmarks compare, their encoders, and the objects they encode.
 *
 * <ul>
 *   <li>{@link Format#PROTOBUF}: Ozone 2.2.0's own value, {@code OmDirectoryInfo.getProtobuf().toByteArray()}.</li>
 *   <li>{@link Format#FLATBUFFERS}: the same fields in the schema {@code benchmarks/src/main/fbs/directory_info.fbs}
 *       (flatc 2.0.8), built with a plain {@link FlatBufferBuilder} (no shared strings, defaults omitted).</li>
 *   <li>{@link Format#TRIMMED}: ours, {@code io.ozonerc.metadata} version 1 (no name, no parentId).</li>
 * </ul>
 */
public final class DirectoryFormats {
  private DirectoryFormats() {
  }

  /** Value format under test. */
  public enum Format {
    PROTOBUF, FLATBUFFERS, TRIMMED;

    public byte[] encode(OmDirectoryInfo info) {
      switch (this) {
      case PROTOBUF:
        return info.getProtobuf().toByteArray();
      case FLATBUFFERS:
        return flatbuffers(info);
      default:
        return TrimmedDirectoryCodec.encode(info);
      }
    }

    /** Column family holding this format in the benchmark DB. */
    public String columnFamily() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Ratis transaction of the study object's creation (27 bits), as in StudyObjectSizeTest. */
  static final long STUDY_TX = 123_456_789L;

  /**
   * The study's object: one directory with two ACLs as the OM creates them (user ALL, the user's group READ+LIST),
   * owner = user = group name, a Ratis object id, never modified.
   */
  public static OmDirectoryInfo studyObject() {
    return directory("dir-0001", ratisId(STUDY_TX - 1000), ratisId(STUDY_TX), STUDY_TX, 1_732_000_000_000L,
        "hadoop", "hadoop", Map.of());
  }

  /** Same, with a group that differs from the owner, and three metadata entries. */
  public static OmDirectoryInfo heavierObject() {
    return directory("2024-06-15_ingest-batch", ratisId(STUDY_TX - 1000), ratisId(STUDY_TX), STUDY_TX + 17,
        1_732_000_000_000L, "alice", "analytics",
        Map.of("owner-team", "analytics", "retention", "30d", "created-by", "spark"));
  }

  static OmDirectoryInfo directory(String name, long parentId, long objectId, long updateId, long created,
      String owner, String group, Map<String, String> metadata) {
    OmDirectoryInfo.Builder b = OmDirectoryInfo.newBuilder()
        .setName(name)
        .setParentObjectID(parentId)
        .setObjectID(objectId)
        .setUpdateID(updateId)
        .setCreationTime(created)
        .setModificationTime(created)
        .setOwner(owner)
        .setAcls(List.of(
            OzoneAcl.of(ACLIdentityType.USER, owner, AclScope.ACCESS, ACLType.ALL),
            OzoneAcl.of(ACLIdentityType.GROUP, group, AclScope.ACCESS, ACLType.READ, ACLType.LIST)));
    if (!metadata.isEmpty()) {
      b.addAllMetadata(metadata);
    }
    return b.build();
  }

  /** objectId layout of OmUtils.getObjectIdFromTxId with the Ratis epoch 2. */
  public static long ratisId(long txId) {
    return (2L << 62) | (txId << 8);
  }

  /** The directoryTable key OmMetadataManagerImpl.getOzonePathKey builds. */
  public static String key(long volumeId, long bucketId, long parentId, String name) {
    return "/" + volumeId + "/" + bucketId + "/" + parentId + "/" + name;
  }

  public static byte[] flatbuffers(OmDirectoryInfo info) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int name = b.createString(info.getName());
    int owner = info.getOwner() == null ? 0 : b.createString(info.getOwner());
    List<OzoneAcl> acls = info.getAcls();
    int[] aclOffsets = new int[acls.size()];
    for (int i = 0; i < aclOffsets.length; i++) {
      OzoneAcl acl = acls.get(i);
      int aclName = b.createString(acl.getName());
      int rights = io.ozonerc.bench.dirformat.fb.OzoneAcl.createRightsVector(b, acl.getAclByteString().toByteArray());
      aclOffsets[i] = io.ozonerc.bench.dirformat.fb.OzoneAcl.createOzoneAcl(b,
          (byte) (acl.getType().ordinal() + 1), aclName, rights, (byte) acl.getAclScope().ordinal());
    }
    int aclVector = DirectoryInfo.createAclsVector(b, aclOffsets);
    int metaVector = 0;
    if (!info.getMetadata().isEmpty()) {
      int[] kv = new int[info.getMetadata().size()];
      int i = 0;
      for (Map.Entry<String, String> e : info.getMetadata().entrySet()) {
        kv[i++] = KeyValue.createKeyValue(b, b.createString(e.getKey()), b.createString(e.getValue()));
      }
      metaVector = DirectoryInfo.createMetadataVector(b, kv);
    }
    int root = DirectoryInfo.createDirectoryInfo(b, name, info.getCreationTime(), info.getModificationTime(),
        metaVector, aclVector, info.getObjectID(), info.getUpdateID(), info.getParentObjectID(), owner);
    DirectoryInfo.finishDirectoryInfoBuffer(b, root);
    return b.sizedByteArray();
  }

  // ---- the cheapest objectId read of each format, shared by the walk and get-path benchmarks ----------------------

  /** Per-thread reusable readers, so that the cheapest read of each format allocates what it must and no more. */
  public static final class Readers {
    private final DirectoryValueView view = new DirectoryValueView();
    private final DirectoryInfo flat = new DirectoryInfo();

    /** objectId of a value held in {@code value[0..len)} (len may be shorter than the array). */
    public long objectId(Format format, byte[] value, int len) {
      switch (format) {
      case PROTOBUF:
        try {
          return OzoneManagerProtocolProtos.DirectoryInfo.parser().parseFrom(value, 0, len).getObjectID();
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException(e);
        }
      case FLATBUFFERS:
        return DirectoryInfo.getRootAsDirectoryInfo(ByteBuffer.wrap(value, 0, len), flat).objectId();
      default:
        return view.wrap(null, value, 0, len).objectId();
      }
    }

    /** objectId of a whole array, protobuf parsed straight from the array (no ByteString copy). */
    public long objectId(Format format, byte[] value) {
      if (format == Format.PROTOBUF) {
        try {
          return OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(value).getObjectID();
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException(e);
        }
      }
      return objectId(format, value, value.length);
    }

    /** objectId of a value in {@code buf} from position to limit (e.g. a direct buffer RocksDB filled). */
    public long objectId(Format format, ByteBuffer buf) {
      switch (format) {
      case PROTOBUF:
        try {
          return OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(buf.duplicate()).getObjectID();
        } catch (InvalidProtocolBufferException e) {
          throw new IllegalStateException(e);
        }
      case FLATBUFFERS:
        return DirectoryInfo.getRootAsDirectoryInfo(buf, flat).objectId();
      default:
        return DirectoryFormat.objectId(buf);
      }
    }
  }
}
