package io.ozonerc.compaction.cli;

import org.apache.hadoop.hdds.cli.DebugSubcommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ozone debug range-compaction}: what the range compaction planner sees in an om.db; writes only with
 * {@code --compact}. Loaded by {@code ozone debug} through {@link java.util.ServiceLoader} over
 * {@link DebugSubcommand} ({@code META-INF/services}); {@link RangeCompactionCli} runs it standalone. Options,
 * output and exit status: {@link RangeCompactionTool}.
 */
@Command(name = "range-compaction",
    description = {"Show the OM key ranges richest in delete tombstones, ranked by the range compaction planner, "
        + "and the plan a round would run (--dry-run); compact them with --compact.",
        "Works on an om.db (or a checkpoint copy) that no running process holds; refuses a DB whose RocksDB "
            + "LOCK is held. Thresholds: the ozone.om.range.compaction.* keys from ozone-site.xml or -D, or the "
            + "options below."},
    sortOptions = false)
public class RangeCompactionCommand extends RangeCompactionTool implements DebugSubcommand {
  @Option(names = "--compact", description = "Open the DB read-write and run the planned compactions. Without "
      + "it nothing is ever written.")
  private boolean compact;

  @Override
  protected boolean compacts() {
    return compact;
  }

  @Override
  protected String argumentError() {
    return compact && dryRunRequested()
        ? "--compact and --dry-run exclude each other: --dry-run promises not to write" : null;
  }
}
