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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.OzoneAcl.AclScope;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.security.acl.IAccessAuthorizer.ACLIdentityType;

/**
 * A reusable, mutable window over one trimmed-format value. Nothing is decoded until asked for, and nothing the
 * caller did not ask for is decoded at all.
 *
 * <h2>Cost model</h2>
 * <ul>
 *   <li>{@link #wrap} stores references and checks the header byte: O(1), no allocation.</li>
 *   <li>{@link #objectId()} reads the first varint after the header (the walk needs only this).
 *       {@link #updateId()}, {@link #creationTime()}, {@link #modificationTime()} read three more. No allocation;
 *       the results are cached until the next wrap.</li>
 *   <li>The first access to the owner, an ACL or a metadata entry walks the rest of the value once, validates its
 *       whole structure, and records the offset and length of every string and the decoded ACL and metadata
 *       references in arrays owned by the view (the RAMCloud key-offset idea: pay the scan once, then index).
 *       The arrays only grow, so a view reused across values allocates nothing after warm-up.</li>
 *   <li>A string is decoded into a {@code String} the first time it is asked for and cached; repeated names
 *       (owner = ACL user) share one decode.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Every read is bounds-checked against the value's own length and every count against the bytes left, so bad input
 * ends in {@link DirectoryValueException.Corrupt} naming the key, never an out-of-bounds read, a huge allocation or a
 * loop. Only what is read is checked: {@link #objectId()} on a value whose tail is damaged returns the id the intact
 * head holds. {@link #validate()} checks everything (the full decoders call it).
 *
 * <p>Not thread-safe: one view per thread.
 */
public final class DirectoryValueView {
  private static final int[] NO_INTS = new int[0];
  private static final String[] NO_STRINGS = new String[0];
  /** Up to this many strings or ACLs, duplicate checks compare pairwise instead of hashing (no allocation). */
  private static final int SMALL = 8;

  private byte[] b;
  private int start;
  private int end;
  private int pos;
  private Object key; // String or byte[]; rendered only for an error message

  private int objectIdEnd = -1;
  private long objectId;
  private int fixedEnd = -1;
  private long updateId;
  private long creationTime;
  private long modificationTime;

  private boolean indexed;
  private int stringCount;
  private int[] stringOffset = NO_INTS;
  private int[] stringLength = NO_INTS;
  private String[] strings = NO_STRINGS;
  private int stringsToClear;
  private int ownerRef;
  private int aclCount;
  private int[] aclHead = NO_INTS;
  private int[] aclNameRef = NO_INTS;
  private int metadataCount;
  private int[] metadataRefs = NO_INTS;

  /** Points the view at {@code value}, with no key for error messages. */
  public DirectoryValueView wrap(byte[] value) {
    return wrap((Object) null, value, 0, value.length);
  }

  /** Points the view at {@code value}; {@code rawKey} (the directoryTable key) only feeds error messages. */
  public DirectoryValueView wrap(byte[] rawKey, byte[] value) {
    return wrap((Object) rawKey, value, 0, value.length);
  }

  public DirectoryValueView wrap(String rawKey, byte[] value) {
    return wrap((Object) rawKey, value, 0, value.length);
  }

  /** Points the view at {@code len} bytes of {@code value} from {@code offset}, e.g. a reused read buffer. */
  public DirectoryValueView wrap(byte[] rawKey, byte[] value, int offset, int len) {
    return wrap((Object) rawKey, value, offset, len);
  }

  private DirectoryValueView wrap(Object k, byte[] value, int offset, int len) {
    if (offset < 0 || len < 0 || offset > value.length - len) {
      throw new IndexOutOfBoundsException("slice " + offset + "+" + len + " of " + value.length + " bytes");
    }
    this.b = value;
    this.start = offset;
    this.end = offset + len;
    this.key = k;
    this.objectIdEnd = -1;
    this.fixedEnd = -1;
    if (indexed) {
      Arrays.fill(strings, 0, stringsToClear, null);
      stringsToClear = 0;
      indexed = false;
    }
    if (len == 0 || value[offset] != DirectoryFormat.HEADER_V1) {
      checkHeader(); // throws the precise error
    }
    return this;
  }

