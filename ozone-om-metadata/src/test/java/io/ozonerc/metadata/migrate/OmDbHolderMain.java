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

package io.ozonerc.metadata.migrate;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdds.utils.db.RDBStore;

/**
 * A stand-in for a running OM, as a separate process: opens {@code <om.db>} read-write (RocksDB takes its LOCK),
 * prints {@code READY <pid>}, and holds the DB until its standard input is closed.
 *
 * <p>Usage: {@code java -cp <test classpath> io.ozonerc.metadata.migrate.OmDbHolderMain <om.db>}.
 */
public final class OmDbHolderMain {
  private OmDbHolderMain() { }

  public static void main(String[] args) throws IOException {
    try (RDBStore store = OfflineOmDb.open(new File(args[0]))) {
      System.out.println("READY " + ProcessHandle.current().pid());
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the DB until the parent closes our stdin (or kills us)
      }
    }
    System.exit(0);
  }
}
