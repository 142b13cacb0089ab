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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLType;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sizes of the study's object: a directory with two ACLs, as the OM creates it (Ozone's default ACLs: the user gets
 * ALL, the user's primary group READ and LIST), with a Ratis object id. Expected sizes are summed from the layout in
 * docs/directory-format.md, term by term; the target is trimmed <= 50% of protobuf.
 */
class StudyObjectSizeTest {
  private static final Logger LOG = LoggerFactory.getLogger(StudyObjectSizeTest.class);

  /** Ratis transaction that created the directory: 27 bits, a busy OM after months. */
  static final long TX_ID = 123_456_789L;
  /** objectId = epoch 2 << 62 | txId << 8, as OmUtils.getObjectIdFromTxId builds it. */
  static final long OBJECT_ID = (2L << 62) | (TX_ID << 8);
  static final long PARENT_ID = (2L << 62) | ((TX_ID - 1000) << 8);
  static final long CREATED = 1_732_000_000_000L; // Nov 2024 in ms: 41 bits

  static OmDirectoryInfo studyObject(String owner, String group) {
    return OmDirectoryInfo.newBuilder()
        .setName("dir-0001")
        .setParentObjectID(PARENT_ID)
        .setObjectID(OBJECT_ID)
        .setUpdateID(TX_ID)
        .setCreationTime(CREATED)
        .setModificationTime(CREATED)
        .setOwner(owner)
        .setAcls(List.of(
            OzoneAcl.of(ACLIdentityType.USER, owner, AclScope.ACCESS, ACLType.ALL),
            OzoneAcl.of(ACLIdentityType.GROUP, group, AclScope.ACCESS, ACLType.READ, ACLType.LIST)))
        .build();
  }

  @Test
  void groupNamedLikeOwner() {
    OmDirectoryInfo info = studyObject("hadoop", "hadoop");
    int expected = 1     // header 0x0F
        + 6              // objectId rotated left 2: txId << 10 | 2 = 37 bits -> 6 varint bytes
        + 1              // updateId - txId = 0 -> zigzag 0
        + 6              // creationTime 1.732e12 ms: 41 bits -> 6 bytes
        + 1              // modificationTime - creationTime = 0
        + 1              // string count 1: "hadoop" serves owner, USER and GROUP
        + 1 + 6          // length + "hadoop"
        + 1              // owner reference 1 (= string 0)
        + 1              // ACL count 2
        + 2 + 1          // USER: rights ALL (bit 7) << 4 = 2048 -> 2 bytes; name reference 0
        + 2 + 1          // GROUP: (READ|LIST = 9) << 4 | type 1 = 145 -> 2 bytes; name reference 0
        + 1;             // metadata count 0
    check(info, expected);
  }

  @Test
  void groupDifferentFromOwner() {
    OmDirectoryInfo info = studyObject("alice", "analytics");
    int expected = 1 + 6 + 1 + 6 + 1
        + 1              // string count 2
        + 1 + 5          // "alice"
        + 1 + 9          // "analytics"
        + 1 + 1          // owner reference, ACL count
        + 2 + 1          // USER alice ALL
        + 2 + 1          // GROUP analytics READ|LIST, name reference 1
        + 1;             // metadata count
    check(info, expected);
  }

  private static void check(OmDirectoryInfo info, int expected) {
    byte[] trimmed = TrimmedDirectoryCodec.encode(info);
    int protobuf = info.getProtobuf().getSerializedSize();
    LOG.info("study object {}: trimmed {} B, protobuf {} B, ratio {}", info.getAcls(), trimmed.length, protobuf,
        String.format("%.3f", trimmed.length / (double) protobuf));
    assertEquals(expected, trimmed.length, "layout arithmetic");
    assertTrue(2 * trimmed.length <= protobuf, "trimmed " + trimmed.length + " B > 50% of protobuf " + protobuf + " B");
  }
}
