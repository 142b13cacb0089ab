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

import io.ozonerc.compaction.RangeCompactionConfig;
import io.ozonerc.compaction.service.RangeCompactionService;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hdds.conf.OzoneConfiguration;
import org.apache.hadoop.ozone.conf.OzoneServiceConfig;
import org.apache.hadoop.ozone.om.OMStarterInterface;
import org.apache.hadoop.ozone.om.OzoneManager;
import org.apache.hadoop.ozone.om.OzoneManagerStarter;
import org.apache.hadoop.ozone.util.OzoneNetUtils;
import org.apache.hadoop.ozone.util.ShutdownHookManager;
import org.apache.hadoop.security.authentication.client.AuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a stock Ozone 2.2.0 OM with the range compaction service attached, without rebuilding Ozone.
 *
 * <p>The command line is Ozone's own: {@link OzoneManagerStarter} parses {@code ozone om}, {@code --init},
 * {@code --upgrade}, {@code --bootstrap [--force]} and calls back into this class through Ozone's public
 * {@link OMStarterInterface}. Each callback does what Ozone's own (package-private) {@code OMStarterHelper} does, in
 * the same order, and attaches the service once the OM is up: {@code init} only initialises and starts nothing;
 * {@code start}, {@code bootstrap} and {@code --upgrade} start an OM and then the service, if
 * {@code ozone.om.range.compaction.service.enabled} is true. The service is stopped before the OM: its JVM shutdown
 * hook has a higher priority than the OM's, and for the blocking forms it is stopped when {@code join()} returns.
 *
 * <p>Installed with {@code dev-support/ozone-user-functions.sh}, which makes {@code ozone om} run this class.
 * No cleaner hook exists in 2.2.0: the OM loads no plugins, and its starter creates the OM where no caller sees it.
 */
public final class RangeCompactionOmStarter implements OMStarterInterface {
  private static final Logger LOG = LoggerFactory.getLogger(RangeCompactionOmStarter.class);
  /** Ozone's OM hook uses DEFAULT_SHUTDOWN_HOOK_PRIORITY (10); higher runs first. */
  static final int SERVICE_SHUTDOWN_PRIORITY = OzoneServiceConfig.DEFAULT_SHUTDOWN_HOOK_PRIORITY + 1;

  public static void main(String[] args) throws Exception {
    RangeCompactionConfig.registerDefaults(); // our keys and defaults in every configuration, /conf included
    OzoneNetUtils.disableJvmNetworkAddressCacheIfRequired(new OzoneConfiguration());
    new OzoneManagerStarter(new RangeCompactionOmStarter()).run(args);
  }

  @Override
  public void start(OzoneConfiguration conf) throws IOException, AuthenticationException {
    validate(conf);
    OzoneManager om = OzoneManager.createOm(conf);
    om.start();
    Optional<RangeCompactionService> service = OmAttachment.start(om, conf);
    ShutdownHookManager.get().addShutdownHook(() -> {
      try {
        if (om.stop()) {
          om.join();
        }
      } catch (Exception e) {
        LOG.error("Error during stop OzoneManager.", e);
      }
    }, OzoneServiceConfig.DEFAULT_SHUTDOWN_HOOK_PRIORITY);
    service.ifPresent(s -> ShutdownHookManager.get().addShutdownHook(s::shutdown, SERVICE_SHUTDOWN_PRIORITY));
  }

  @Override
  public boolean init(OzoneConfiguration conf) throws IOException, AuthenticationException {
    return OzoneManager.omInit(conf);
  }

  @Override
  public void bootstrap(OzoneConfiguration conf, boolean force) throws IOException, AuthenticationException {
    validate(conf);
    if (!OzoneManager.omInit(conf)) {
      throw new IOException("OM Init failed.");
    }
    OzoneManager.StartupOption option = force
        ? OzoneManager.StartupOption.FORCE_BOOTSTRAP : OzoneManager.StartupOption.BOOTSTRAP;
    try (OzoneManager om = OzoneManager.createOm(conf, option)) {
      om.start();
      runUntilStopped(om, conf);
    }
  }

  @Override
  public void startAndCancelPrepare(OzoneConfiguration conf) throws IOException, AuthenticationException {
    validate(conf);
    try (OzoneManager om = OzoneManager.createOm(conf)) {
      om.getPrepareState().cancelPrepare();
      om.start();
      runUntilStopped(om, conf);
    }
  }

  /**
   * Fails on a bad {@code ozone.om.range.compaction.*} value before the OM is created: an OM that opened RPC,
   * Ratis (joining its HA ring) and HTTP would otherwise be left without a clean stop.
   */
  static void validate(OzoneConfiguration conf) {
    RangeCompactionConfig.from(conf);
  }

  /** The blocking forms: service up after the OM, down before the OM's close. */
  private static void runUntilStopped(OzoneManager om, OzoneConfiguration conf) {
    Optional<RangeCompactionService> service = OmAttachment.start(om, conf);
    service.ifPresent(s -> ShutdownHookManager.get().addShutdownHook(s::shutdown, SERVICE_SHUTDOWN_PRIORITY));
    try {
      om.join();
    } finally {
      service.ifPresent(RangeCompactionService::shutdown);
    }
  }
}
