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

import static org.apache.hadoop.hdds.conf.ConfigTag.MANAGEMENT;
import static org.apache.hadoop.hdds.conf.ConfigTag.OM;
import static org.apache.hadoop.hdds.conf.ConfigTag.PERFORMANCE;

import io.ozonerc.compaction.plan.BottommostMode;
import io.ozonerc.compaction.plan.PlannerSettings;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdds.conf.Config;
import org.apache.hadoop.hdds.conf.ConfigGroup;
import org.apache.hadoop.hdds.conf.ConfigType;
import org.apache.hadoop.hdds.conf.ConfigurationException;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.hdds.conf.PostConstruct;

/**
 * Every {@code ozone.om.range.compaction.*} key, parsed and validated in one place.
 *
 * <p>Read it with {@link #from(ConfigurationSource)}: nonsense fails with an {@link IllegalArgumentException} that
 * names the key and the value. The annotation processor turns the fields below into
 * {@code ozone-om-compaction-default.xml}, the reference operators read.
 */
@ConfigGroup(prefix = RangeCompactionConfig.PREFIX)
public class RangeCompactionConfig {
  public static final String PREFIX = "ozone.om.range.compaction";
  public static final String ENABLED_KEY = PREFIX + ".service.enabled";
  /** Generated from the annotations below by Ozone's {@code @Config} processor; packaged in our jar. */
  public static final String DEFAULTS_RESOURCE = "ozone-om-compaction-default.xml";

  /** Shortest and longest duration the service can schedule with (millisecond timer, nanosecond clock). */
  static final Duration MIN_DURATION = Duration.ofMillis(1);
  static final Duration MAX_DURATION = Duration.ofDays(365);

  static {
    // Ozone 2.2.0 loads the -default.xml of its own modules only. Ours is listed first, below every other resource,
    // so /conf shows our keys with their defaults and ozone-site.xml still wins (DefaultsResource says why).
    DefaultsResource.registerFirst(DEFAULTS_RESOURCE);
  }

  /**
   * Makes sure our defaults are registered with Hadoop's {@link Configuration} (by loading this class). Safe in
   * any order with {@code OzoneConfiguration}: values from {@code ozone-site.xml}, {@code -D} and {@code set}
   * always win over ours.
   */
  public static void registerDefaults() {
    // the static initializer did the work
  }

  /** The OM tables keyed by bucket prefix: the ones the service may compact. */
  public static final List<String> KNOWN_TABLES = List.of(
      "keyTable", "openKeyTable", "deletedTable", "multipartInfoTable",
      "fileTable", "openFileTable", "directoryTable", "deletedDirectoryTable");

  @Config(key = ENABLED_KEY, defaultValue = "false", type = ConfigType.BOOLEAN, tags = {OM, PERFORMANCE},
      description = "Run the range compaction service in the OM: find bucket key ranges full of delete tombstones "
          + "and compact just those ranges. When false at start-up no thread runs and no metrics source is "
          + "registered. Set to false on a running OM (ozone admin reconfig) it pauses the service: the running round "
          + "stops before its next compaction, and no compaction starts once the change is applied; true resumes.")
  private boolean enabled;

  @Config(key = PREFIX + ".interval", defaultValue = "10m", type = ConfigType.TIME, tags = {OM, PERFORMANCE},
      description = "Delay between the end of one round and the start of the next, e.g. 30s, 10m (no unit: "
          + "milliseconds); from 1ms to 365d. A round with nothing to do only reads SST file metadata, so short "
          + "intervals are cheap.")
  private Duration interval;

  @Config(key = PREFIX + ".timeout", defaultValue = "5m", type = ConfigType.TIME, tags = {OM, PERFORMANCE},
      description = "Time budget of one round, e.g. 5m (no unit: milliseconds), from 1ms to 365d: no new range "
          + "compaction starts once it is spent. Shutdown waits at most this long for a running compaction before "
          + "leaving it to the RocksDB close; a pause (service.enabled=false at run time) waits as long for it.")
  private Duration timeout;

  @Config(key = PREFIX + ".max.compaction.entries", defaultValue = "1000000", type = ConfigType.LONG,
      tags = {OM, PERFORMANCE},
      description = "Largest number of SST entries (puts and tombstones) one compaction may cover, > 0; bigger "
          + "bucket ranges are split at SST file boundaries. Bounds the time of one compactRange call (about 200 ms "
          + "per million entries, measured on a 1e6-key bucket). A dead head whose compaction would take level-0 "
          + "files and rewrite more than this waits for RocksDB's own level-0 compaction.")
  private long maxCompactionEntries;

