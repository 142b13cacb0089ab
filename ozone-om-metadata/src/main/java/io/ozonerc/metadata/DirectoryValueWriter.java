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

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * Writes version 1 of the trimmed format (layout in {@code docs/directory-format.md}). Two passes over the fields:
 * the first sizes the value exactly and builds the in-value string table, the second fills one array of that size.
 * Stateless and thread-safe.
 */
public final class DirectoryValueWriter {
  /** Above this many candidate strings a hash map beats a linear scan for de-duplication. */
  private static final int LINEAR_DEDUP_LIMIT = 8;

  private DirectoryValueWriter() {
  }

  public static byte[] write(OmDirectoryInfo info) {
    return write(info.getObjectID(), info.getUpdateID(), info.getCreationTime(), info.getModificationTime(),
        info.getOwner(), info.getAcls(), info.getMetadata());
  }

  public static byte[] write(DirectoryValue v) {
    return write(v.getObjectId(), v.getUpdateId(), v.getCreationTime(), v.getModificationTime(), v.getOwner(),
        v.getAcls(), v.getMetadata());
  }

  static byte[] write(long objectId, long updateId, long creationTime, long modificationTime, String owner,
      List<OzoneAcl> acls, Map<String, String> metadata) {
    // ---- pass 1: string table in first-use order (owner, ACL names, metadata key, value), and the size ----
    int candidates = (owner == null ? 0 : 1) + acls.size() + 2 * metadata.size();
    String[] table = new String[candidates];
    int[] aclRefs = new int[acls.size()];
    int[] metaRefs = new int[2 * metadata.size()];
    StringTable strings = new StringTable(table, candidates > LINEAR_DEDUP_LIMIT);

    int ownerRef = owner == null ? 0 : strings.ref(owner) + 1;
    int[] aclHeads = new int[acls.size()];
    for (int i = 0; i < acls.size(); i++) {
      OzoneAcl acl = acls.get(i);
      int type = acl.getType().ordinal();
      aclHeads[i] = (AclHead.rightsOf(acl) << 4) | (acl.getAclScope().ordinal() << 3) | type;
      aclRefs[i] = AclHead.nameIsImplied(type) ? -1 : strings.ref(acl.getName());
    }
    int m = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      metaRefs[m++] = strings.ref(e.getKey());
      metaRefs[m++] = strings.ref(e.getValue());
    }

    long packedId = Wire.packObjectId(objectId);
    long updateDelta = Wire.zigzag(updateId - Wire.updateIdBase(objectId));
    long mtimeDelta = Wire.zigzag(modificationTime - creationTime);
    int[] stringBytes = new int[strings.size];
    int size = 1 + Wire.varintSize(packedId) + Wire.varintSize(updateDelta) + Wire.varintSize(creationTime)
        + Wire.varintSize(mtimeDelta) + Wire.varintSize(strings.size);
    for (int i = 0; i < strings.size; i++) {
      stringBytes[i] = Wire.stringSize(table[i]);
      size += Wire.varintSize(stringBytes[i]) + stringBytes[i];
    }
    size += Wire.varintSize(ownerRef) + Wire.varintSize(acls.size());
    for (int i = 0; i < aclHeads.length; i++) {
      size += Wire.varintSize(aclHeads[i]) + (aclRefs[i] < 0 ? 0 : Wire.varintSize(aclRefs[i]));
    }
    size += Wire.varintSize(metadata.size());
    for (int ref : metaRefs) {
      size += Wire.varintSize(ref);
    }

    // ---- pass 2: fill ----
    byte[] out = new byte[size];
    out[0] = DirectoryFormat.HEADER_V1;
    int p = 1;
    p = Wire.writeVarint(out, p, packedId);
    p = Wire.writeVarint(out, p, updateDelta);
    p = Wire.writeVarint(out, p, creationTime);
    p = Wire.writeVarint(out, p, mtimeDelta);
    p = Wire.writeVarint(out, p, strings.size);
    for (int i = 0; i < strings.size; i++) {
      p = Wire.writeVarint(out, p, stringBytes[i]);
      p = Wire.writeString(out, p, table[i]);
    }
    p = Wire.writeVarint(out, p, ownerRef);
    p = Wire.writeVarint(out, p, acls.size());
    for (int i = 0; i < aclHeads.length; i++) {
      p = Wire.writeVarint(out, p, aclHeads[i]);
      if (aclRefs[i] >= 0) {
        p = Wire.writeVarint(out, p, aclRefs[i]);
      }
    }
    p = Wire.writeVarint(out, p, metadata.size());
    for (int ref : metaRefs) {
      p = Wire.writeVarint(out, p, ref);
    }
    if (p != size) {
      throw new IllegalStateException("BUG: sized " + size + " bytes but wrote " + p);
    }
    return out;
  }

  /** De-duplicating string table of one value; indexes are in first-use order. */
  private static final class StringTable {
    private final String[] table;
    private final Map<String, Integer> index;
    private int size;

    StringTable(String[] table, boolean hashed) {
      this.table = table;
      this.index = hashed ? new HashMap<>() : null;
    }

    int ref(String s) {
      if (index != null) {
        Integer known = index.putIfAbsent(s, size);
        if (known != null) {
          return known;
        }
      } else {
        for (int i = 0; i < size; i++) {
          if (table[i].equals(s)) {
            return i;
          }
        }
      }
      table[size] = s;
      return size++;
    }
  }
}
