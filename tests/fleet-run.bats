#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root,slow
# fleet-run.bats - scripts/fleet-run against real sshd's, one per network
# namespace on a private /24 (tests/lib/netns.bash), driven by GNU parallel.

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run
ROOT=$BATS_TEST_DIRNAME/..

setup() {
  netns_fleet_setup --static 4
}

teardown() {
  # The full-disk test's tmpfs, if it failed before unmounting it.
  ! mountpoint -q "${RESULTS:-/nonexistent}" || umount "$RESULTS"
  netns_fleet_teardown
}

# fleet ARGS...: fleet-run against the test hosts, short runs, small files.
fleet() {
  # SIGINT as at a terminal, even when the suite runs in the background of a
  # script (where it is ignored from the start, and bash cannot trap it).
  env --default-signal=INT "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 "$@"
}

# sig_of OP: the study's signature of OP.
sig_of() {
  case $1 in
    read4k) echo read,4K,4K ;;
    write4k) echo writeFlush,4K,4K ;;
    write4k/64) echo write64,4K,4K ;;
  esac
}

# check_host_results RUN NAME OPS THREADS: NAME's JSONL holds one line per
# (op, thread count), each with the right signature and thread count, the
# host's name, the run's notes (no bookkeeping label) and a non-zero count.
check_host_results() {
  local run=$1 name=$2 ops=$3 threads=$4 f
  f=$RESULTS/$run/$name/iobench.jsonl
  [ -f "$f" ]
  local want=$(($(tr , '\n' <<<"$ops" | wc -l) * $(tr , '\n' <<<"$threads" | wc -l)))
  [ "$(wc -l <"$f")" -eq "$want" ]
  [ "$(jq -s --arg run "$run" --arg host "$name" \
      '[.[] | select(.host == $host and .notes.runId == $run
                     and (.notes.planStep | tonumber) >= 1
                     and (.labels | has("run") or has("fleetHost") or has("planStep") | not)
                     and (.operations | length) == 1
                     and .operations[0].total.count > 0
                     and .operations[0].total.errorCount == 0
                     and .fileSize == 33554432)] | length' "$f")" -eq "$want" ]
  # Each (op, thread count) exactly once, each plan step once.
  [ "$(jq -r .notes.planStep "$f" | sort -n | paste -sd,)" == "$(seq -s, 1 "$want")" ]
  local op t
  for op in ${ops//,/ }; do
    for t in ${threads//,/ }; do
      [ "$(jq -s --arg sig "$(sig_of "$op")" --argjson t "$t" --arg op "$op" \
          '[.[] | .operations[0] | select(.signature == $sig and .threadCount == $t and .name == $op)] | length' "$f")" -eq 1 ]
    done
  done
}

# host_field RUN NAME FIELD: FIELD of host NAME in RUN's manifest.
host_field() {
  jq -r --arg n "$2" ".hosts[] | select(.name == \$n) | .$3" "$RESULTS/$1/manifest.json"
}

# wait_for_file FILE PATTERN: wait (up to 60 s) until FILE has a line matching PATTERN.
wait_for_file() {
  local i
  for ((i = 0; i < 600; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "no '$2' in $1 after 60 s" >&2
  return 1
}

# wait_fetched RUN [NAME]: wait (up to 60 s) until a run of host NAME (any
# host without NAME) came back, as RUN's manifest says.
wait_fetched() {
  local i
  for ((i = 0; i < 600; i++)); do
    jq -e --arg n "${2:-}" 'any(.hosts[]; ($n == "" or .name == $n) and .fetched >= 1)' \
      "$RESULTS/$1/manifest.json" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "no run of ${2:-any host} back in $1 after 60 s" >&2
  return 1
}

@test "fleet-run --help prints the usage and the hosts file format, and exits 0" {
  run "$FLEET" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: fleet-run --hosts FILE"* ]]
  [[ "$output" == *"LOGIN [name=NAME] [provision=FILE]"* ]]
  [[ "$output" == *"GNU parallel over ssh"* ]]
}

@test "fleet-run without --hosts or with a bad thread list is a usage error (exit 2)" {
  run "$FLEET" --run-id x
  [ "$status" -eq 2 ]
  [[ "$output" == *"--hosts FILE is required"* ]]
  run fleet --threads 4..2
  [ "$status" -eq 2 ]
  [[ "$output" == *"--threads"* ]]
  run fleet --timeout
  [ "$status" -eq 2 ]
  run fleet --ops ,,
  [ "$status" -eq 2 ]
  [[ "$output" == *"--ops"* ]]
  # A status line more often than once a second would be a busy loop.
  run fleet --run-id p0 --progress 0
  [ "$status" -eq 2 ]
  [ "$output" == "fleet-run: --progress 0 (or IOBENCH_PROGRESS_SECS): whole seconds, at least 1 (see fleet-run --help)" ]
  IOBENCH_PROGRESS_SECS=soon run fleet --run-id p1
  [ "$status" -eq 2 ]
  [[ "$output" == "fleet-run: --progress soon (or IOBENCH_PROGRESS_SECS): "* ]]
  [ ! -e "$RESULTS/p0" ] && [ ! -e "$RESULTS/p1" ]
}

@test "a run id that is a path or hidden is refused (exit 2); nothing is written" {
  local id
  for id in .. . .hidden a/b ../up; do
    run --separate-stderr fleet --run-id "$id" --dry-run
    [ "$status" -eq 2 ] || { echo "--run-id $id: exit $status"; return 1; }
    [ "$stderr" == "fleet-run: --run-id '$id': use letters, digits, . _ - (not starting with a dot or a dash) (see fleet-run --help)" ]
  done
  [ ! -e "$RESULTS" ]
  [ ! -e "$ROOT/summary.tsv" ]
}

@test "a missing --ssh-key is one line, before any host is tried" {
  run --separate-stderr fleet --ssh-key "$NET/no-such-key" --run-id k
  [ "$status" -eq 2 ]
  [ "$(wc -l <<<"$stderr")" -eq 1 ]
  [ "$stderr" == "fleet-run: --ssh-key '$NET/no-such-key': no such readable file (see fleet-run --help)" ]
  [ ! -e "$RESULTS/k" ]
}

@test "a host line with stray words is refused with its line number, not glued into one host" {
  printf '%s\n' "# the fleet" "$(netns_addr 1)" "a b c" >"$NET/bad"
  run --separate-stderr "$FLEET" --hosts "$NET/bad" --results-dir "$RESULTS" --run-id glue --dry-run
  [ "$status" -eq 2 ]
  [ "$stderr" == "fleet-run: $NET/bad:3: 'a b c': expected LOGIN [name=NAME] [provision=FILE], one host a line (see fleet-run --help)" ]
  printf '%s name=../x\n' "$(netns_addr 1)" >"$NET/bad"
  run --separate-stderr "$FLEET" --hosts "$NET/bad" --results-dir "$RESULTS" --run-id glue --dry-run
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"$NET/bad:1: host name '../x'"* ]]
  [ ! -e "$RESULTS/glue" ]
}

@test "a host listed twice, or two hosts with one name, is a usage error" {
  local first
  first=$(head -n 1 "$NET/hosts")
  cp "$NET/hosts" "$NET/twice"
  echo "$first" >>"$NET/twice"
  run "$FLEET" --hosts "$NET/twice" --results-dir "$RESULTS" --run-id twice
  [ "$status" -eq 2 ]
  [[ "$output" == *"host $first appears twice"* ]]
  printf '%s name=db\n%s name=db\n' "$(netns_addr 1)" "$(netns_addr 2)" >"$NET/twice"
  run "$FLEET" --hosts "$NET/twice" --results-dir "$RESULTS" --run-id twice
  [ "$status" -eq 2 ]
  [[ "$output" == *"host name db appears twice"* ]]
}

@test "fleet-run --dry-run prints the plans, each host's session (pre-flight and job, one process), the parallel command and touches no host" {
  run fleet --run-id dry --ops read4k,write4k --threads 1,2 --seed 5 --dry-run
  [ "$status" -eq 0 ]
  # One plan of 4 runs per host, named in the output, and its session: the
  # shipment, then one process that checks, waits for "go" and runs the
  # job, bounded by the host's timeout.
  [ "$(grep -c "^# ${NETNS_SUBNET//./\\.}\\.1[1-4] plan: " <<<"$output")" -eq 4 ]
  [ "$(grep -c "^# ${NETNS_SUBNET//./\\.}\\.1[1-4] pre-flight and job: .*tar\\\\ xf\\\\ -.*exec\\\\ bash\\\\ ./fleet-job\\\\ --session\\\\ --send-results\\\\ --timeout\\\\ [0-9][0-9]*\\\\ .*--check\\\\ ${NETNS_SUBNET//./\\.}" <<<"$output")" -eq 4 ]
  # GNU parallel starts the 4 sessions at once, its joblog the batch's.
  [ "$(grep -c '^parallel --jobs 4 .*--joblog .*/logs/joblog\.1 --resume-failed --arg-file .*/args\.1 ' <<<"$output")" -eq 1 ]
  # The build: by its hash, shipped only where it is not kept.
  [[ "$output" == *"sha256 $(sha256sum <"${IOBENCH_STATIC:-$ROOT/iobench-static}" | cut -c 1-64); only to a host that does not keep it"* ]]
  [ ! -e "$RESULTS/dry" ]
  [ ! -e "$REMOTE" ]
}

@test "fleet-run runs the whole plan on 4 hosts and fetches every host's JSON lines; the manifest says so" {
  run fleet --run-id all4 --ops read4k,write4k --threads 1,2 --seed 11
  echo "$output"
  [ "$status" -eq 0 ]
  local i host m=$RESULTS/all4/manifest.json
  for i in 1 2 3 4; do
    host=$(netns_addr "$i")
    check_host_results all4 "$host" read4k,write4k 1,2
    # The data file was made once, in the host's own directory.
    [ "$(stat -c %s "$REMOTE/$host/data.bin")" -eq 33554432 ]
    [ -s "$RESULTS/all4/logs/$host.log" ]
    # What came back is what the host has.
    [ "$(ls "$REMOTE/$host/$host/runs/" | grep -c '\.result$')" -eq 4 ]
  done
  # The manifest: the run, its plan, each host asked for 4 runs, 4 back.
  [ "$(jq -r '[.tool, .version, .runId, .state] | @tsv' "$m")" == "$(printf 'iobench-fleet\t1\tall4\tcomplete')" ]
  [ "$(jq -c '.plan.ops' "$m")" == '["read4k","write4k"]' ]
  [ "$(jq '[.hosts[] | select(.status == "ok" and .planned == 4 and .finished == 4 and .fetched == 4
      and .failure == null and .results == "\(.name)/iobench.jsonl"
      and .remotePath == "\(.login):'"$REMOTE"'/\(.name)")] | length' "$m")" -eq 4 ]
  [ "$(jq -r '.started < .ended' "$m")" == true ]
  # joblog: one line per host plus the header, all exit 0; summary.tsv from the manifest.
  [ "$(tail -n +2 "$RESULTS/all4/joblog" | wc -l)" -eq 4 ]
  [ "$(tail -n +2 "$RESULTS/all4/joblog" | awk -F'\t' '$7 != 0' | wc -l)" -eq 0 ]
  [ "$(head -n 1 "$RESULTS/all4/summary.tsv")" == "$(printf 'host\tstatus\texit\tattempts\tjsonLines\tplanned\tfinished\tfailure')" ]
  [ "$(grep -c $'\tok\t0\t1\t4\t4\t4\t$' "$RESULTS/all4/summary.tsv")" -eq 4 ]
  [[ "$output" == *"run all4 complete: 4 of 4 hosts ok, 0 not; 16 of 16 runs back"* ]]
}

@test "hosts named in the hosts file get their folders, the JSON's host and their provision facts" {
  # Facts that name no volume: the data file stays in the remote dir, on the
  # root disk (facts that name one need it on the volume: answers-target.bats).
  printf '{"instanceType": "m5.large", "ebsOptimized": true, "az": "us-east-1a"}\n' >"$NET/p1.json"
  printf '%s name=db-1 provision=p1.json\n' "$(netns_addr 1)" >"$NET/named"
  printf 'root@%s   name=db-2   # the second\n\n' "$(netns_addr 2)" >>"$NET/named"
  run "$FLEET" --hosts "$NET/named" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 \
    --run-id named --ops read4k --threads 1,2 --label config=small
  echo "$output"
  [ "$status" -eq 0 ]
  check_host_results named db-1 read4k 1,2
  check_host_results named db-2 read4k 1,2
  # The name is the host, the box's own name stays beside it; labels are the user's only.
  [ "$(jq -r '[.host, .hostname, .labels.config] | @tsv' "$RESULTS/named/db-1/iobench.jsonl" | sort -u)" == \
    "$(printf 'db-1\t%s\tsmall' "$(hostname)")" ]
  [ "$(jq -c '.labels' "$RESULTS/named/db-2/iobench.jsonl" | sort -u)" == '{"config":"small"}' ]
  # Every run of db-1 carries its facts; db-2 has none.
  [ "$(jq -c .provision "$RESULTS/named/db-1/iobench.jsonl" | sort -u)" == \
    '{"instanceType":"m5.large","ebsOptimized":true,"az":"us-east-1a"}' ]
  [ "$(jq -c '.provision // "none"' "$RESULTS/named/db-2/iobench.jsonl" | sort -u)" == '"none"' ]
  [ "$(host_field named db-1 provision.instanceType)" == m5.large ]
  [ "$(host_field named db-2 login)" == "root@$(netns_addr 2)" ]
  [ "$(host_field named db-2 address)" == "$(netns_addr 2)" ]
  [ -d "$REMOTE/db-1/db-1/runs" ]
}

@test "fleet-run ships the static build by default, ./iobench with --dynamic" {
  head -n 1 "$NET/hosts" >"$NET/one"
  local host
  host=$(head -n 1 "$NET/one")
  run "$FLEET" --hosts "$NET/one" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 --run-id st
  [ "$status" -eq 0 ]
  cmp "${IOBENCH_STATIC:-$ROOT/iobench-static}" "$REMOTE/$host/iobench"
  [ "$(jq -r .plan.binary "$RESULTS/st/manifest.json")" == static ]
  run "$FLEET" --hosts "$NET/one" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 \
    --run-id dyn --dynamic
  [ "$status" -eq 0 ]
  cmp "${IOBENCH:-$ROOT/iobench}" "$REMOTE/$host/iobench"
  [ "$(jq -r .plan.binary "$RESULTS/dyn/manifest.json")" == dynamic ]
  # Without a static build: one line saying how to get one.
  run --separate-stderr env IOBENCH_STATIC=/nonexistent/iobench-static "$FLEET" --hosts "$NET/one" \
    --results-dir "$RESULTS" --run-id nostatic
  [ "$status" -eq 1 ]
  [[ "$stderr" == "fleet-run: iobench binary '/nonexistent/iobench-static' not found; build it (make static) or set IOBENCH_STATIC" ]]
}

@test "fleet-run shuffles the plan per host, reproducibly from --seed; --sizes sweeps every op and count" {
  run fleet --run-id s1 --ops read4k,write4k,write4k/64 --threads 1,2 --seed 3 --dry-run
  [ "$status" -eq 0 ]
  local first=$output
  run fleet --run-id s1 --ops read4k,write4k,write4k/64 --threads 1,2 --seed 3 --dry-run
  [ "$(grep ' plan: ' <<<"$output")" == "$(grep ' plan: ' <<<"$first")" ]
  # Not every host runs the 6 steps in the same order.
  [ "$(grep ' plan: ' <<<"$output" | sed 's/.* plan: //' | sort -u | wc -l)" -gt 1 ]
  # And each host's plan has every (op, threads) pair once.
  local p
  p=$(grep -F "# $(netns_addr 1) plan: " <<<"$output" | sed 's/.* plan: //' | tr , '\n' | sort)
  [ "$p" == "$(printf '%s\n' 'read4k 1' 'read4k 2' 'write4k 1' 'write4k 2' 'write4k/64 1' 'write4k/64 2' | sort)" ]
  run fleet --run-id s2 --ops read4k --threads 1,2 --sizes 8M..16M:8M --dry-run
  [ "$status" -eq 0 ]
  p=$(grep -F "# $(netns_addr 1) plan: " <<<"$output" | sed 's/.* plan: //' | tr , '\n' | sort)
  [ "$p" == "$(printf '%s\n' 'read4k 1 8388608' 'read4k 1 16777216' 'read4k 2 8388608' 'read4k 2 16777216' | sort)" ]
  run fleet --run-id s3 --sizes 64M --dry-run
  [ "$status" -eq 2 ]
  [[ "$output" == *"beyond --file-size 32M"* ]]
}

@test "--study-plan: each host runs all 42 (op, thread count) runs in one order of its own, recorded and reproducible from --seed" {
  run fleet --run-id study1 --study-plan --seed 11
  echo "$output"
  [ "$status" -eq 0 ]
  local m=$RESULTS/study1/manifest.json want name p orders='' f
  [ "$(jq -c '[.plan.seed, .plan.runsPerHost, .plan.opThreads.read4k, .plan.threads, (.plan.ops | join(","))]' "$m")" == \
    '[11,42,"1,2,4,8,12,16,24,32,48,64","1,2,3,4,6,8,12,16","read4k,read4m,write4k,write4m,write4k/64"]' ]
  # The study's 42 runs: read4k at 10 counts, the 4 other ops at 8.
  want=$({ for t in 1 2 4 8 12 16 24 32 48 64; do echo "read4k $t"; done
    for op in read4m write4k write4m write4k/64; do for t in 1 2 3 4 6 8 12 16; do echo "$op $t"; done; done; } | sort)
  [ "$(wc -l <<<"$want")" -eq 42 ]
  for name in $(jq -r '.hosts[].name' "$m"); do
    p=$RESULTS/study1/$name/plan.txt
    # plan.txt: steps 1..42, a permutation of the 42 runs.
    [ "$(cut -d' ' -f1 "$p" | paste -sd,)" == "$(seq -s, 1 42)" ]
    [ "$(cut -d' ' -f2,3 "$p" | sort)" == "$want" ]
    # One order over all ops, not op after op: far more than 4 changes of op.
    [ "$(cut -d' ' -f2 "$p" | uniq | wc -l)" -gt 15 ]
    # The host ran them in that order: its lines by start time are steps 1..42
    # with the plan's op and thread count.
    f=$RESULTS/study1/$name/iobench.jsonl
    [ "$(wc -l <"$f")" -eq 42 ]
    [ "$(jq -sr 'sort_by(.launchTime) | .[] | "\(.notes.planStep) \(.operations[0].name) \(.operations[0].threadCount)"' "$f")" == \
      "$(cut -d' ' -f1-3 "$p")" ]
    orders+=$(cut -d' ' -f2,3 "$p" | paste -sd,)$'\n'
  done
  # Each host an order of its own.
  [ "$(grep -c . <<<"$orders")" -eq 4 ]
  [ "$(sort -u <<<"$orders" | grep -c .)" -eq 4 ]
  # The same seed gives the same orders (here as a dry run); another, others.
  run fleet --run-id study2 --study-plan --seed 11 --dry-run
  [ "$status" -eq 0 ]
  for name in $(jq -r '.hosts[].name' "$m"); do
    [ "$(grep -F "# $name plan: " <<<"$output" | sed 's/.* plan: //')" == \
      "$(cut -d' ' -f2,3 "$RESULTS/study1/$name/plan.txt" | paste -sd,)" ]
  done
  run fleet --run-id study3 --study-plan --seed 12 --dry-run
  [ "$(grep -F "# $(netns_addr 1) plan: " <<<"$output" | sed 's/.* plan: //')" != \
    "$(cut -d' ' -f2,3 "$RESULTS/study1/$(netns_addr 1)/plan.txt" | paste -sd,)" ]
}

@test "--op-threads gives one op its own thread counts; an op not in --ops is a usage error" {
  run fleet --run-id ot --ops read4k,write4k --threads 2 --op-threads read4k=1,4 --seed 2 --dry-run
  [ "$status" -eq 0 ]
  [ "$(grep -F "# $(netns_addr 1) plan: " <<<"$output" | sed 's/.* plan: //' | tr , '\n' | sort | paste -sd,)" == \
    'read4k 1,read4k 4,write4k 2' ]
  run fleet --run-id ot --ops read4k --op-threads write4k=2 --dry-run
  [ "$status" -eq 2 ]
  [[ "$output" == *"--op-threads write4k=2: write4k is not one of --ops read4k"* ]]
  run fleet --run-id ot --ops read4k --op-threads read4k=x --dry-run
  [ "$status" -eq 2 ]
  run fleet --run-id ot --ops read4k --op-threads read4k --dry-run
  [ "$status" -eq 2 ]
}

@test "a --sizes sweep runs each size with --span and notes the size for people" {
  head -n 2 "$NET/hosts" >"$NET/two"
  run "$FLEET" --hosts "$NET/two" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --duration 1 --bucket 1 \
    --run-id sizes --sizes 4M,8M,16M
  echo "$output"
  [ "$status" -eq 0 ]
  local f=$RESULTS/sizes/$(netns_addr 1)/iobench.jsonl
  # The data file is as large as the largest size; each size once.
  [ "$(stat -c %s "$REMOTE/$(netns_addr 1)/data.bin")" -eq 16777216 ]
  [ "$(jq -r '[.target.span, .notes.spanHuman] | @tsv' "$f" | sort -n | paste -sd,)" == \
    "$(printf '4194304\t4M,8388608\t8M,16777216\t16M')" ]
  [ "$(jq -c .labels "$f" | sort -u)" == '{}' ]
}

@test "fleet-run keeps an existing data file of the right size; --jobs 2 runs 2 hosts at a time" {
  run fleet --run-id first --threads 1 --remote-dir "$REMOTE/shared/{host}"
  [ "$status" -eq 0 ]
  local host inode i
  host=$(netns_addr 1)
  inode=$(stat -c %i "$REMOTE/shared/$host/data.bin")
  run fleet --run-id second --threads 1 --remote-dir "$REMOTE/shared/{host}" --jobs 2
  [ "$status" -eq 0 ]
  [ "$(stat -c %i "$REMOTE/shared/$host/data.bin")" -eq "$inode" ]
  grep -q 'exists with 33554432 bytes; not recreated' "$RESULTS/second/logs/$host.log"
  for i in 1 2 3 4; do check_host_results second "$(netns_addr "$i")" read4k 1; done
  # Two batches of two: one joblog line per host, and host 3 started only
  # after hosts 1 and 2 had finished.
  cat "$RESULTS/second/joblog"
  [ "$(tail -n +2 "$RESULTS/second/joblog" | wc -l)" -eq 4 ]
  local end12 start3
  end12=$(awk -F'\t' 'NR > 1 && ($2 ~ /\.11$/ || $2 ~ /\.12$/) {e = $3 + $4; if (e > m) m = e} END {printf "%.3f", m}' "$RESULTS/second/joblog")
  start3=$(awk -F'\t' 'NR > 1 && $2 ~ /\.13$/ {print $3}' "$RESULTS/second/joblog")
  awk -v a="$end12" -v b="$start3" 'BEGIN {exit !(b >= a)}'
}

@test "the pre-flight check names each failing host with its reason (auth, no-iobench, no-space); the others run" {
  local h2 h3
  h2=$(netns_addr 2) h3=$(netns_addr 3)
  # Host 1: a login the host refuses. Host 2: its working directory cannot
  # run programs. Host 3: too little space for the data file.
  mkdir -p "$REMOTE/$h2" "$REMOTE/$h3"
  netns_exec_mnt 2 mount -t tmpfs -o size=64m,noexec tmpfs "$REMOTE/$h2"
  netns_exec_mnt 3 mount -t tmpfs -o size=8m tmpfs "$REMOTE/$h3"
  sed "1s/^/nosuchuser@/" "$NET/hosts" >"$NET/mixed"
  run "$FLEET" --hosts "$NET/mixed" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 \
    --run-id pre --threads 1,2
  echo "$output"
  netns_exec_mnt 2 umount "$REMOTE/$h2"
  netns_exec_mnt 3 umount "$REMOTE/$h3"
  [ "$status" -eq 1 ]
  local h1=$(netns_addr 1) h4=$(netns_addr 4)
  [[ "$output" == *"host $h1 (nosuchuser@$h1) failed the pre-flight check: auth: nosuchuser@$h1: Permission denied (publickey)."* ]]
  [[ "$output" == *"host $h2 ($h2) failed the pre-flight check: no-iobench: the shipped iobench does not run here: "*"Permission denied"* ]]
  [[ "$output" == *"host $h3 ($h3) failed the pre-flight check: no-space: data.bin needs 32M (33554432 bytes), "*" bytes free in $REMOTE/$h3"* ]]
  [ "$(host_field pre "$h1" failure.kind)" == auth ]
  [ "$(host_field pre "$h2" failure.kind)" == no-iobench ]
  [ "$(host_field pre "$h3" failure.kind)" == no-space ]
  [ "$(jq -r "[.hosts[] | select(.failure != null) | .status, .attempts, .fetched | tostring] | unique | join(\",\")" \
      "$RESULTS/pre/manifest.json")" == "0,failed" ]
  # Host 4 ran the plan; nothing of it started on the others.
  check_host_results pre "$h4" read4k 1,2
  [ "$(host_field pre "$h4" status)" == ok ]
  [ "$(tail -n +2 "$RESULTS/pre/joblog" | wc -l)" -eq 1 ]
  [[ "$output" == *"run pre complete: 1 of 4 hosts ok, 3 not"* ]]
}

@test "a host that dies mid-run is retried, named as failed, keeps what came back, and the others complete" {
  local dead
  dead=$(netns_addr 2)
  # Long enough (6 runs of 3 s) that host 2 is surely mid-plan when it dies.
  fleet --run-id die --ops read4k,write4k --threads 1,2,3 --duration 3 --retries 1 \
    >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  local pid=$! i
  # Its first run came back (fetched as it finished): then it dies.
  wait_fetched die "$dead"
  [ -s "$RESULTS/die/$dead/iobench.jsonl" ]
  netns_kill_host 2
  [ "$(find "$REMOTE/$dead/$dead/runs" -name '*.result' | wc -l)" -lt 6 ]
  local rc=0
  wait "$pid" || rc=$?
  cat "$BATS_TEST_TMPDIR/out"
  [ "$rc" -eq 1 ]
  grep -q "run die complete: 3 of 4 hosts ok, 1 not" "$BATS_TEST_TMPDIR/out"
  [ "$(host_field die "$dead" failure.kind)" == unreachable ]
  [[ "$(host_field die "$dead" failure.detail)" == "ssh lost the host (exit 255)"* ]]
  # ssh's CR LF is not kept: no detail or log line is glued to the next.
  [[ "$(host_field die "$dead" failure.detail)" != *$'\r'* ]]
  ! grep -q $'\r' "$RESULTS/die/logs/fleet.log"
  # Named as failed with what came back; or, when runs finished in the
  # instants before it died (more than one on a loaded machine), with what is still there.
  case $(host_field die "$dead" status) in
    partial) grep -q "host $dead FAILED (partial): unreachable: ssh lost the host (exit 255)" "$BATS_TEST_TMPDIR/out" ;;
    not-fetched) grep -q "host $dead finished [2-5] of 6 runs, results of [1-4] not fetched" "$BATS_TEST_TMPDIR/out" ;;
    *) false ;;
  esac
  [ "$(awk -F'\t' -v h="$dead" '$1 == h {print $4}' "$RESULTS/die/summary.tsv")" == 2 ]
  # What it finished before it died is here, whole: the manifest counts it.
  local back
  back=$(wc -l <"$RESULTS/die/$dead/iobench.jsonl")
  [ "$back" -ge 1 ] && [ "$back" -lt 6 ]
  [ "$(host_field die "$dead" fetched)" -eq "$back" ]
  jq -e 'select(.operations[0].total.count > 0)' "$RESULTS/die/$dead/iobench.jsonl" >/dev/null
  for i in 1 3 4; do
    check_host_results die "$(netns_addr "$i")" read4k,write4k 1,2,3
  done
  # The joblog shows the dead host's first attempt and its retry, both failed.
  [ "$(tail -n +2 "$RESULTS/die/joblog" | awk -F'\t' -v h="$dead" '$2 ~ h && $7 != 0' | wc -l)" -eq 2 ]
}

