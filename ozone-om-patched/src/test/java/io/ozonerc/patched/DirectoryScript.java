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

import io.ozonerc.metadata.DirectoryFormat;
import io.ozonerc.metadata.om.DirectoryValueFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.hdds.utils.db.DBCheckpoint;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.client.BucketArgs;
import org.apache.hadoop.ozone.client.OzoneBucket;
import org.apache.hadoop.ozone.client.OzoneClient;
import org.apache.hadoop.ozone.client.OzoneKey;
import org.apache.hadoop.ozone.client.OzoneVolume;
import org.apache.hadoop.ozone.om.codec.OMDBDefinition;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;
import org.apache.hadoop.ozone.om.helpers.OzoneFileStatus;

/**
 * The directory scenario run by {@link TrimmedDirectoryClusterTest} in a patched and in a stock JVM: in an FSO
 * bucket, create a directory tree (and empty files), list, rename, delete recursively, restart the OM, list again;
 * then restart the OM with {@code ozone.om.directory.value.format=protobuf} and list again, create one more
 * directory, list again. Writes what every list returned ({@code list ...} lines: path, directory or file, owner) and
 * after each phase what the OM's directoryTable holds on disk, by the first byte of each raw value ({@code raw ...}
 * lines). Ends with a checkpoint of the OM DB copied to {@code <out>.db/om.db} for the downgrade check.
 *
 * <p>Arguments: output file, value format for the first phases ({@code trimmed} or {@code protobuf}; a stock OM
 * ignores it).
 */
public final class DirectoryScript {
  private final List<String> out = new ArrayList<>();
  private OmCluster cluster;
  private OzoneClient client;

  public static void main(String[] args) throws Exception {
    new DirectoryScript().run(Path.of(args[0]), args[1]);
  }

  private void run(Path outFile, String format) throws Exception {
    OzoneConfiguration conf = OmCluster.quietConf();
    conf.set(DirectoryValueFormat.KEY, format);
    cluster = OmCluster.start(conf);
    try {
      client = cluster.client();
      OzoneBucket bucket = bucket();
      for (String dir : List.of("a/b/c", "a/b/d/e", "a/f", "x/y/z", "目录/子目录", "q/r/s/t/u")) {
        bucket.createDirectory(dir);
      }
      for (String file : List.of("a/b/c/file1", "a/f/file2", "x/y/z/file3", "目录/子目录/文件")) {
        bucket.createKey(file, 0).close();
      }
      list("created");
      bucket.renameKey("a/b", "a/renamed");
      bucket.renameKey("x", "moved-x");
      list("renamed");
      bucket.deleteDirectory("q", true);
      bucket.deleteDirectory("moved-x/y", true);
      list("deleted");
      raw("before restart");

      restartOm();
      list("after restart");
      raw("after restart");

      cluster.om().getConfiguration().set(DirectoryValueFormat.KEY, DirectoryValueFormat.PROTOBUF.configName());
      restartOm();
      list("format off");
      bucket().createDirectory("after-off/n");
      list("created with format off");
      raw("format off");
      checkpoint(outFile);
    } finally {
      if (client != null && client != cluster.client()) {
        client.close();
      }
      cluster.close();
    }
    Files.write(outFile, out);
  }

  private OzoneBucket bucket() throws IOException {
    OzoneVolume volume;
    try {
      volume = client.getObjectStore().getVolume("vol");
    } catch (IOException e) {
      client.getObjectStore().createVolume("vol");
      volume = client.getObjectStore().getVolume("vol");
      volume.createBucket("fso", BucketArgs.newBuilder().setBucketLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    }
    return volume.getBucket("fso");
  }

  private void restartOm() throws Exception {
    cluster.cluster().restartOzoneManager();
    if (client != cluster.client()) {
      client.close();
    }
    client = cluster.cluster().newClient(); // a fresh connection to the restarted OM's RPC server
  }

  /**
   * What the client sees: the tree walked with listStatus directory by directory (an FSO bucket lists one level per
   * call), one lookup per listed path, and listKeys over the bucket.
   */
  private void list(String phase) throws IOException {
    OzoneBucket bucket = bucket();
    walk(bucket, "", phase);
    Iterator<? extends OzoneKey> keys = bucket.listKeys("");
    while (keys.hasNext()) {
      out.add("list " + phase + " key " + keys.next().getName());
    }
  }

  private void walk(OzoneBucket bucket, String dir, String phase) throws IOException {
    for (OzoneFileStatus st : bucket.listStatus(dir, false, "", 10_000)) {
      String path = st.getKeyInfo().getKeyName();
      out.add("list " + phase + " status " + path + (st.isDirectory() ? " dir" : " file")
          + " owner=" + st.getKeyInfo().getOwnerName());
      OzoneFileStatus looked = bucket.getFileStatus(path);
      out.add("list " + phase + " lookup " + looked.getKeyInfo().getKeyName() + (looked.isDirectory() ? " dir"
          : " file"));
      if (st.isDirectory()) {
        walk(bucket, path, phase);
      }
    }
  }

  /** How many directoryTable values on disk are in each format, by their first byte. */
  private void raw(String phase) throws Exception {
    cluster.awaitApplied();
    int trimmed = 0;
    int protobuf = 0;
    int other = 0;
    Table<byte[], byte[]> table = cluster.om().getMetadataManager().getStore()
        .getTable(OMDBDefinition.DIRECTORY_TABLE);
    try (Table.KeyValueIterator<byte[], byte[]> it = table.iterator()) {
      while (it.hasNext()) {
        switch (DirectoryFormat.kindOf(it.next().getValue())) {
        case TRIMMED:
          trimmed++;
          break;
        case LEGACY_PROTOBUF:
          protobuf++;
          break;
        default:
          other++;
        }
      }
    }
    out.add("raw " + phase + " trimmed=" + trimmed + " protobuf=" + protobuf + " other=" + other);
  }

  private void checkpoint(Path outFile) throws Exception {
    cluster.awaitApplied();
    DBCheckpoint cp = cluster.om().getMetadataManager().getStore().getCheckpoint(true);
    Path target = Path.of(outFile + ".db", "om.db");
    Files.createDirectories(target);
    try (Stream<Path> files = Files.list(cp.getCheckpointLocation())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, target.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    cp.cleanupCheckpoint();
  }
}
