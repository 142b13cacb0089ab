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

# One-command check of the compose cluster with Docker: build the jar, start cluster + monitoring, check that
# Prometheus evaluates the alert rules (range-compaction-alerts.yml) without error, load it with freon, wait for a
# compacted range, then every dashboard query must return series from the compose Prometheus
# (dev-support/render-dashboard --require-series). Charts and summary in target/compose-verify/.
#
#   compose/verify.sh           VERIFY_DOWN=1 compose/verify.sh  (take everything down at the end)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/compose"
dc=(docker compose -f docker-compose.yaml -f monitoring.yaml)
say() { echo "verify: $*" >&2; }
die() { say "$*"; exit 1; }

# Polls "$@" every 2 s until it succeeds; fails naming $1 after $2 seconds.
wait_for() {
  local what=$1 limit=$2; shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    (( SECONDS < deadline )) || die "no $what after ${limit}s"
    sleep 2
  done
  say "$what"
}

prom_value() {   # the value of an OM /prom sample, read whole before matching
  local body
  body=$(curl -fsS --max-time 5 http://localhost:9874/prom) || return 1
  awk -v n="$1" '$1 ~ "^"n"({|$)" {print $NF; exit}' <<<"$body"
}
compacted() { local v; v=$(prom_value range_compaction_ranges_compacted) && [[ -n "$v" ]] && (( ${v%.*} > 0 )); }
scraped_after() {   # Prometheus has scraped the OM at or after Unix time $1
  local body
  body=$(curl -fsS --max-time 5 'http://localhost:9090/api/v1/query?query=timestamp(up%7Bcomponent%3D%22om%22%7D)') \
    || return 1
  [[ "$body" =~ \"value\":\[[0-9.]+,\"([0-9]+) ]] && (( BASH_REMATCH[1] >= $1 ))
}
rules_loaded() {   # Prometheus has loaded range-compaction-alerts.yml and evaluated every rule without error
  local body
  body=$(curl -fsS --max-time 5 http://localhost:9090/api/v1/rules) || return 1
  [[ "$body" == *'"name":"range-compaction"'* && "$body" == *'"health":"ok"'* && "$body" != *'"health":"err"'* \
    && "$body" != *'"health":"unknown"'* ]]
}
scraped() {
  local body
  body=$(curl -fsS --max-time 5 'http://localhost:9090/api/v1/query?query=range_compaction_ranges_compacted%3E0') \
    || return 1
  [[ "$body" == *'"result":[{'* ]]
}

command -v docker >/dev/null || die "docker is not installed"
say "building the jar"
(cd "$root" && mvn -B -q -DskipTests -Dcheckstyle.skip -Drat.skip -Dspotbugs.skip -pl ozone-om-compaction -am package)
"${dc[@]}" up -d --scale datanode=3
wait_for "OM /prom with the service's metrics" 300 prom_value range_compaction_rounds_run
wait_for "Prometheus ready" 120 curl -fsS http://localhost:9090/-/ready
wait_for "the alert rules loaded and evaluated" 60 rules_loaded
start=$(date +%s)
om=("${dc[@]}" exec -T om)
"${om[@]}" ozone sh volume create /vol1
"${om[@]}" ozone sh bucket create /vol1/fifo --layout OBJECT_STORE
"${om[@]}" ozone freon omkg -v vol1 -b fifo -n 5000 -t 4 -p k 2>&1 | grep 'Successful executions'
# A snapshot checkpoints the OM DB, which flushes every table: the level-0 panel then has files to show.
"${om[@]}" ozone sh snapshot create /vol1/fifo before-deletes
"${om[@]}" ozone freon ockr -v vol1 -b fifo -n 4750 -t 4 -p k 2>&1 | grep 'Successful executions'
for _ in 1 2 3; do "${om[@]}" ozone sh key list /vol1/fifo --length 100 >/dev/null; done
wait_for "a compacted range on the OM's /prom" 180 compacted
wait_for "the compacted range in Prometheus" 60 scraped
for _ in 1 2 3; do "${om[@]}" ozone sh key list /vol1/fifo --length 100 >/dev/null; done
# Two scrapes (10 s apart) after the last listing, so every rate window holds it.
listed=$(date +%s)
wait_for "two scrapes after the listings" 120 scraped_after $((listed + 20))
"$root/dev-support/render-dashboard" --prometheus http://localhost:9090 --start "$start" --end "$(date +%s)" \
  --rate-interval 1m --out "$root/target/compose-verify" --require-series
say "OK: every dashboard query returned series; charts in $root/target/compose-verify/"
if [[ "${VERIFY_DOWN:-0}" == 1 ]]; then
  "${dc[@]}" down -v
fi