@test "an unreachable host fails the pre-flight check while the others succeed" {
  netns_kill_host 3
  run fleet --run-id down --retries 2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"host $(netns_addr 3) FAILED: unreachable: ssh: connect to host $(netns_addr 3) port 22: "* ]]
  [ "$(grep -c $'\tok\t' "$RESULTS/down/summary.tsv")" -eq 3 ]
  [ "$(host_field down "$(netns_addr 3)" status)" == failed ]
  check_host_results down "$(netns_addr 1)" read4k 1
}

@test "a host that exceeds --timeout is stopped and named" {
  # 1 host is enough: the plan takes 2 x 4 s, the limit is 3 s.
  head -n 1 "$NET/hosts" >"$NET/one"
  run "$FLEET" --hosts "$NET/one" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --run-id slow --threads 1,2 --duration 4 --bucket 1 --timeout 3 --retries 0
  echo "$output"
  [ "$status" -eq 1 ]
  # The first run, stopped at 3 s, writes what it has; when that line is
  # fetched before the job goes the host is partial, else failed (a fresh
  # Debian root saw partial once): either way stopped by --timeout.
  local st
  st=$(awk -F'\t' 'NR > 1 {print $2}' "$RESULTS/slow/summary.tsv")
  case $st in
    failed) [[ "$output" == *"host $(netns_addr 1) FAILED: exited: stopped by --timeout 3 s"* ]] ;;
    partial) [[ "$output" == *"host $(netns_addr 1) FAILED (partial): exited: stopped by --timeout 3 s; 1 of 2 runs back"* ]] ;;
    *) echo "status $st"; return 1 ;;
  esac
}

