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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.ozonerc.compaction.plan.HeadFacts;
import io.ozonerc.compaction.plan.Keys;
import io.ozonerc.compaction.plan.PlannerSettings;
import io.ozonerc.compaction.plan.RangeAssessment;
import io.ozonerc.compaction.plan.RangeStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine form of a {@link DbReport}: the same facts as {@link TextReport}, every watched table included
 * (empty ones too), keys in the escaped form of {@link Keys#show} (null end: {@code "+inf"}), estimates rounded
 * to whole entries and ratios to four decimals so the output is stable. Jackson comes with Ozone.
 */
final class JsonReport {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() { }

  static String render(DbReport r) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("db", r.db());
    root.put("access", r.access());
    root.put("lock", r.lock());
    root.put("settings", settings(r.settings(), r.deadHeadMinKeys()));
    root.put("settingsAtDefault", r.atDefault());
    List<Object> tables = new ArrayList<>();
    for (DbReport.TableReport t : r.tables()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("table", t.table());
      m.put("sstFiles", t.files());
      m.put("entries", t.entries());
      m.put("tombstones", t.tombstones());
      m.put("tombstoneRatio", ratio(t.tombstoneRatio()));
      m.put("bytes", t.bytes());
      m.put("shallowestLevel", t.shallowestLevel());
      m.put("deepestLevel", t.deepestLevel());
      m.put("memtableEntries", t.memtableEntries());
      m.put("memtableDeletes", t.memtableDeletes());
      m.put("filesWithoutCounts", t.filesWithoutCounts());
      m.put("rangesWithData", t.ranges());
      List<Object> worst = new ArrayList<>();
      for (RangeAssessment a : t.worst()) {
        worst.add(range(a));
      }
      m.put("worstRanges", worst);
      tables.add(m);
    }
    root.put("tables", tables);
    Map<String, Object> heads = new LinkedHashMap<>();
    heads.put("probed", r.deadHeadMinKeys() > 0);
    heads.put("tableHeadsProbed", r.heads().probed().size() - r.heads().bucketsProbed());
    heads.put("bucketsProbed", r.heads().bucketsProbed());
    heads.put("withDeadEntries", r.headsWithDeadEntries());
    heads.put("heads", r.worstHeads().stream().map(a -> head(r, a)).toList());
    root.put("deadHeads", heads);
    if (r.showPlan()) {
      Map<String, Object> plan = new LinkedHashMap<>();
      plan.put("plannedBytes", r.plannedBytes());
      plan.put("deadHeads", r.heads().plan().planned().stream().map(a -> head(r, a)).toList());
      plan.put("planned", r.plan().planned().stream().map(JsonReport::range).toList());
      plan.put("deadHeadsQualifiedNotPlanned", r.headsQualifiedNotPlanned().stream().map(a -> head(r, a)).toList());
      plan.put("qualifiedNotPlanned", r.qualifiedNotPlanned().stream().map(JsonReport::range).toList());
      plan.put("deadHeadsBelowThreshold", r.headsBelowThreshold());
      plan.put("belowThreshold", r.belowThreshold());
      root.put("plan", plan);
    }
    if (r.compactedHeads() != null) {
      root.put("compactedDeadHeads", compacted(r.compactedHeads()));
    }
    if (r.compacted() != null) {
      root.put("compacted", compacted(r.compacted()));
    }
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render the report as JSON", e);
    }
  }

  private static List<Object> compacted(List<DbReport.Compaction> compactions) {
    List<Object> done = new ArrayList<>();
    for (DbReport.Compaction c : compactions) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("range", range(c.recheck()));
      m.put("compacted", c.done());
      if (c.done()) {
        if (c.head() != null) {
          m.put("deadEntriesBefore", c.head().deadBefore());
          m.put("deadEntriesAfter", c.head().deadAfter());
          m.put("memtableEntriesBefore", c.head().memtableBefore());
        }
        m.put("secondPass", c.firstPass() != null);
        if (c.firstPass() != null) {
          m.put("afterFirstPass", stats(c.firstPass()));
        }
        m.put("after", stats(c.after()));
      }
      done.add(m);
    }
    return done;
  }

  /** A dead head: its span as a range, with what the probe measured. */
  private static Map<String, Object> head(DbReport r, RangeAssessment a) {
    HeadFacts h = r.heads().probeOf(a);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", a.range().kind().toString().replace('-', ' '));
    m.put("deadEntries", h.deadEntries());
    m.put("memtableDeadEntries", h.memDead());
    m.put("firstLiveKey", h.firstLive() == null ? null : Keys.show(h.firstLive()));
    m.put("truncated", h.truncated());
    m.putAll(range(a));
    return m;
  }

  private static Map<String, Object> settings(PlannerSettings s, long deadHeadMinKeys) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("minTombstones", s.minTombstones());
    m.put("tombstoneRatio", s.tombstoneRatio());
    m.put("maxCompactionEntries", s.maxCompactionEntries());
    m.put("rangesPerRun", s.rangesPerRun());
    m.put("bytesPerRun", s.maxBytesPerRun());
    m.put("bottommost", s.bottommost().toString());
    m.put("deadHeadMinKeys", deadHeadMinKeys);
    return m;
  }

  private static Map<String, Object> range(RangeAssessment a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table", a.range().table());
    m.put("label", a.range().label());
    String[] vb = volumeAndBucket(a.range().label());
    m.put("volume", vb == null ? null : vb[0]);
    m.put("bucket", vb == null ? null : vb[1]);
    m.put("begin", Keys.show(a.range().begin()));
    m.put("end", Keys.show(a.range().end()));
    m.putAll(stats(a.stats()));
    m.put("verdict", a.verdict().toString());
    m.put("why", a.why());
    m.put("bottommost", a.forceBottommost() ? "force" : "skip");
    return m;
  }

  /** A range labelled {@code /volume/bucket/} (possibly "... part i/n" or "... dense part"); null otherwise. */
  static String[] volumeAndBucket(String label) {
    Matcher m = BUCKET_LABEL.matcher(label);
    return m.matches() ? new String[] {m.group(1), m.group(2)} : null;
  }

  private static final Pattern BUCKET_LABEL =
      Pattern.compile("/([^/ ]+)/([^/ ]+)/( part \\d+/\\d+| dense part)*");

  private static Map<String, Object> stats(RangeStats s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("entries", Math.round(s.entries()));
    m.put("tombstones", Math.round(s.tombstones()));
    m.put("tombstoneRatio", ratio(s.tombstoneRatio()));
    m.put("deadKeys", Math.round(s.deadKeys()));
    m.put("score", Math.round(s.score()));
    m.put("files", s.files());
    m.put("fileEntries", s.fileEntries());
    m.put("fileBytes", s.fileBytes());
    m.put("shallowestLevel", s.shallowestLevel());
    m.put("deepestLevel", s.deepestLevel());
    m.put("busy", s.busy());
    return m;
  }

  private static double ratio(double r) {
    return Math.round(r * 10_000) / 10_000.0;
  }
}
