#!/usr/bin/env bats
# fleet.bats - scripts/fleet-run against real sshd's, one per network
# namespace on a private /24 (tests/lib/netns.bash), driven by GNU parallel.

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run

setup() {
  local why
  why=$(netns_can_run) || skip "$why"
  netns_fleet_setup 4
}

teardown() {
  netns_fleet_teardown
}

# fleet ARGS...: fleet-run against the test hosts, short runs, small files.
fleet() {
  "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 "$@"
}

# check_host_results RUN HOST OPS THREADS: HOST's JSONL holds one line per
# (op, thread count), each with the right signature, thread count, labels
# and a non-zero operation count.
check_host_results() {
  local run=$1 host=$2 ops=$3 threads=$4 f
  f=$RESULTS/$run/$host/iobench.jsonl
  [ -f "$f" ]
  local want=$(( $(tr , '\n' <<<"$ops" | wc -l) * $(tr , '\n' <<<"$threads" | wc -l) ))
  [ "$(wc -l <"$f")" -eq "$want" ]
  # Every line is one run of one op, labelled with the run and the host.
  [ "$(jq -s --arg run "$run" --arg host "$host" \
      '[.[] | select(.labels.run == $run and .labels.fleetHost == $host
                     and (.operations | length) == 1
                     and .operations[0].total.count > 0
                     and .operations[0].total.errorCount == 0
                     and .fileSize == 33554432)] | length' "$f")" -eq "$want" ]
  # Each (op, thread count) exactly once.
  local op t sig
  for op in ${ops//,/ }; do
    case $op in
      read4k) sig=read,4K,4K ;;
      write4k) sig=writeFlush,4K,4K ;;
      write4k/64) sig=write64,4K,4K ;;
    esac
    for t in ${threads//,/ }; do
      [ "$(jq -s --arg sig "$sig" --argjson t "$t" \
          '[.[] | .operations[0] | select(.signature == $sig and .threadCount == $t and .name == "'"$op"'")] | length' "$f")" -eq 1 ]
    done
  done
}

@test "fleet-run --help prints the usage and exits 0" {
  run "$FLEET" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: fleet-run --hosts FILE"* ]]
  [[ "$output" == *"--sshloginfile"* || "$output" == *"GNU parallel"* ]]
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
}

@test "fleet-run --dry-run prints the parallel command and touches no host" {
  run fleet --run-id dry --ops read4k,write4k --threads 1,2 --seed 5 --dry-run
  [ "$status" -eq 0 ]
  [[ "$output" == *"parallel --hostgroups --sshloginfile"* ]]
  [[ "$output" == *"--joblog"* && "$output" == *"--timeout"* && "$output" == *"--return"* ]]
  # One plan of 4 runs per host, named in the output.
  [ "$(grep -c "^# ${NETNS_SUBNET//./\\.}\\.1[1-4] plan: " <<<"$output")" -eq 4 ]
  [ ! -e "$RESULTS/dry" ]
  [ ! -e "$REMOTE" ]
}

@test "fleet-run runs the whole plan on 4 hosts and fetches every host's JSON lines" {
  run fleet --run-id all4 --ops read4k,write4k --threads 1,2 --seed 11
  echo "$output"
  [ "$status" -eq 0 ]
  local i host
  for i in 1 2 3 4; do
    host=$(netns_addr "$i")
    check_host_results all4 "$host" read4k,write4k 1,2
    # The data file was made once, in the host's own directory.
    [ "$(stat -c %s "$REMOTE/$host/data.bin")" -eq 33554432 ]
    [ -s "$RESULTS/all4/logs/$host.log" ]
  done
  # joblog: one line per host plus the header, all exit 0.
  [ "$(tail -n +2 "$RESULTS/all4/joblog" | wc -l)" -eq 4 ]
  [ "$(tail -n +2 "$RESULTS/all4/joblog" | awk -F'\t' '$7 != 0' | wc -l)" -eq 0 ]
  [ "$(grep -c $'\tok\t' "$RESULTS/all4/summary.tsv")" -eq 4 ]
  [[ "$output" == *"4 of 4 hosts ok"* ]]
}

@test "fleet-run shuffles the plan per host, reproducibly from --seed" {
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
  [ "$(tail -n +2 "$RESULTS/second/joblog" | wc -l)" -eq 4 ]
  local end12 start3
  end12=$(awk -F'\t' 'NR > 1 && ($2 ~ /\.11$/ || $2 ~ /\.12$/) {e = $3 + $4; if (e > m) m = e} END {printf "%.3f", m}' "$RESULTS/second/joblog")
  start3=$(awk -F'\t' 'NR > 1 && $2 ~ /\.13$/ {print $3}' "$RESULTS/second/joblog")
  awk -v a="$end12" -v b="$start3" 'BEGIN {exit !(b >= a)}'
}

@test "a host listed twice is a usage error" {
  local first
  first=$(head -n 1 "$NET/hosts")
  echo "$first" >>"$NET/hosts"
  run fleet --run-id twice
  [ "$status" -eq 2 ]
  [[ "$output" == *"appears twice"* ]]
}

@test "a host that dies mid-run is retried, named as failed, and the others complete" {
  local dead
  dead=$(netns_addr 2)
  # Long enough that host 2 is surely mid-plan when it dies.
  fleet --run-id die --ops read4k,write4k --threads 1,2 --duration 2 --retries 1 \
    >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  local pid=$! i
  for ((i = 0; i < 300; i++)); do
    grep -q 'run 1:' "$REMOTE/$dead/logs/$dead.log" 2>/dev/null && break
    sleep 0.1
  done
  grep -q 'run 1:' "$REMOTE/$dead/logs/$dead.log"
  netns_kill_host 2
  local rc=0
  wait "$pid" || rc=$?
  cat "$BATS_TEST_TMPDIR/out"
  [ "$rc" -eq 1 ]
  grep -q "host $dead FAILED" "$BATS_TEST_TMPDIR/out"
  grep -q "3 of 4 hosts ok, 1 failed" "$BATS_TEST_TMPDIR/out"
  [ "$(awk -F'\t' -v h="$dead" '$1 == h {print $2, $4}' "$RESULTS/die/summary.tsv")" == "failed 2" ]
  for i in 1 3 4; do
    check_host_results die "$(netns_addr "$i")" read4k,write4k 1,2
  done
  # The joblog shows the dead host's first attempt and its retry, both failed.
  [ "$(tail -n +2 "$RESULTS/die/joblog" | awk -F'\t' -v h="$dead" '$2 ~ h && $7 != 0' | wc -l)" -eq 2 ]
}

@test "an unreachable host fails after its retries while the others succeed" {
  netns_kill_host 3
  run fleet --run-id down --retries 2
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"host $(netns_addr 3) FAILED: exit 255 (ssh: unreachable or connection lost) after 3 attempt(s)"* ]]
  [ "$(grep -c $'\tok\t' "$RESULTS/down/summary.tsv")" -eq 3 ]
  check_host_results down "$(netns_addr 1)" read4k 1
}

@test "a host that exceeds --timeout is stopped and named" {
  # 1 host is enough: the plan takes 2 x 4 s, the limit is 3 s.
  head -n 1 "$NET/hosts" >"$NET/one"
  run "$FLEET" --hosts "$NET/one" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --run-id slow --threads 1,2 --duration 4 --bucket 1 --timeout 3 --retries 0
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"host $(netns_addr 1) FAILED"* ]]
  [ "$(awk -F'\t' 'NR > 1 {print $2}' "$RESULTS/slow/summary.tsv")" == failed ]
}
