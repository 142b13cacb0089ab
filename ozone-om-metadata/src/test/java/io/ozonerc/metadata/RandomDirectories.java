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

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo.OzoneAclScope;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo.OzoneAclType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;

/** Seeded generator of OmDirectoryInfos that reach every corner of the format. */
final class RandomDirectories {
  /** Scripts and oddities for names: ASCII, Latin, Greek, CJK, emoji (surrogate pairs), lone surrogates. */
  private static final String[] ALPHABETS = {
      "abcdefghijklmnopqrstuvwxyz0123456789-_.",
      "äöüßéèçñøåÆ",
      "αβγδεζηθλμπσω",
      "目录文件夹数据日本語한국어",
      "\uD83D\uDCC1\uD83D\uDE00\uD834\uDD1E",
      "\uD800\uDFFF\uDBFF\uDC00 ",
  };

  private final Random random;

  RandomDirectories(long seed) {
    this.random = new Random(seed);
  }

  Random random() {
    return random;
  }

  String string(int maxLength) {
    int len = random.nextInt(maxLength + 1);
    StringBuilder sb = new StringBuilder(len);
    String alphabet = ALPHABETS[random.nextInt(ALPHABETS.length)];
    for (int i = 0; i < len; i++) {
      String a = random.nextInt(8) == 0 ? ALPHABETS[random.nextInt(ALPHABETS.length)] : alphabet;
      sb.append(a.charAt(random.nextInt(a.length())));
    }
    return sb.toString();
  }

  long anyLong() {
    switch (random.nextInt(6)) {
    case 0:
      return 0;
    case 1:
      return random.nextInt(1000);
    case 2:
      return Long.MIN_VALUE | ((long) random.nextInt(Integer.MAX_VALUE) << 8) | random.nextInt(256); // Ratis ids
    case 3:
      return Long.MAX_VALUE - random.nextInt(3);
    case 4:
      return Long.MIN_VALUE + random.nextInt(3);
    default:
      return random.nextLong();
    }
  }

  OzoneAcl acl(List<String> userPool) {
    ACLIdentityType type = ACLIdentityType.values()[random.nextInt(ACLIdentityType.values().length)];
    String name;
    switch (type) {
    case WORLD:
    case ANONYMOUS:
      name = random.nextBoolean() ? "" : type.name();
      break;
    case CLIENT_IP:
      name = random.nextInt(4) == 0 ? "" : "10." + random.nextInt(256) + ".0." + random.nextInt(256);
      break;
    default:
      name = random.nextBoolean() && !userPool.isEmpty() ? userPool.get(random.nextInt(userPool.size()))
          : "u" + string(12);
    }
    AclScope scope = random.nextBoolean() ? AclScope.ACCESS : AclScope.DEFAULT;
    if (random.nextInt(20) == 0) {
      // Rights bits no ACLType names yet (10..15): reachable only through protobuf.
      int rights = random.nextInt(1 << 16) | (1 << (10 + random.nextInt(6)));
      return OzoneAcl.fromProtobuf(OzoneAclInfo.newBuilder()
          .setType(OzoneAclType.valueOf(type.name())).setName(name)
          .setRights(ByteString.copyFrom(new byte[] {(byte) rights, (byte) (rights >>> 8)}))
          .setAclScope(OzoneAclScope.valueOf(scope.name())).build());
    }
    EnumSet<ACLType> rights = EnumSet.noneOf(ACLType.class);
    for (ACLType t : ACLType.values()) {
      if (random.nextInt(3) == 0) {
        rights.add(t);
      }
    }
    return OzoneAcl.of(type, name, scope, rights);
  }

  OmDirectoryInfo directory() {
    String owner = random.nextInt(10) == 0 ? null : string(16);
    List<String> pool = new ArrayList<>();
    if (owner != null && !owner.isEmpty()) {
      pool.add(owner);
    }
    pool.add("g" + string(8));
    int aclCount;
    switch (random.nextInt(5)) {
    case 0:
      aclCount = 0;
      break;
    case 1:
      aclCount = 100 + random.nextInt(200); // large lists
      break;
    default:
      aclCount = random.nextInt(6);
    }
    List<OzoneAcl> acls = new ArrayList<>(aclCount);
    for (int i = 0; i < aclCount; i++) {
      acls.add(acl(pool));
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    int entries = random.nextInt(3) == 0 ? random.nextInt(12) : 0;
    for (int i = 0; i < entries; i++) {
      String value = random.nextBoolean() && owner != null ? owner : string(30);
      metadata.put(random.nextBoolean() ? "k" + i : string(10), value);
    }
    long creation = random.nextBoolean() ? 1_700_000_000_000L + random.nextInt(Integer.MAX_VALUE) : anyLong();
    long modification = random.nextBoolean() ? creation + random.nextInt(100_000) : anyLong();
    long updateId = random.nextInt(4) == 0 ? -1 : random.nextInt(3) == 0 ? Long.MAX_VALUE
        : random.nextInt(Integer.MAX_VALUE);
    OmDirectoryInfo.Builder b = OmDirectoryInfo.newBuilder()
        .setName(string(40))
        .setParentObjectID(anyLong())
        .setObjectID(anyLong())
        .setUpdateID(updateId)
        .setCreationTime(creation)
        .setModificationTime(modification)
        .setOwner(owner)
        .setAcls(acls);
    if (!metadata.isEmpty()) {
      b.addAllMetadata(metadata);
    }
    return b.build();
  }

  /** The directoryTable key OmMetadataManagerImpl.getOzonePathKey would build. */
  static String keyOf(long volumeId, long bucketId, OmDirectoryInfo info) {
    return "/" + volumeId + "/" + bucketId + "/" + info.getParentObjectID() + "/" + info.getName();
  }

  String keyOf(OmDirectoryInfo info) {
    return keyOf(anyLong(), anyLong(), info);
  }
}
