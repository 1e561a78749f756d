#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,cloud,root,slow
# fleet-campaign.bats - scripts/campaign end to end: provisioning with the real aws
# CLI against moto on 127.0.0.1 (tests/lib/moto.bash), the fleet against real
# sshd's in network namespaces (tests/lib/netns.bash): moto's instances are
# not real hosts, so --hosts points the fleet at the namespaces.

bats_require_minimum_version 1.5.0
load lib/cloudfleet

CAMPAIGN=$BATS_TEST_DIRNAME/../scripts/campaign

setup() {
  suite_skip
  # Each host's "EBS volume" (100 GiB, ec2-provision's default size).
  cloudfleet_hosts_up 3 100G
}

teardown() {
  cloudfleet_hosts_down
}

# campaign ARGS...: against moto and the namespace hosts, short runs. With
# SIGINT as at a terminal even when the suite was started in the background
# of a script: there it is ignored from the start, and bash cannot trap it.
campaign() {
  env --default-signal=INT "$CAMPAIGN" --ami "$MOTO_AMI" --endpoint-url "$MOTO_ENDPOINT" \
    --hosts "$NET/hosts-vol" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 "$@"
}

# assert_nothing_left RUN: no instance of RUN runs, no volume of RUN exists.
assert_nothing_left() {
  [ "$(taws ec2 describe-instances --filters "Name=tag:iobench-run,Values=$1" \
      Name=instance-state-name,Values=pending,running,stopping,stopped,shutting-down |
      jq '[.Reservations[].Instances[]] | length')" -eq 0 ]
  [ "$(taws ec2 describe-volumes --filters "Name=tag:iobench-run,Values=$1" | jq '.Volumes | length')" -eq 0 ]
}

# host_ok RUN NAME N: host NAME's results hold N good runs, named and
# noted by the campaign (no bookkeeping label).
host_ok() {
  local f=$RESULTS/$1/$2/iobench.jsonl
  [ "$(wc -l <"$f")" -eq "$3" ]
  [ "$(jq -s --arg run "$1" --arg name "$2" '[.[] | select(.notes.runId == $run and .host == $name
      and .provision.raidLevel == "none" and (.labels | length) == 0
      and .operations[0].total.count > 0)] | length' "$f")" -eq "$3" ]
}

# instance_id RUN K: the id of the Kth instance (0-based) of RUN's state file.
instance_id() {
  jq -r --argjson k "$2" '.instances[$k].id' "$RESULTS/$1/state.json"
}

@test "campaign --help, and usage errors exit 2" {
  run "$CAMPAIGN" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: campaign --ami AMI [OPTIONS]"* ]]
  run "$CAMPAIGN" --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--ami AMI is required"* ]]
  run "$CAMPAIGN" --no-provision --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --raid 3 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --rounds 3 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--rounds '3': 1 or 2"* ]]
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --round2-duration 9 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [[ "$output" == *"--round2-duration needs --rounds 2"* ]]
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --rounds 2 --sizes 8M,16M --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [[ "$output" == *"drop --sizes"* ]]
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --progress 0 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [ "$output" == "campaign: --progress 0: whole seconds, at least 1 (see campaign --help)" ]
  # --steady's options, checked before anything is provisioned
  run "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --max-rounds 9 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [ "$output" == "campaign: --max-rounds needs --steady (see campaign --help)" ]
  run "$CAMPAIGN" --ami ami-1 --steady --steady-on p50 --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [ "$output" == "campaign: --steady-on p50: iops or lat (see campaign --help)" ]
  [ ! -e "$RESULTS" ]
}

