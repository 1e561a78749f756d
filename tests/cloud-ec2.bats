#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=cloud
# cloud-ec2.bats - scripts/ec2-provision and scripts/ec2-teardown with the real
# aws CLI against moto's EC2 server on 127.0.0.1 (tests/lib/moto.bash).

bats_require_minimum_version 1.5.0
load lib/moto

PROVISION=$BATS_TEST_DIRNAME/../scripts/ec2-provision
TEARDOWN=$BATS_TEST_DIRNAME/../scripts/ec2-teardown

setup_file() {
  moto_suite_up || return 1
  export RESULTS=$BATS_FILE_TMPDIR/results
}

teardown_file() {
  moto_stop
}

setup() {
  suite_skip
}

# provision ARGS...: ec2-provision into the suite's results dir.
provision() {
  "$PROVISION" --results-dir "$RESULTS" --ami "$MOTO_AMI" "$@"
}

teardown_run() {
  "$TEARDOWN" --results-dir "$RESULTS" "$@"
}

# live_instances RUN: instances tagged with RUN that are not terminated.
live_instances() {
  taws ec2 describe-instances --filters "Name=tag:iobench-run,Values=$1" \
    Name=instance-state-name,Values=pending,running,stopping,stopped,shutting-down |
    jq '[.Reservations[].Instances[]] | length'
}

# tagged_volumes RUN: volumes tagged with RUN that still exist.
tagged_volumes() {
  taws ec2 describe-volumes --filters "Name=tag:iobench-run,Values=$1" | jq '.Volumes | length'
}

# assert_nothing_left RUN: no instance of RUN runs, no volume of RUN exists
# (by tag, and by the ids in its state file if there is one).
assert_nothing_left() {
  [ "$(live_instances "$1")" -eq 0 ]
  [ "$(tagged_volumes "$1")" -eq 0 ]
  local state=$RESULTS/$1/state.json ids
  if [[ -f "$state" ]]; then
    ids=$(jq -r '[.volumes[].id] | join(",")' "$state")
    if [[ -n "$ids" ]]; then
      [ "$(taws ec2 describe-volumes --filters "Name=volume-id,Values=$ids" | jq '.Volumes | length')" -eq 0 ]
    fi
    ids=$(jq -r '[.instances[].id] | join(",")' "$state")
    if [[ -n "$ids" ]]; then
      [ "$(taws ec2 describe-instances --filters "Name=instance-id,Values=$ids" |
        jq '[.Reservations[].Instances[] | select(.State.Name != "terminated")] | length')" -eq 0 ]
    fi
  fi
}

# wait_for_state RUN JQ-TEST PID: poll RUN's state file until JQ-TEST holds;
# fail if the provisioning process PID ends first.
wait_for_state() {
  local state=$RESULTS/$1/state.json i
  for ((i = 0; i < 1200; i++)); do
    if [[ -f "$state" ]] && jq -e "$2" "$state" >/dev/null 2>&1; then
      return 0
    fi
    kill -0 "$3" 2>/dev/null || { echo "provisioning ended before: $2" >&2; return 1; }
    sleep 0.05
  done
  echo "timed out waiting for: $2" >&2
  return 1
}

@test "every aws call goes to moto on 127.0.0.1, in the tests and in the scripts' commands" {
  moto_assert_local
  run "$PROVISION" --dry-run --results-dir "$RESULTS" --ami "$MOTO_AMI" -n 2 -m 2 --run-id ep
  [ "$status" -eq 0 ]
  local cmds
  cmds=$(grep '^aws ' <<<"$output")
  [ "$(wc -l <<<"$cmds")" -ge 8 ]
  [ "$(grep -vc -- "--endpoint-url $MOTO_ENDPOINT " <<<"$cmds")" -eq 0 ]
  # Also when the endpoint comes only from the option (Debian's aws ignores the env).
  run env -u AWS_ENDPOINT_URL "$PROVISION" --dry-run --results-dir "$RESULTS" --ami "$MOTO_AMI" \
    --endpoint-url "$MOTO_ENDPOINT" --run-id ep
  [ "$status" -eq 0 ]
  grep -q '^aws ' <<<"$output"
  [ "$(grep '^aws ' <<<"$output" | grep -vc -- "--endpoint-url $MOTO_ENDPOINT ")" -eq 0 ]
}