  @Config(key = PREFIX + ".min.tombstones", defaultValue = "10000", type = ConfigType.LONG, tags = {OM, PERFORMANCE},
      description = "A range qualifies only with at least this many estimated tombstones (a count, >= 0; 0: no "
          + "minimum).")
  private long minTombstones;

  @Config(key = PREFIX + ".tombstone.ratio", defaultValue = "0.3", type = ConfigType.DOUBLE, tags = {OM, PERFORMANCE},
      description = "A range qualifies only when at least this share of its entries are tombstones: a fraction "
          + "in (0, 1], e.g. 0.3 for 30%.")
  private double tombstoneRatio;

  @Config(key = PREFIX + ".ranges.per.run", defaultValue = "20", type = ConfigType.INT, tags = {OM, PERFORMANCE},
      description = "Most range compactions one round runs, best-scoring first (a count, >= 0; 0: plan and "
          + "report only, compact nothing).")
  private int rangesPerRun;

  @Config(key = PREFIX + ".bytes.per.run", defaultValue = "4GB", type = ConfigType.SIZE, tags = {OM, PERFORMANCE},
      description = "Most SST bytes one round may hand to compactions (whole overlapping files), e.g. 4GB (no "
          + "unit: bytes); 0 means no limit. The best range always runs, so an oversized range cannot starve.")
  private long bytesPerRun;

  @Config(key = PREFIX + ".tables", defaultValue = "keyTable,openKeyTable,deletedTable,multipartInfoTable,fileTable,"
      + "openFileTable,directoryTable,deletedDirectoryTable", type = ConfigType.STRING, tags = {OM, PERFORMANCE},
      description = "Comma-separated OM tables to watch, at least one, each one of the bucket-prefixed tables: "
          + "keyTable, openKeyTable, deletedTable, multipartInfoTable (keys /volume/bucket/...), fileTable, "
          + "openFileTable, directoryTable, deletedDirectoryTable (keys /volumeId/bucketId/...).")
  private String tables;

  @Config(key = PREFIX + ".bottommost.mode", defaultValue = "auto", type = ConfigType.STRING,
      tags = {OM, PERFORMANCE},
      description = "Rewrite files already in the range's bottommost level? auto: only when at least half the "
          + "range's tombstones sit there (nothing else removes them); skip: never (the merge from above already "
          + "drops tombstones over live data); force: always (rewrites fresh output twice in rocksdbjni 7.7.3).")
  private String bottommostMode;

  @Config(key = PREFIX + ".memtable.flush", defaultValue = "true", type = ConfigType.BOOLEAN,
      tags = {OM, PERFORMANCE},
      description = "Before planning, flush a table whose memtables hold at least min.tombstones deletes at "
          + "tombstone.ratio of their entries. Deletes in a memtable cost readers the same skips as SST tombstones "
          + "but are invisible to SST facts; on queue-like workloads they are the ones listings walk through.")
  private boolean memtableFlush;

  @Config(key = PREFIX + ".pressure.pending.compaction.bytes", defaultValue = "4GB", type = ConfigType.SIZE,
      tags = {OM, PERFORMANCE},
      description = "Stop the round when any column family's estimated pending compaction bytes reach this, e.g. "
          + "4GB (no unit: bytes). 0 stops every round (a pause). RocksDB starts slowing writes at 64GB by default; "
          + "4GB leaves the background compactions room.")
  private long pressurePendingCompactionBytes;

  @Config(key = PREFIX + ".pressure.level0.files", defaultValue = "12", type = ConfigType.INT,
      tags = {OM, PERFORMANCE},
      description = "Stop the round when any column family has this many level-0 files (a count, >= 0; 0 stops "
          + "every round, a pause). RocksDB slows writes at 20 (level0_slowdown_writes_trigger, which Ozone's OM "
          + "profile keeps); 12 stops well before that.")
  private int pressureLevel0Files;

  @Config(key = PREFIX + ".backoff.max", defaultValue = "1h", type = ConfigType.TIME, tags = {OM, PERFORMANCE},
      description = "After a round stopped for write pressure the next rounds are skipped for "
          + "min(interval x 2^(n-1), backoff.max), n = consecutive rounds stopped for pressure (1 after the first); "
          + "from 1ms to 365d, no unit: milliseconds.")
  private Duration backoffMax;

