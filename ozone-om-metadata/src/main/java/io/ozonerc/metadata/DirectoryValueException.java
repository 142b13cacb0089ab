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

/**
 * A {@code directoryTable} value that cannot be read. The message always names the key the value was stored under
 * (or says that no key was given), so an operator can find the row.
 */
public class DirectoryValueException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String key;

  public DirectoryValueException(String key, String message) {
    super(describe(key, message));
    this.key = key;
  }

  public DirectoryValueException(String key, String message, Throwable cause) {
    super(describe(key, message), cause);
    this.key = key;
  }

  /** @return the key of the bad value, or null when the caller did not give one. */
  public String getKey() {
    return key;
  }

  private static String describe(String key, String message) {
    return "directoryTable value of key " + (key == null ? "<unknown key>" : "'" + key + "'") + ": " + message;
  }

  /** The bytes are truncated, corrupt, or not a directory value at all. */
  public static final class Corrupt extends DirectoryValueException {
    private static final long serialVersionUID = 1L;

    public Corrupt(String key, String message) {
      super(key, message);
    }

    public Corrupt(String key, String message, Throwable cause) {
      super(key, message, cause);
    }
  }

  /** The value is in the trimmed format, but a version this reader does not know (written by a newer release). */
  public static final class UnsupportedVersion extends DirectoryValueException {
    private static final long serialVersionUID = 1L;

    private final int version;

    public UnsupportedVersion(String key, int version) {
      super(key, "trimmed directory format version " + version + " is newer than this reader (it reads versions up to "
          + DirectoryFormat.CURRENT_VERSION + "); upgrade this reader or migrate the table back to protobuf with"
          + " the newer release");
      this.version = version;
    }

    public int getVersion() {
      return version;
    }
  }
}
