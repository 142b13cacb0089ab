/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.hadoop.hdds.utils.db;

import static org.apache.hadoop.hdds.utils.db.SkipHintSettings.ENABLED_DEFAULT;
import static org.apache.hadoop.hdds.utils.db.SkipHintSettings.ENABLED_KEY;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The hints of one OM's active store, replaced whenever the OM opens a store; also its metrics source. */
public final class SkipHintGroup implements MetricsSource, AutoCloseable {
  /** Logs as SkipHints does: the skip hints have one log name. */
  private static final Logger LOG = LoggerFactory.getLogger(SkipHints.class);

  /**
   * The OM tables that get hints. Not directoryTable: the OM reads it through io.ozonerc's KeyAwareDirectoryTable
   * (the trimmed-directory patch, which this one applies after), whose iterators are Ozone 2.2.0's unbounded
   * prefix iterators, never the bounded ones hints work in; its puts would be announced for no reader.
   */
  public static final List<String> TABLES = Collections.unmodifiableList(Arrays.asList(
      "keyTable", "fileTable", "openKeyTable", "openFileTable", "deletedTable",
      "deletedDirectoryTable", "multipartInfoTable"));

  private final SkipHintSettings settings;
  private final String sourceName;
  private volatile List<SkipHints> tables = Collections.emptyList();
  /** Why the open store has no hints although it could take them, or null. */
  private volatile String noHintsBecause;

  public SkipHintGroup(SkipHintSettings settings) {
    this.settings = settings;
    this.sourceName = DefaultMetricsSystem.sourceName("OmSkipHints", true);
    DefaultMetricsSystem.instance().register(sourceName, "Skip hints of the OM's key tables", this);
    LOG.info("Skip hints {} (at most {} spans per table, learned from steps of at least {} us)",
        settings.isEnabled() ? "on" : "off", settings.maxEntries(), settings.learnThresholdNanos() / 1000.0);
  }

  /** Unregisters the metrics source and drops the hints. */
  @Override
  public void close() {
    DefaultMetricsSystem.instance().unregisterSource(sourceName);
    tables.forEach(SkipHints::clear);
    tables = Collections.emptyList();
  }

  /**
   * Gives the column family of every table of {@link #TABLES} in {@code store} fresh hints, which every writer
   * and reader of the family then finds through it, whatever table object it holds; the previous store's hints
   * are dropped. Call before the store takes writes.
   *
   * <p>A store whose RocksDB options let a write return before a new iterator sees it (unordered_write) gets no
   * hints, since the argument in SkipHints' class comment needs the opposite: with hints on that is an error, with
   * them off the store runs without any, and turning them on later does nothing until the OM reopens its store.
   *
   * @throws IllegalStateException if hints are on and the store was opened with unordered_write
   */
  public void attach(DBStore store) {
    tables = Collections.emptyList();
    noHintsBecause = null;
    if (!(store instanceof RDBStore)) {
      LOG.info("No skip hints: the store is a {}, not an RDBStore", store.getClass().getName());
      return;
    }
    final RocksDatabase db = ((RDBStore) store).getDb();
    if (db.unorderedWrite()) {
      noHintsBecause = "Skip hints need RocksDB writes to be visible once they return, which unordered_write=true"
          + " in the OM's RocksDB options does not promise";
      if (settings.isEnabled()) {
        throw new IllegalStateException(noHintsBecause + ": remove it, or set " + ENABLED_KEY + "=false");
      }
      LOG.info("{}: this store gets none, whatever {} is set to later", noHintsBecause, ENABLED_KEY);
      return;
    }
    List<SkipHints> attached = new ArrayList<>();
    for (String name : TABLES) {
      final RocksDatabase.ColumnFamily family = db.getColumnFamily(name);
      if (family != null) {
        SkipHints h = new SkipHints(name, settings);
        family.setSkipHints(h);
        attached.add(h);
      }
    }
    tables = Collections.unmodifiableList(attached);
    LOG.debug("Skip hints on tables {}", attached.stream().map(SkipHints::table).toArray());
  }

  /** Reconfiguration: turns hints on or off; off also drops the hints held. Returns the value in force. */
  public String reconfigureEnabled(String value) {
    boolean on = value == null ? ENABLED_DEFAULT : SkipHintSettings.parseEnabled(value);
    settings.setEnabled(on);
    if (!on) {
      tables.forEach(SkipHints::clear);
    }
    if (on && noHintsBecause != null) {
      LOG.info("Skip hints turned on, but the open store has none: {}", noHintsBecause);
    } else {
      LOG.info("Skip hints turned {}", on ? "on" : "off");
    }
    return String.valueOf(on);
  }

  public SkipHintSettings settings() {
    return settings;
  }

  public List<SkipHints> tables() {
    return tables;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    for (SkipHints h : tables) {
      MetricsRecordBuilder r = collector.addRecord("OmSkipHints").setContext("om")
          .tag(Interns.info("Table", "Key table"), h.table())
          .addGauge(Interns.info("Enabled", "1 if hints are learned and used"), settings.isEnabled() ? 1 : 0)
          .addGauge(Interns.info("Entries", "Dead spans held"), h.size())
          .addGauge(Interns.info("MaxEntries", "Most hints held per table"), settings.maxEntries())
          .addGauge(Interns.info("PendingKeys", "Puts not yet settled"), h.pendingKeys())
          .addCounter(Interns.info("Used", "Seeks and listing steps that jumped over a span"), h.used())
          .addCounter(Interns.info("Learned", "Spans installed, extended or merged"), h.learned())
          .addCounter(Interns.info("Merged", "Spans merged into a newly learned one"), h.merged())
          .addCounter(Interns.info("Refused", "Installs refused for a write into the span"), h.refused())
          .addCounter(Interns.info("Retired", "Spans removed by a put into them"), h.retired())
          .addCounter(Interns.info("Evicted", "Spans dropped for the size bound"), h.evicted());
      r.endRecord();
    }
  }
}
