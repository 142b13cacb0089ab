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

package io.ozonerc.compaction.cli;

import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * A stand-in for a running OM, as a separate process: opens {@code <dir>/om.db} read-write with the OM's own
 * metadata manager (which takes RocksDB's LOCK), prints {@code READY <pid>}, and holds the DB until its standard
 * input is closed; then closes the DB (which flushes) and prints {@code CLOSED}.
 *
 * <p>Usage: {@code java -cp <test classpath> io.ozonerc.compaction.cli.DbHolderMain <dir> [<bucket> <n>]}.
 * With a bucket, it first deletes that bucket's keys 0..n-1 from keyTable of volume {@code vol} without flushing:
 * the deletes are in the write-ahead log and the memtable only, as in an OM that is killed before its next flush.
 */
public final class DbHolderMain {
  private DbHolderMain() { }

  public static void main(String[] args) throws IOException {
    OmTestStore store = OmTestStore.open(Path.of(args[0]));
    if (args.length >= 3) {
      store.deleteKeys(CliFixtures.VOL, args[1], 0, Integer.parseInt(args[2]));
    }
    System.out.println("READY " + ProcessHandle.current().pid());
    System.out.flush();
    InputStream in = System.in;
    while (in.read() >= 0) {
      // hold the DB until the parent closes our stdin (or kills us)
    }
    store.close();
    System.out.println("CLOSED");
    System.out.flush();
    System.exit(0);
  }
}
