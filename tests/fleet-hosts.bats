#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root
# fleet-hosts.bats - who a host is, what was provisioned, bookkeeping:
# --host, --provision FILE|imds|none, --provision-fact, --note on run and watch;
# the EC2 metadata service through a stand-in on a network namespace address;
# how the report groups such lines and reads a fleet's manifest.json.

bats_require_minimum_version 1.5.0

load lib/core

load lib/netns
STANDIN=$BATS_TEST_DIRNAME/helpers/imds-standin.py

setup_file() {
  export FLEET=$BATS_FILE_TMPDIR/results
  make_fleet "$FLEET/r1"
}

each_setup() {
  make_file "$TMP/data" 16M
}

each_teardown() {
  imds_down
}

# A short real run: 40 buffered operations per thread.
quick_run() {
  "$IOBENCH" -q -n 40 -d 5 "$@" 2>/dev/null
}

# ---- the metadata service stand-in, on a namespace address ----
# Namespace ${NETNS_PREFIX}md with eth0 at .218 of NETNS_SUBNET, the host side
# (${NETNS_PREFIX}mdv) at .217, both in .216/29; .219 is a neighbour that never
# answers (a fixed MAC nobody has): packets to it are dropped.
MDNS=${NETNS_PREFIX}md
MDV=${NETNS_PREFIX}mdv
MD_ADDR=$NETNS_SUBNET.218
DEAD_ADDR=$NETNS_SUBNET.219

imds_can_run() {
  [[ $(id -u) == 0 ]] || skip "needs root (network namespaces)"
  command -v python3 >/dev/null || skip "python3 not installed (see .ci/apt-core.txt)"
  command -v ip >/dev/null || skip "ip not installed (see .ci/apt-fleet.txt)"
}

imds_up() {
  imds_down
  ip netns add "$MDNS"
  ip link add "$MDV" type veth peer name eth0 netns "$MDNS"
  ip addr add "$NETNS_SUBNET.217/29" dev "$MDV"
  ip link set "$MDV" up
  ip -n "$MDNS" addr add "$MD_ADDR/29" dev eth0
  ip -n "$MDNS" link set eth0 up
  ip -n "$MDNS" link set lo up
  ip neigh replace "$DEAD_ADDR" lladdr 02:00:5e:00:00:fe dev "$MDV" nud permanent
}

# imds_standin ADDR PORT: start the stand-in inside the namespace with the facts of i-0abc.
imds_standin() {
  cat >"$TMP/facts.json" <<'EOF'
{ "instance-id": "i-0abc", "instance-type": "m5.large", "placement/availability-zone": "us-east-1b",
  "placement/region": "us-east-1", "ami-id": "ami-0123", "local-ipv4": "10.0.0.5",
  "instance-life-cycle": "spot" }
EOF
  : >"$TMP/imds.log"
  # fd 3 closed: bats would wait for whatever holds it.
  ip netns exec "$MDNS" python3 "$STANDIN" "$1" "$2" "$TMP/facts.json" "$TMP/imds.log" 3>&- &
  echo $! >"$TMP/standin.pid"
  local tries
  for ((tries = 0; tries < 100; tries++)); do
    [[ -f "$TMP/imds.log.ready" ]] && return 0
    sleep 0.1
  done
  echo "the stand-in did not start" >&2
  return 1
}

imds_down() {
  if [[ -f "${TMP:-/nonexistent}/standin.pid" ]]; then
    kill "$(cat "$TMP/standin.pid")" 2>/dev/null || true
    rm -f "$TMP/standin.pid"
  fi
  ip netns del "$MDNS" 2>/dev/null || true
  ip link del "$MDV" 2>/dev/null || true
}

# ---- options ----