@test "provision launches 3 instances with 4 volumes each, all tagged, in use and recorded" {
  run --separate-stderr provision --run-id big -n 3 -m 4 --volume-type gp3 --volume-size 50
  [ "$status" -eq 0 ]
  [ "$output" = big ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ "$stderr" == *"estimated cost: \$"*"/hour"* ]]
  local state=$RESULTS/big/state.json
  # Instances: 3 running, tagged with the run id and a Name.
  local inst
  inst=$(taws ec2 describe-instances --filters Name=tag:iobench-run,Values=big | jq '[.Reservations[].Instances[]]')
  [ "$(jq length <<<"$inst")" -eq 3 ]
  [ "$(jq '[.[] | select(.State.Name == "running")] | length' <<<"$inst")" -eq 3 ]
  [ "$(jq '[.[].Tags | from_entries | .Name | select(startswith("iobench-big-"))] | length' <<<"$inst")" -eq 3 ]
  # Data volumes: 12, each in use, attached where the state file says, as the device it says.
  local vols
  vols=$(taws ec2 describe-volumes --filters Name=tag:iobench-run,Values=big | jq '[.Volumes[]
    | select(.Tags | from_entries | .Name | test("-sd[f-u]$"))]')
  [ "$(jq length <<<"$vols")" -eq 12 ]
  [ "$(jq '[.[] | select(.State == "in-use" and .Size == 50 and .VolumeType == "gp3")] | length' <<<"$vols")" -eq 12 ]
  [ "$(jq -r '[.[] | "\(.VolumeId) \(.Attachments[0].InstanceId) \(.Attachments[0].Device)"] | sort | join(";")' <<<"$vols")" = \
    "$(jq -r '[.volumes[] | "\(.id) \(.instance) \(.device)"] | sort | join(";")' "$state")" ]
  # 4 per instance, on /dev/sdf..sdi.
  [ "$(jq '[group_by(.Attachments[0].InstanceId)[] | length] | unique' -c <<<"$vols")" = "[4]" ]
  # The state file agrees, and records gp3's baseline (no --volume-iops or
  # --volume-throughput given): what EC2 provisions, the cap the report uses.
  [ "$(jq -c '[.volumes[] | [.iops, .throughput]] | unique' "$state")" = '[[3000,125]]' ]
  [ "$(jq -r .status "$state")" = ready ]
  [ "$(jq -r .runId "$state")" = big ]
  [ "$(jq -r .endpoint "$state")" = "$MOTO_ENDPOINT" ]
  [ "$(jq -r .region "$state")" = us-east-1 ]
  [ "$(jq '.instances | length' "$state")" -eq 3 ]
  [ "$(jq -r '[.instances[].id] | sort | join(" ")' "$state")" = "$(jq -r '[.[].InstanceId] | sort | join(" ")' <<<"$inst")" ]
  [ "$(jq -c '[.instances[].devices] | unique' "$state")" = '[["/dev/sdf","/dev/sdg","/dev/sdh","/dev/sdi"]]' ]
  [ "$(jq '[.volumes[] | select(.state == "in-use")] | length' "$state")" -eq 12 ]
  [ "$(jq -r '.request.volume.type' "$state")" = gp3 ]
  jq -e '.estimatedHourlyUsd > 0' "$state"
  # The instance type's EBS limits as describe-instance-types gives them (the
  # report's cap is the smaller of the volumes' and the instance's).
  local itype lim
  itype=$(jq -r .request.instanceType "$state")
  lim=$(taws ec2 describe-instance-types --instance-types "$itype" | jq -c '.InstanceTypes[0].EbsInfo.EbsOptimizedInfo
    | {ebsBaselineIops: .BaselineIops, ebsMaxIops: .MaximumIops, ebsBaselineMBps: .BaselineThroughputInMBps,
       ebsMaxMBps: .MaximumThroughputInMBps}')
  [ "$(jq -c .ebsLimits "$state")" = "$lim" ]
  jq -e '.ebsLimits.ebsBaselineIops > 0 and .ebsLimits.ebsMaxMBps > 0' "$state"
  # hosts: one address per instance, the public IPs moto gave.
  [ "$(wc -l <"$RESULTS/big/hosts")" -eq 3 ]
  [ "$(sort "$RESULTS/big/hosts" | tr '\n' ' ')" = "$(jq -r '[.[].PublicIpAddress] | sort | join(" ")' <<<"$inst") " ]
}

