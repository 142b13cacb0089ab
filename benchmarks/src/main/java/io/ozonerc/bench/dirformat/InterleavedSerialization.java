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

package io.ozonerc.bench.dirformat;

import io.ozonerc.bench.dirformat.DirectoryFormats.Format;
import io.ozonerc.bench.dirformat.fb.DirectoryInfo;
import io.ozonerc.metadata.DirectoryKey;
import io.ozonerc.metadata.DirectoryValueView;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;

/**
 * Cross-check of {@link SerializationBenchmark}'s two targeted cases (oneLong, allFields) for a shared machine: the
 * same reads, the three formats <b>interleaved</b> in batches of 200,000 operations for many rounds, reporting the best
 * batch of each (ns/op) and the ratios. Load from other processes comes and goes; it can only make a batch slower,
 * so the best batch of each format, measured minutes apart at most, is the least disturbed estimate. Not JMH: the
 * results are summed into a checksum that is printed, so the JIT cannot drop the reads.
 *
 * <p>Run: {@code nice -n 10 java -cp <benchmarks classpath> io.ozonerc.bench.dirformat.InterleavedSerialization 60}
 * (rounds).
 */
public final class InterleavedSerialization {
  private static final int BATCH = 200_000;

  private InterleavedSerialization() {
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    OmDirectoryInfo info = DirectoryFormats.studyObject();
    byte[] proto = Format.PROTOBUF.encode(info);
    byte[] flat = Format.FLATBUFFERS.encode(info);
    byte[] trimmed = Format.TRIMMED.encode(info);
    byte[] key = DirectoryFormats.key(-9223372036854775552L, -9223372036854775296L, info.getParentObjectID(),
        info.getName()).getBytes(StandardCharsets.UTF_8);
    DirectoryValueView view = new DirectoryValueView();
    DirectoryInfo flatRoot = new DirectoryInfo();
    io.ozonerc.bench.dirformat.fb.OzoneAcl flatAcl = new io.ozonerc.bench.dirformat.fb.OzoneAcl();
    String[] names = {"oneLong PROTOBUF", "oneLong FLATBUFFERS", "oneLong TRIMMED", "allFields PROTOBUF",
        "allFields FLATBUFFERS", "allFields TRIMMED"};
    long[] best = new long[names.length];
    Arrays.fill(best, Long.MAX_VALUE);
    long sink = 0;
    for (int round = 0; round < rounds; round++) {
      for (int k = 0; k < names.length; k++) {
        int c = (k + round) % names.length; // rotate the order every round
        long t0 = System.nanoTime();
        for (int i = 0; i < BATCH; i++) {
          switch (c) {
          case 0:
            sink += OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(proto).getObjectID();
            break;
          case 1:
            sink += DirectoryInfo.getRootAsDirectoryInfo(ByteBuffer.wrap(flat), flatRoot).objectId();
            break;
          case 2:
            sink += view.wrap(trimmed).objectId();
            break;
          case 3: {
            OzoneManagerProtocolProtos.DirectoryInfo p = OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(proto);
            sink += p.getName().length() + p.getParentID() + p.getObjectID() + p.getUpdateID() + p.getCreationTime()
                + p.getModificationTime() + p.getOwnerName().length();
            for (int a = 0; a < p.getAclsCount(); a++) {
              OzoneAclInfo acl = p.getAcls(a);
              sink += acl.getType().getNumber() + acl.getName().length() + acl.getRights().byteAt(0)
                  + acl.getAclScope().getNumber();
            }
            break;
          }
          case 4: {
            DirectoryInfo f = DirectoryInfo.getRootAsDirectoryInfo(ByteBuffer.wrap(flat), flatRoot);
            sink += f.name().length() + f.parentId() + f.objectId() + f.updateId() + f.creationTime()
                + f.modificationTime() + f.ownerName().length();
            for (int a = 0; a < f.aclsLength(); a++) {
              io.ozonerc.bench.dirformat.fb.OzoneAcl acl = f.acls(flatAcl, a);
              sink += acl.type() + acl.name().length() + acl.rights(0) + acl.scope();
            }
            break;
          }
          default: {
            DirectoryKey dk = DirectoryKey.parse(key);
            DirectoryValueView v = view.wrap(key, trimmed);
            sink += dk.name().length() + dk.parentId() + v.objectId() + v.updateId() + v.creationTime()
                + v.modificationTime() + v.owner().length();
            for (int a = 0; a < v.aclCount(); a++) {
              sink += v.aclType(a).ordinal() + v.aclName(a).length() + v.aclRights(a) + v.aclScope(a).ordinal();
            }
          }
          }
        }
        best[c] = Math.min(best[c], System.nanoTime() - t0);
      }
    }
    System.out.printf("study object, %d rounds of %,d ops per case, formats interleaved; best batch:%n", rounds, BATCH);
    for (int k = 0; k < names.length; k++) {
      System.out.printf("%-22s %8.1f ns/op %14.0f ops/s%n", names[k], best[k] / (double) BATCH,
          BATCH * 1e9 / best[k]);
    }
    System.out.printf("oneLong   trimmed/flatbuffers %.2fx, trimmed/protobuf %.2fx%n",
        best[1] / (double) best[2], best[0] / (double) best[2]);
    System.out.printf("allFields trimmed/protobuf %.2fx, trimmed/flatbuffers %.2fx%n",
        best[3] / (double) best[5], best[4] / (double) best[5]);
    System.out.println("checksum " + sink);
  }
}
