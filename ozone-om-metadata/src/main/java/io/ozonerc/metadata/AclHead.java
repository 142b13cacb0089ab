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
import java.util.EnumSet;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo.OzoneAclScope;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo.OzoneAclType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;

/**
 * An ACL as the trimmed format stores it: one varint head, {@code rights << 4 | scope << 3 | type}, then a name
 * reference unless the type implies the name (layout in {@code docs/directory-format.md}, "ACL head"). What
 * {@link DirectoryValueWriter} packs into a head and {@link DirectoryValueView} reads back out of one. Stateless.
 */
final class AclHead {
  /** Largest rights mask: bits 0..15 (what OzoneAcl's byte form and protobuf carry). */
  static final int MAX_RIGHTS = 0xFFFF;
  private static final ACLIdentityType[] TYPES = ACLIdentityType.values();
  private static final AclScope[] SCOPES = AclScope.values();
  private static final ACLType[] RIGHTS = ACLType.values();
  /** Rights masks above this use bits no ACLType names; they are rebuilt through OzoneAcl's protobuf path. */
  private static final int KNOWN_RIGHTS = (1 << RIGHTS.length) - 1;

  private AclHead() {
  }

  /** ACL identity types whose name is implied by the type: OzoneAcl forces the name to the type's name. */
  static boolean nameIsImplied(int typeOrdinal) {
    return typeOrdinal == ACLIdentityType.WORLD.ordinal() || typeOrdinal == ACLIdentityType.ANONYMOUS.ordinal();
  }

  /**
   * Rights as the bitmask protobuf stores: bit i = ACLType ordinal i. OzoneAcl exposes its bits only through
   * {@code getAclByteString()} (bits 0..15, which is also all the protobuf form keeps), so that is what we store.
   */
  static int rightsOf(OzoneAcl acl) {
    ByteString bytes = acl.getAclByteString();
    int rights = 0;
    for (int i = 0; i < bytes.size() && i < 2; i++) {
      rights |= (bytes.byteAt(i) & 0xFF) << (8 * i);
    }
    return rights;
  }

  /** Whether a head's type bits (0..7) name an identity type this Ozone has. */
  static boolean knownType(int typeOrdinal) {
    return typeOrdinal < TYPES.length;
  }

  /** The identity type of a head whose type bits were checked ({@link #knownType}). */
  static ACLIdentityType type(int head) {
    return TYPES[head & 7];
  }

  static AclScope scope(int head) {
    return SCOPES[(head >>> 3) & 1];
  }

  /** Rights bitmask: bit n set = the ACLType with ordinal n is granted. */
  static int rights(int head) {
    return head >>> 4;
  }

  /**
   * Builds Ozone's object (allocates).
   *
   * @throws IllegalArgumentException if OzoneAcl refuses the fields
   */
  static OzoneAcl toOzoneAcl(ACLIdentityType type, AclScope scope, int rights, String name) {
    if ((rights & ~KNOWN_RIGHTS) == 0) {
      EnumSet<ACLType> set = EnumSet.noneOf(ACLType.class);
      for (int r = rights; r != 0; r &= r - 1) {
        set.add(RIGHTS[Integer.numberOfTrailingZeros(r)]);
      }
      return OzoneAcl.of(type, name, scope, set);
    }
    // Bits no ACLType names (a newer Ozone's rights): only the protobuf path can carry them into an OzoneAcl.
    byte[] raw = rights > 0xFF ? new byte[] {(byte) rights, (byte) (rights >>> 8)} : new byte[] {(byte) rights};
    return OzoneAcl.fromProtobuf(OzoneAclInfo.newBuilder()
        .setType(OzoneAclType.valueOf(type.name()))
        .setName(name)
        .setRights(ByteString.copyFrom(raw))
        .setAclScope(OzoneAclScope.valueOf(scope.name()))
        .build());
  }
}