@test "a host whose results cannot be copied back is named with where they are; --fetch gets them later" {
  local h2
  h2=$(netns_addr 2)
  fleet --run-id nf --ops read4k,write4k --threads 1 --retries 1 >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  local pid=$! rc=0
  # Host 2 cannot send what it finished once its job runs: the job goes on,
  # no fetch gets through (its tar fails). (Not a stopped sshd: the run's
  # one connection to the host, made before, carries the fetches too.)
  printf '#!/bin/sh\necho "tar: broken" >&2\nexit 2\n' >"$BATS_TEST_TMPDIR/badtar"
  chmod +x "$BATS_TEST_TMPDIR/badtar"
  wait_for_file "$REMOTE/$h2/logs/$h2.log" 'run 1:'
  netns_exec_mnt 2 mount --bind "$BATS_TEST_TMPDIR/badtar" /usr/bin/tar
  wait "$pid" || rc=$?
  cat "$BATS_TEST_TMPDIR/out"
  [ "$rc" -eq 1 ]
  grep -qF "host $h2 finished 2 of 2 runs, results of 2 not fetched (still at $h2:$REMOTE/$h2/$h2/runs); get them with: fleet-run --fetch nf" \
    "$BATS_TEST_TMPDIR/out"
  [ "$(host_field nf "$h2" status)" == not-fetched ]
  [ "$(host_field nf "$h2" failure.kind)" == not-fetched ]
  [ "$(host_field nf "$h2" failure.detail)" == "finished, results not fetched (still at $h2:$REMOTE/$h2/$h2/runs)" ]
  [ "$(host_field nf "$h2" finished)" -eq 2 ]
  [ "$(host_field nf "$h2" fetched)" -eq 0 ]
  [ ! -e "$RESULTS/nf/$h2/iobench.jsonl" ]
  [ "$(awk -F'\t' -v h="$h2" '$1 == h {print $2}' "$RESULTS/nf/summary.tsv")" == not-fetched ]
  # Still unreachable: --fetch says so and changes nothing.
  run "$FLEET" --fetch nf --results-dir "$RESULTS" --retries 0 --ssh-opts "$(netns_fleet_ssh_opts)"
  [ "$status" -eq 1 ]
  [[ "$output" == *"host $h2 ($h2) cannot be reached; its results stay there"* ]]
  # ssh options come from the command line only: without them --fetch says
  # what the run was made with, and tries no host.
  run --separate-stderr "$FLEET" --fetch nf --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [ "$stderr" == "fleet-run: run nf was made with --ssh-opts $(printf '%q' "$(netns_fleet_ssh_opts)"); ssh options are taken from the command line only: give them again with --ssh-opts (check them first) (see fleet-run --help)" ]
  # Back: --fetch brings them, the run is whole.
  netns_exec_mnt 2 umount /usr/bin/tar
  run "$FLEET" --fetch nf --results-dir "$RESULTS" --ssh-opts "$(netns_fleet_ssh_opts)"
  echo "$output"
  [ "$status" -eq 0 ]
  check_host_results nf "$h2" read4k,write4k 1
  [ "$(host_field nf "$h2" status)" == ok ]
  [ "$(host_field nf "$h2" failure)" == null ]
  [ "$(grep -c $'\tok\t' "$RESULTS/nf/summary.tsv")" -eq 4 ]
  [ -s "$RESULTS/nf/logs/$h2.log" ]
}