@test "campaign --dry-run prints the aws, RAID and fleet commands and creates nothing" {
  run campaign --dry-run --run-id dry -n 2 -m 2 --raid 0 --raid-devices /dev/vdb,/dev/vdc \
    --ops read4k,write4k --threads 1,2 --steady --max-rounds 8 --precondition
  echo "$output"
  [ "$status" -eq 0 ]
  # the steady rounds and the preconditioning reach every host's job
  [[ "$output" == *'--iobench\ --steady\ --iobench\ --steady-round\ --iobench\ 1\ --iobench\ --max-rounds\ --iobench\ 8\ --precondition\ '* ]]
  [[ "$output" == *'--iobench\ preconditioned=true\ '* ]]
  [ "$(grep -c '^aws .*run-instances' <<<"$output")" -ge 1 ]
  [ "$(grep '^aws ' <<<"$output" | grep -vc -- "--endpoint-url $MOTO_ENDPOINT ")" -eq 0 ]
  # RAID 0 over both devices on each of the 3 hosts, and its target.
  [ "$(grep -c 'raid/raid-create --level 0 .* /dev/vdb /dev/vdc$' <<<"$output")" -eq 3 ]
  [[ "$output" == *"parallel --jobs 3 "* ]]
  [[ "$output" == *"bash\\ ./fleet-job\\ --session"* ]]
  [[ "$output" == *"--target\\ /mnt/iobench/data.bin"* ]]
  [[ "$output" == *"ec2-teardown --run-id dry"* ]]
  [ ! -e "$RESULTS/dry" ]
  [ ! -e "$REMOTE" ]
  assert_nothing_left dry
}

@test "campaign provisions on moto, runs the plan on every namespace host, collects, tears down" {
  run campaign --run-id e2e -n 2 -m 1 --ops read4k,write4k --threads 1,2 --seed 1
  echo "$output"
  [ "$status" -eq 0 ]
  local r=$RESULTS/e2e h k name
  # Provisioning was real (moto) and is gone again.
  [ "$(jq ".instances | length" "$r/state.json")" -eq 2 ]
  [ "$(jq -r .status "$r/state.json")" = torn-down ]
  [ "$(wc -l <"$r/hosts")" -eq 2 ]
  assert_nothing_left e2e
  # The fleet ran on the namespaces: hosts 1 and 2 stand for the two
  # instances (named by their ids, carrying their facts), host 3 for itself.
  [ "$(wc -l <"$r/fleet-hosts")" -eq 3 ]
  for k in 0 1 2; do
    h=$(netns_addr $((k + 1)))
    name=$h
    ((k == 2)) || name=$(instance_id e2e "$k")
    grep -qx "$h name=$name provision=provision/$name.json" "$r/fleet-hosts"
    host_ok e2e "$name" 4
  done
  # What EC2 provisioned travels with every run of an instance.
  name=$(instance_id e2e 0)
  [ "$(jq -c '.provision | {cloud, instanceId, instanceType, volumeType, volumeSize, volumeCount, raidLevel}' \
      "$r/$name/iobench.jsonl" | sort -u)" == \
    "{\"cloud\":\"ec2\",\"instanceId\":\"$name\",\"instanceType\":\"m5.large\",\"volumeType\":\"gp3\",\"volumeSize\":100,\"volumeCount\":1,\"raidLevel\":\"none\"}" ]
  [ "$(jq -r '.provision.az' "$r/$name/iobench.jsonl" | sort -u)" == "$(jq -r '.instances[0].az' "$r/state.json")" ]
  [ "$(jq -r '.provision | has("ebsOptimized") and has("ami") and has("region")' "$r/$name/iobench.jsonl" | sort -u)" == true ]
  # and the instance type's EBS limits (moto's m5.large: 3600 IOPS at baseline, 18750 at most)
  [ "$(jq -c '.provision | [.ebsBaselineIops, .ebsMaxIops]' "$r/$name/iobench.jsonl" | sort -u)" == '[3600,18750]' ]
  [ "$(jq -c '.provision // "none" | keys? // .' "$r/$(netns_addr 3)/iobench.jsonl" | sort -u)" == '["raidLevel"]' ]
  # Each instance's runs measured its volume: the device attached, of the
  # volume's size, formatted and mounted in the host's remote dir; never
  # the root disk. The campaign said which device it used and how it found it.
  for k in 0 1; do
    name=$(instance_id e2e "$k")
    [ "$(jq -c '.target | [.device, .deviceSize, .filesystem, .mountPoint, .rootDevice, .memory]' "$r/$name/iobench.jsonl" | sort -u)" == \
      "[\"${VOLUMES[k]#/dev/}\",107374182400,\"xfs\",\"$REMOTE/$name/volume\",false,false]" ]
    grep -qF "$name: volume $(jq -r --argjson k "$k" '.volumes[$k].serial' "$r/state.json") is ${VOLUMES[k]} (found by the hosts file); xfs on $REMOTE/$name/volume" "$r/campaign.log"
  done
  # ... and unmounted it at the end.
  run ! netns_exec_mnt 1 findmnt "$REMOTE/$(instance_id e2e 0)/volume"
  # The manifest: 3 hosts, all ok, the instances' facts beside them.
  [ "$(jq -r '[.hosts[] | select(.status == "ok")] | length' "$r/manifest.json")" -eq 3 ]
  [ "$(jq -r --arg n "$name" '.hosts[] | select(.name == $n) | .provision.instanceId' "$r/manifest.json")" == "$name" ]
  [ "$(grep -c $'\tok\t' "$r/summary.tsv")" -eq 3 ]
  [ "$(tail -n +2 "$r/joblog" | wc -l)" -eq 3 ]
  grep -q 'provisioning run e2e' "$r/campaign.log"
  grep -q 'tearing down run e2e' "$r/campaign.log"
}