@test "--host, --provision FILE, --provision-fact and --note are recorded; hostname beside host" {
  cat >"$TMP/prov.json" <<'EOF'
{ "instanceType": "m5.large", "volumeType": "gp3", "volumeCount": "4", "raidLevel": 0,
  "az": "us-east-1a", "custom": {"rack": 7}, "unknown": null }
EOF
  quick_run --host db1 --provision "$TMP/prov.json" --provision-fact volumeSize=200 \
    --provision-fact ebsOptimized=true --provision-fact raidChunk=256K --provision-fact volumeType=io2 \
    --note runId=r1 --note planStep=3 --label config=x --json "$TMP/out.jsonl" "$TMP/data"
  local line
  line=$(cat "$TMP/out.jsonl")
  [ "$(jq -r .host <<<"$line")" = db1 ]
  [ "$(jq -r .hostname <<<"$line")" = "$(hostname)" ]
  # typed as the contract says; a fact given later wins; unknown keys kept, nulls left out
  [ "$(jq -c .provision <<<"$line")" = \
    '{"instanceType":"m5.large","volumeType":"io2","volumeCount":4,"raidLevel":"0","az":"us-east-1a","custom":{"rack":7},"volumeSize":200,"ebsOptimized":true,"raidChunk":262144}' ]
  [ "$(jq -c .notes <<<"$line")" = '{"runId":"r1","planStep":"3"}' ]
  [ "$(jq -c .labels <<<"$line")" = '{"config":"x"}' ]
}

@test "the new keys only add paths: every key of a plain line is where it was" {
  quick_run --json "$TMP/plain.jsonl" "$TMP/data"
  quick_run --host h --provision-fact volumeType=gp3 --note runId=r1 --json "$TMP/new.jsonl" "$TMP/data"
  # key paths in order (array indexes as #), without the keys this issue added
  # shellcheck disable=SC2016 # a jq program, not shell
  local keys='[paths | map(if type == "number" then "#" else . end) | join(".")
    | select(test("^(hostname|provision|notes)($|[.])") | not)]
    | reduce .[] as $k ([]; if any(.[]; . == $k) then . else . + [$k] end)'
  jq -c "$keys" "$TMP/plain.jsonl" >"$TMP/plain.paths"
  jq -c "$keys" "$TMP/new.jsonl" >"$TMP/new.paths"
  diff "$TMP/plain.paths" "$TMP/new.paths"
  grep -q '"host","kernel"' "$TMP/new.paths"
  # a plain line: host is the hostname, and no provision or notes
  jq -e --arg h "$(hostname)" '.host == $h and .hostname == $h and (has("provision") or has("notes") | not)' \
    "$TMP/plain.jsonl"
}

@test "watch takes --host, --provision-fact and --note too" {
  run "$IOBENCH" watch -q --count 1 --period 1 --interval 0.2 --no-direct -o read4k --host w1 \
    --provision-fact instanceType=c5.large --note runId=w --json "$TMP/w.jsonl" "$TMP/data"
  [ "$status" -eq 0 ]
  jq -e '.mode == "watch" and .host == "w1" and .provision == {"instanceType": "c5.large"} and .notes.runId == "w"' \
    "$TMP/w.jsonl"
}

@test "bad --provision, --provision-fact, --note and --host values are one-line usage errors" {
  printf '[1, 2]\n' >"$TMP/array.json"
  printf '{"volumeCount": "four"}\n' >"$TMP/count.json"
  local args
  while IFS='|' read -r args want; do
    # shellcheck disable=SC2086 # word splitting of the case's arguments is intended
    run --separate-stderr "$IOBENCH" $args "$TMP/data"
    [ "$status" -eq 2 ] || { echo "$args: exit $status"; return 1; }
    # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
    [ "$(wc -l <<<"$stderr")" -eq 1 ]
    [[ "$stderr" == "iobench: "*"$want"* ]] || { echo "$args: $stderr"; return 1; }
  done <<EOF
--provision $TMP/array.json|not a JSON object of facts
--provision $TMP/count.json|volumeCount wants a number, got 'four'
--provision $TMP/missing.json|missing.json: No such file or directory
--provision-fact volumeCount=four|volumeCount wants a number
--provision-fact ebsOptimized=maybe|ebsOptimized wants true or false
--provision-fact =gp3|is not KEY=VALUE
--note planStep|bad --note 'planStep'; use KEY=VALUE
--host=|bad --host ''
EOF
}

