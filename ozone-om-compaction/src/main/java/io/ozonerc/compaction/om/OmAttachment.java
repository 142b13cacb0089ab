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

package io.ozonerc.compaction.om;

import io.ozonerc.compaction.LiveConfig;
import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.service.RangeCompactionService;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
import org.apache.hadoop.hdds.conf.ReconfigurationHandler;
import org.apache.hadoop.ozone.om.OMMetadataManager;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties the service to a running {@link OzoneManager}: the metadata manager is asked of the OM on every call (it is
 * replaced on checkpoint install), and "leader" means this OM is the Ratis leader of an HA ring (a single OM is
 * always its own leader; the leader policy only makes sense with followers to take the work).
 */
public final class OmAttachment {
  private static final Logger LOG = LoggerFactory.getLogger(OmAttachment.class);

  private OmAttachment() { }

  /**
   * The one way an OM should create the service: reads and validates the configuration (failing start-up with
   * the key and value on nonsense) and returns nothing when {@code ozone.om.range.compaction.service.enabled} is
   * false, so a disabled service has no thread and no metrics source. The service reads the OM's store through an
   * {@link OmCompactionStore} that asks {@code metadata} for the metadata manager on every call.
   *
   * @param isLeader whether this OM is the Ratis leader now (for {@code .leader.policy}); false when not HA
   */
  public static Optional<RangeCompactionService> createIfEnabled(ConfigurationSource conf,
      Supplier<OMMetadataManager> metadata, BooleanSupplier isLeader) {
    RangeCompactionConfig config = RangeCompactionConfig.from(conf);
    RangeCompactionConfig.unknownKeyWarnings(conf).forEach(LOG::warn);
    if (!config.isEnabled()) {
      LOG.info("Range compaction disabled ({}=false)", RangeCompactionConfig.ENABLED_KEY);
      return Optional.empty();
    }
    return Optional.of(new RangeCompactionService(new OmCompactionStore(metadata), config, isLeader,
        System::nanoTime));
  }

  /**
   * Creates and starts the service for {@code om} when enabled; empty when disabled. Either way our keys become
   * reconfigurable through the OM's reconfiguration handler ({@code ozone admin reconfig --service=OM}).
   */
  public static Optional<RangeCompactionService> start(OzoneManager om, ConfigurationSource conf) {
    LiveConfig live = LiveConfig.from(conf);
    Optional<RangeCompactionService> service = createIfEnabled(conf, om::getMetadataManager, () -> isHaLeader(om));
    service.ifPresent(s -> {
      s.start();
      LOG.info("Range compaction attached to OM {}", om.getOMNodeId());
    });
    registerReconfiguration(om.getReconfigurationHandler(), live, service.orElse(null));
    return service;
  }

  /**
   * Registers every {@code ozone.om.range.compaction.*} key with {@code handler}: an accepted value reaches
   * {@code service} (when it runs) at its next round, except a pause, which stops the running round before the
   * change returns ({@link RangeCompactionService#reconfigure}); a bad one is refused naming the key and the value,
   * and the old value stays. Registering again (a new service after a store reload) replaces the previous
   * callbacks.
   *
   * @param service the running service, or null when it was disabled at start-up: then everything but enabling
   *                it is accepted (and applies when the OM next starts with the service on)
   */
  public static void registerReconfiguration(ReconfigurationHandler handler, LiveConfig live,
      RangeCompactionService service) {
    if (service != null) {
      live.onChange(service::reconfigure);
    }
    for (String key : RangeCompactionConfig.keys()) {
      handler.register(key, value -> {
        if (service == null && key.equals(RangeCompactionConfig.ENABLED_KEY) && value != null
            && value.trim().toLowerCase(Locale.ROOT).equals("true")) {
          throw new IllegalArgumentException("Cannot set " + key + " = '" + value + "' at run time: the service "
              + "was disabled when this OM started; set it in ozone-site.xml and restart the OM");
        }
        live.set(key, value);
        return value;
      });
    }
  }

  /** True when {@code om} is the Ratis leader of a ring with followers (a single OM is never "the leader" here). */
  public static boolean isHaLeader(OzoneManager om) {
    return !om.getPeerNodes().isEmpty() && om.isLeaderReady();
  }
}