@test "off a terminal the campaign names each phase with the time since it began, passes fleet-run's status lines on, keeps the hosts' keys" {
  local out=$BATS_TEST_TMPDIR/out r=$RESULTS/nohup
  # As under nohup: no terminal anywhere. No ssh option about host keys.
  campaign --run-id nohup -n 1 -m 1 --threads 1,2 --duration 2 --progress 1 </dev/null >"$out" 2>&1
  cat "$out"
  local at='\[[0-9]+:[0-9]{2}\]'
  grep -qE "^campaign: \[0:[0-9]{2}\] provisioning run nohup$" "$out"
  grep -qE "^campaign: $at preparing the hosts: each instance's volume for the benchmark$" "$out"
  grep -qE "^campaign: $at fleet run on 3 host\(s\), layout single$" "$out"
  grep -qE "^campaign: $at tearing down run nohup$" "$out"
  grep -qE "^campaign: $at run nohup done; results in " "$out"
  # The times count up; campaign.log has the phases too.
  grep -oE "^campaign: $at" "$out" | tr -d '[]' | awk -F'[ :]' '{print $3 * 60 + $4}' | sort -n -c
  [ "$(grep -cE "^[0-9TZ:-]+ $at " "$r/campaign.log")" -ge 5 ]
  # fleet-run's status lines, the last at all 6 runs (3 hosts, 2 each).
  grep -qE '^fleet-run: progress: [0-9]/6 runs done; ' "$out"
  [ "$(grep -E '^fleet-run: progress: ' "$out" | tail -n 1 | cut -d';' -f1-2)" == "fleet-run: progress: 6/6 runs done; hosts: 3 done, 0 running, 0 failed" ]
  # A line for each host's change of state: 3 running, 3 ok.
  [ "$(grep -cE '^fleet-run: host [^ ]+ running$' "$out")" -eq 3 ]
  [ "$(grep -cE '^fleet-run: host [^ ]+ ok; 2 of 2 runs back$' "$out")" -eq 3 ]
  # One known_hosts for the campaign's ssh and fleet-run's: a line per host.
  [ "$(wc -l <"$r/known_hosts")" -eq 3 ]
  [ "$(stat -c %a "$r/known_hosts")" == 600 ]
  assert_nothing_left nohup
}