@test "--help of run and watch lists --host, --provision, --provision-fact and --note" {
  local cmd
  for cmd in run watch; do
    run "$IOBENCH" "$cmd" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--host NAME"* && "$output" == *"--provision FILE"* ]]
    [[ "$output" == *"--provision-fact KEY=VALUE"* && "$output" == *"--note KEY=VALUE"* ]]
  done
}

# ---- the instance metadata service ----

@test "IMDSv2 stand-in on a namespace address: facts recorded, host is the instance id, given facts win" {
  imds_can_run
  imds_up
  imds_standin "$MD_ADDR" 8080
  # the stand-in is IMDSv2 only: a GET without the token is refused
  run python3 -c 'import sys, urllib.request, urllib.error
try:
    urllib.request.urlopen(sys.argv[1], timeout=5)
except urllib.error.HTTPError as e:
    print(e.code)' "http://$MD_ADDR:8080/latest/meta-data/instance-id"
  [ "$output" = 401 ]
  : >"$TMP/imds.log"

  IOBENCH_IMDS_ENDPOINT=http://$MD_ADDR:8080 quick_run --provision-fact instanceType=m5.xlarge \
    --provision-fact volumeType=gp3 --json "$TMP/out.jsonl" "$TMP/data"
  jq -e '.host == "i-0abc" and .provision == {"cloud": "ec2", "instanceId": "i-0abc",
    "instanceType": "m5.xlarge", "az": "us-east-1b", "region": "us-east-1", "ami": "ami-0123",
    "privateIp": "10.0.0.5", "lifecycle": "spot", "volumeType": "gp3"}' "$TMP/out.jsonl"
  # one token, then every GET with it (none refused)
  [ "$(head -n 1 "$TMP/imds.log")" = "PUT /latest/api/token 200" ]
  [ "$(grep -c '^GET /latest/meta-data/.* 200$' "$TMP/imds.log")" -eq 7 ]
  [ "$(grep -c ' 401$' "$TMP/imds.log")" -eq 0 ]

  # --host names the host; the facts still come
  IOBENCH_IMDS_ENDPOINT=http://$MD_ADDR:8080 quick_run --host db7 --json "$TMP/named.jsonl" "$TMP/data"
  jq -e '.host == "db7" and .provision.instanceId == "i-0abc"' "$TMP/named.jsonl"
  # --provision none never asks
  : >"$TMP/imds.log"
  IOBENCH_IMDS_ENDPOINT=http://$MD_ADDR:8080 quick_run --provision none --json "$TMP/none.jsonl" "$TMP/data"
  [ ! -s "$TMP/imds.log" ]
  jq -e 'has("provision") | not' "$TMP/none.jsonl"
}

@test "on EC2 by DMI, iobench asks 169.254.169.254 by itself; off EC2 it does not" {
  imds_can_run
  command -v unshare >/dev/null || skip "unshare not installed (util-linux)"
  imds_up
  ip -n "$MDNS" addr add 169.254.169.254/32 dev lo
  imds_standin 169.254.169.254 80
  # A private mount namespace whose /sys/class/dmi/id says Amazon EC2, as on a Nitro instance.
  local ec2='mount -t tmpfs none /sys/class && mkdir -p /sys/class/dmi/id &&
    echo "Amazon EC2" >/sys/class/dmi/id/sys_vendor && exec "$@"'
  ip netns exec "$MDNS" unshare -m sh -c "$ec2" sh \
    "$IOBENCH" -q -n 40 -d 5 --no-direct --json "$TMP/ec2.jsonl" "$TMP/data"
  jq -e '.host == "i-0abc" and .provision.instanceType == "m5.large" and .provision.cloud == "ec2"' \
    "$TMP/ec2.jsonl"
  # the same namespace without the DMI vendor: nothing asked, nothing recorded
  : >"$TMP/imds.log"
  ip netns exec "$MDNS" "$IOBENCH" -q -n 40 -d 5 --no-direct --json "$TMP/plain.jsonl" "$TMP/data"
  [ ! -s "$TMP/imds.log" ]
  jq -e --arg h "$(hostname)" '.host == $h and (has("provision") | not)' "$TMP/plain.jsonl"
}

