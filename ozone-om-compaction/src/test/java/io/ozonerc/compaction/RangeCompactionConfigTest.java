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

package io.ozonerc.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ozonerc.compaction.plan.BottommostMode;
import io.ozonerc.compaction.plan.PlannerSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RangeCompactionConfigTest {

  @Test
  void defaultsAreTheIssuesDefaults() {
    RangeCompactionConfig c = RangeCompactionConfig.from(new OzoneConfiguration());
    assertFalse(c.isEnabled());
    assertEquals(1_000_000, c.plannerSettings().maxCompactionEntries());
    assertEquals(10_000, c.plannerSettings().minTombstones());
    assertEquals(0.3, c.plannerSettings().tombstoneRatio());
    assertEquals(20, c.plannerSettings().rangesPerRun());
    assertEquals(BottommostMode.AUTO, c.bottommost());
    assertEquals(Duration.ofMinutes(10), c.getInterval());
    assertEquals(RangeCompactionConfig.KNOWN_TABLES, c.tableSet().stream().toList());
    assertEquals(2_000, c.getDeadHeadMinKeys());
    assertEquals(Duration.ofSeconds(5), c.getHeadCheckInterval());
    assertEquals(Duration.ofSeconds(1), c.getHeadCheckMinInterval());
    assertEquals(Duration.ofSeconds(30), c.getHeadCheckMaxInterval());
    assertEquals(PlannerSettings.defaults(), c.plannerSettings(),
        "the planner's defaults (fixtures, CLI analysis) are the configuration's");
  }

  @ParameterizedTest(name = "{0} = ''{1}'' is rejected")
  @CsvSource(delimiter = '|', value = {
      "ozone.om.range.compaction.tombstone.ratio|0",
      "ozone.om.range.compaction.tombstone.ratio|1.5",
      "ozone.om.range.compaction.tombstone.ratio|-0.1",
      "ozone.om.range.compaction.tombstone.ratio|lots",
      "ozone.om.range.compaction.min.tombstones|-1",
      "ozone.om.range.compaction.min.tombstones|ten",
      "ozone.om.range.compaction.max.compaction.entries|0",
      "ozone.om.range.compaction.ranges.per.run|-1",
      "ozone.om.range.compaction.bytes.per.run|-5GB",
      "ozone.om.range.compaction.interval|0s",
      "ozone.om.range.compaction.interval|500us",   // parses, but the executor schedules in whole ms
      "ozone.om.range.compaction.interval|999999ns",
      "ozone.om.range.compaction.interval|366d",
      "ozone.om.range.compaction.interval|300000000d", // past a long of nanoseconds
      "ozone.om.range.compaction.interval|soon",
      "ozone.om.range.compaction.timeout|-3s",
      "ozone.om.range.compaction.timeout|0ms",
      "ozone.om.range.compaction.timeout|10us",
      "ozone.om.range.compaction.timeout|400d",
      "ozone.om.range.compaction.backoff.max|500us",
      "ozone.om.range.compaction.backoff.max|1000d",
      "ozone.om.range.compaction.max.compaction.entries|-1",
      "ozone.om.range.compaction.ranges.per.run|99999999999",
      "ozone.om.range.compaction.tombstone.ratio|NaN",
      "ozone.om.range.compaction.tombstone.ratio|Infinity",
      "ozone.om.range.compaction.bytes.per.run|lots",
      "ozone.om.range.compaction.tables|''",
      "ozone.om.range.compaction.tables|keyTable,fooTable",
      "ozone.om.range.compaction.tables|' , '",
      "ozone.om.range.compaction.bottommost.mode|sometimes",
      "ozone.om.range.compaction.leader.policy|first",
      "ozone.om.range.compaction.service.enabled|yes",
      "ozone.om.range.compaction.memtable.flush|on",
      "ozone.om.range.compaction.pressure.level0.files|-1",
      "ozone.om.range.compaction.pressure.pending.compaction.bytes|-1",
      "ozone.om.range.compaction.backoff.max|0ms",
      "ozone.om.range.compaction.dead.head.min.keys|-1",
      "ozone.om.range.compaction.dead.head.min.keys|many",
      "ozone.om.range.compaction.head.check.interval|-1s",
      "ozone.om.range.compaction.head.check.min.interval|0s",
      "ozone.om.range.compaction.head.check.min.interval|10s", // above head.check.interval (5s)
      "ozone.om.range.compaction.head.check.max.interval|2s",  // below head.check.interval
      "ozone.om.range.compaction.head.check.max.interval|soon",
  })
  void invalidValueFailsNamingTheKey(String key, String value) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(key, value);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RangeCompactionConfig.from(conf));
    assertTrue(e.getMessage().contains(key), e.getMessage());
    assertTrue(e.getMessage().contains(value.trim()), "message names the value: " + e.getMessage());
  }

  @ParameterizedTest(name = "{0} = ''{1}'' is accepted")
  @CsvSource(delimiter = '|', value = {
      "ozone.om.range.compaction.interval|1ms",
      "ozone.om.range.compaction.interval|365d",
      "ozone.om.range.compaction.timeout|1ms",
      "ozone.om.range.compaction.backoff.max|365d",
      "ozone.om.range.compaction.ranges.per.run|0",
      "ozone.om.range.compaction.bytes.per.run|0",
      "ozone.om.range.compaction.min.tombstones|0",
      "ozone.om.range.compaction.tombstone.ratio|1",
      "ozone.om.range.compaction.head.check.min.interval|5s",  // equal to head.check.interval
      "ozone.om.range.compaction.head.check.max.interval|5s",
  })
  void edgeValuesTheServiceCanRunWithAreAccepted(String key, String value) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(key, value);
    RangeCompactionConfig.from(conf);
  }

  @Test
  void aFreshConfigurationShowsOurDefaultsFromTheGeneratedFile() {
    RangeCompactionConfig.registerDefaults();
    OzoneConfiguration conf = new OzoneConfiguration();
    for (java.lang.reflect.Field f : RangeCompactionConfig.class.getDeclaredFields()) {
      org.apache.hadoop.hdds.conf.Config c = f.getAnnotation(org.apache.hadoop.hdds.conf.Config.class);
      if (c != null) {
        assertEquals(c.defaultValue(), conf.get(c.key()), c.key());
        String[] sources = conf.getPropertySources(c.key());
        assertTrue(
            sources != null && java.util.Arrays.asList(sources).contains(RangeCompactionConfig.DEFAULTS_RESOURCE),
            c.key() + " from " + java.util.Arrays.toString(sources));
      }
    }
  }

  @Test
  void backoffFormulaIsTheSameInCodeReadmeAndGeneratedXml() throws IOException {
    String formula = "min(interval x 2^(n-1), backoff.max)";
    String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
    assertTrue(readme.contains(formula), "README states " + formula);
    String schedule = java.nio.file.Files.readString(java.nio.file.Path.of(
        "src/main/java/io/ozonerc/compaction/service/Schedule.java"));
    assertTrue(schedule.contains("interval x 2^(n-1)"), "the schedule's code, which backs off, states the formula");
    try (InputStream in = getClass().getResourceAsStream("/" + RangeCompactionConfig.DEFAULTS_RESOURCE)) {
      assertTrue(new String(in.readAllBytes(), StandardCharsets.UTF_8).contains(formula), "generated XML");
    }
  }

  @Test
  void liveConfigRefusesABadValueAndKeepsTheOldOne() {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set("ozone.om.range.compaction.interval", "2m");
    LiveConfig live = LiveConfig.from(conf);
    java.util.List<RangeCompactionConfig> seen = new java.util.ArrayList<>();
    live.onChange(seen::add);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> live.set("ozone.om.range.compaction.interval", "500us"));
    assertTrue(e.getMessage().contains("ozone.om.range.compaction.interval") && e.getMessage().contains("'500us'"),
        e.getMessage());
    assertEquals(Duration.ofMinutes(2), live.get().getInterval());
    assertEquals(0, seen.size());

    live.set("ozone.om.range.compaction.min.tombstones", "5");
    live.set("ozone.om.range.compaction.interval", "30s");
    assertEquals(5, live.get().plannerSettings().minTombstones());
    assertEquals(Duration.ofSeconds(30), live.get().getInterval());
    assertEquals(2, seen.size());
    live.set("ozone.om.range.compaction.interval", null); // removed from the site file: back to the default
    assertEquals(Duration.ofMinutes(10), live.get().getInterval());
    assertEquals(5, live.get().plannerSettings().minTombstones());
    assertThrows(IllegalArgumentException.class, () -> live.set("ozone.om.range.compaction.nope", "1"));
  }

  @Test
  void readmeConfigurationTableListsEveryKeyWithItsDefault() throws IOException {
    String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md"));
    for (java.lang.reflect.Field f : RangeCompactionConfig.class.getDeclaredFields()) {
      org.apache.hadoop.hdds.conf.Config c = f.getAnnotation(org.apache.hadoop.hdds.conf.Config.class);
      if (c == null) {
        continue;
      }
      String suffix = c.key().substring(RangeCompactionConfig.PREFIX.length() + 1);
      String row = readme.lines().filter(l -> l.startsWith("| `" + suffix + "` |")).findFirst().orElse(null);
      assertTrue(row != null, "README configuration table lacks " + c.key());
      if (!suffix.equals("tables")) {
        assertTrue(row.contains("| `" + c.defaultValue() + "` |"), "README default of " + c.key() + ": " + row);
      }
    }
  }

  @Test
  void generatedDefaultsFileDocumentsEveryKey() throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/ozone-om-compaction-default.xml")) {
      assertTrue(in != null, "ozone-om-compaction-default.xml generated by Ozone's @Config processor");
      String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String key : RangeCompactionConfig.keys()) {
        assertTrue(xml.contains("<name>" + key + "</name>"), key);
      }
      assertEquals(RangeCompactionConfig.keys().size(), xml.split("<property>").length - 1);
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "ozone.om.range.compaction.min.tombstone|ozone.om.range.compaction.min.tombstones",
      "ozone.om.range.compaction.intervall|ozone.om.range.compaction.interval",
      "ozone.om.range.compaction.service.enable|ozone.om.range.compaction.service.enabled",
      "ozone.om.range.compaction.deadhead.min.keys|ozone.om.range.compaction.dead.head.min.keys",
      "ozone.om.range.compaction.bytes.per.round|ozone.om.range.compaction.bytes.per.run",
  })
  void anUnknownKeyIsReportedWithTheNearestKnownOne(String typo, String nearest) {
    OzoneConfiguration conf = new OzoneConfiguration();
    conf.set(typo, "42");
    assertEquals(java.util.List.of("Unknown configuration key " + typo + " = '42' is ignored; did you mean "
        + nearest + "?"), RangeCompactionConfig.unknownKeyWarnings(conf));
  }

  @Test
  void knownKeysRaiseNoWarning() {
    OzoneConfiguration conf = new OzoneConfiguration();
    RangeCompactionConfig.keys().forEach(k -> conf.set(k, conf.get(k, "1")));
    conf.set("ozone.om.ratis.enable", "true"); // another prefix: not ours to judge
    assertEquals(java.util.List.of(), RangeCompactionConfig.unknownKeyWarnings(conf));
  }

  @ParameterizedTest(name = "d({0}, {1}) = {2}")
  @CsvSource({"'',abc,3", "abc,abc,0", "abc,abd,1", "abc,ab,1", "ab,abc,1", "kitten,sitting,3"})
  void editDistanceCountsSingleCharacterEdits(String a, String b, int d) {
    assertEquals(d, RangeCompactionConfig.editDistance(a, b));
  }
}
