package io.ozonerc.compaction.cli;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.om.OMConfigKeys;
import org.apache.hadoop.ozone.om.OmMetadataManagerImpl;

/**
 * A stand-in for a running OM, as a separate process: opens {@code <dir>/om.db} read-write with the OM's own
 * metadata manager (which takes RocksDB's LOCK), prints {@code READY <pid>}, and holds the DB until its standard
 * input is closed; then closes the DB and prints {@code CLOSED}.
 *
 * <p>Usage: {@code java -cp <test classpath> io.ozonerc.compaction.cli.DbHolderMain <dir>}
 */
public final class DbHolderMain {
  private DbHolderMain() { }

  public static void main(String[] args) throws IOException {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(OMConfigKeys.OZONE_OM_DB_DIRS, args[0]);
    OmMetadataManagerImpl om = new OmMetadataManagerImpl(conf, null);
    System.out.println("READY " + ProcessHandle.current().pid());
    System.out.flush();
    InputStream in = System.in;
    while (in.read() >= 0) {
      // hold the DB until the parent closes our stdin (or dies)
    }
    om.stop();
    System.out.println("CLOSED");
    System.out.flush();
    System.exit(0);
  }
}