@test "an IMDS address that drops packets costs at most the deadline: the run goes on with no provision" {
  imds_can_run
  imds_up
  # Without iobench's own deadline a connect to a dropping address waits minutes;
  # the bound here is only far above the 1 s deadline, never a measurement.
  run --separate-stderr timeout 30 env "IOBENCH_IMDS_ENDPOINT=http://$DEAD_ADDR:80" \
    "$IOBENCH" -q -n 40 -d 5 --no-direct --json "$TMP/out.jsonl" "$TMP/data"
  [ "$status" -eq 0 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [ "$(grep -v 'page cache' <<<"$stderr" | grep -c .)" -eq 0 ]
  jq -e --arg h "$(hostname)" '.host == $h and (has("provision") | not) and .operations[0].total.count == 40' \
    "$TMP/out.jsonl"
  # asked for explicitly, the failure is said (one warning line), and the run still goes on
  run --separate-stderr timeout 30 env "IOBENCH_IMDS_ENDPOINT=http://$DEAD_ADDR:80" \
    "$IOBENCH" -q -n 40 -d 5 --no-direct --provision imds --json "$TMP/asked.jsonl" "$TMP/data"
  [ "$status" -eq 0 ]
  [ "$(grep -v 'page cache' <<<"$stderr")" = \
    "iobench: warning: --provision imds: http://$DEAD_ADDR:80: no answer in time; the results carry no facts from it" ]
  jq -e 'has("provision") | not' "$TMP/asked.jsonl"
}

# ---- the report: hosts, configurations, bookkeeping, the fleet's manifest ----

# make_fleet DIR: a fleet run's folder as fleet-run leaves it, made by real runs.
# m5.large / gp3 x4 / raid0 on vm-a, vm-b, vm-c (one hostname: this box's), a
# read4k sweep over 128M, 256M and 1G spans at 1 and 2 threads, each run with
# its own planStep and spanHuman notes; m5.xlarge on vm-f. The manifest says
# vm-d (m5.large) was unreachable and vm-e (m5.xlarge) finished but was not fetched.
make_fleet() {
  local dir=$1 h span prov step=0
  mkdir -p "$dir"
  "$IOBENCH" create -q "$BATS_FILE_TMPDIR/data" 1G
  printf '{"instanceType": "m5.large", "volumeType": "gp3", "volumeCount": 4, "raidLevel": "0",
    "volumeSize": 100, "filesystem": "xfs"}\n' >"$BATS_FILE_TMPDIR/large.json"
  printf '{"instanceType": "m5.xlarge", "volumeType": "gp3", "volumeCount": 4, "raidLevel": "0",
    "volumeSize": 100, "filesystem": "xfs"}\n' >"$BATS_FILE_TMPDIR/xlarge.json"
  for h in vm-a vm-b vm-c vm-f; do
    mkdir -p "$dir/$h"
    prov=$BATS_FILE_TMPDIR/large.json
    [[ $h == vm-f ]] && prov=$BATS_FILE_TMPDIR/xlarge.json
    for span in 1G 128M 256M; do
      step=$((step + 1))
      "$IOBENCH" -q -o read4k -t 2,1 -n 30 -d 5 -b 1 --span "$span" --host "$h" \
        --provision "$prov" --provision-fact "instanceId=i-$h" --note runId=r1 --note "planStep=$step" \
        --note "spanHuman=$span" --json "$dir/$h/iobench.jsonl" "$BATS_FILE_TMPDIR/data" 2>/dev/null
    done
  done
  cat >"$dir/manifest.json" <<'EOF'
{
  "tool": "iobench-fleet",
  "version": 1,
  "runId": "r1",
  "started": "2026-11-23T05:00:00Z",
  "ended": "2026-11-23T05:20:00Z",
  "state": "complete",
  "plan": { "ops": ["read4k"], "threads": [1, 2], "duration": 5 },
  "hosts": [
    { "name": "vm-a", "login": "root@10.0.0.11", "address": "10.0.0.11", "planned": 6, "finished": 6,
      "fetched": 6, "status": "ok", "failure": null, "results": "vm-a/iobench.jsonl",
      "provision": { "instanceType": "m5.large", "volumeType": "gp3", "volumeCount": 4, "raidLevel": "0",
                     "volumeSize": 100, "filesystem": "xfs", "instanceId": "i-vm-a" } },
    { "name": "vm-b", "planned": 6, "finished": 6, "fetched": 6, "status": "ok", "failure": null,
      "results": "vm-b/iobench.jsonl" },
    { "name": "vm-c", "planned": 6, "finished": 6, "fetched": 6, "status": "ok", "failure": null,
      "results": "vm-c/iobench.jsonl" },
    { "name": "vm-d", "login": "root@10.0.0.14", "address": "10.0.0.14", "planned": 6, "finished": 0,
      "fetched": 0, "status": "failed",
      "failure": { "kind": "unreachable", "detail": "ssh: connect to host 10.0.0.14 port 22: Connection timed out",
                   "exit": 255 },
      "provision": { "instanceType": "m5.large", "volumeType": "gp3", "volumeCount": 4, "raidLevel": "0",
                     "volumeSize": 100, "filesystem": "xfs", "instanceId": "i-vm-d" } },
    { "name": "vm-e", "planned": 6, "finished": 6, "fetched": 0, "status": "not-fetched",
      "failure": { "kind": "not-fetched", "detail": "rsync exited 12", "exit": 12 },
      "remotePath": "root@10.0.0.15:/tmp/iobench-fleet/r1/vm-e",
      "provision": { "instanceType": "m5.xlarge", "volumeType": "gp3", "volumeCount": 4, "raidLevel": "0",
                     "volumeSize": 100, "filesystem": "xfs", "instanceId": "i-vm-e" } },
    { "name": "vm-f", "planned": 6, "finished": 6, "fetched": 6, "status": "ok", "failure": null,
      "results": "vm-f/iobench.jsonl" }
  ]
}
EOF
}