  private void checkHeader() {
    if (start == end) {
      throw corrupt("empty value");
    }
    byte header = b[start];
    switch (DirectoryFormat.kindOfFirstByte(header)) {
    case TRIMMED:
      return;
    case TRIMMED_UNKNOWN_VERSION:
      throw new DirectoryValueException.UnsupportedVersion(keyString(), DirectoryFormat.versionOf(header));
    case LEGACY_PROTOBUF:
      throw corrupt("is a legacy protobuf DirectoryInfo, not the trimmed format (use TrimmedDirectoryCodec to read"
          + " either)");
    default:
      throw corrupt("first byte 0x" + Integer.toHexString(header & 0xFF) + " starts neither the trimmed format nor"
          + " protobuf");
    }
  }

  // ---- fixed fields --------------------------------------------------------------------------------------------

  public long objectId() {
    if (objectIdEnd < 0) {
      readObjectId();
    }
    return objectId;
  }

  /**
   * Fast path for the walk: a Ratis id packs into 5 or 6 varint bytes, so when 7 bytes are available the loop runs
   * without per-byte bounds checks; otherwise (or for a non-canonical or overlong number) the checked reader decides.
   */
  private void readObjectId() {
    int p = start + 1;
    if (end - p >= 7) {
      byte[] a = b;
      long v = 0;
      for (int i = 0; i < 7; i++) {
        byte x = a[p + i];
        v |= (long) (x & 0x7F) << (7 * i);
        if (x >= 0) {
          if (x == 0 && i > 0) {
            break; // non-canonical: let varint() report it
          }
          objectId = Wire.unpackObjectId(v);
          objectIdEnd = p + i + 1;
          return;
        }
      }
    }
    pos = p;
    objectId = Wire.unpackObjectId(varint());
    objectIdEnd = pos;
  }

  public long updateId() {
    parseFixed();
    return updateId;
  }

  public long creationTime() {
    parseFixed();
    return creationTime;
  }

  public long modificationTime() {
    parseFixed();
    return modificationTime;
  }

  private void parseFixed() {
    if (fixedEnd >= 0) {
      return;
    }
    long oid = objectId();
    pos = objectIdEnd;
    updateId = Wire.updateIdBase(oid) + Wire.unzigzag(varint());
    creationTime = varint();
    modificationTime = creationTime + Wire.unzigzag(varint());
    fixedEnd = pos;
  }

  // ---- strings, ACLs, metadata ----------------------------------------------------------------------------------

  /** @return the owner, or null when the value has none */
  public String owner() {
    index();
    return ownerRef < 0 ? null : string(ownerRef);
  }

  public int aclCount() {
    index();
    return aclCount;
  }

  public ACLIdentityType aclType(int i) {
    return AclHead.type(aclHead(i));
  }

  public AclScope aclScope(int i) {
    return AclHead.scope(aclHead(i));
  }

  /** Rights bitmask: bit n set = the ACLType with ordinal n is granted. */
  public int aclRights(int i) {
    return AclHead.rights(aclHead(i));
  }

  public String aclName(int i) {
    int head = aclHead(i);
    int ref = aclNameRef[i];
    return ref < 0 ? AclHead.type(head).name() : string(ref);
  }

  /** Builds the i-th ACL as Ozone's object (allocates). */
  public OzoneAcl acl(int i) {
    ACLIdentityType type = aclType(i);
    AclScope scope = aclScope(i);
    int rights = aclRights(i);
    String name = aclName(i);
    try {
      return AclHead.toOzoneAcl(type, scope, rights, name);
    } catch (IllegalArgumentException e) {
      throw new DirectoryValueException.Corrupt(keyString(), "ACL " + i + " is not a valid OzoneAcl: "
          + e.getMessage(), e);
    }
  }

  public List<OzoneAcl> acls() {
    index();
    List<OzoneAcl> list = new ArrayList<>(aclCount);
    for (int i = 0; i < aclCount; i++) {
      list.add(acl(i));
    }
    return list;
  }

  public int metadataCount() {
    index();
    return metadataCount;
  }

  public String metadataKey(int i) {
    return string(metadataRef(i, 0));
  }

  public String metadataValue(int i) {
    return string(metadataRef(i, 1));
  }

  /** Metadata in stored order; a repeated key is reported as corruption (a Map cannot have written it). */
  public Map<String, String> metadata() {
    index();
    Map<String, String> map = new LinkedHashMap<>(Math.max(4, metadataCount * 2));
    for (int i = 0; i < metadataCount; i++) {
      if (map.put(metadataKey(i), metadataValue(i)) != null) {
        throw corrupt("metadata key '" + metadataKey(i) + "' appears twice");
      }
    }
    return map;
  }