@test "teardown terminates the instances and deletes every volume of the run" {
  [ -f "$RESULTS/big/state.json" ] # made by the previous test
  [ "$(live_instances big)" -eq 3 ]
  # --dry-run prints what it would do and changes nothing.
  run --separate-stderr teardown_run --run-id big --dry-run
  [ "$status" -eq 0 ]
  [ "$(grep -c "^aws .*--endpoint-url $MOTO_ENDPOINT .* ec2 terminate-instances --instance-ids i-" <<<"$output")" -eq 1 ]
  [ "$(grep -o ' i-[0-9a-f]*' <<<"$(grep ' terminate-instances ' <<<"$output")" | wc -l)" -eq 3 ]
  [ "$(grep -c ' ec2 delete-volume --volume-id vol-' <<<"$output")" -eq 12 ]
  [ "$(live_instances big)" -eq 3 ]
  [ "$(tagged_volumes big)" -eq 15 ] # 12 data + 3 root volumes
  run teardown_run --run-id big
  [ "$status" -eq 0 ]
  assert_nothing_left big
  [ "$(taws ec2 describe-instances --filters Name=tag:iobench-run,Values=big |
    jq '[.Reservations[].Instances[] | select(.State.Name == "terminated")] | length')" -eq 3 ]
  [ "$(jq -r .status "$RESULTS/big/state.json")" = torn-down ]
  [ "$(jq -c '[.volumes[].state] | unique' "$RESULTS/big/state.json")" = '["deleted"]' ]
}

@test "a second teardown is a clean no-op" {
  [ "$(jq -r .status "$RESULTS/big/state.json")" = torn-down ] # from the previous test
  run --separate-stderr teardown_run --run-id big --dry-run
  [ "$status" -eq 0 ]
  [ -z "$output" ] # not one command left to run
  run teardown_run --run-id big
  [ "$status" -eq 0 ]
  [[ "$output" == *"nothing to tear down"* ]]
  assert_nothing_left big
}

@test "teardown by tag alone finds a run whose state file is gone" {
  run provision --run-id lost -n 1 -m 1
  [ "$status" -eq 0 ]
  rm -r "$RESULTS/lost"
  [ "$(live_instances lost)" -eq 1 ]
  run teardown_run --run-id lost
  [ "$status" -eq 0 ]
  assert_nothing_left lost
}

@test "a launch that fails at the second instance tears down the first, exit 1" {
  local subnet
  subnet=$(taws ec2 describe-subnets | jq -r '.Subnets[0].SubnetId')
  run provision --run-id badsub -n 3 -m 1 --subnet "$subnet,subnet-0000dead,$subnet"
  [ "$status" -eq 1 ]
  [[ "$output" == *"InvalidSubnetID.NotFound"* ]]
  [[ "$output" == *"launching instance 2 of 3 failed"* ]]
  # The first instance had been created and recorded, and is gone now.
  [ "$(jq '.instances | length' "$RESULTS/badsub/state.json")" -eq 1 ]
  [ "$(jq -r .failedAt "$RESULTS/badsub/state.json")" != null ]
  assert_nothing_left badsub
}

