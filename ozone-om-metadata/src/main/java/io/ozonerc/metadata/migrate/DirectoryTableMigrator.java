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

package io.ozonerc.metadata.migrate;

import io.ozonerc.metadata.DirectoryFormat;
import io.ozonerc.metadata.DirectoryValueException;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.hadoop.hdds.utils.db.BatchOperation;
import org.apache.hadoop.hdds.utils.db.RDBStore;
import org.apache.hadoop.hdds.utils.db.Table;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites every {@code directoryTable} value of an offline OM DB into one format, and proves nothing changed.
 *
 * <h2>Shape of a run</h2>
 * <ol>
 *   <li>Pass 1 reads each row with a RocksDB iterator (an implicit snapshot, so our own writes do not feed back),
 *       decodes it (either format) to an {@link OmDirectoryInfo}, and feeds key + canonical protobuf of the decoded
 *       object into a SHA-256 digest. Rows not yet in the target format are encoded into it, and the new bytes are
 *       decoded again and compared with the original object before they go into a write batch: a row whose
 *       rewrite would read back differently (e.g. a legacy value whose own name disagrees with its key) stops the
 *       run before that batch is written.</li>
 *   <li>Batches of {@code batchSize} rows are committed as they fill; the DB is flushed at the end.</li>
 *   <li>Pass 2 reads the table again, checks every value is in the target format, and recomputes count and
 *       digest; both must equal pass 1's.</li>
 * </ol>
 * Dry run does pass 1 (with the per-row read-back check) and writes nothing. Old versions of rewritten values stay
 * in lower SST levels until compaction; the run does not compact.
 */
