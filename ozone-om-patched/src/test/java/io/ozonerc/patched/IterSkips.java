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

package io.ozonerc.patched;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.ozone.om.OMMetadataManager;

/**
 * RocksDB's {@code rocksdb.number.iter.skip} ticker of an OM metadata store: internal keys (tombstones, older
 * versions) its iterators stepped over so far. RocksDB adds an iterator's count when the iterator is closed, so
 * the difference around a list call is what that call skipped. Needs RocksDB statistics on
 * ({@code ozone.metadata.store.rocksdb.statistics=ALL}).
 */
public final class IterSkips {
  private static final Pattern ITER_SKIP = Pattern.compile("^rocksdb\\.number\\.iter\\.skip COUNT : (\\d+)$",
      Pattern.MULTILINE);

  private IterSkips() { }

  public static long read(OMMetadataManager metadata) throws IOException {
    String stats = ((RDBStore) metadata.getStore()).getDb().getProperty("rocksdb.options-statistics");
    Matcher m = ITER_SKIP.matcher(stats);
    if (!m.find()) {
      throw new IllegalStateException("RocksDB statistics are off in this store: " + stats);
    }
    return Long.parseLong(m.group(1));
  }
}
