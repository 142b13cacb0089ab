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

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

  @Test
  void blocksLieOutsideTheEphemeralRangeAndAreFree() throws IOException {
    int[] ephemeral = LoopbackPorts.ephemeralRange();
    for (int size : new int[] {1, 14, 20, 40}) {
      for (int i = 0; i < 20; i++) {
        int base = LoopbackPorts.freeBlock(size);
        int last = base + size - 1;
        assertTrue(base >= 1024 && last <= 65535, base + ".." + last);
        assertTrue(last < ephemeral[0] || base > ephemeral[1],
            base + ".." + last + " overlaps the ephemeral range " + ephemeral[0] + "-" + ephemeral[1]);
        for (int port : new int[] {base, last}) {
          try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
          }
        }
      }
    }
  }
}