@test "Ctrl-C stops the hosts, fetches what they finished and writes the manifest and summary (exit 130)" {
  local out=$BATS_TEST_TMPDIR/out pid rc=0 i n h
  set -m
  fleet --run-id int --ops read4k,write4k --threads 1,2 --duration 3 >"$out" 2>&1 3>&- &
  pid=$!
  set +m
  # Some runs came back; the plan (4 x 3 s) is far from done.
  wait_fetched int
  kill -INT -- "-$pid"
  wait "$pid" || rc=$?
  cat "$out"
  [ "$rc" -eq 130 ]
  [ "$(jq -r .state "$RESULTS/int/manifest.json")" == interrupted ]
  [ "$(jq -r .ended "$RESULTS/int/manifest.json")" != null ]
  [ "$(tail -n +2 "$RESULTS/int/summary.tsv" | wc -l)" -eq 4 ]
  grep -q "run int interrupted: " "$out"
  # Every run a host finished is here, and the manifest counts it.
  for i in 1 2 3 4; do
    h=$(netns_addr "$i")
    n=$(find "$REMOTE/$h/$h/runs" -name '*.result' | wc -l)
    [ "$(find "$RESULTS/int/$h/runs" -name '*.result' | wc -l)" -eq "$n" ]
    [ "$(host_field int "$h" fetched)" -eq "$n" ]
    [ "$(host_field int "$h" failure.kind)" == interrupted ]
  done
  # Nothing of the plan runs on in the hosts: fleet-run stopped each job
  # before its last fetch (its sessions may take a moment to close).
  [ -z "$(netns_strays | grep -e iobench -e fleet-job)" ]
  local deadline=$((SECONDS + 60))
  while [[ -n "$(netns_strays)" ]] && ((SECONDS < deadline)); do sleep 0.5; done
  [ -z "$(netns_strays)" ]
}