public final class DirectoryTableMigrator {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryTableMigrator.class);
  public static final String DIRECTORY_TABLE = "directoryTable";

  /** Format to rewrite into. */
  public enum Target {
    TRIMMED, PROTOBUF;

    byte[] encode(OmDirectoryInfo info) {
      return this == TRIMMED ? TrimmedDirectoryCodec.encode(info) : TrimmedDirectoryCodec.encodeLegacy(info);
    }

    boolean holds(byte[] value) {
      DirectoryFormat.Kind kind = DirectoryFormat.kindOf(value);
      return this == TRIMMED ? kind == DirectoryFormat.Kind.TRIMMED : kind == DirectoryFormat.Kind.LEGACY_PROTOBUF;
    }
  }

  /** What a run did. Digests are hex SHA-256 over (key, canonical protobuf of the decoded value) in key order. */
  public static final class Result {
    public final long rows;
    public final long rewritten;
    public final long bytesBefore;
    public final long bytesAfter;
    public final String digestBefore;
    public final String digestAfter;

    Result(long rows, long rewritten, long bytesBefore, long bytesAfter, String digestBefore, String digestAfter) {
      this.rows = rows;
      this.rewritten = rewritten;
      this.bytesBefore = bytesBefore;
      this.bytesAfter = bytesAfter;
      this.digestBefore = digestBefore;
      this.digestAfter = digestAfter;
    }

    @Override
    public String toString() {
      return "rows=" + rows + " rewritten=" + rewritten + " valueBytesBefore=" + bytesBefore + " valueBytesAfter="
          + bytesAfter + " digestBefore=" + digestBefore + " digestAfter=" + digestAfter;
    }
  }

  /** Verification failed; the message says which check. */
  public static final class VerificationException extends IOException {
    private static final long serialVersionUID = 1L;

    VerificationException(String message) {
      super(message);
    }
  }

  private final RDBStore store;
  private final int batchSize;

  public DirectoryTableMigrator(RDBStore store, int batchSize) {
    if (batchSize <= 0) {
      throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
    }
    this.store = store;
    this.batchSize = batchSize;
  }

  public Result migrate(Target target, boolean dryRun) throws IOException {
    Table<byte[], byte[]> table = store.getTable(DIRECTORY_TABLE);
    MessageDigest before = sha256();
    long rows = 0;
    long rewritten = 0;
    long bytesBefore = 0;
    long bytesAfter = 0;
    BatchOperation batch = null;
    int inBatch = 0;
    try (Table.KeyValueIterator<byte[], byte[]> it = table.iterator()) {
      while (it.hasNext()) {
        Table.KeyValue<byte[], byte[]> row = it.next();
        byte[] key = row.getKey();
        byte[] value = row.getValue();
        OmDirectoryInfo info = TrimmedDirectoryCodec.decode(key, value);
        feed(before, key, info);
        rows++;
        bytesBefore += value.length;
        if (target.holds(value)) {
          bytesAfter += value.length;
          continue;
        }
        byte[] rewrittenValue = target.encode(info);
        OmDirectoryInfo readBack = TrimmedDirectoryCodec.decode(key, rewrittenValue);
        if (!info.equals(readBack)) {
          throw new VerificationException("row " + new String(key, StandardCharsets.UTF_8) + " would not survive"
              + " the rewrite: was " + info.getPath() + ", reads back as " + readBack.getPath()
              + " (a legacy value whose name or parentID disagrees with its key?); nothing of this batch written");
        }
        bytesAfter += rewrittenValue.length;
        rewritten++;
        if (dryRun) {
          continue;
        }
        if (batch == null) {
          batch = store.initBatchOperation();
        }
        table.putWithBatch(batch, key, rewrittenValue);
        if (++inBatch == batchSize) {
          store.commitBatchOperation(batch);
          batch.close();
          batch = null;
          inBatch = 0;
          LOG.info("directoryTable: {} rows read, {} rewritten", rows, rewritten);
        }
      }
      if (batch != null) {
        store.commitBatchOperation(batch);
      }
    } catch (DirectoryValueException e) {
      throw new VerificationException("cannot read directoryTable: " + e.getMessage());
    } finally {
      if (batch != null) {
        batch.close();
      }
    }
    String digestBefore = hex(before);
    if (dryRun) {
      return new Result(rows, rewritten, bytesBefore, bytesAfter, digestBefore, digestBefore);
    }
    store.flushDB();
    Result after = verify(target);
    if (after.rows != rows) {
      throw new VerificationException("row count changed: " + rows + " before, " + after.rows + " after");
    }
    if (!after.digestBefore.equals(digestBefore)) {
      throw new VerificationException("digest of decoded values changed: " + digestBefore + " before, "
          + after.digestBefore + " after");
    }
    Result result = new Result(rows, rewritten, bytesBefore, after.bytesBefore, digestBefore, after.digestBefore);
    LOG.info("directoryTable migrated to {}: {}", target, result);
    return result;
  }

  /** Reads the whole table: every value must be in {@code target} format; returns count, bytes and digest. */
  public Result verify(Target target) throws IOException {
    Table<byte[], byte[]> table = store.getTable(DIRECTORY_TABLE);
    MessageDigest digest = sha256();
    long rows = 0;
    long bytes = 0;
    try (Table.KeyValueIterator<byte[], byte[]> it = table.iterator()) {
      while (it.hasNext()) {
        Table.KeyValue<byte[], byte[]> row = it.next();
        if (!target.holds(row.getValue())) {
          throw new VerificationException("row " + new String(row.getKey(), StandardCharsets.UTF_8) + " is "
              + DirectoryFormat.kindOf(row.getValue()) + ", expected " + target);
        }
        feed(digest, row.getKey(), TrimmedDirectoryCodec.decode(row.getKey(), row.getValue()));
        rows++;
        bytes += row.getValue().length;
      }
    } catch (DirectoryValueException e) {
      throw new VerificationException("cannot read directoryTable: " + e.getMessage());
    }
    String hex = hex(digest);
    return new Result(rows, 0, bytes, bytes, hex, hex);
  }

  /** Key length, key, value length, canonical protobuf of the decoded value: unambiguous framing. */
  private static void feed(MessageDigest digest, byte[] key, OmDirectoryInfo info) {
    byte[] canonical = info.getProtobuf().toByteArray();
    digest.update(intBytes(key.length));
    digest.update(key);
    digest.update(intBytes(canonical.length));
    digest.update(canonical);
  }

  private static byte[] intBytes(int v) {
    return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("JDK without SHA-256", e);
    }
  }

  private static String hex(MessageDigest digest) {
    return HexFormat.of().formatHex(Arrays.copyOf(digest.digest(), 32));
  }
}
