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

package io.ozonerc.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release's install script on small Ozone homes that have only what the script looks at (the OM jar by name,
 * share/, etc/hadoop/): what it refuses and says, --dry-run, and that --uninstall restores the home byte for byte
 * whether it created the hook file or appended to one. ReleaseInstallClusterTest runs it on a full home.
 */
class InstallScriptTest {
  private static Path release;
  private static Path scratch;

  @BeforeAll
  static void unpack() throws Exception {
    scratch = ReleaseArchive.scratch("script");
    release = ReleaseArchive.unpack(scratch.resolve("archive"));
  }

  /** An Ozone home with share/ozone/lib/ozone-manager-VERSION.jar and the framework jar (empty files). */
  private static Path home(String name, String ozoneVersion) throws Exception {
    Path home = scratch.resolve(name);
    Files.createDirectories(home.resolve("share/ozone/lib"));
    Files.createDirectories(home.resolve("etc/hadoop"));
    Files.writeString(home.resolve("share/ozone/lib/ozone-manager-" + ozoneVersion + ".jar"), "");
    Files.writeString(home.resolve("share/ozone/lib/hdds-server-framework-" + ozoneVersion + ".jar"), "");
    Files.writeString(home.resolve("etc/hadoop/ozone-site.xml"), "<configuration/>\n");
    return home;
  }

  private static ReleaseArchive.Result install(String... args) throws Exception {
    return ReleaseArchive.install(release, args);
  }

