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

package io.ozonerc.metadata.om;

import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.util.Locale;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;

/**
 * How a patched OM writes {@code directoryTable} values, from {@value #KEY} in {@code ozone-site.xml}. Reading does
 * not depend on it: every value says by its first byte which format it is in, and both are read in either mode, so
 * the key can be switched back and forth and a DB may hold a mix.
 */
public enum DirectoryValueFormat {
  /** Serialized protobuf {@code DirectoryInfo}, byte for byte what a stock Ozone 2.2.0 OM writes. The default. */
  PROTOBUF {
    @Override
    public byte[] encode(OmDirectoryInfo info) {
      return TrimmedDirectoryCodec.encodeLegacy(info);
    }
  },
  /** The trimmed format (docs/directory-format.md): name and parentObjectID are left to the key. */
  TRIMMED {
    @Override
    public byte[] encode(OmDirectoryInfo info) {
      return TrimmedDirectoryCodec.encode(info);
    }
  };

  /** The configuration key. */
  public static final String KEY = "ozone.om.directory.value.format";
  /** protobuf: a DB written with the default can be opened by a stock OM at any time. */
  public static final DirectoryValueFormat DEFAULT = PROTOBUF;

  /** The stored bytes of {@code info} in this format. */
  public abstract byte[] encode(OmDirectoryInfo info);

  /** The name as written in the configuration. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The format {@code conf} asks for; unset means {@link #DEFAULT}. Case and surrounding blanks are ignored.
   *
   * @throws IllegalArgumentException naming the key and the value when it is neither protobuf nor trimmed
   */
  public static DirectoryValueFormat fromConfig(ConfigurationSource conf) {
    String value = conf.get(KEY);
    if (value == null || value.isBlank()) {
      return DEFAULT;
    }
    for (DirectoryValueFormat f : values()) {
      if (f.configName().equals(value.trim().toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new IllegalArgumentException(KEY + "='" + value + "' is not a directory value format; use "
        + PROTOBUF.configName() + " (the default, what a stock OM writes) or " + TRIMMED.configName());
  }
}