  /**
   * Checks the whole value: structure, every string's encoding, every ACL, and that the value is in its one canonical
   * spelling: no string twice in the table, no two ACLs for the same (type, name, scope) (OmDirectoryInfo's builder
   * would silently merge them), no metadata key twice. So any value this accepts re-encodes to the same bytes.
   */
  public void validate() {
    index();
    for (int i = 0; i < stringCount; i++) {
      string(i);
    }
    if (stringCount > 1) {
      if (stringCount <= SMALL) { // pairwise: no allocation for the usual handful of strings
        for (int i = 1; i < stringCount; i++) {
          for (int j = 0; j < i; j++) {
            if (strings[i].equals(strings[j])) {
              throw corrupt("string table holds '" + strings[i] + "' twice");
            }
          }
        }
      } else {
        Set<String> seen = new HashSet<>(stringCount * 2);
        for (int i = 0; i < stringCount; i++) {
          if (!seen.add(strings[i])) {
            throw corrupt("string table holds '" + strings[i] + "' twice");
          }
        }
      }
    }
    if (aclCount > 1) {
      // Identity = type and scope (low 4 bits of the head) plus the name reference; names are unique by now.
      if (aclCount <= SMALL) {
        for (int i = 1; i < aclCount; i++) {
          for (int j = 0; j < i; j++) {
            if (aclIdentity(i) == aclIdentity(j)) {
              throw corrupt("ACL " + i + " repeats the type, name and scope of ACL " + j);
            }
          }
        }
      } else {
        Set<Long> identities = new HashSet<>(aclCount * 2);
        for (int i = 0; i < aclCount; i++) {
          if (!identities.add(aclIdentity(i))) {
            throw corrupt("ACL " + i + " repeats the type, name and scope of an earlier ACL");
          }
        }
      }
    }
    for (int i = 0; i < aclCount; i++) {
      acl(i);
    }
    metadata();
  }

  private long aclIdentity(int i) {
    return ((long) (aclHead[i] & 0xF) << 32) | (aclNameRef[i] + 1);
  }

  /** Decodes the whole value (allocates). */
  public DirectoryValue toDirectoryValue() {
    validate();
    return new DirectoryValue(objectId(), updateId(), creationTime(), modificationTime(), owner(), acls(),
        metadata());
  }

  /**
   * Decodes the whole value straight into an {@link OmDirectoryInfo}, with name and parent from the key.
   *
   * @throws DirectoryValueException.Corrupt also when OmDirectoryInfo's builder refuses the fields
   */
  public OmDirectoryInfo toOmDirectoryInfo(long parentObjectId, String name) {
    validate();
    try {
      OmDirectoryInfo.Builder builder = OmDirectoryInfo.newBuilder()
          .setName(name)
          .setParentObjectID(parentObjectId)
          .setObjectID(objectId())
          .setUpdateID(updateId())
          .setCreationTime(creationTime())
          .setModificationTime(modificationTime())
          .setOwner(owner());
      if (aclCount > 0) {
        builder.setAcls(acls());
      }
      if (metadataCount > 0) {
        builder.addAllMetadata(metadata());
      }
      return builder.build();
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      throw corrupt("fields rejected by OmDirectoryInfo: " + e.getMessage());
    }
  }

  /** Encoded size of the wrapped value. */
  public int length() {
    return end - start;
  }

  /** Number of strings in the value's own table (for tests and tools). */
  int stringTableSize() {
    index();
    return stringCount;
  }

  String stringTableEntry(int i) {
    index();
    if (i < 0 || i >= stringCount) {
      throw new IndexOutOfBoundsException("string " + i + " of " + stringCount);
    }
    return string(i);
  }

  private int aclHead(int i) {
    index();
    if (i < 0 || i >= aclCount) {
      throw new IndexOutOfBoundsException("ACL " + i + " of " + aclCount);
    }
    return aclHead[i];
  }

  private int metadataRef(int i, int which) {
    index();
    if (i < 0 || i >= metadataCount) {
      throw new IndexOutOfBoundsException("metadata entry " + i + " of " + metadataCount);
    }
    return metadataRefs[2 * i + which];
  }

  private String string(int i) {
    String s = strings[i];
    if (s == null) {
      try {
        s = Wire.readString(b, stringOffset[i], stringLength[i]);
      } catch (Wire.Malformed e) {
        throw corrupt("string " + i + ": " + e.getMessage());
      }
      strings[i] = s;
    }
    return s;
  }