@test "an existing run id is refused; --resume runs only what is missing; --force starts again" {
  head -n 2 "$NET/hosts" >"$NET/two"
  local out=$BATS_TEST_TMPDIR/out pid rc=0 h1
  h1=$(netns_addr 1)
  two() {
    env --default-signal=INT "$FLEET" --hosts "$NET/two" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
      --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" "$@"
  }
  set -m
  two --run-id re --file-size 32M --ops read4k,write4k --threads 1,2 --duration 2 --bucket 1 --seed 4 >"$out" 2>&1 3>&- &
  pid=$!
  set +m
  wait_fetched re
  kill -INT -- "-$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq 130 ]
  local before
  before=$(jq -r '.notes.planStep + " " + (.launchTime | tostring)' "$RESULTS/re/$h1/iobench.jsonl")
  [ -n "$before" ]
  # The same id again: refused, nothing touched.
  run two --run-id re --ops read4k
  [ "$status" -eq 1 ]
  [[ "$output" == *"run re exists in $RESULTS/re; --resume runs what is missing, --force starts it again, or pick another --run-id"* ]]
  # --resume takes the recorded plan; another plan is refused.
  run two --run-id re --resume --ops read4k
  [ "$status" -eq 2 ]
  run "$FLEET" --results-dir "$RESULTS" --run-id re --resume --ssh-opts "$(netns_fleet_ssh_opts)"
  echo "$output"
  [ "$status" -eq 0 ]
  check_host_results re "$h1" read4k,write4k 1,2
  check_host_results re "$(netns_addr 2)" read4k,write4k 1,2
  [ "$(jq -r .state "$RESULTS/re/manifest.json")" == complete ]
  # The runs that had come back were not run again.
  [ "$(jq -r '.notes.planStep + " " + (.launchTime | tostring)' "$RESULTS/re/$h1/iobench.jsonl" | head -n "$(wc -l <<<"$before")")" == "$before" ]
  [ "$(jq -r '.seed' "$RESULTS/re/$h1/iobench.jsonl" | paste -sd,)" == "$(jq -r '.notes.planStep | tonumber + 4' "$RESULTS/re/$h1/iobench.jsonl" | paste -sd,)" ]
  # --force: a new plan from nothing.
  run two --run-id re --force --file-size 32M --ops read4k --duration 1 --bucket 1
  [ "$status" -eq 0 ]
  check_host_results re "$h1" read4k 1
  [ "$(jq -c .plan.ops "$RESULTS/re/manifest.json")" == '["read4k"]' ]
}

