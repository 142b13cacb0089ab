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
import io.ozonerc.bench.dirformat.fb.KeyValue;
import io.ozonerc.metadata.DirectoryKey;
import io.ozonerc.metadata.DirectoryValueView;
import io.ozonerc.metadata.TrimmedDirectoryCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.ozone.om.helpers.OmDirectoryInfo;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos;
import org.apache.hadoop.ozone.protocol.proto.OzoneManagerProtocolProtos.OzoneAclInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reading one stored directory value, in memory, in three formats: Ozone's protobuf {@code DirectoryInfo},
 * FlatBuffers (same fields), and our trimmed format. Models the OM reading a {@code directoryTable} value it just got
 * from RocksDB as a {@code byte[]}: every operation starts from the stored bytes (protobuf parses them; FlatBuffers
 * wraps them in a ByteBuffer; ours wraps them in a per-thread reusable view).
 *
 * <ul>
 *   <li>{@code oneLong}: objectId only (what a path walk needs).</li>
 *   <li>{@code oneString}: the owner.</li>
 *   <li>{@code allFields}: every field an OmDirectoryInfo has: ids, times, owner, every ACL's type, name, rights and
 *       scope, metadata. For ours, name and parentId are parsed from the key (conservative: a walker already knows
 *       them because it built the key).</li>
 *   <li>{@code oneLongX20}, {@code oneStringX20}: the same field read 20 times from one value (protobuf parses once and
 *       keeps objects; FlatBuffers re-reads the buffer each time; ours caches after the first read).</li>
 *   <li>{@code toOmDirectoryInfo}: a whole OmDirectoryInfo, as Ozone's Table.get hands it out (protobuf via Ozone's
 *       own codec; ours via the key-aware decode; FlatBuffers via the builder).</li>
 *   <li>{@code encode}: OmDirectoryInfo to stored bytes.</li>
 * </ul>
 * Encoded bytes per value come from {@link DirectoryFormatSizes} (run by {@code dev-support/dirformat-bench.sh}).
 *
 * <p>Run: {@code dev-support/dirformat-bench.sh serialization} (builds, writes the classpath to
 * {@code benchmarks/target/dirformat/classpath.txt}, runs JMH with {@code -prof gc} and prints the comparison table),
 * or by hand:
 * <pre>
 * nice -n 10 java -cp \
 *     "benchmarks/target/classes:ozone-om-metadata/target/classes:$(cat benchmarks/target/dirformat/classpath.txt)" \
 *     org.openjdk.jmh.Main SerializationBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc -rf json -rff ser.json
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SerializationBenchmark {
  private static final int REPEAT = 20;

  @Param({"PROTOBUF", "FLATBUFFERS", "TRIMMED"})
  public Format format;

  /** study = two ACLs, owner = user = group; heavier = different group, longer name, three metadata entries. */
  @Param({"study"})
  public String object;

  private OmDirectoryInfo info;
  private byte[] value;
  private byte[] key;
  private final DirectoryValueView view = new DirectoryValueView();
  private final DirectoryInfo flat = new DirectoryInfo();
  private final io.ozonerc.bench.dirformat.fb.OzoneAcl flatAcl = new io.ozonerc.bench.dirformat.fb.OzoneAcl();
  private final KeyValue flatKv = new KeyValue();

  @Setup
  public void setUp() {
    info = "heavier".equals(object) ? DirectoryFormats.heavierObject() : DirectoryFormats.studyObject();
    value = format.encode(info);
    key = DirectoryFormats.key(-9223372036854775552L, -9223372036854775296L, info.getParentObjectID(),
        info.getName()).getBytes(StandardCharsets.UTF_8);
  }

  private OzoneManagerProtocolProtos.DirectoryInfo parseProto() {
    try {
      return OzoneManagerProtocolProtos.DirectoryInfo.parseFrom(value);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private DirectoryInfo flat() {
    return DirectoryInfo.getRootAsDirectoryInfo(ByteBuffer.wrap(value), flat);
  }

  @Benchmark
  public long oneLong() {
    switch (format) {
    case PROTOBUF:
      return parseProto().getObjectID();
    case FLATBUFFERS:
      return flat().objectId();
    default:
      return view.wrap(value).objectId();
    }
  }

  @Benchmark
  public String oneString() {
    switch (format) {
    case PROTOBUF:
      return parseProto().getOwnerName();
    case FLATBUFFERS:
      return flat().ownerName();
    default:
      return view.wrap(value).owner();
    }
  }

  @Benchmark
  public void oneLongX20(Blackhole bh) {
    switch (format) {
    case PROTOBUF: {
      OzoneManagerProtocolProtos.DirectoryInfo p = parseProto();
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(p.getObjectID());
      }
      break;
    }
    case FLATBUFFERS: {
      DirectoryInfo f = flat();
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(f.objectId());
      }
      break;
    }
    default: {
      DirectoryValueView v = view.wrap(value);
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(v.objectId());
      }
    }
    }
  }

  @Benchmark
  public void oneStringX20(Blackhole bh) {
    switch (format) {
    case PROTOBUF: {
      OzoneManagerProtocolProtos.DirectoryInfo p = parseProto();
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(p.getOwnerName());
      }
      break;
    }
    case FLATBUFFERS: {
      DirectoryInfo f = flat();
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(f.ownerName());
      }
      break;
    }
    default: {
      DirectoryValueView v = view.wrap(value);
      for (int i = 0; i < REPEAT; i++) {
        bh.consume(v.owner());
      }
    }
    }
  }

  @Benchmark
  public void allFields(Blackhole bh) {
    switch (format) {
    case PROTOBUF: {
      OzoneManagerProtocolProtos.DirectoryInfo p = parseProto();
      bh.consume(p.getName());
      bh.consume(p.getParentID());
      bh.consume(p.getObjectID());
      bh.consume(p.getUpdateID());
      bh.consume(p.getCreationTime());
      bh.consume(p.getModificationTime());
      bh.consume(p.getOwnerName());
      for (int i = 0; i < p.getAclsCount(); i++) {
        OzoneAclInfo acl = p.getAcls(i);
        bh.consume(acl.getType());
        bh.consume(acl.getName());
        bh.consume(acl.getRights());
        bh.consume(acl.getAclScope());
      }
      for (int i = 0; i < p.getMetadataCount(); i++) {
        bh.consume(p.getMetadata(i).getKey());
        bh.consume(p.getMetadata(i).getValue());
      }
      break;
    }
    case FLATBUFFERS: {
      DirectoryInfo f = flat();
      bh.consume(f.name());
      bh.consume(f.parentId());
      bh.consume(f.objectId());
      bh.consume(f.updateId());
      bh.consume(f.creationTime());
      bh.consume(f.modificationTime());
      bh.consume(f.ownerName());
      for (int i = 0; i < f.aclsLength(); i++) {
        io.ozonerc.bench.dirformat.fb.OzoneAcl acl = f.acls(flatAcl, i);
        bh.consume(acl.type());
        bh.consume(acl.name());
        int rights = 0;
        for (int r = 0; r < acl.rightsLength(); r++) {
          rights |= acl.rights(r) << (8 * r);
        }
        bh.consume(rights);
        bh.consume(acl.scope());
      }
      for (int i = 0; i < f.metadataLength(); i++) {
        KeyValue kv = f.metadata(flatKv, i);
        bh.consume(kv.key());
        bh.consume(kv.value());
      }
      break;
    }
    default: {
      DirectoryKey k = DirectoryKey.parse(key);
      bh.consume(k.name());
      bh.consume(k.parentId());
      DirectoryValueView v = view.wrap(key, value);
      bh.consume(v.objectId());
      bh.consume(v.updateId());
      bh.consume(v.creationTime());
      bh.consume(v.modificationTime());
      bh.consume(v.owner());
      for (int i = 0; i < v.aclCount(); i++) {
        bh.consume(v.aclType(i));
        bh.consume(v.aclName(i));
        bh.consume(v.aclRights(i));
        bh.consume(v.aclScope(i));
      }
      for (int i = 0; i < v.metadataCount(); i++) {
        bh.consume(v.metadataKey(i));
        bh.consume(v.metadataValue(i));
      }
    }
    }
  }

  @Benchmark
  public OmDirectoryInfo toOmDirectoryInfo() throws Exception {
    switch (format) {
    case PROTOBUF:
      return OmDirectoryInfo.getCodec().fromPersistedFormat(value);
    case FLATBUFFERS:
      return FlatToOm.convert(flat(), flatAcl, flatKv);
    default:
      return TrimmedDirectoryCodec.decode(key, value);
    }
  }

  @Benchmark
  public byte[] encode() {
    return format.encode(info);
  }
}
