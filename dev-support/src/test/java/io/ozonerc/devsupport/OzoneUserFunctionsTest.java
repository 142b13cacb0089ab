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

package io.ozonerc.devsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ozonerc.testsupport.RepoPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dev-support/ozone-user-functions.sh} under bash, with stand-ins for the parts of Ozone's launcher it
 * meets. The stand-ins follow Ozone 2.x's {@code bin/ozone}: it dispatches {@code ozone om ARGS} to
 * {@code ozone_subcommand_om ARGS} when that function is defined (else to {@code ozonecmd_case om ARGS}), keeps the
 * arguments in {@code OZONE_SUBCMD_ARGS} for the JVM, and later runs the shell profiles' finalize hooks, among them
 * the ozone_manager profile that adds {@code OZONE_MANAGER_CLASSPATH} only when the class is Ozone's starter.
 */
class OzoneUserFunctionsTest {
  private static final String STOCK = "org.apache.hadoop.ozone.om.OzoneManagerStarter";
  private static final String OURS = "io.ozonerc.compaction.om.RangeCompactionOmStarter";

  /** Stand-in launcher: $1 the functions file, $2 the class the stock om case picks, the rest `ozone om` args. */
  private static final String LAUNCHER = """
      functions_file=$1; stock_class=$2; shift 2
      CLASSPATH=/stock/om.jar
      # What Ozone's built-in `om` case does (the subset this test can observe).
      ozonecmd_case() {
        local subcmd=$1; shift
        CASE_CALLS="${CASE_CALLS}${subcmd}:$(printf '[%s]' "$@");"
        OZONE_SUBCMD_SUPPORTDAEMONIZATION=true
        OZONE_CLASSNAME=$stock_class
        OZONE_OM_OPTS="-Dstock.om.opts ${OZONE_OM_OPTS}"
        OZONE_RUN_ARTIFACT_NAME=ozone-manager
      }
      # The ozone_manager shell profile's finalize hook.
      _ozone_manager_hadoop_finalize() {
        PROFILE_SAW="${PROFILE_SAW}${OZONE_CLASSNAME};"
        if [[ "${OZONE_CLASSNAME}" == "org.apache.hadoop.ozone.om.OzoneManagerStarter" \\
            && -n "${OZONE_MANAGER_CLASSPATH}" ]]; then
          CLASSPATH="${CLASSPATH}:${OZONE_MANAGER_CLASSPATH}"
        fi
      }
      . "$functions_file"
      # The launcher's dispatch.
      OZONE_SUBCMD=om
      OZONE_SUBCMD_ARGS=("$@")
      if declare -f ozone_subcommand_"${OZONE_SUBCMD}" >/dev/null 2>&1; then
        "ozone_subcommand_${OZONE_SUBCMD}" "${OZONE_SUBCMD_ARGS[@]}"
      else
        ozonecmd_case "${OZONE_SUBCMD}" "${OZONE_SUBCMD_ARGS[@]}"
      fi
      # ozone_finalize -> ozone_shellprofiles_finalize
      _ozone_manager_hadoop_finalize
      echo "CLASS=${OZONE_CLASSNAME}"
      echo "JVM_ARGS=$(printf '[%s]' "${OZONE_SUBCMD_ARGS[@]}")"
      echo "CASE_CALLS=${CASE_CALLS}"
      echo "DAEMON=${OZONE_SUBCMD_SUPPORTDAEMONIZATION}"
      echo "ARTIFACT=${OZONE_RUN_ARTIFACT_NAME}"
      echo "OM_OPTS=${OZONE_OM_OPTS}"
      echo "PROFILE_SAW=${PROFILE_SAW}"
      echo "CLASSPATH=${CLASSPATH}"
      echo "HOOKS=$(declare -F | awk '{print $3}' | grep '^ozone_subcommand_' | tr '\\n' ' ')"
      """;

  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"", "--init", "--upgrade", "--bootstrap", "--bootstrap|--force", "--help"})
  void everyOmFormRunsOurStarterWithStockArgumentsAndSettings(String joinedArgs) throws Exception {
    List<String> args = joinedArgs.isEmpty() ? List.of() : List.of(joinedArgs.split("\\|"));
    // printf '[%s]' with no arguments prints "[]" once.
    String bracketed = args.isEmpty() ? "[]" : args.stream().map(a -> "[" + a + "]").reduce("", String::concat);
    Result r = launch(STOCK, Map.of("OZONE_MANAGER_CLASSPATH", "/opt/extra/*"), args);

    assertEquals(OURS, r.vars.get("CLASS"), r.output);
    assertEquals(bracketed, r.vars.get("JVM_ARGS"), "the JVM gets the arguments untouched");
    assertEquals("om:" + bracketed + ";", r.vars.get("CASE_CALLS"), "the stock om case ran once, same args");
    assertEquals("true", r.vars.get("DAEMON"));
    assertEquals("ozone-manager", r.vars.get("ARTIFACT"));
    assertEquals("-Dstock.om.opts ", r.vars.get("OM_OPTS"));
    assertEquals(STOCK + ";", r.vars.get("PROFILE_SAW"), "the om profile must see the stock class");
    assertEquals("/stock/om.jar:/opt/extra/*", r.vars.get("CLASSPATH"), "OZONE_MANAGER_CLASSPATH still applies");
    assertEquals("ozone_subcommand_om", r.vars.get("HOOKS").trim(), "no other subcommand is touched");
    assertEquals("", r.stderr, "silent on success");
  }

  @Test
  void anUnknownStockClassIsKeptWithAWarning() throws Exception {
    Result r = launch("org.example.SomeOtherStarter", Map.of(), List.of());
    assertEquals("org.example.SomeOtherStarter", r.vars.get("CLASS"));
    assertTrue(r.stderr.contains("without range compaction"), r.stderr);
  }

  @Test
  void theHookCanBeTurnedOffWithoutRemovingTheFile() throws Exception {
    Result r = launch(STOCK, Map.of("OZONERC_RANGE_COMPACTION_HOOK", "off"), List.of("--upgrade"));
    assertEquals(STOCK, r.vars.get("CLASS"));
    assertEquals("[--upgrade]", r.vars.get("JVM_ARGS"));
  }

  private record Result(Map<String, String> vars, String output, String stderr) { }

  private Result launch(String stockClass, Map<String, String> env, List<String> args)
      throws IOException, InterruptedException {
    Path functions = RepoPaths.root().resolve("dev-support/ozone-user-functions.sh");
    assertTrue(Files.isRegularFile(functions), functions + " missing");
    Path launcher = tmp.resolve("launcher.sh");
    Files.writeString(launcher, LAUNCHER);
    List<String> cmd = new ArrayList<>(List.of("bash", launcher.toString(), functions.toString(), stockClass));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(tmp.resolve("out").toFile()).redirectError(tmp.resolve("err").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("OZONE") || k.startsWith("OZONERC"));
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("bash did not finish in 30 s");
    }
    String out = Files.readString(tmp.resolve("out"));
    String err = Files.readString(tmp.resolve("err"));
    assertEquals(0, p.exitValue(), out + err);
    Map<String, String> vars = new LinkedHashMap<>();
    out.lines().filter(l -> l.contains("=")).forEach(l -> vars.put(l.substring(0, l.indexOf('=')),
        l.substring(l.indexOf('=') + 1)));
    return new Result(vars, out, err);
  }
}