@test "the report names configs from the provisioned facts; hosts by their names, not their hostname" {
  run --separate-stderr "$IOBENCH" report --json "$FLEET"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq -c '[.groups[].config] | unique' <<<"$output")" = \
    '["m5.large / gp3 x4 / raid0","m5.xlarge / gp3 x4 / raid0"]' ]
  # three hosts of one hostname stay three hosts
  [ "$(jq -c '[.groups[] | select(.config | startswith("m5.large")) | .host] | unique' <<<"$output")" = \
    '["vm-a","vm-b","vm-c"]' ]
  [ "$(jq -r '.hostname' "$FLEET"/r1/vm-*/iobench.jsonl | sort -u)" = "$(hostname)" ]
  # per-host facts (instanceId differs on every host) do not split a config
  [ "$(jq -c '[.groups[] | select(.host == "vm-a") | .provision] | unique' <<<"$output")" = \
    '["filesystem=xfs,instanceType=m5.large,raidLevel=0,volumeCount=4,volumeIops=3000,volumeSize=100,volumeThroughput=125,volumeType=gp3"]' ]
}

@test "notes never split a group: one group per op, threads, config and size; the notes section lists them" {
  run --separate-stderr "$IOBENCH" report --json --merge-hosts "$FLEET"
  [ "$status" -eq 0 ]
  # 2 configs x 3 sizes x 2 thread counts, although every run has its own planStep
  [ "$(jq '.groups | length' <<<"$output")" -eq 12 ]
  jq -e '[.groups[] | select(.config | startswith("m5.large")) | .hosts == 3 and .runs == 3] | all' <<<"$output"
  [ "$(jq '.notes | length' <<<"$output")" -eq 24 ]
  jq -e '.notes[] | select(.host == "vm-b" and .notes == "planStep=5,runId=r1,spanHuman=128M")' <<<"$output"
  # not in the text report unless asked for
  run --separate-stderr "$IOBENCH" report "$FLEET"
  [[ "$output" != *"Bookkeeping"* ]]
  run --separate-stderr "$IOBENCH" report --section notes "$FLEET"
  [[ "$output" == *"Bookkeeping"*"planStep=1,runId=r1,spanHuman=1G"* ]]
}