  @Config(key = PREFIX + ".leader.policy", defaultValue = "normal", type = ConfigType.STRING,
      tags = {OM, PERFORMANCE, MANAGEMENT},
      description = "How the Ratis leader OM compacts, since client reads hit the leader: normal (like any "
          + "replica), reduced (a quarter of ranges.per.run and bytes.per.run), or skip (followers only).")
  private String leaderPolicy;

  // Dead heads: the keys a seek at a range's start steps over before its first live key (plan.HeadPlanner).
  /**
   * Default 2,000, from page x per-entry cost x tolerance / per-skip cost: the dead keys that add a tenth of the
   * work of an ideal 1,000-entry OM listing are ~1,500 with the listing costs measured in docs/facts.md ("What an
   * OM listing pays per entry and per dead key"); 2,000 lets a head add up to ~15%.
   */
  @Config(key = PREFIX + ".dead.head.min.keys", defaultValue = "2000", type = ConfigType.LONG,
      tags = {OM, PERFORMANCE},
      description = "Compact the dead head of a table or bucket (the internal keys a seek at its start steps over "
          + "before the first live key) once it holds at least this many internal keys, estimated by a probe "
          + "each round. Only the dead span is compacted, not the whole bucket. 2000 dead keys add about 15% to "
          + "the work of an ideal 1000-key listing (a skipped key costs about 1/15 of a returned one). "
          + "0 turns dead-head probing off.")
  private long deadHeadMinKeys;

  @Config(key = PREFIX + ".head.check.interval", defaultValue = "5s", type = ConfigType.TIME,
      tags = {OM, PERFORMANCE},
      description = "Between full rounds, re-probe the table heads and the bucket heads found dead before, and "
          + "compact one that reached dead.head.min.keys. This is the first wait between checks; after each "
          + "check the service paces the next one: sooner (down to head.check.min.interval) while a head grows "
          + "toward dead.head.min.keys, at the time the fastest grower is projected to reach it, and up to twice "
          + "as long (at most head.check.max.interval) while nothing grows. A queue-like bucket regrows its head "
          + "in seconds; a check costs one seek per known head. 0 checks heads only in full rounds.")
  private Duration headCheckInterval;

  /**
   * Default 1 s: the service's thread wakes once a second, so a shorter wait would be rounded up to it anyway. A
   * queue deleting 1,500 keys a second (3,000 dead internal keys a second) then meets about 3,000 dead keys at
   * worst between checks, against 15,000 at a fixed 5 s.
   */
  @Config(key = PREFIX + ".head.check.min.interval", defaultValue = "1s", type = ConfigType.TIME,
      tags = {OM, PERFORMANCE},
      description = "Shortest wait between head checks, used while a head grows fast or waits, qualified but not "
          + "yet compacted. The service wakes once a second, so less than 1s acts as 1s. Must not exceed "
          + "head.check.interval.")
  private Duration headCheckMinInterval;

  @Config(key = PREFIX + ".head.check.max.interval", defaultValue = "30s", type = ConfigType.TIME,
      tags = {OM, PERFORMANCE},
      description = "Longest wait between head checks, reached by doubling while no head grows. A head that "
          + "starts growing after a quiet spell is seen within this time (full rounds probe heads too). Must "
          + "not be less than head.check.interval.")
  private Duration headCheckMaxInterval;

  /** Reads and validates; any bad value fails with the key and the value in the message. */
  public static RangeCompactionConfig from(ConfigurationSource conf) {
    try {
      return read(conf);
    } catch (IllegalArgumentException e) {
      // validate() sees parsed values (500us reads as PT0.0005S): add the value as the operator wrote it.
      for (String key : keys()) {
        String raw = conf.get(key);
        String msg = String.valueOf(e.getMessage());
        if (raw != null && msg.startsWith("Invalid " + key + " = ") && !msg.contains(raw)) {
          throw new IllegalArgumentException(msg + " (set as '" + raw + "')", e);
        }
      }
      throw e;
    }
  }

  private static RangeCompactionConfig read(ConfigurationSource conf) {
    checkBooleans(conf);
    try {
      return conf.getObject(RangeCompactionConfig.class);
    } catch (ConfigurationException e) {
      // Ozone names the field; operators know the key.
      for (Field f : RangeCompactionConfig.class.getDeclaredFields()) {
        Config c = f.getAnnotation(Config.class);
        if (c != null && String.valueOf(e.getMessage()).endsWith("." + f.getName())) {
          Throwable cause = e.getCause() == null ? e : e.getCause();
          throw new IllegalArgumentException("Invalid " + c.key() + " = '" + conf.get(c.key()) + "': "
              + cause.getMessage(), e);
        }
      }
      throw e;
    }
  }

