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

package io.ozonerc.testsupport;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.hdds.cli.DebugSubcommand;
import org.apache.hadoop.hdds.cli.ExtensibleParentCommand;
import org.apache.hadoop.hdds.cli.GenericCli;
import org.apache.hadoop.hdds.cli.RepairSubcommand;
import picocli.CommandLine;

/**
 * {@code ozone debug} and {@code ozone repair} built as Ozone 2.2.0 builds them ({@code OzoneDebug},
 * {@code OzoneRepair}): a GenericCli that is an ExtensibleParentCommand over DebugSubcommand or RepairSubcommand.
 * Such a parent finds a subcommand through META-INF/services and hands it its -D configuration, as an install's
 * {@code ozone debug} and {@code ozone repair} do; a test runs it in its own JVM.
 */
public final class OzoneParentCommands {
  private OzoneParentCommands() { }

  /** Like Ozone 2.2.0's {@code OzoneDebug}. */
  @CommandLine.Command(name = "ozone debug")
  public static final class Debug extends GenericCli implements ExtensibleParentCommand {
    @Override
    public Class<?> subcommandType() {
      return DebugSubcommand.class;
    }
  }

  /** Like Ozone 2.2.0's {@code OzoneRepair}. */
  @CommandLine.Command(name = "ozone repair")
  public static final class Repair extends GenericCli implements ExtensibleParentCommand {
    @Override
    public Class<?> subcommandType() {
      return RepairSubcommand.class;
    }
  }

  /** Exit status and what the command printed. */
  public record Run(int status, String out, String err) {
    @Override
    public String toString() {
      return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  /** {@code ozone debug ARGS}. */
  public static Run debug(String... args) {
    return run(new Debug(), args);
  }

  /** {@code ozone repair ARGS}. */
  public static Run repair(String... args) {
    return run(new Repair(), args);
  }

  private static Run run(GenericCli root, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    root.getCmd().setOut(new PrintWriter(out, true));
    root.getCmd().setErr(new PrintWriter(err, true));
    int status = root.execute(args);
    return new Run(status, out.toString(), err.toString());
  }
}
