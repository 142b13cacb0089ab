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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.om.OmCompactionStore;
import io.ozonerc.compaction.plan.CompactionPlan;
import io.ozonerc.compaction.plan.HeadPlan;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.SstFile;
import io.ozonerc.compaction.service.RangeCompactor;
import io.ozonerc.compaction.service.RoundListener;
import io.ozonerc.compaction.service.RoundResult;
import io.ozonerc.compaction.service.RoundSettings;
import io.ozonerc.dblock.DbLockProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.hdds.cli.AbstractSubcommand;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The range compaction operator command, shared by its two forms: {@link RangeCompactionCommand}
 * ({@code ozone debug range-compaction}, writes only with {@code --compact}) and
 * {@link RangeCompactionRepairCommand} ({@code ozone repair range-compaction}, writes unless {@code --dry-run}).
 * {@link RangeCompactionCli} runs the debug form standalone.
 *
 * <p>On a DB no OM holds: probe the lock, open, and let the service's own round code decide
 * ({@link RangeCompactor#planRound}: probe and plan dead heads, plan ranges, with the service's thresholds), print.
 * Compacting runs the service's own round ({@link RangeCompactor#run}): dead heads first, then ranges, each
 * re-checked on fresh facts, compacted, verified, and finished with a bottommost rewrite when the first pass left
 * its tombstones at the bottom.
 *
 * <p>Analysis opens RocksDB read-only (which takes no lock and writes no file) after {@link DbLockProbe} found no
 * holder. Compacting opens read-write, which takes the RocksDB lock, so an OM cannot start on the DB meanwhile.
 */
@Command(sortOptions = false)
public abstract class RangeCompactionTool extends AbstractSubcommand implements Callable<Integer> {
  /** Exit status: done. */
  public static final int OK = 0;
  /** Exit status: the DB could not be read or compacted. */
  public static final int FAILED = 1;
  /** Exit status: invalid arguments or configuration (picocli's usage error code). */
  public static final int USAGE = 2;
  /** Exit status: another process holds the DB's RocksDB lock; nothing was opened. */
  public static final int DB_IN_USE = 3;

  private static final String P = RangeCompactionConfig.PREFIX;

  @Option(names = "--db", required = true, paramLabel = "DIR",
      description = "The OM RocksDB directory (om.db) or a checkpoint copy of it.")
  private Path db;

  @Option(names = "--dry-run", description = "Print the plan one service round would run, in order; write nothing.")
  private boolean dryRun;

  @Option(names = "--json", description = "Print JSON instead of text.")
  private boolean json;

  @Option(names = "--top", defaultValue = "10", paramLabel = "N",
      description = "Ranges listed per table, worst first; 0 lists all (default: ${DEFAULT-VALUE}).")
  private int top;

  @Option(names = "--table", split = ",", paramLabel = "TABLE",
      description = "Only these tables (repeat or comma-separate); default: ozone.om.range.compaction.tables.")
  private List<String> tables;

  @Option(names = "--min-tombstones", paramLabel = "N", description = "Overrides " + P + ".min.tombstones.")
  private String minTombstones;

  @Option(names = "--tombstone-ratio", paramLabel = "R", description = "Overrides " + P + ".tombstone.ratio.")
  private String tombstoneRatio;

  @Option(names = "--max-compaction-entries", paramLabel = "N",
      description = "Overrides " + P + ".max.compaction.entries.")
  private String maxCompactionEntries;

  @Option(names = "--ranges-per-run", paramLabel = "N", description = "Overrides " + P + ".ranges.per.run.")
  private String rangesPerRun;

  @Option(names = "--bytes-per-run", paramLabel = "SIZE", description = "Overrides " + P + ".bytes.per.run.")
  private String bytesPerRun;

  @Option(names = "--bottommost", paramLabel = "MODE", description = "Overrides " + P + ".bottommost.mode.")
  private String bottommost;

  @Option(names = "--dead-head-min-keys", paramLabel = "N",
      description = "Overrides " + P + ".dead.head.min.keys (0: no dead-head probes).")
  private String deadHeadMinKeys;

  @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
      description = "Sets a configuration key (also accepted before the subcommand by `ozone debug|repair`).")
  private Map<String, String> overrides = new LinkedHashMap<>();

  @Override
  public Integer call() {
    String argumentError = argumentError();
    if (argumentError != null) {
      err().println(argumentError);
      return USAGE;
    }
    if (top < 0) {
      err().println("--top must be >= 0 (0 lists every range), not " + top);
      return USAGE;
    }
    OzoneConfiguration conf = configuration();
    RangeCompactionConfig config;
    try {
      config = RangeCompactionConfig.from(conf);
    } catch (IllegalArgumentException e) {
      err().println(e.getMessage());
      return USAGE;
    }
    RangeCompactionConfig.unknownKeyWarnings(conf).forEach(err()::println);
    try {
      DbLockProbe.State lock = DbLockProbe.probe(db);
      if (lock.held()) {
        err().println(DbLockProbe.refusal(db, lock));
        return DB_IN_USE;
      }
      DbReport report = run(conf, config, lock.detail());
      if (json) {
        out().println(JsonReport.render(report));
      } else {
        TextReport.render(report).forEach(out()::println);
      }
      out().flush();
      return OK;
    } catch (OpenedOmDb.NotAnOmDbException e) {
      err().println(e.getMessage());
      return FAILED;
    } catch (OpenedOmDb.DbInUseException e) {
      err().println("Refusing to compact " + db + ": " + e.getMessage() + "; nothing was written.");
      return DB_IN_USE;
    } catch (IOException | RuntimeException e) {
      err().println("range-compaction failed on " + db + ": " + e);
      if (isVerbose()) {
        e.printStackTrace(err());
      }
      return FAILED;
    }
  }

  /** Whether this run compacts (opens read-write and writes). */
  protected abstract boolean compacts();

  /** A contradiction among the form's own flags, or {@code null}. */
  protected String argumentError() {
    return null;
  }

  protected boolean dryRunRequested() {
    return dryRun;
  }

  /** The service's configuration as this command sees it: ozone-site.xml, then -D, then the options. */
  private OzoneConfiguration configuration() {
    OzoneConfiguration conf = new OzoneConfiguration(getOzoneConf());
    overrides.forEach(conf::set);
    setIf(conf, ".min.tombstones", minTombstones);
    setIf(conf, ".tombstone.ratio", tombstoneRatio);
    setIf(conf, ".max.compaction.entries", maxCompactionEntries);
    setIf(conf, ".ranges.per.run", rangesPerRun);
    setIf(conf, ".bytes.per.run", bytesPerRun);
    setIf(conf, ".bottommost.mode", bottommost);
    setIf(conf, ".dead.head.min.keys", deadHeadMinKeys);
    if (tables != null && !tables.isEmpty()) {
      conf.set(P + ".tables", String.join(",", tables));
    }
    return conf;
  }

  private static void setIf(OzoneConfiguration conf, String suffix, String value) {
    if (value != null) {
      conf.set(P + suffix, value);
    }
  }

  private DbReport run(OzoneConfiguration conf, RangeCompactionConfig config, String lockDetail)
      throws IOException {
    PlannerSettings settings = config.plannerSettings();
    Set<String> tableSet = config.tableSet();
    boolean compacting = compacts();
    try (OpenedOmDb opened = OpenedOmDb.open(db, conf, compacting)) {
      OmCompactionStore store = opened.store();
      Map<String, long[]> memtable = opened.memtableCounts(tableSet);
      // The service's own round, without its clock limits: no time budget, no pressure limits, no flush.
      RoundSettings offline = RoundSettings.offline(tableSet, settings);
      RangeCompactor compactor = new RangeCompactor(store, System::nanoTime, new RoundListener() { });
      List<SstFile> files;
      HeadPlan heads;
      CompactionPlan plan;
      List<DbReport.Compaction> headsDone = null;
      List<DbReport.Compaction> done = null;
      if (compacting) {
        files = store.liveFiles(tableSet);
        RoundResult round = compactor.run(offline, () -> false);
        heads = round.headPlan() == null ? HeadPlan.NONE : round.headPlan();
        plan = round.plan() == null ? new CompactionPlan(List.of(), List.of(), Map.of()) : round.plan();
        headsDone = DbReport.headCompactions(round);
        done = DbReport.compactions(round);
      } else {
        RangeCompactor.RoundPlan round = compactor.planRound(offline);
        files = round.files();
        heads = round.heads();
        plan = round.ranges();
      }
      return DbReport.of(db.toString(), compacting ? "read-write (compacting)" : "read-only", lockDetail, settings,
          List.copyOf(tableSet), files, memtable, heads, plan, top,
          dryRun || compacting, headsDone, done).withDefaultsOf(conf);
    }
  }
}