  @Test
  void refusesAnotherOzoneNamingWhatItFound() throws Exception {
    Path home = home("ozone-2.0.0", "2.0.0");
    Map<String, String> before = OzoneHome.snapshot(home);
    ReleaseArchive.Result r = install("--ozone-home", home.toString());
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("found ozone-manager-2.0.0.jar"), r.output());
    assertTrue(r.output().contains("this release is for Ozone 2.2.x"), r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));

    Path empty = scratch.resolve("not-ozone");
    Files.createDirectories(empty.resolve("share/ozone/lib"));
    r = install("--ozone-home", empty.toString());
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("no share/ozone/lib/ozone-manager-*.jar"), r.output());
  }

  @Test
  void patchedOmNeedsExactly220() throws Exception {
    Path home = home("ozone-2.2.1", "2.2.1");
    Map<String, String> before = OzoneHome.snapshot(home);
    ReleaseArchive.Result r = install("--ozone-home", home.toString(), "--with-patched-om");
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("found ozone-manager-2.2.1.jar"), r.output());
    assertTrue(r.output().contains("need exactly ozone-manager-2.2.0.jar"), r.output());
    // The plugin alone is for 2.2.x.
    r = install("--ozone-home", home.toString(), "--dry-run");
    assertEquals(0, r.exit(), r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));
  }

  @Test
  void badArguments() throws Exception {
    assertBad(install(), "--ozone-home is required");
    assertBad(install("--ozone-home"), "--ozone-home needs a directory");
    assertBad(install("--ozone-home", scratch.resolve("nowhere").toString()), "is not a directory");
    Path home = home("ozone-args", "2.2.0");
    assertBad(install("--ozone-home", home.toString(), "--force"), "unknown argument '--force'");
    assertBad(install("--ozone-home", home.toString(), "--uninstall", "--with-patched-om"), "do not go together");
    ReleaseArchive.Result r = install("--ozone-home", home.toString(), "--uninstall");
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("nothing to uninstall"), r.output());
    r = install("--ozone-home", home.toString(), "--conf-dir", scratch.resolve("no-conf").toString());
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("no configuration directory"), r.output());
  }

  private static void assertBad(ReleaseArchive.Result r, String message) {
    assertEquals(2, r.exit(), r.output());
    assertTrue(r.output().contains(message), "expected '" + message + "' in:\n" + r.output());
    assertTrue(r.output().contains("usage: install --ozone-home DIR"), r.output());
  }

  @Test
  void dryRunChangesNothing() throws Exception {
    Path home = home("ozone-dry", "2.2.0");
    Map<String, String> before = OzoneHome.snapshot(home);
    ReleaseArchive.Result r = install("--ozone-home", home.toString(), "--with-patched-om", "--dry-run");
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("would: copy patched-om/ozone-om-patched-"), r.output());
    assertTrue(r.output().contains("would: create " + home.resolve("etc/hadoop/ozone-user-functions.sh")),
        r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));

    assertEquals(0, install("--ozone-home", home.toString()).exit());
    Map<String, String> installed = OzoneHome.snapshot(home);
    r = install("--ozone-home", home.toString(), "--uninstall", "--dry-run");
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("would: rm"), r.output());
    assertEquals(List.of(), OzoneHome.diff(installed, OzoneHome.snapshot(home)));
  }

  @Test
  void createdHookFileIsRemovedAgain() throws Exception {
    Path home = home("ozone-created", "2.2.0");
    Map<String, String> before = OzoneHome.snapshot(home);
    ReleaseArchive.Result r = install("--ozone-home", home.toString(), "--with-patched-om");
    assertEquals(0, r.exit(), r.output());
    Path hook = home.resolve("etc/hadoop/ozone-user-functions.sh");
    String text = Files.readString(hook);
    assertTrue(text.startsWith("# >>> ozone-range-compaction >>>"), text);
    assertTrue(text.endsWith("# <<< ozone-range-compaction <<<\n"), text);
    assertTrue(text.contains(Files.readString(release.resolve("etc/ozone-user-functions.sh"))));
    assertTrue(Files.isRegularFile(home.resolve("share/ozone-range-compaction/manifest")));

    r = install("--ozone-home", home.toString());
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("already installed here"), r.output());

    r = ReleaseArchive.install(home.resolve("share/ozone-range-compaction"), "--ozone-home", home.toString(),
        "--uninstall");
    assertEquals(0, r.exit(), r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));
  }

  @Test
  void mergesIntoTheOperatorsHookAndTakesOnlyItsBlockOut() throws Exception {
    Path home = home("ozone-merged", "2.2.0");
    Path hook = home.resolve("etc/hadoop/ozone-user-functions.sh");
    Files.writeString(hook, ReleaseInstallClusterTest.OPERATOR_HOOK);   // no newline at the end
    Map<String, String> before = OzoneHome.snapshot(home);
    assertEquals(0, install("--ozone-home", home.toString()).exit());
    assertTrue(Files.readString(hook).startsWith(ReleaseInstallClusterTest.OPERATOR_HOOK
        + "\n# >>> ozone-range-compaction >>>"));
    ReleaseArchive.Result r = install("--ozone-home", home.toString(), "--uninstall");
    assertEquals(0, r.exit(), r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));

    // The operator edits the file after the install: only the lines between the markers go.
    assertEquals(0, install("--ozone-home", home.toString()).exit());
    Files.writeString(hook, Files.readString(hook) + "export LATER=1\n");
    r = install("--ozone-home", home.toString(), "--uninstall");
    assertEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains("changed after the install; removing only the lines between our markers"));
    assertEquals(ReleaseInstallClusterTest.OPERATOR_HOOK + "\nexport LATER=1\n", Files.readString(hook));
  }

  @Test
  void refusesAHookThatAlreadyDefinesTheOmSubcommand() throws Exception {
    Path home = home("ozone-manual", "2.2.0");
    Path hook = home.resolve("etc/hadoop/ozone-user-functions.sh");
    Files.copy(release.resolve("etc/ozone-user-functions.sh"), hook);
    Map<String, String> before = OzoneHome.snapshot(home);
    ReleaseArchive.Result r = install("--ozone-home", home.toString());
    assertEquals(1, r.exit(), r.output());
    assertTrue(r.output().contains("already defines ozone_subcommand_om"), r.output());
    assertEquals(List.of(), OzoneHome.diff(before, OzoneHome.snapshot(home)));
    assertFalse(Files.exists(home.resolve("share/ozone-range-compaction")));
  }
}