@test "sizes and thread counts sort as numbers in text, CSV and JSON: 128M < 256M < 1G" {
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section groups,threads,tiers "$FLEET"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.groups[] | select(.config | startswith("m5.large")) | [.size / 1048576, .threads]]' <<<"$output")" = \
    '[[128,1],[128,2],[256,1],[256,2],[1024,1],[1024,2]]' ]
  [ "$(jq -c '[.threads[] | select(.config | startswith("m5.large")) | [.size / 1048576, .threads]]' <<<"$output")" = \
    '[[128,1],[128,2],[256,1],[256,2],[1024,1],[1024,2]]' ]
  run --separate-stderr "$IOBENCH" report --csv --merge-hosts --only instanceType=m5.large "$FLEET"
  # the size column, just before the host column's "(3 hosts)"
  [ "$(grep -oE ',[0-9]+,\(3 hosts\)' <<<"$output" | cut -d, -f2 | tr '\n' ' ')" = \
    "134217728 134217728 268435456 268435456 1073741824 1073741824 " ]
  run --separate-stderr "$IOBENCH" report --merge-hosts --section groups --only instanceType=m5.large "$FLEET"
  [ "$(grep '^read4k ' <<<"$output" | awk '{ print $9 }' | tr '\n' ' ')" = "128M 128M 256M 256M 1G 1G " ]
}

@test "the sizes and threads charts take sizes and thread counts in numeric order" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" --only instanceType=m5.large "$FLEET"
  [ "$status" -eq 0 ]
  # the sweep at 1 thread: size_mib column
  [ "$(grep -v '^#' "$TMP/plots/sizes-1.dat" | awk '{ print $1 }' | tr '\n' ' ')" = "128 256 1024 " ]
  # the thread curves: one per size, in size order, named by the config
  [ "$(grep -o '^# read4k m5.large / gp3 x4 / raid0 [0-9A-Z]* (best' "$TMP/plots/threads.dat" | awk '{ print $(NF - 1) }' |
    tr '\n' ' ')" = "128M 256M 1G " ]
  [ -s "$TMP/plots/sizes-1.png" ]
}

# joined_summary: the text report's summary on stdin, a finding a line (its
# wrapped lines joined).
joined_summary() {
  sed -n '/^Summary/,/^$/p' | awk '/^[^ ]/ { if (l != "") print l; l = $0; next }
    /^ +[^ ]/ { if (l ~ /\]$/) { print l; l = $0 } else { sub(/^ +/, ""); l = l " " $0 }; next }
    END { if (l != "") print l }'
}

@test "the manifest's failed and missing hosts open the report; the instances table says N of M hosts" {
  run --separate-stderr "$IOBENCH" report "$FLEET"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "${lines[1]}" = "fleet run r1 (complete): 4 of 6 hosts sent results" ]
  # the summary says so first; the failed hosts' table comes before every other section
  [[ "${lines[2]}" == "Summary"* ]]
  joined_summary <<<"$output" | grep -E '^(hosts)? +failed or sent nothing: vm-d \(unreachable\), vm-e \(not-fetched\)  \[fleet\]$' 
  [ "$(sed -n '/^Summary/,/^$/d; /^[A-Z]/p' <<<"$output" | sed -n 1p)" == "Failed and missing hosts (from the fleet's manifest.json)" ]
  grep -E '^r1 +vm-d +failed +unreachable +6 +0 +0 +255 +ssh: connect to host 10.0.0.14 port 22: Connection timed out$' <<<"$output"
  grep -E '^r1 +vm-e +not-fetched +not-fetched +6 +6 +0 +12 +finished, results not fetched \(still at root@10.0.0.15:/tmp/iobench-fleet/r1/vm-e\)' <<<"$output"
  [ "$(grep -cE '^r1 +vm-[abcf] ' <<<"$output")" -eq 0 ]
  # m5.large: a, b, c of a, b, c, d; m5.xlarge: f of e, f
  grep -E '^read4k +1 +m5.large / gp3 x4 / raid0 +128M +3 of 4 ' <<<"$output"
  grep -E '^read4k +1 +m5.xlarge / gp3 x4 / raid0 +128M +1 of 2 ' <<<"$output"

  run --separate-stderr "$IOBENCH" report --json --section fleet,instances "$FLEET"
  [ "$(jq '.inputs.manifests' <<<"$output")" -eq 1 ]
  [ "$(jq -c '[.fleet[] | [.host, .status, .kind]]' <<<"$output")" = \
    '[["vm-d","failed","unreachable"],["vm-e","not-fetched","not-fetched"]]' ]
  jq -e '[.instances[] | select(.config | startswith("m5.large")) | .hosts == 3 and .plannedHosts == 4] | all' <<<"$output"
  run --separate-stderr "$IOBENCH" report --csv --section fleet "$FLEET"
  [ "${lines[0]}" = "run,host,status,kind,planned,finished,fetched,exit,remotePath,detail" ]
  [[ "${lines[2]}" == "r1,vm-e,not-fetched,not-fetched,6,6,0,12,root@10.0.0.15:/tmp/iobench-fleet/r1/vm-e,"* ]]
}

