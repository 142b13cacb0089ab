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

package io.ozonerc.freon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.ozone.freon.Freon;
import org.junit.jupiter.api.Test;

/** Freon finds the subcommand the way a stock install would: ServiceLoader over FreonSubcommand. */
class FreonRegistrationTest {

  @Test
  void freonListsOmkeybench() {
    Freon freon = new Freon();
    assertInstanceOf(OmKeyBench.class, freon.getCmd().getSubcommands().get("omkeybench").getCommand());
    StringWriter out = new StringWriter();
    freon.getCmd().setOut(new PrintWriter(out));
    assertEquals(0, freon.getCmd().execute("--help"));
    assertTrue(out.toString().contains("omkeybench"), out.toString());
  }

  /** -p is freon's option; its help must say what allowEmptyPrefix() does: no prefix, not a random one. */
  @Test
  void prefixHelpSaysAnEmptyPrefixStaysEmpty() {
    Freon freon = new Freon();
    StringWriter out = new StringWriter();
    freon.getCmd().setOut(new PrintWriter(out));
    assertEquals(0, freon.getCmd().execute("omkeybench", "--help"));
    String help = out.toString().replaceAll("\\s+", " ");
    assertTrue(help.contains("key names are the bare 19-digit ids"), out.toString());
    assertFalse(help.contains("a random name will be generated"), out.toString());
  }
}