  /**
   * One pass over everything after the fixed fields: records string offsets and the ACL and metadata references,
   * validating structure as it goes (see {@code docs/directory-format.md}, "What a reader rejects").
   */
  private void index() {
    if (indexed) {
      return;
    }
    parseFixed();
    pos = fixedEnd;

    int n = count(1, "string count");
    if (stringOffset.length < n) {
      int cap = Math.max(n, 2 * stringOffset.length);
      stringOffset = new int[cap];
      stringLength = new int[cap];
      strings = new String[cap];
    }
    for (int i = 0; i < n; i++) {
      int len = count(1, "string length");
      stringOffset[i] = pos;
      stringLength[i] = len;
      pos += len;
    }
    stringCount = n;

    int nextNew = 0; // strings must be first referenced in table order, so the table has one spelling
    long owner = varint();
    if (owner < 0 || owner > n) { // varints are unsigned 64-bit: a negative long is a huge number
      throw corrupt("owner reference " + owner + " beyond " + n + " strings");
    }
    ownerRef = (int) owner - 1;
    if (ownerRef >= 0) {
      nextNew = checkRef(ownerRef, nextNew, n);
    }

    int acls = count(1, "ACL count");
    if (aclHead.length < acls) {
      int cap = Math.max(acls, 2 * aclHead.length);
      aclHead = new int[cap];
      aclNameRef = new int[cap];
    }
    for (int i = 0; i < acls; i++) {
      long head = varint();
      int type = (int) (head & 7);
      if (!AclHead.knownType(type)) {
        throw corrupt("ACL " + i + " has unknown identity type " + type);
      }
      if ((head >>> 4) > AclHead.MAX_RIGHTS) {
        throw corrupt("ACL " + i + " rights 0x" + Long.toHexString(head >>> 4) + " exceed 16 bits");
      }
      aclHead[i] = (int) head;
      if (AclHead.nameIsImplied(type)) {
        aclNameRef[i] = -1;
      } else {
        int ref = ref(n);
        nextNew = checkRef(ref, nextNew, n);
        aclNameRef[i] = ref;
      }
    }
    aclCount = acls;

    int entries = count(2, "metadata count");
    if (metadataRefs.length < 2 * entries) {
      metadataRefs = new int[Math.max(2 * entries, 2 * metadataRefs.length)];
    }
    for (int i = 0; i < 2 * entries; i++) {
      int ref = ref(n);
      nextNew = checkRef(ref, nextNew, n);
      metadataRefs[i] = ref;
    }
    metadataCount = entries;

    if (pos != end) {
      throw corrupt((end - pos) + " bytes after the last field");
    }
    if (nextNew != n) {
      throw corrupt("string table holds " + n + " strings but only " + nextNew + " are referenced");
    }
    stringsToClear = n;
    indexed = true;
  }

  private int ref(int n) {
    long r = varint();
    if (r < 0 || r >= n) { // unsigned: negative means above 2^63
      throw corrupt("string reference " + r + " beyond " + n + " strings");
    }
    return (int) r;
  }

  private int checkRef(int ref, int nextNew, int n) {
    if (ref > nextNew) {
      throw corrupt("string reference " + ref + " out of first-use order (next new string is " + nextNew + ")");
    }
    return ref == nextNew ? nextNew + 1 : nextNew;
  }

  /** A count or length: a varint no larger than the bytes left divided by the least bytes each item takes. */
  private int count(int minBytesEach, String what) {
    long v = varint();
    if (v < 0 || v > (end - pos) / minBytesEach) { // unsigned: negative means above 2^63
      throw corrupt("truncated: " + what + " " + v + " needs more than the " + (end - pos) + " bytes left");
    }
    return (int) v;
  }

  /** LEB128, canonical only: at most 10 bytes, no redundant high zero group, no bits beyond 64. */
  private long varint() {
    int p = pos;
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) {
        throw corrupt("truncated: value ends inside a number at byte " + (p - start));
      }
      byte x = b[p++];
      if (x >= 0) {
        if (x == 0 && shift > 0) {
          throw corrupt("non-canonical number (redundant zero byte) at byte " + (p - 1 - start));
        }
        if (shift == 63 && x > 1) {
          throw corrupt("number exceeds 64 bits at byte " + (p - 1 - start));
        }
        pos = p;
        return result | ((long) x << shift);
      }
      result |= (long) (x & 0x7F) << shift;
    }
    throw corrupt("number longer than 10 bytes at byte " + (p - start));
  }

  private DirectoryValueException.Corrupt corrupt(String message) {
    return new DirectoryValueException.Corrupt(keyString(), message);
  }

  private String keyString() {
    if (key == null) {
      return null;
    }
    return key instanceof byte[] ? new String((byte[]) key, StandardCharsets.UTF_8) : key.toString();
  }
}