@test "on a terminal the status line is kept up to date in place (runs done, hosts, last op and IOPS, ETA); -q silences it" {
  head -n 2 "$NET/hosts" >"$NET/two"
  local cmd
  printf -v cmd '%q ' "$FLEET" --hosts "$NET/two" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 \
    --ops read4k,write4k
  run script -qec "$cmd --run-id tty" /dev/null
  echo "$output"
  [ "$status" -eq 0 ]
  # The pre-flight's line in place too, ended when every host is checked.
  [[ "$output" == *$'\r'"fleet-run: pre-flight: 2 of 2 hosts checked, 0 under way"$'\e[K\r\n'* ]]

  # One line on the screen, rewritten (CR) at each result, then ended; a
  # host's change of state takes its place (cleared first) as a line of
  # its own, and the status line comes back below it.
  local -a shown
  mapfile -t shown < <(tr '\r' '\n' <<<"$output" | sed $'s/^\e\\[K//')
  printf '%s\n' "${shown[@]}" | grep -qE '^fleet-run: progress: [1-3]/4 runs done; hosts: [0-2] done, [0-2] running(, [12] fetching)?, 0 failed; last (read4k|write4k) 1 thread [0-9.]+[kM]? IOPS \([0-9.]+\), ETA [0-9]+ s'$'\e''\[K$'
  printf '%s\n' "${shown[@]}" | grep -qE '^fleet-run: progress: 4/4 runs done; hosts: 2 done, 0 running, 0 failed; last '
  [ "$(printf '%s\n' "${shown[@]}" | grep -c '^fleet-run: progress: ')" -ge 4 ]
  # Every status line is ended by a clear or a newline, never left half
  # under a host's line: each host line starts a screen line of its own.
  [ "$(printf '%s\n' "${shown[@]}" | grep -cE '^fleet-run: host [0-9.]+ running$')" -eq 2 ]
  [ "$(printf '%s\n' "${shown[@]}" | grep -cE '^fleet-run: host [0-9.]+ ok; 2 of 2 runs back$')" -eq 2 ]
  [[ "$output" != *"progress:"*"fleet-run: host"* ]] || [[ "$output" == *$'\e[K\r\e[Kfleet-run: host'* ]]
  # A terminal and -q: nothing but failures; the run's log still has the last line.
  run script -qec "$cmd --run-id quiet -q" /dev/null
  [ "$status" -eq 0 ]
  [[ "$output" != *"progress:"* && "$output" != *"pre-flight"* && "$output" != *"fleet-run: host"* ]]
  grep -q '^fleet-run: progress: 4/4 runs done' "$RESULTS/quiet/logs/fleet.log"
}