@test "campaign --rounds 2: round one on every host, then each op at the thread count the report finds optimal, longer" {
  run campaign --run-id two -n 3 -m 1 --ops read4k,write4k --threads 1,2,4 --seed 4 --rounds 2 --round2-duration 2
  echo "$output"
  [ "$status" -eq 0 ]
  local r=$RESULTS/two name op sig want got
  assert_nothing_left two
  [ "$(jq -r .status "$r/state.json")" = torn-down ]
  # Round one: the plan on the 3 instances' hosts, 6 runs each.
  [ "$(jq -r '[.state, ([.hosts[] | select(.status == "ok")] | length), .plan.runsPerHost] | @tsv' "$r/round1/manifest.json")" == \
    "$(printf 'complete\t3\t6')" ]
  # The optimum, asked here of the report itself, per op signature.
  local report
  report=$("$IOBENCH" report --json -q --section threads "$r/round1/")
  [ "$(jq '[.threads[] | select(.optimal)] | length' <<<"$report")" -eq 2 ]
  [ "$(jq -r '[.threads[].config] | unique | length' <<<"$report")" -eq 1 ]
  [ "$(jq -r '.plan | [(.ops | join(",")), .duration, .opThreads[.ops[0]], .opThreads[.ops[1]]] | @tsv' "$r/round2/manifest.json" |
      cut -f1,2)" == "$(printf 'read4k,write4k\t2')" ]
  for name in $(jq -r '.instances[].id' "$r/state.json"); do
    [ "$(wc -l <"$r/round2/$name/iobench.jsonl")" -eq 2 ]
    for op in read4k write4k; do
      sig=read,4K,4K
      [[ $op == read4k ]] || sig=writeFlush,4K,4K
      want=$(jq -r --arg s "$sig" '.threads[] | select(.signature == $s and .optimal) | .threads' <<<"$report")
      got=$(jq -r --arg op "$op" 'select(.operations[0].name == $op)
        | [.operations[0].threadCount, .runtime, .notes.runId, .host] | @tsv' "$r/round2/$name/iobench.jsonl")
      [ "$got" == "$(printf '%s\t2\tround2\t%s' "$want" "$name")" ]
      grep -qP "^$op\t$want\t" "$r/round2-threads.tsv"
    done
  done
  # Round two ran on round one's data file, on the volume, not a new one.
  grep -q 'round two on 3 host(s): --ops read4k,write4k --op-threads read4k=' "$r/campaign.log"
  local k=0
  for name in $(jq -r '.instances[].id' "$r/state.json"); do
    [ "$(cat "$r"/round[12]/"$name"/iobench.jsonl | jq -c '.target | [.path, .device, .mountPoint]' | sort -u)" == \
      "[\"../volume/data.bin\",\"${VOLUMES[k]#/dev/}\",\"$REMOTE/$name/volume\"]" ]
    k=$((k + 1))
  done
  [ "$(find "$REMOTE" -name data.bin | wc -l)" -eq 0 ]
}

@test "several volumes per instance and no --raid or --target: refused before anything is provisioned (exit 2)" {
  run campaign --run-id multi -n 1 -m 2
  echo "$output"
  [ "$status" -eq 2 ]
  [[ "$output" == *"2 volumes per instance and no --raid or --target"*"--raid LEVEL"*"--target PATH"* ]]
  [ ! -e "$RESULTS/multi" ]
  assert_nothing_left multi
  run campaign --run-id raw -n 1 -m 1 --raw-device --raid 0
  [ "$status" -eq 2 ]
  [[ "$output" == *"--raw-device benchmarks the one volume"* ]]
}

@test "campaign --raw-device benchmarks the volume's block device itself" {
  run campaign --run-id raw -n 3 -m 1 --raw-device --ops read4k --threads 1 --seed 3
  echo "$output"
  [ "$status" -eq 0 ]
  local name
  name=$(instance_id raw 0)
  [ "$(jq -c '.target | [.type, .device, .size, .rootDevice]' "$RESULTS/raw/$name/iobench.jsonl")" == \
    "[\"block\",\"${VOLUMES[0]#/dev/}\",107374182400,false]" ]
  [[ "$output" == *"$name: volume "*" is ${VOLUMES[0]} (found by the hosts file); benchmarked raw"* ]]
}

@test "a host that is down fails the campaign (exit 1), is named, and teardown still happens" {
  netns_kill_host 2
  run campaign --run-id down -n 1 -m 1 --retries 0 --ssh-user root
  echo "$output"
  [ "$status" -eq 1 ]
  # --ssh-user: the logins used are recorded; host 1 is the instance.
  local id
  id=$(instance_id down 0)
  [ "$(cut -d' ' -f1 "$RESULTS/down/fleet-hosts")" == "$(sed 's/^/root@/' "$NET/hosts")" ]
  [[ "$output" == *"host $(netns_addr 2) FAILED: unreachable"* ]]
  host_ok down "$id" 1
  host_ok down "$(netns_addr 3)" 1
  [ "$(jq -r '.state' "$RESULTS/down/manifest.json")" = complete ]
  [ "$(jq -r '.status' "$RESULTS/down/state.json")" = torn-down ]
  assert_nothing_left down
}

@test "a failed provisioning stops the campaign before any host is touched (exit 1)" {
  run campaign --run-id badsnap -n 1 -m 1 --provision-arg --snapshot --provision-arg snap-0000dead
  echo "$output"
  [ "$status" -eq 1 ]
  [[ "$output" == *"provisioning failed"* ]]
  [ ! -e "$RESULTS/badsnap/summary.tsv" ]
  [ ! -e "$REMOTE" ]
  assert_nothing_left badsnap
}

@test "Ctrl-C during the fleet run tears everything down, exit 130" {
  local out=$BATS_TEST_TMPDIR/out dir=$RESULTS/sigint pid rc=0 deadline
  # The plan (3 runs of 60 s) outlasts any delay in noticing that it started,
  # however loaded the machine: the Ctrl-C lands while the fleet runs, and
  # ends the plan early. Own process group (set -m), like a terminal's job.
  set -m
  campaign --run-id sigint -n 1 -m 1 --threads 1,2,3 --duration 60 >"$out" 2>&1 3>&- &
  pid=$!
  set +m
  # A host runs its plan: provisioned (state.json written), fleet-run busy.
  deadline=$((SECONDS + 600))
  until grep -qs 'run 1:' "$REMOTE"/*/logs/*.log; do
    kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)) || break
    sleep 0.2
  done
  if ! grep -qs 'run 1:' "$REMOTE"/*/logs/*.log; then
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" || true
    cat "$out"
    echo "no host started its plan" >&2
    return 1
  fi
  kill -INT -- "-$pid"
  # The teardown takes seconds; a hang fails the test instead of stalling it.
  deadline=$((SECONDS + 600))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "campaign still runs 600 s after the Ctrl-C" >&2
    kill -KILL -- "-$pid"
  fi
  wait "$pid" || rc=$?
  cat "$out"
  [ "$rc" -eq 130 ]
  # It was the fleet run that was cut short: recorded as interrupted, what
  # the host finished fetched before the teardown, the campaign not done.
  [ "$(jq -r .state "$dir/manifest.json")" == interrupted ]
  [ "$(tail -n +2 "$dir/summary.tsv" | wc -l)" -eq 3 ]
  local id
  id=$(instance_id sigint 0)
  [ "$(find "$dir/$id/runs" -name '*.result' | wc -l)" -eq "$(find "$REMOTE/$id/$id/runs" -name '*.result' | wc -l)" ]
  grep -q 'provisioning run sigint' "$dir/campaign.log"
  run ! grep -q 'run sigint done' "$dir/campaign.log"
  grep -q 'tearing down run sigint' "$out"
  [ "$(jq -r .status "$dir/state.json")" = torn-down ]
  assert_nothing_left sigint
  # Nothing of the plan runs on in the hosts: fleet-job --session stops a
  # host's job once its ssh session is gone (within seconds).
  deadline=$((SECONDS + 120))
  while [[ -n "$(netns_strays)" ]] && ((SECONDS < deadline)); do sleep 0.5; done
  netns_strays
  [ -z "$(netns_strays)" ]
}

@test "campaign --no-direct: provisioned, every run without O_DIRECT, torn down (jq 1.6 takes no --no-direct)" {
  run campaign --run-id nodirect -n 1 -m 1 --threads 1 --no-direct
  echo "$output"
  [ "$status" -eq 0 ]
  local r=$RESULTS/nodirect name
  assert_nothing_left nodirect
  [ "$(jq -c .plan.iobenchArgs "$r/manifest.json")" == '["--no-direct"]' ]
  [ "$(grep -c $'\tok\t' "$r/summary.tsv")" -eq 3 ]
  for name in $(jq -r '.hosts[].name' "$r/manifest.json"); do
    [ "$(jq -r '.commandLine | tostring | contains("--no-direct")' "$r/$name/iobench.jsonl")" == true ]
  done
}

@test "a fleet run that fails before writing its summary is named as such, not by a summary.tsv that does not exist" {
  run --separate-stderr "$CAMPAIGN" --no-provision --hosts "$NET/hosts" --results-dir "$RESULTS" --run-id nosum \
    --threads 4..2
  [ "$status" -eq 1 ]
  [ ! -e "$RESULTS/nosum/summary.tsv" ]
  [[ "$stderr" == *"campaign: fleet run failed (exit 2); see the messages above (no summary.tsv was written)"* ]]
  [[ "$stderr" != *"summary.tsv"*"summary.tsv"* ]]
}
