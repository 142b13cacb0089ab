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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.ozone.OzoneAcl;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * Everything a {@code directoryTable} value holds once the key's parts are taken out: an {@link OmDirectoryInfo}
 * without {@code name} and {@code parentObjectID}. Immutable. {@link #toOmDirectoryInfo} puts the key's parts back.
 */
public final class DirectoryValue {
  private final long objectId;
  private final long updateId;
  private final long creationTime;
  private final long modificationTime;
  private final String owner;
  private final List<OzoneAcl> acls;
  private final Map<String, String> metadata;

  /**
   * @param owner may be null (protobuf's ownerName is optional)
   * @param acls copied; order is kept
   * @param metadata copied; iteration order is kept
   */
  public DirectoryValue(long objectId, long updateId, long creationTime, long modificationTime, String owner,
      List<OzoneAcl> acls, Map<String, String> metadata) {
    this.objectId = objectId;
    this.updateId = updateId;
    this.creationTime = creationTime;
    this.modificationTime = modificationTime;
    this.owner = owner;
    this.acls = List.copyOf(acls);
    this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /** The value part of {@code info}: drops name and parentObjectID. */
  public static DirectoryValue of(OmDirectoryInfo info) {
    return new DirectoryValue(info.getObjectID(), info.getUpdateID(), info.getCreationTime(),
        info.getModificationTime(), info.getOwner(), info.getAcls(), info.getMetadata());
  }

  /**
   * Rebuilds the full object with the parts the key holds.
   *
   * @throws IllegalArgumentException when Ozone's builder rejects the fields (e.g. updateId below -1)
   */
  public OmDirectoryInfo toOmDirectoryInfo(long parentObjectId, String name) {
    OmDirectoryInfo.Builder b = OmDirectoryInfo.newBuilder()
        .setName(name)
        .setParentObjectID(parentObjectId)
        .setObjectID(objectId)
        .setUpdateID(updateId)
        .setCreationTime(creationTime)
        .setModificationTime(modificationTime)
        .setOwner(owner)
        .setAcls(acls);
    if (!metadata.isEmpty()) {
      b.addAllMetadata(metadata);
    }
    return b.build();
  }

  public long getObjectId() {
    return objectId;
  }

  public long getUpdateId() {
    return updateId;
  }

  public long getCreationTime() {
    return creationTime;
  }

  public long getModificationTime() {
    return modificationTime;
  }

  /** @return the owner, or null when none was stored */
  public String getOwner() {
    return owner;
  }

  public List<OzoneAcl> getAcls() {
    return acls;
  }

  public Map<String, String> getMetadata() {
    return metadata;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof DirectoryValue)) {
      return false;
    }
    DirectoryValue that = (DirectoryValue) o;
    return objectId == that.objectId && updateId == that.updateId && creationTime == that.creationTime
        && modificationTime == that.modificationTime && Objects.equals(owner, that.owner)
        && acls.equals(that.acls) && metadata.equals(that.metadata);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(objectId) * 31 + Long.hashCode(updateId);
  }

  @Override
  public String toString() {
    return "DirectoryValue{objectId=" + objectId + ", updateId=" + updateId + ", creationTime=" + creationTime
        + ", modificationTime=" + modificationTime + ", owner=" + owner + ", acls=" + acls + ", metadata="
        + metadata + '}';
  }
}