@test "a host the manifest calls ok but whose results are not there is listed as missing" {
  cp -r "$FLEET" "$TMP/results"
  rm -r "$TMP/results/r1/vm-b"
  run --separate-stderr "$IOBENCH" report --json --section fleet,instances "$TMP/results/r1"
  [ "$status" -eq 0 ]
  jq -e '.fleet[] | select(.host == "vm-b") | .status == "missing" and .kind == "no-results" and
    (.detail | contains("vm-b/iobench.jsonl"))' <<<"$output"
  jq -e '[.instances[] | select(.config | startswith("m5.large")) | .hosts == 2 and .plannedHosts == 4] | all' <<<"$output"
}

@test "README: iobench report --merge-hosts --section instances,badApples results/RUN/ shows the fleet" {
  grep -qF '$ iobench report --merge-hosts --section instances,badApples results/r1/' "$BATS_TEST_DIRNAME/../docs/report.md"
  run --separate-stderr "$IOBENCH" report --merge-hosts --section instances,badApples "$FLEET/r1/"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Across instances"* ]]
  [ "$(grep -c ' 3 of 4 ' <<<"$output")" -eq 6 ]
}

@test "legacy lines: fleetHost becomes the host; run, runId, planStep and spanHuman labels are bookkeeping" {
  local i h
  mkdir -p "$TMP/old/run7/vm"
  for h in 10.0.0.5 10.0.0.6; do
    for i in 1 2; do
      # as fleet-run wrote them before hosts had names: no "hostname", the address in a label
      quick_run -t 1 --span 8M --label config=large/ebs4 --label fleetHost="$h" --label planStep="$i" \
        --label runId=run7 --label run=run7 --label spanHuman=8M --json - "$TMP/data" |
        jq -c 'del(.hostname)' >>"$TMP/old/run7/vm/iobench.jsonl"
    done
  done
  run --separate-stderr "$IOBENCH" report --json "$TMP/old"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.groups[] | [.host, .labels, .config, .runs]]' <<<"$output")" = \
    '[["10.0.0.5","config=large/ebs4","config=large/ebs4",2],["10.0.0.6","config=large/ebs4","config=large/ebs4",2]]' ]
  jq -e '.instances[0].hosts == 2 and .instances[0].plannedHosts == null' <<<"$output"
  [ "$(jq -r '.notes[0].notes' <<<"$output")" = "fleetHost=10.0.0.5,planStep=1,run=run7,runId=run7,spanHuman=8M" ]
  # a line with a hostname names its host itself: the label is then only bookkeeping
  quick_run --host vm-z --label fleetHost=10.0.0.9 --json "$TMP/new.jsonl" "$TMP/data"
  run --separate-stderr "$IOBENCH" report --json "$TMP/new.jsonl"
  [ "$(jq -r '.groups[0].host' <<<"$output")" = vm-z ]
}

