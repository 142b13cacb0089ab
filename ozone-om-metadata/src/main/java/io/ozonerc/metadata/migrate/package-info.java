/**
 * Offline rewrite of an {@code om.db}'s {@code directoryTable} between the legacy protobuf values and the trimmed
 * format. {@link io.ozonerc.metadata.migrate.DirectoryTableMigrator} does the work on an open store;
 * {@link io.ozonerc.metadata.migrate.OfflineOmDb} opens one and refuses a DB a running OM holds;
 * {@link io.ozonerc.metadata.migrate.MigrateDirectoryTableCommand} is the command line.
 */
package io.ozonerc.metadata.migrate;
