#!/usr/bin/env bats
# bats file_tags=net,root
# answers-target.bats - a fleet measures disks, not memory (issue 21): a
# host whose remote dir is on tmpfs (as /tmp is on many systems, and
# fleet-run's default remote dir is under /tmp) fails fleet-run's pre-flight
# check with kind "memory" and runs nothing; the others run, and each
# host's log says which device its data file landed on.

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run
ROOT=$BATS_TEST_DIRNAME/..

setup() {
  local why
  why=$(netns_can_run) || skip "$why"
  [[ -x "${IOBENCH_STATIC:-$ROOT/iobench-static}" ]] || skip "iobench-static not built (make static)"
  netns_fleet_setup 2
}

teardown() {
  netns_fleet_teardown
}

@test "fleet-run: a host whose data file would be on tmpfs fails the pre-flight check (memory); the other says which device it used" {
  local name1 name2 dev fs
  name1=$(netns_addr 1) name2=$(netns_addr 2)
  # Host 1's remote dir is a tmpfs, in its own mount namespace only.
  mkdir -p "$REMOTE/$name1"
  netns_exec_mnt 1 mount -t tmpfs -o size=64m iobench-test "$REMOTE/$name1"
  run "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --run-id mem --file-size 8M \
    --duration 1 --bucket 1
  echo "$output"
  [ "$status" -eq 1 ]
  local m=$RESULTS/mem/manifest.json
  [ "$(jq -r --arg n "$name1" '.hosts[] | select(.name == $n) | [.status, .failure.kind, .finished] | @tsv' "$m")" == \
    "$(printf 'failed\tmemory\t0')" ]
  [[ "$(jq -r --arg n "$name1" '.hosts[] | select(.name == $n) | .failure.detail' "$m")" == \
    "$REMOTE/$name1 is on tmpfs: the data file would measure memory, not a disk; give --remote-dir (or --target) on a disk"* ]]
  [[ "$output" == *"host $name1 ($name1) failed the pre-flight check: memory: "* ]]
  # Host 2 ran, on the disk under its remote dir, and said which.
  [ "$(jq -r --arg n "$name2" '.hosts[] | select(.name == $n) | .status' "$m")" == ok ]
  read -r dev fs _ <<<"$(df -PT "$REMOTE/$name2" | awk 'NR == 2 {print $1, $2, $7}')"
  grep -qF "fleet-job: data.bin is on $dev ($fs, mounted on " "$RESULTS/mem/logs/$name2.log"
  [ "$(jq -r .target.memory "$RESULTS/mem/$name2/iobench.jsonl")" == false ]
}