@test "a volume step that fails after all instances run tears everything down, exit 1" {
  run provision --run-id badsnap -n 2 -m 2 --snapshot snap-0000dead
  [ "$status" -eq 1 ]
  [[ "$output" == *"InvalidSnapshot.NotFound"* ]]
  [ "$(jq '.instances | length' "$RESULTS/badsnap/state.json")" -eq 2 ]
  assert_nothing_left badsnap
  [ "$(jq -r .status "$RESULTS/badsnap/state.json")" = torn-down ]
}

@test "Ctrl-C while volumes are being created tears everything down, exit 130" {
  local pid
  # Job control: the background job gets its own process group, as a
  # foreground job of a terminal has; Ctrl-C signals that whole group.
  # SIGINT is reset to default first: when these tests run in the background
  # it is ignored, and bash cannot trap a signal ignored at its start.
  set -m
  python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$PROVISION" --results-dir "$RESULTS" --ami "$MOTO_AMI" \
    --run-id sigint -n 1 -m 8 >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  pid=$!
  set +m
  wait_for_state sigint '.volumes | length >= 2' "$pid"
  # The script catches SIGINT (its trap), so Ctrl-C reaches it.
  (($(awk '/^SigCgt:/ { print "0x" $2 }' "/proc/$pid/status") & 2))
  kill -INT -- "-$pid"
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 130 ] || { cat "$BATS_TEST_TMPDIR/out"; echo "rc=$rc"; false; }
  cat "$BATS_TEST_TMPDIR/out"
  # One line says what happens, and it is the last: no Python traceback of
  # the aws CLI the Ctrl-C cut short, no teardown chatter.
  [ "$(tail -n 1 "$BATS_TEST_TMPDIR/out")" == "ec2-provision: interrupted; tearing down what run sigint created so far" ]
  run ! grep -q -e Traceback -e KeyboardInterrupt -e '^  File ' "$BATS_TEST_TMPDIR/out"
  assert_nothing_left sigint
  [ "$(jq -r .status "$RESULTS/sigint/state.json")" = torn-down ]
}

