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

/**
 * Offline rewrite of an {@code om.db}'s {@code directoryTable} between the legacy protobuf values and the trimmed
 * format. {@link io.ozonerc.metadata.migrate.DirectoryTableMigrator} does the work on an open store;
 * {@link io.ozonerc.metadata.migrate.OfflineOmDb} opens one and refuses a DB a running OM holds;
 * {@link io.ozonerc.metadata.migrate.MigrateDirectoryTableCommand} is the command line.
 */
package io.ozonerc.metadata.migrate;
