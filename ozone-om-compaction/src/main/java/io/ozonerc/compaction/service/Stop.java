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

package io.ozonerc.compaction.service;

import io.ozonerc.compaction.service.RoundResult.Outcome;
import java.io.IOException;

/**
 * Why a round stops before its next compaction: shutdown or a pause, the time budget, or write pressure. The round
 * asks its {@link Check} before every compaction and every bottommost rewrite ({@link CompactionExecutor},
 * {@link PassRunner}).
 */
record Stop(Outcome outcome, String detail) {
  /** Asked before each compaction; returns why to stop, or null to go on. */
  interface Check {
    Stop check() throws IOException;
  }
}
