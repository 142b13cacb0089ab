#!/usr/bin/env bash
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

# Runs the directory-format JMH benchmarks (io.ozonerc.bench.dirformat) and prints the comparison table.
#
#   dev-support/dirformat-bench.sh [serialization|walk|getpath|table|all] [extra JMH args...]
#
# Environment: WALK_THREADS (default "1 2"), JMH_OPTS (default "-f 1 -wi 3 -i 5 -w 1s -r 1s"), TREE (default 10x6), OUT (default
# benchmarks/target/dirformat), DIRFORMAT_DATA (where the tree DB is built once; default /tmp/dirformat-data).
# Runs under `nice -n 10`: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"; shift || true
JMH_OPTS="${JMH_OPTS:--f 1 -wi 3 -i 5 -w 1s -r 1s}"
TREE="${TREE:-10x6}"
OUT="${OUT:-benchmarks/target/dirformat}"
DATA="${DIRFORMAT_DATA:-/tmp/dirformat-data}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# One reactor build (-am): benchmarks' classpath names this project's modules as their target/ folders, never as jars
# in the local repository, which on a fresh clone holds none of them. Each module writes its own
# target/dirformat-bench.classpath; benchmarks' is the one used.
mvn -B -q -o -DskipTests -pl benchmarks -am compile dependency:build-classpath \
  -Dmdep.outputFile=target/dirformat-bench.classpath >&2
cp benchmarks/target/dirformat-bench.classpath "$OUT/classpath.txt"
# Run from a private copy of the compiled classes: other builds in the same checkout rewrite target/classes, and a
# JMH fork that starts meanwhile cannot find its generated classes.
# The classpath names this project's modules by their target/ folders: each is replaced by its copy.
rm -rf "$OUT/classes"; mkdir -p "$OUT/classes"
CP=""
for m in benchmarks ozone-om-metadata ozone-om-compaction ozone-om-db-lock; do
  cp -r "$m/target/classes" "$OUT/classes/$m"
  CP="$CP$OUT/classes/$m:"
done
CP="$CP$(tr ':' '\n' < "$OUT/classpath.txt" | grep -v "^$PWD/" | paste -sd: -)"
JAVA=(nice -n 10 java -Ddirformat.data="$DATA" -cp "$CP")
JVM_ARGS="-Ddirformat.data=$DATA -Xmx4g"

"${JAVA[@]}" io.ozonerc.bench.dirformat.DirectoryFormatSizes "$OUT/sizes.json"

run() { # name, JMH args...
  local name="$1"; shift
  "${JAVA[@]}" org.openjdk.jmh.Main "$@" $JMH_OPTS -jvmArgsAppend "$JVM_ARGS" -rf json -rff "$OUT/$name.json" \
    | tee "$OUT/$name.txt"
}

case "$what" in
  serialization|all)
    run serialization 'io.ozonerc.bench.dirformat.SerializationBenchmark' -prof gc "$@" ;;&
  walk|all)
    "${JAVA[@]}" io.ozonerc.bench.dirformat.DirectoryTree "$TREE" | tee "$OUT/tree-$TREE.txt"
    for t in ${WALK_THREADS:-1 2}; do
      run "walk-t$t" 'io.ozonerc.bench.dirformat.DirectoryWalkBenchmark' -p tree="$TREE" -t "$t" \
        $([ "$t" = 1 ] && echo -prof gc) "$@"
    done ;;&
  getpath|all)
    run getpath 'io.ozonerc.bench.dirformat.GetPathBenchmark' -p tree="$TREE" -prof gc "$@" ;;&
  table|all)
    # The walk through the OM's Table path: stock TypedTable vs the patched OM's KeyAwareDirectoryTable.
    for t in ${WALK_THREADS:-1 2}; do
      run "table-t$t" 'io.ozonerc.bench.dirformat.TableWalkBenchmark' -p tree="$TREE" -t "$t" \
        $([ "$t" = 1 ] && echo -prof gc) "$@"
    done ;;
  serialization|walk|getpath) ;;
  *) echo "unknown benchmark set: $what" >&2; exit 2 ;;
esac

for stat in mean median; do
  python3 dev-support/dirformat-compare.py --stat "$stat" --sizes "$OUT/sizes.json" "$OUT"/*.json \
    | tee "$OUT/compare-$stat.txt"
done
