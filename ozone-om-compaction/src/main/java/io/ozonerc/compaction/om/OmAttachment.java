package io.ozonerc.compaction.om;

import io.ozonerc.compaction.service.RangeCompactionService;
import java.util.Optional;
import org.apache.hadoop.hdds.conf.ConfigurationSource;
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

  /** Creates and starts the service for {@code om} when enabled; empty when disabled. */
  public static Optional<RangeCompactionService> start(OzoneManager om, ConfigurationSource conf) {
    Optional<RangeCompactionService> service = RangeCompactionService.createIfEnabled(conf,
        om::getMetadataManager, () -> isHaLeader(om));
    service.ifPresent(s -> {
      s.start();
      LOG.info("Range compaction attached to OM {}", om.getOMNodeId());
    });
    return service;
  }

  /** True when {@code om} is the Ratis leader of a ring with followers (a single OM is never "the leader" here). */
  public static boolean isHaLeader(OzoneManager om) {
    return !om.getPeerNodes().isEmpty() && om.isLeaderReady();
  }
}
