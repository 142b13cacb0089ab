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

package io.ozonerc.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Blocks of consecutive loopback ports for the clusters that tests start as real processes.
 *
 * <p>A block is taken outside the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}, 32768-60999 by
 * default). Checking that a port is free says nothing about a minute later: inside the ephemeral range the kernel
 * hands ports to outgoing connections (a datanode's heartbeat, a client's RPC), and one such connection took a port
 * of the second cluster of a test between the check and that cluster's start. Outside the range only a listener
 * can take a port: one already bound is seen by the check, and a block is taken at random, so two tests running at
 * once rarely meet.
 */
public final class LoopbackPorts {
  private static final int LOWEST = 10000;
  private static final int HIGHEST = 65535;
  private static final Path EPHEMERAL = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  private LoopbackPorts() {
  }

  /** The first of {@code size} consecutive ports, all free on loopback now and outside the ephemeral range. */
  public static int freeBlock(int size) throws IOException {
    int[] ephemeral = ephemeralRange();
    int belowEnd = Math.min(ephemeral[0], HIGHEST + 1) - size;    // bases in [LOWEST, belowEnd]
    int aboveStart = Math.max(ephemeral[1] + 1, LOWEST);          // bases in [aboveStart, aboveEnd]
    int aboveEnd = HIGHEST + 1 - size;
    int below = Math.max(0, belowEnd - LOWEST + 1);
    int above = Math.max(0, aboveEnd - aboveStart + 1);
    if (below + above == 0) {
      throw new IOException("no block of " + size + " ports lies outside the ephemeral range " + ephemeral[0] + "-"
          + ephemeral[1] + " (" + EPHEMERAL + ")");
    }
    InetAddress lo = InetAddress.getLoopbackAddress();
    for (int attempt = 0; attempt < 50; attempt++) {
      int pick = ThreadLocalRandom.current().nextInt(below + above);
      int base = pick < below ? LOWEST + pick : aboveStart + pick - below;
      int p = base;
      while (p < base + size && bindable(lo, p)) {
        p++;
      }
      if (p == base + size) {
        return base;
      }
    }
    throw new IOException("no block of " + size + " free loopback ports found outside the ephemeral range");
  }

  /** The kernel's ephemeral range, or Linux's default when it cannot be read. */
  static int[] ephemeralRange() {
    try {
      String[] parts = Files.readString(EPHEMERAL).trim().split("\\s+");
      return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    } catch (IOException | RuntimeException e) {
      return new int[] {32768, 60999};
    }
  }

  private static boolean bindable(InetAddress lo, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(lo, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