  /** Ozone parses any non-"true" boolean as false; a typo must not silently turn a feature off. */
  private static void checkBooleans(ConfigurationSource conf) {
    for (String key : List.of(ENABLED_KEY, PREFIX + ".memtable.flush")) {
      String v = conf.get(key);
      if (v != null && !v.trim().equalsIgnoreCase("true") && !v.trim().equalsIgnoreCase("false")) {
        throw new IllegalArgumentException("Invalid " + key + " = '" + v + "': must be true or false");
      }
    }
  }

  /** Called by Ozone after injection; rejects values that parse but make no sense. */
  @PostConstruct
  public void validate() {
    schedulable(PREFIX + ".interval", interval);
    schedulable(PREFIX + ".timeout", timeout);
    schedulable(PREFIX + ".backoff.max", backoffMax);
    if (maxCompactionEntries <= 0) {
      fail(".max.compaction.entries", maxCompactionEntries, "must be > 0");
    }
    if (minTombstones < 0) {
      fail(".min.tombstones", minTombstones, "must be >= 0");
    }
    if (!(tombstoneRatio > 0 && tombstoneRatio <= 1)) {
      fail(".tombstone.ratio", tombstoneRatio, "must be in (0, 1]");
    }
    if (rangesPerRun < 0) {
      fail(".ranges.per.run", rangesPerRun, "must be >= 0");
    }
    if (bytesPerRun < 0) {
      fail(".bytes.per.run", bytesPerRun, "must be >= 0 (0 = no limit)");
    }
    if (deadHeadMinKeys < 0) {
      fail(".dead.head.min.keys", deadHeadMinKeys, "must be >= 0 (0 = off)");
    }
    if (headCheckInterval == null || !headCheckInterval.isZero()) {
      schedulable(PREFIX + ".head.check.interval", headCheckInterval); // 0 = heads only in full rounds
      schedulable(PREFIX + ".head.check.min.interval", headCheckMinInterval);
      schedulable(PREFIX + ".head.check.max.interval", headCheckMaxInterval);
      if (headCheckMinInterval.compareTo(headCheckInterval) > 0) {
        fail(".head.check.min.interval", headCheckMinInterval, "must not exceed " + PREFIX
            + ".head.check.interval = " + headCheckInterval);
      }
      if (headCheckMaxInterval.compareTo(headCheckInterval) < 0) {
        fail(".head.check.max.interval", headCheckMaxInterval, "must not be less than " + PREFIX
            + ".head.check.interval = " + headCheckInterval);
      }
    }
    if (pressurePendingCompactionBytes < 0) {
      fail(".pressure.pending.compaction.bytes", pressurePendingCompactionBytes, "must be >= 0");
    }
    if (pressureLevel0Files < 0) {
      fail(".pressure.level0.files", pressureLevel0Files, "must be >= 0");
    }
    tableSet();
    try {
      bottommost();
    } catch (IllegalArgumentException e) {
      fail(".bottommost.mode", bottommostMode, "must be auto, skip or force");
    }
    try {
      leaderPolicy();
    } catch (IllegalArgumentException e) {
      fail(".leader.policy", leaderPolicy, "must be normal, reduced or skip");
    }
  }

  /**
   * Ozone's executor schedules in whole milliseconds (0 ms would make {@code start()} throw) and the service
   * keeps time in nanoseconds (a long overflows after 292 years), so a duration must lie in [1ms, 365d].
   */
  private static void schedulable(String key, Duration d) {
    if (d == null || d.compareTo(MIN_DURATION) < 0 || d.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException("Invalid " + key + " = " + d + ": must be between 1ms and 365d");
    }
  }

  private static void fail(String suffix, Object value, String rule) {
    throw new IllegalArgumentException("Invalid " + PREFIX + suffix + " = " + value + ": " + rule);
  }

  /** The Ratis-leader treatment of {@link #leaderPolicy}. */
  public enum LeaderPolicy { NORMAL, REDUCED, SKIP }

  public boolean isEnabled() {
    return enabled;
  }

