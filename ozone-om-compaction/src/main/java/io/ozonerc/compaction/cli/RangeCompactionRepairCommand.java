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

import org.apache.hadoop.hdds.cli.RepairSubcommand;
import picocli.CommandLine.Command;

/**
 * {@code ozone repair range-compaction}: the same command in Ozone's repair family, where tools write by default
 * and {@code --dry-run} shows what they would do. It runs the plan unless {@code --dry-run} is given; everything
 * else (lock refusal, thresholds, output, exit status) is {@link RangeCompactionTool}'s. Ozone's own repair tools learn
 * whether the OM runs from the launcher's pid files; this one relies on the RocksDB lock, which a running OM
 * always holds.
 */
@Command(name = "range-compaction",
    description = {
        "Compact the OM key ranges richest in delete tombstones, as one round of the range compaction "
            + "service would (--dry-run: only print the plan).",
        "Works on an om.db that no running process holds (stop the OM first); refuses a DB whose RocksDB LOCK is "
            + "held. Thresholds: the ozone.om.range.compaction.* keys from ozone-site.xml or -D, or the options "
            + "below."
    },
    sortOptions = false)
public class RangeCompactionRepairCommand extends RangeCompactionTool implements RepairSubcommand {
  @Override
  protected boolean compacts() {
    return !dryRunRequested();
  }
}
