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

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Runs {@link RangeCompactionCommand} without an Ozone install: {@code dev-support/range-compaction-cli} starts
 * this class on the Maven-resolved classpath. Same options, same output, same exit status as
 * {@code ozone debug range-compaction}; configuration comes from an {@code ozone-site.xml} on the classpath and
 * {@code -D}.
 */
public final class RangeCompactionCli {
  private RangeCompactionCli() { }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    int status = execute(args, out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /** Parses and runs one command line; returns the exit status (see {@link RangeCompactionTool#OK} and on). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new RangeCompactionCommand());
    cli.setOut(out);
    cli.setErr(err);
    return cli.execute(args);
  }
}
