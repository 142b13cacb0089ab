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

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ozonerc.compaction.testing.OmTestStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.ozone.om.helpers.BucketLayout;

/** A small om.db made by a real OmMetadataManagerImpl, and ways to run the CLI on it and watch its files. */
final class CliFixtures {
  static final String VOL = "vol";
  static final String HOT = "hot";
  static final String COLD = "cold";
  static final long VOL_ID = 100;
  static final long FSO_BUCKET_ID = 202;
  static final int KEYS = 1000;
  static final int HOT_DELETED = 950; // the lowest 95% of the hot bucket, a contiguous run
  static final int FILES = 300;
  static final int FILES_DELETED = 30; // 10% of the FSO bucket: below every threshold

  /** Thresholds lowered so a 1000-key bucket qualifies. */
  static final String[] LOW_THRESHOLDS = {"--min-tombstones", "100", "--tombstone-ratio", "0.3"};

  private CliFixtures() { }

  /**
   * Builds {@code <dir>/om.db} and closes it: buckets /vol/cold/ and /vol/hot/ (object store) with 1000 keys each,
   * 95% of the hot one deleted, and an FSO bucket /100/202/ with 300 files, 10% deleted. Two flushes: the puts
   * in one level-0 file per table, the deletes in a second.
   */
  static Path buildOmDb(Path dir) throws IOException {
    try (OmTestStore s = OmTestStore.open(dir)) {
      s.addBucket(VOL, VOL_ID, COLD, 200, BucketLayout.OBJECT_STORE);
      s.addBucket(VOL, VOL_ID, HOT, 201, BucketLayout.OBJECT_STORE);
      s.addBucket(VOL, VOL_ID, "fso", FSO_BUCKET_ID, BucketLayout.FILE_SYSTEM_OPTIMIZED);
      s.putKeys(VOL, COLD, 0, KEYS);
      s.putKeys(VOL, HOT, 0, KEYS);
      s.putFiles(VOL_ID, FSO_BUCKET_ID, FSO_BUCKET_ID, 0, FILES);
      s.flush();
      s.deleteKeys(VOL, HOT, 0, HOT_DELETED);
      s.deleteFiles(VOL_ID, FSO_BUCKET_ID, FSO_BUCKET_ID, 0, FILES_DELETED);
      s.flush();
    }
    return dir.resolve("om.db");
  }

  /** One in-process run of the standalone CLI. */
  record Run(int status, String out, String err) {
    @Override
    public String toString() {
      return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = RangeCompactionCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(status, out.toString(), err.toString());
  }

  static String[] args(Path db, String... more) {
    List<String> all = new ArrayList<>(List.of("--db", db.toString()));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /**
   * Every file under {@code root}: relative path -> size, mtime and SHA-256 of the content. Equal maps mean no file
   * was added, removed, resized, touched or changed.
   */
  static Map<String, String> fileFacts(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.put(root.relativize(p).toString(), a.size() + " bytes, mtime " + a.lastModifiedTime() + ", sha256 "
            + sha256(p));
      }
    }
    return out;
  }

  private static String sha256(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[64 * 1024];
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Compares {@code actual} line by line with the golden file cli/{@code name}, so a failure points at the first
   * line that differs. With {@code -Dcli.golden.update=true} (run from the module directory) it first rewrites the
   * golden file's source; review the diff.
   */
  static void assertGolden(String name, String actual) throws IOException {
    if (Boolean.getBoolean("cli.golden.update")) {
      Path source = Path.of("src", "test", "resources", "cli");
      Files.createDirectories(source);
      Files.writeString(source.resolve(name), actual, StandardCharsets.UTF_8);
    }
    List<String> expected = golden(name).lines().toList();
    List<String> got = actual.lines().toList();
    for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
      assertEquals(expected.get(i), got.get(i),
          name + " line " + (i + 1) + "; whole output:\n" + actual);
    }
    assertEquals(expected.size(), got.size(),
        name + " line count; whole output:\n" + actual);
  }

  /** A golden file under src/test/resources/cli/. */
  static String golden(String name) throws IOException {
    try (InputStream in = CliFixtures.class.getResourceAsStream("/cli/" + name)) {
      if (in == null) {
        throw new IOException("no golden file cli/" + name + " on the test classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