@test "off a terminal a status line comes every --progress seconds, on stderr and in fleet.log, counting up to all runs; -q: none" {
  head -n 2 "$NET/hosts" >"$NET/two"
  local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
  # 3 runs of 3 s per host: 9 s and more, so 4 lines at least at 2 s.
  fleet --hosts "$NET/two" --run-id prog --threads 1,2,3 --duration 3 --progress 2 >"$out" 2>"$err"
  cat "$err"
  [ ! -s "$out" ]
  [[ "$(cat "$err")" != *$'\r'* ]]
  local lines
  lines=$(grep '^fleet-run: progress: ' "$err")
  [ "$(wc -l <<<"$lines")" -ge 4 ]
  # Every line whole: runs done of 6, the hosts, the last result, an ETA while runs are left.
  [ "$(grep -cvE '^fleet-run: progress: [0-6]/6 runs done; hosts: [0-2] done, [0-2] running(, [12] fetching)?, 0 failed; last (none yet|read4k [1-3] threads? [0-9.]+[kM]? IOPS \([0-9.]+\))(, ETA [0-9]+ (s|min))?$' <<<"$lines")" -eq 0 ]
  # Counting up, to all 6, with no ETA at the end.
  [ "$(sed -E 's|^fleet-run: progress: ([0-9]+)/.*|\1|' <<<"$lines" | sort -n -c && echo sorted)" == sorted ]
  [[ "$(tail -n 1 <<<"$lines")" == "fleet-run: progress: 6/6 runs done; hosts: 2 done, 0 running, 0 failed; last read4k "*" IOPS ("*")" ]]
  [ "$(grep -c 'progress: 0/6' <<<"$lines")" -lt "$(wc -l <<<"$lines")" ]
  # The same lines in the run's log.
  [ "$(grep '^fleet-run: progress: ' "$RESULTS/prog/logs/fleet.log")" == "$lines" ]
  grep -q 'run prog complete: 2 of 2 hosts ok' "$err"

  # -q: no status line, nor any message but the run's end.
  fleet --hosts "$NET/two" --run-id progq --duration 3 --progress 1 -q >"$out" 2>"$err"
  cat "$err"
  [ "$(grep -c 'progress:' "$err")" -eq 0 ]
  [ "$(grep -c . "$err")" -eq 1 ]
  grep -q 'run progq complete: 2 of 2 hosts ok' "$err"
}