  public Duration getInterval() {
    return interval;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public Duration getBackoffMax() {
    return backoffMax;
  }

  /** Dead entries that make a head worth compacting; 0 when dead-head probing is off. */
  public long getDeadHeadMinKeys() {
    return deadHeadMinKeys;
  }

  /** Time between head checks between full rounds; zero when heads are checked only in full rounds. */
  public Duration getHeadCheckInterval() {
    return headCheckInterval;
  }

  /** Shortest wait between head checks (while a head grows fast). */
  public Duration getHeadCheckMinInterval() {
    return headCheckMinInterval;
  }

  /** Longest wait between head checks (while nothing grows). */
  public Duration getHeadCheckMaxInterval() {
    return headCheckMaxInterval;
  }

  public boolean isMemtableFlush() {
    return memtableFlush;
  }

  public long getPressurePendingCompactionBytes() {
    return pressurePendingCompactionBytes;
  }

  public int getPressureLevel0Files() {
    return pressureLevel0Files;
  }

  public BottommostMode bottommost() {
    return BottommostMode.parse(bottommostMode);
  }

  public LeaderPolicy leaderPolicy() {
    return LeaderPolicy.valueOf(leaderPolicy.trim().toUpperCase(Locale.ROOT));
  }

  /** The watched tables, validated against {@link #KNOWN_TABLES}. */
  public Set<String> tableSet() {
    Set<String> out = new LinkedHashSet<>();
    List<String> unknown = new ArrayList<>();
    for (String t : tables.split(",")) {
      String name = t.trim();
      if (name.isEmpty()) {
        continue;
      }
      (KNOWN_TABLES.contains(name) ? out : unknown).add(name);
    }
    if (!unknown.isEmpty() || out.isEmpty()) {
      fail(".tables", tables, (unknown.isEmpty() ? "names no table" : "unknown table(s) " + unknown)
          + "; known: " + String.join(",", KNOWN_TABLES));
    }
    return out;
  }

  /** The planner's frozen view of these settings. */
  public PlannerSettings plannerSettings() {
    return new PlannerSettings(minTombstones, tombstoneRatio, maxCompactionEntries, rangesPerRun, bytesPerRun,
        bottommost(), deadHeadMinKeys);
  }

  @Override
  public String toString() {
    return "RangeCompactionConfig{enabled=" + enabled + ", interval=" + interval + ", timeout=" + timeout
        + ", maxCompactionEntries=" + maxCompactionEntries + ", minTombstones=" + minTombstones
        + ", tombstoneRatio=" + tombstoneRatio + ", rangesPerRun=" + rangesPerRun + ", bytesPerRun=" + bytesPerRun
        + ", tables=" + tables + ", bottommost=" + bottommostMode + ", memtableFlush=" + memtableFlush
        + ", pressure=(pending>="
        + pressurePendingCompactionBytes + "B, L0>=" + pressureLevel0Files + "), backoffMax=" + backoffMax
        + ", leaderPolicy=" + leaderPolicy + ", deadHeadMinKeys=" + deadHeadMinKeys + ", headCheckInterval="
        + headCheckInterval + ", headCheckMinInterval=" + headCheckMinInterval + ", headCheckMaxInterval="
        + headCheckMaxInterval + "}";
  }

  /**
   * Which of {@code keys} nobody set: no {@code ozone-site.xml}, {@code -D} or code gave them a value, so the
   * declared default applies. Tools print these so an operator knows the thresholds were not the cluster's.
   */
  public static List<String> keysAtDefault(Configuration conf, List<String> keys) {
    return keys.stream().filter(k -> {
      String[] sources = conf.getPropertySources(k);
      return sources == null || Arrays.stream(sources).allMatch(DEFAULTS_RESOURCE::equals);
    }).toList();
  }

  /**
   * One warning per {@code ozone.om.range.compaction.*} key in {@code conf} that this class does not read (a typo
   * in {@code ozone-site.xml} would otherwise be ignored silently), naming the key, its value and the nearest known
   * key by edit distance. Empty when every key is known.
   */
  public static List<String> unknownKeyWarnings(ConfigurationSource conf) {
    List<String> known = keys();
    List<String> out = new ArrayList<>();
    conf.getPropsMatchPrefix(PREFIX + ".").entrySet().stream()
        .filter(e -> !known.contains(e.getKey()))
        .sorted(java.util.Map.Entry.comparingByKey())
        .forEach(e -> out.add("Unknown configuration key " + e.getKey() + " = '" + e.getValue()
            + "' is ignored; did you mean " + nearest(e.getKey(), known) + "?"));
    return out;
  }

  private static String nearest(String key, List<String> known) {
    String best = known.get(0);
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = editDistance(key, k);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /** Every key this class reads, {@code ozone.om.range.compaction.*}. */
  public static List<String> keys() {
    return Arrays.stream(RangeCompactionConfig.class.getDeclaredFields())
        .filter(f -> f.isAnnotationPresent(Config.class)).map(f -> f.getAnnotation(Config.class).key()).toList();
  }
}
