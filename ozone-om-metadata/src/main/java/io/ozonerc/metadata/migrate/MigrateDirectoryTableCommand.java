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

import io.ozonerc.dblock.DbLockProbe;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.hadoop.hdds.cli.RepairSubcommand;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code migrate-directory-table --db /data/om/om.db --to trimmed|protobuf [--dry-run] [--batch-size N]}.
 * Exit codes, as the range compaction CLI's: 0 done and verified; 1 failed (verification, an unreadable row, not a
 * RocksDB directory, I/O); 2 bad arguments; 3 the DB is held by a running process, nothing was opened. Run it with
 * the OM stopped and a backup of om.db at hand; on an OM HA cluster, on every replica.
 *
 * <p>The lock check is the range compaction CLI's {@link DbLockProbe}: it names the holder's pid and reads only.
 * RocksDB's own lock backs it up: a process that opens the DB between the check and our read-write open makes that
 * open fail, which maps to status 3 too.
 *
 * <p>A stock Ozone 2.2.0 OM reads directoryTable values with its protobuf codec only: it cannot read a trimmed
 * value (protobuf rejects the header byte as wire type 7). Migrate to trimmed only for an OM patched to decode
 * directoryTable values with their keys ({@code TrimmedDirectoryCodec.decode(key, value)}, which reads both formats);
 * migrate back to protobuf before starting a stock OM on the DB.
 *
 * <p>Runs as {@code ozone repair migrate-directory-table} (registered for {@link RepairSubcommand}) with this jar
 * and {@code ozone-om-compaction}'s on {@code OZONE_CLASSPATH}, or from a clone with
 * {@code dev-support/migrate-directory-table}.
 */
@Command(name = "migrate-directory-table", mixinStandardHelpOptions = true,
    description = {
        "Offline: rewrite the directoryTable values of an om.db into the trimmed format or back to"
            + " protobuf, verifying row count and a digest of the decoded values.",
        "A stock Ozone 2.2.0 OM cannot read trimmed values: migrate back to protobuf before starting one."
    })
public final class MigrateDirectoryTableCommand implements Callable<Integer>, RepairSubcommand {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;
  public static final int DB_IN_USE = 3;

  @Option(names = "--db", required = true, description = "The om.db directory (OM stopped).")
  private File db;

  @Option(names = "--to", required = true, converter = TargetConverter.class,
      description = "Target format: trimmed or protobuf (any case).")
  private DirectoryTableMigrator.Target target;

  /** Any case, also under a parent command ({@code ozone repair}) that does not enable case-insensitive enums. */
  static final class TargetConverter implements CommandLine.ITypeConverter<DirectoryTableMigrator.Target> {
    @Override
    public DirectoryTableMigrator.Target convert(String value) {
      for (DirectoryTableMigrator.Target t : DirectoryTableMigrator.Target.values()) {
        if (t.name().equalsIgnoreCase(value.trim())) {
          return t;
        }
      }
      throw new CommandLine.TypeConversionException("'" + value + "' is not a format: use trimmed or protobuf");
    }
  }

  @Option(names = "--dry-run", description = "Decode, re-encode and check every row; write nothing.")
  private boolean dryRun;

  @Option(names = "--batch-size", defaultValue = "10000",
      description = "Rows per write batch (default ${DEFAULT-VALUE}).")
  private int batchSize;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (batchSize <= 0) {
      err.println("--batch-size must be > 0, not " + batchSize);
      return USAGE;
    }
    try {
      DbLockProbe.State lock = DbLockProbe.probe(db.toPath());
      if (lock.held()) {
        err.println(DbLockProbe.refusal(db.toPath(), lock));
        return DB_IN_USE;
      }
    } catch (IOException e) {
      err.println("failed: cannot check the lock of " + db + ": " + e.getMessage());
      return FAILED;
    }
    try (RDBStore store = OfflineOmDb.open(db)) {
      DirectoryTableMigrator.Result r = new DirectoryTableMigrator(store, batchSize).migrate(target, dryRun);
      out.println((dryRun ? "dry run, nothing written: " : "migrated to " + target + " and verified: ") + r);
      return OK;
    } catch (OfflineOmDb.LockedException e) {
      err.println(e.getMessage());
      return DB_IN_USE;
    } catch (DirectoryTableMigrator.VerificationException e) {
      err.println("verification failed: " + e.getMessage());
      return FAILED;
    } catch (Exception e) {
      err.println("failed: " + e.getMessage());
      return FAILED;
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new MigrateDirectoryTableCommand()).execute(args));
  }
}