@test "--no-direct and --iobench ARG reach every run (jq 1.6 takes neither for its own option)" {
  run fleet --run-id nd --threads 1 --no-direct --iobench --note=extra=yes
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(jq -c .plan.iobenchArgs "$RESULTS/nd/manifest.json")" == '["--no-direct","--note=extra=yes"]' ]
  local i f
  for i in 1 2 3 4; do
    f=$RESULTS/nd/$(netns_addr "$i")/iobench.jsonl
    [ "$(wc -l <"$f")" -eq 1 ]
    [ "$(jq -r '[(.commandLine | tostring | contains("--no-direct")), .notes.extra] | @tsv' "$f")" == "$(printf 'true\tyes')" ]
  done
}

@test "a label or an --iobench argument with a newline is refused up front (exit 2); no host is touched" {
  run --separate-stderr fleet --run-id nl --label $'config=a\nb=c'
  [ "$status" -eq 2 ]
  [ "$stderr" == "fleet-run: --label \$'config=a\\nb=c': use K=V without control characters (newline, tab, ...) (see fleet-run --help)" ]
  run --separate-stderr fleet --run-id nl --iobench $'--note=a=1\n'
  [ "$status" -eq 2 ]
  [[ "$stderr" == "fleet-run: --iobench "*": no control characters"* ]]
  run --separate-stderr fleet --run-id nl --label nolabel
  [ "$status" -eq 2 ]
  [ ! -e "$RESULTS/nl" ]
  [ ! -e "$REMOTE" ]
}

@test "--remote-dir ~/DIR is DIR in the login's home, not a folder named ~" {
  head -n 1 "$NET/hosts" >"$NET/one"
  local h dir="iobench-test-home-$$-$RANDOM"
  h=$(head -n 1 "$NET/one")
  run "$FLEET" --hosts "$NET/one" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "~/$dir/{host}" --file-size 32M --duration 1 --bucket 1 --run-id home
  echo "$output"
  local home
  home=$(getent passwd root | cut -d: -f6)
  [ -d "$home/$dir/$h/$h/runs" ] && local made=1
  # A folder named ~ (the bug) would hold $dir: both go, whatever happened.
  local tilde=0
  [ ! -e "$home/~/$dir" ] || tilde=1
  rm -rf -- "${home:?}/$dir" "${home:?}/~/$dir"
  rmdir -- "$home/~" 2>/dev/null || true
  [ "$status" -eq 0 ]
  [ "${made:-0}" -eq 1 ]
  [ "$tilde" -eq 0 ]
  [ "$(wc -l <"$RESULTS/home/$h/iobench.jsonl")" -eq 1 ]
  run --separate-stderr fleet --run-id home2 --remote-dir '~root/x' --dry-run
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"only ~ or ~/DIR (the login's home) is expanded"* ]]
}

@test "a full results disk stops the run as failed with the reason, not as interrupted; the manifest says so" {
  mkdir -p "$RESULTS"
  mount -t tmpfs -o size=4m tmpfs "$RESULTS"
  local out=$BATS_TEST_TMPDIR/out pid rc=0
  fleet --run-id full --ops read4k,write4k --threads 1,2,3 --duration 2 >"$out" 2>&1 3>&- &
  pid=$!
  wait_fetched full
  # The disk fills up while the hosts run.
  dd if=/dev/zero of="$RESULTS/filler" bs=64k 2>/dev/null || true
  wait "$pid" || rc=$?
  cat "$out"
  local state reason
  state=$(jq -r .state "$RESULTS/full/manifest.json")
  reason=$(jq -r .failure.detail "$RESULTS/full/manifest.json")
  local summary=0
  [ -s "$RESULTS/full/summary.tsv" ] && summary=1
  umount "$RESULTS"
  [ "$rc" -eq 1 ]
  ! grep -q interrupted "$out"
  grep -q "run full failed here: no space left on the results disk" "$out"
  [ "$state" == failed ]
  [[ "$reason" == "no space left on the results disk ($RESULTS/full)"* ]]
  [ "$summary" -eq 1 ]
}

@test "a results disk with room for the log but not for a host's results: the run fails for the disk, not the hosts" {
  # The fetch's archive is what no longer fits (a log line still does). A fetch that could
  # not write here was once counted as its host's failure: a run that fetched before its
  # next log line ended "complete: 0 of 4 hosts ok", every host "not-fetched".
  mkdir -p "$RESULTS"
  mount -t tmpfs -o size=4m tmpfs "$RESULTS"
  local out=$BATS_TEST_TMPDIR/out pid rc=0 avail
  fleet --run-id tight --ops read4k,write4k --threads 1,2,3 --duration 2 >"$out" 2>&1 3>&- &
  pid=$!
  wait_fetched tight || { cat "$out"; false; }
  avail=$(df -Pk -- "$RESULTS" | awk 'NR == 2 {print $4}')
  dd if=/dev/zero of="$RESULTS/filler" bs=1k count=$((avail - 8)) 2>/dev/null || true
  wait "$pid" || rc=$?
  cat "$out"
  local state reason
  state=$(jq -r .state "$RESULTS/tight/manifest.json")
  reason=$(jq -r .failure.detail "$RESULTS/tight/manifest.json")
  umount "$RESULTS"
  [ "$rc" -eq 1 ]
  grep -q "run tight failed here: no space left on the results disk" "$out"
  ! grep -q "complete: 0 of 4 hosts ok" "$out"
  [ "$state" == failed ]
  [[ "$reason" == "no space left on the results disk ($RESULTS/tight)"* ]]
}
