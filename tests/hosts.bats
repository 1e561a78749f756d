#!/usr/bin/env bats
# hosts.bats - who a host is, what was provisioned, bookkeeping (issue 11):
# --host, --provision FILE|imds|none, --provision-fact, --note on run and watch;
# the EC2 metadata service through a stand-in on a network namespace address;
# how the report groups such lines and reads a fleet's manifest.json.

bats_require_minimum_version 1.5.0

load lib/core

NETNS_PREFIX=${NETNS_PREFIX:-ibf}
NETNS_SUBNET=${NETNS_SUBNET:-10.251.73}
STANDIN=$BATS_TEST_DIRNAME/helpers/imds-standin.py

setup() {
  core_setup
  make_file "$TMP/data" 16M
}

teardown() {
  imds_down
  core_teardown
}

# A short real run: 40 buffered operations per thread.
quick_run() {
  "$IOBENCH" -q -n 40 -d 5 --no-direct "$@" 2>/dev/null
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
