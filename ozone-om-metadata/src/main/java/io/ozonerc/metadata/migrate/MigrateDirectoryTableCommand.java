package io.ozonerc.metadata.migrate;

import java.io.File;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code migrate-directory-table --db /data/om/om.db --to trimmed|protobuf [--dry-run] [--batch-size N]}.
 * Exit codes: 0 done and verified, 1 verification failed or unreadable row, 2 DB locked by a running process,
 * 3 other I/O error. Run it with the OM stopped and a backup of om.db at hand; on an OM HA cluster, on every replica.
 *
 * <p>A stock Ozone 2.2.0 OM reads directoryTable values with its protobuf codec only: it cannot read a trimmed
 * value (protobuf rejects the header byte as wire type 7). Migrate to trimmed only for an OM patched to decode
 * directoryTable values with their keys ({@code TrimmedDirectoryCodec.decode(key, value)}, which reads both formats);
 * migrate back to protobuf before starting a stock OM on the DB.
 *
 * <p>Classpath: the OM's own (e.g. {@code ozone classpath ozone-manager}) plus this module's jar.
 */
@Command(name = "migrate-directory-table", mixinStandardHelpOptions = true,
    description = {"Offline: rewrite the directoryTable values of an om.db into the trimmed format or back to"
        + " protobuf, verifying row count and a digest of the decoded values.",
        "A stock Ozone 2.2.0 OM cannot read trimmed values: migrate back to protobuf before starting one."})
public final class MigrateDirectoryTableCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "The om.db directory (OM stopped).")
  private File db;

  @Option(names = "--to", required = true, description = "Target format: ${COMPLETION-CANDIDATES}.")
  private DirectoryTableMigrator.Target target;

  @Option(names = "--dry-run", description = "Decode, re-encode and check every row; write nothing.")
  private boolean dryRun;

  @Option(names = "--batch-size", defaultValue = "10000", description = "Rows per write batch (default ${DEFAULT-VALUE}).")
  private int batchSize;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (RDBStore store = OfflineOmDb.open(db)) {
      DirectoryTableMigrator.Result r = new DirectoryTableMigrator(store, batchSize).migrate(target, dryRun);
      out.println((dryRun ? "dry run, nothing written: " : "migrated to " + target + " and verified: ") + r);
      return 0;
    } catch (OfflineOmDb.LockedException e) {
      err.println(e.getMessage());
      return 2;
    } catch (DirectoryTableMigrator.VerificationException e) {
      err.println("verification failed: " + e.getMessage());
      return 1;
    } catch (Exception e) {
      err.println("failed: " + e);
      return 3;
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new MigrateDirectoryTableCommand()).setCaseInsensitiveEnumValuesAllowed(true)
        .execute(args));
  }
}
