package io.ozonerc.metadata;

import java.nio.charset.StandardCharsets;

/**
 * The parts of a {@code directoryTable} key {@code /volumeId/bucketId/parentId/name} that the trimmed value leaves
 * out. Ids are decimal longs as {@code OmMetadataManagerImpl.getOzonePathKey} writes them (object ids under Ratis
 * have the top bit set, so they print negative). The name is everything after the fourth '/'.
 */
public final class DirectoryKey {
  private final long parentId;
  private final String name;

  private DirectoryKey(long parentId, String name) {
    this.parentId = parentId;
    this.name = name;
  }

  public long parentId() {
    return parentId;
  }

  public String name() {
    return name;
  }

  public static DirectoryKey parse(byte[] key) {
    return parse(new String(key, StandardCharsets.UTF_8));
  }

  /** @throws DirectoryValueException.Corrupt when the key does not have the four-part shape */
  public static DirectoryKey parse(String key) {
    int[] slash = new int[4];
    int from = 0;
    for (int i = 0; i < 4; i++) {
      int at = key.indexOf('/', from);
      if (at < 0) {
        throw new DirectoryValueException.Corrupt(key, "key is not /volumeId/bucketId/parentId/name");
      }
      slash[i] = at;
      from = at + 1;
    }
    if (slash[0] != 0) {
      throw new DirectoryValueException.Corrupt(key, "key does not start with '/'");
    }
    long parent;
    try {
      parent = Long.parseLong(key, slash[2] + 1, slash[3], 10);
      Long.parseLong(key, 1, slash[1], 10);
      Long.parseLong(key, slash[1] + 1, slash[2], 10);
    } catch (NumberFormatException e) {
      throw new DirectoryValueException.Corrupt(key, "key ids are not decimal longs", e);
    }
    return new DirectoryKey(parent, key.substring(slash[3] + 1));
  }
}