@test "EC2 waits say how many are there yet on a terminal (2 of 2 instances running), nothing in a pipe" {
  local cmd
  printf -v cmd '%q ' "$PROVISION" --results-dir "$RESULTS" --ami "$MOTO_AMI" --run-id waits -n 2 -m 2
  run script -qec "$cmd" /dev/null
  [ "$status" -eq 0 ]
  local out=${output//$'\r'/}
  grep -qx 'ec2-provision: 2 of 2 instances running' <<<"$out"
  grep -qx 'ec2-provision: 4 of 4 volumes available' <<<"$out"
  grep -qx 'ec2-provision: 4 of 4 volumes in use' <<<"$out"
  printf -v cmd '%q ' "$TEARDOWN" --results-dir "$RESULTS" --run-id waits
  run script -qec "$cmd" /dev/null
  [ "$status" -eq 0 ]
  out=${output//$'\r'/}
  grep -qx 'ec2-teardown: 2 of 2 instances terminated' <<<"$out"
  grep -qx 'ec2-teardown: 4 of 4 volumes deleted' <<<"$out"
  assert_nothing_left waits
  # Not a terminal: the steps, no counts.
  run provision --run-id waits2 -n 1 -m 1
  [ "$status" -eq 0 ]
  [[ "$output" == *"waiting for 1 instances to run"* && "$output" != *"1 of 1 instances running"* ]]
  run teardown_run --run-id waits2
  [ "$status" -eq 0 ]
  [[ "$output" != *" of 1 instances terminated"* ]]
}

@test "TERM while instances are being launched tears everything down, exit 143" {
  local pid
  "$PROVISION" --results-dir "$RESULTS" --ami "$MOTO_AMI" --run-id sigterm -n 3 -m 1 \
    >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  pid=$!
  wait_for_state sigterm '.instances | length >= 1' "$pid"
  kill -TERM "$pid"
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 143 ] || { cat "$BATS_TEST_TMPDIR/out"; echo "rc=$rc"; false; }
  assert_nothing_left sigterm
  [ "$(jq -r .status "$RESULTS/sigterm/state.json")" = torn-down ]
}

@test "a provisioning killed outright leaves a state file that ec2-teardown cleans up from" {
  local pid
  set -m
  "$PROVISION" --results-dir "$RESULTS" --ami "$MOTO_AMI" --run-id killed -n 3 -m 1 \
    >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
  pid=$!
  set +m
  wait_for_state killed '.instances | length >= 1' "$pid"
  # SIGKILL to the script and its aws call: no trap, no cleanup.
  kill -KILL -- "-$pid"
  wait "$pid" || true
  local state=$RESULTS/killed/state.json
  [ "$(jq -r .status "$state")" = provisioning ]
  [ "$(live_instances killed)" -ge 1 ]
  run teardown_run --run-id killed
  [ "$status" -eq 0 ]
  assert_nothing_left killed
  [ "$(jq -r .status "$state")" = torn-down ]
}

@test "more than --max-instances is refused without --yes: exit 2, nothing created" {
  run provision --run-id toomany -n 5 --max-instances 4
  [ "$status" -eq 2 ]
  [[ "${lines[-1]}" == "ec2-provision: 5 instances exceed --max-instances 4; pass --yes"* ]]
  [[ "$output" == *"estimated cost"* ]] # printed before the refusal
  [ ! -e "$RESULTS/toomany" ]
  [ "$(taws ec2 describe-instances --filters Name=tag:iobench-run,Values=toomany | jq '.Reservations | length')" -eq 0 ]
  # --yes lets it through (shown with --dry-run: 5 launches).
  run provision --run-id toomany -n 5 --max-instances 4 --yes --dry-run
  [ "$status" -eq 0 ]
  [ "$(grep -c ' ec2 run-instances ' <<<"$output")" -eq 5 ]
}

@test "--dry-run prints every command and creates nothing" {
  run --separate-stderr provision --run-id dry -n 2 -m 3 --volume-type io2 --volume-iops 2000 --dry-run
  [ "$status" -eq 0 ]
  [ "$(grep -c '^aws .* ec2 run-instances .*--tag-specifications .*Key=iobench-run,Value=dry' <<<"$output")" -eq 2 ]
  [ "$(grep -c '^aws .* ec2 create-volume .*--volume-type io2 --size 100 .*Key=iobench-run,Value=dry.* --iops 2000' <<<"$output")" -eq 6 ]
  [ "$(grep -c '^aws .* ec2 attach-volume ' <<<"$output")" -eq 6 ]
  [ "$(grep -c '^aws .* ec2 wait ' <<<"$output")" -eq 3 ]
  [ "$(grep -vc '^aws ' <<<"$output")" -eq 0 ]
  [ ! -e "$RESULTS/dry" ]
  [ "$(taws ec2 describe-instances --filters Name=tag:iobench-run,Values=dry | jq '.Reservations | length')" -eq 0 ]
  [ "$(tagged_volumes dry)" -eq 0 ]
}

@test "spot instances, the status-check wait and gp3 IOPS/throughput reach EC2 as asked" {
  run provision --run-id spot -n 1 -m 1 --spot --volume-iops 4000 --volume-throughput 250 --wait-status-ok
  [ "$status" -eq 0 ]
  [[ "$output" == *"waiting for the status checks of 1 instances"* ]]
  [ "$(taws ec2 describe-instances --filters Name=tag:iobench-run,Values=spot |
    jq -r '.Reservations[0].Instances[0].InstanceLifecycle')" = spot ]
  local vol
  vol=$(jq -r '.volumes[0].id' "$RESULTS/spot/state.json")
  [ "$(taws ec2 describe-volumes --volume-ids "$vol" | jq -c '.Volumes[0] | [.Iops, .Throughput]')" = '[4000,250]' ]
  [ "$(jq -r .request.market "$RESULTS/spot/state.json")" = spot ]
  run teardown_run --run-id spot
  [ "$status" -eq 0 ]
  assert_nothing_left spot
}

@test "--instance-store records the type's disks and creates no EBS volume" {
  run provision --run-id istore -n 1 -t i3.large --instance-store
  [ "$status" -eq 0 ]
  local state=$RESULTS/istore/state.json
  [ "$(jq -c .instanceStore.devices "$state")" = '["/dev/nvme1n1"]' ]
  [ "$(jq -c '.instances[0].devices' "$state")" = '["/dev/nvme1n1"]' ]
  [ "$(jq '.volumes | length' "$state")" -eq 0 ]
  # Only the root volume carries the tag.
  [ "$(taws ec2 describe-volumes --filters Name=tag:iobench-run,Values=istore |
    jq -r '[.Volumes[].Tags | from_entries | .Name] | join(" ")')" = iobench-istore-0-root ]
  run teardown_run --run-id istore
  [ "$status" -eq 0 ]
  assert_nothing_left istore
  # Older (non-NVMe) types get their disks mapped as /dev/sdb, /dev/sdc, ...
  run --separate-stderr provision --run-id istore3 -n 1 -t c3.large --instance-store --dry-run
  [ "$status" -eq 0 ]
  [[ "$output" == *" --block-device-mappings DeviceName=/dev/sdb,VirtualName=ephemeral0 DeviceName=/dev/sdc,VirtualName=ephemeral1"* ]]
  # A type without instance store is refused.
  run provision --run-id istore2 -t m5.large --instance-store
  [ "$status" -eq 2 ]
  [[ "$output" == *"m5.large has no instance-store disks"* ]]
}

@test "bad inputs give a one-line error and exit 2, before any aws call" {
  local args
  while IFS= read -r args; do
    # shellcheck disable=SC2086 # word splitting of the case's arguments is intended
    run "$PROVISION" --results-dir "$RESULTS" --run-id bad $args
    [ "$status" -eq 2 ] || { echo "status $status for: $args" >&2; false; }
    [ "${#lines[@]}" -eq 1 ] || { echo "not one line for: $args: $output" >&2; false; }
    [[ "${lines[0]}" == "ec2-provision: "* ]]
  done <<EOF
--count 2
--ami $MOTO_AMI --count 0
--ami not-an-ami
--ami $MOTO_AMI --volume-type gp9
--ami $MOTO_AMI --volume-type gp2 --volume-iops 3000
--ami $MOTO_AMI --volume-type io1
--ami $MOTO_AMI --volume-type io1 --volume-iops 1000 --volume-size 10
--ami $MOTO_AMI --volume-type gp3 --volume-throughput 1000
--ami $MOTO_AMI --volume-type st1 --volume-size 100
--ami $MOTO_AMI --volume-type sc1 --volume-throughput 200
--ami $MOTO_AMI --volumes 17
--ami $MOTO_AMI --volumes two
--ami $MOTO_AMI --instance-store --volumes 2
--ami $MOTO_AMI --volumes 0 --volume-iops 3000
--ami $MOTO_AMI --spot-max-price 0.1
--ami $MOTO_AMI --subnet vpc-123
--ami $MOTO_AMI --run-id a/b
--ami $MOTO_AMI --endpoint-url ftp://x
--ami $MOTO_AMI --bogus
--ami
EOF
  [ ! -e "$RESULTS/bad" ]
  run "$TEARDOWN" --results-dir "$RESULTS"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  run "$TEARDOWN" --run-id x --frobnicate
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
}

@test "a run id that already has a state file is refused" {
  mkdir -p "$RESULTS/taken"
  echo '{"runId":"taken","instances":[],"volumes":[]}' >"$RESULTS/taken/state.json"
  run provision --run-id taken
  [ "$status" -eq 2 ]
  [[ "$output" == *"already has"* ]]
}

@test "--help shows the usage of both scripts" {
  run "$PROVISION" --help
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "ec2-provision - "* ]]
  [[ "$output" == *"--volume-throughput"* ]]
  run "$TEARDOWN" --help
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "ec2-teardown - "* ]]
}