@test "--only selects by a provisioned fact; configs whose names would clash are told apart" {
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --only 'instanceType=*xlarge' "$FLEET"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.groups[].config] | unique' <<<"$output")" = '["m5.xlarge / gp3 x4 / raid0"]' ]
  # the same type and volumes but another volume size and filesystem: the name says the difference
  quick_run --provision "$BATS_FILE_TMPDIR/large.json" --provision-fact volumeSize=500 \
    --provision-fact filesystem=ext4 --host vm-g --json "$TMP/other.jsonl" "$TMP/data"
  quick_run --provision "$BATS_FILE_TMPDIR/large.json" --host vm-h --json "$TMP/other.jsonl" "$TMP/data"
  run --separate-stderr "$IOBENCH" report --json "$TMP/other.jsonl"
  [ "$(jq -c '[.groups[].config]' <<<"$output")" = \
    '["m5.large / gp3 x4 / raid0 / filesystem=ext4 / volumeSize=500","m5.large / gp3 x4 / raid0 / filesystem=xfs / volumeSize=100"]' ]
}

@test "README: the run with --host, --provision-fact and --note, then its report, as written" {
  # the indented commands of the README's section on host, provision and notes
  local cmds
  cmds=$(sed -n '/^### Who ran, on what/,/^## /p' "$BATS_TEST_DIRNAME/../docs/json-format.md" | grep -E '^    ' |
    sed 's/^    //' | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta')
  [ "$(wc -l <<<"$cmds")" -eq 2 ]
  local run_cmd report_cmd
  run_cmd=$(sed -n 1p <<<"$cmds")
  report_cmd=$(sed -n 2p <<<"$cmds")
  [[ $run_cmd == "iobench "*" /mnt/md0/iobench.dat" ]]
  # as written, but for where the data file is, and a short run
  run_cmd="${run_cmd% /mnt/md0/iobench.dat} -n 50 $TMP/data"
  cd "$TMP"
  run bash -c "PATH=$(dirname "$IOBENCH"):\$PATH; $run_cmd 2>/dev/null && $report_cmd"
  [ "$status" -eq 0 ]
  # the summary: the config named from the facts, the host, its figure
  joined_summary <<<"$output" |
    grep -E '^read4k +m5\.large / gp3 x4 / raid0: [0-9,]+ ops/s, p50 .*, p99 .* \(host db1, 8 threads\)  \[groups\]$' 
  jq -e '.host == "db1" and .notes.runId == "r1" and .provision.volumeCount == 4' "$TMP/r1.jsonl"
}

@test "a manifest of 40k hosts, one listed twice, read from two folders of one run: each host once, the last entry wins" {
  mkdir -p "$TMP/big/a" "$TMP/big/b"
  jq -n '{tool: "iobench-fleet", version: 1, runId: "r40k", state: "complete", plan: {},
    hosts: ([range(40000) as $i | {name: "h\($i)", login: "h\($i)", planned: 1, finished: 0, fetched: 0,
             attempts: 1, status: "failed", failure: {kind: "unreachable", detail: "x", exit: 255}}]
            + [{name: "h7", login: "h7", planned: 1, finished: 0, fetched: 0, attempts: 1, status: "failed",
                failure: {kind: "auth", detail: "refused", exit: 255}}])}' >"$TMP/big/a/manifest.json"
  cp "$TMP/big/a/manifest.json" "$TMP/big/b/manifest.json"
  run --separate-stderr "$IOBENCH" report --json --section fleet "$TMP/big"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.manifests' <<<"$output")" -eq 2 ]
  [ "$(jq '.fleet | length' <<<"$output")" -eq 40000 ]
  [ "$(jq '[.fleet[].host] | unique | length' <<<"$output")" -eq 40000 ]
  [ "$(jq -r '.fleet[] | select(.host == "h7") | .kind' <<<"$output")" == auth ]
  [ "$(jq -r '.fleet[] | select(.host == "h39999") | .kind' <<<"$output")" == unreachable ]
}
