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
    description = {
        "Show the OM key ranges richest in delete tombstones, ranked by the range compaction planner, "
            + "and the plan a round would run (--dry-run); compact them with --compact.",
        "Works on an om.db (or a checkpoint copy) that no running process holds; refuses a DB whose RocksDB "
            + "LOCK is held. Thresholds: the ozone.om.range.compaction.* keys from ozone-site.xml or -D, or the "
            + "options below."
    },
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
