#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root
# answers-target.bats - a fleet measures disks, not memory, and the volume
# its facts name (issue 21): a host whose remote dir is on tmpfs (as /tmp is
# on many systems, and fleet-run's default remote dir is under /tmp) fails
# fleet-run's pre-flight check with kind "memory" and runs nothing; one whose
# provision facts name a volume while its data file is on the root file
# system fails with "not-on-volume"; the others run, and each host's log
# says which device its data file landed on.

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run

setup() {
  netns_fleet_setup --static 2
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
  run "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
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

@test "fleet-run: a host whose facts name a volume but whose data file is on the root file system fails the check (not-on-volume); one on the volume runs" {
  command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed (e2fsprogs)"
  local name1 name2 loop
  name1=$(netns_addr 1) name2=$(netns_addr 2)
  printf '{"instanceType": "m5.large", "volumeType": "gp3", "volumeSize": 1, "volumeCount": 1}\n' >"$NET/gp3.json"
  printf '%s provision=gp3.json\n%s provision=gp3.json\n' "$name1" "$name2" >"$NET/vol-hosts"
  # Host 2's "volume": a loop device with ext4, mounted on its remote dir in
  # its own mount namespace; host 1's remote dir stays on the root disk.
  truncate -s 1G "$BATS_TEST_TMPDIR/vol.img"
  mkfs.ext4 -q -F "$BATS_TEST_TMPDIR/vol.img"
  loop=$(losetup --find --show "$BATS_TEST_TMPDIR/vol.img")
  mkdir -p "$REMOTE/$name2"
  netns_exec_mnt 2 mount "$loop" "$REMOTE/$name2" || { losetup -d "$loop"; return 1; }
  run "$FLEET" --hosts "$NET/vol-hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --run-id vol --file-size 8M \
    --duration 1 --bucket 1 --ops read4k --threads 1
  echo "$output"
  netns_exec_mnt 2 umount "$REMOTE/$name2"
  losetup -d "$loop"
  [ "$status" -eq 1 ]
  local m=$RESULTS/vol/manifest.json
  [ "$(jq -r --arg n "$name1" '.hosts[] | select(.name == $n) | [.status, .failure.kind, .finished] | @tsv' "$m")" == \
    "$(printf 'failed\tnot-on-volume\t0')" ]
  [ "$(jq -r --arg n "$name1" '.hosts[] | select(.name == $n) | .failure.detail' "$m")" == \
    "$REMOTE/$name1 is on the root file system, not the gp3 volume its provision facts name; give --target a file on that volume (campaign mounts it for you)" ]
  [[ "$output" == *"host $name1 ($name1) failed the pre-flight check: not-on-volume: "* ]]
  # Host 2 measured its volume: the loop device, of the volume's size.
  [ "$(jq -r --arg n "$name2" '.hosts[] | select(.name == $n) | .status' "$m")" == ok ]
  [ "$(jq -r '[.target.device, .target.deviceSize, .target.rootDevice] | @tsv' "$RESULTS/vol/$name2/iobench.jsonl")" == \
    "$(printf '%s\t%s\tfalse' "${loop#/dev/}" $((1024 * 1024 * 1024)))" ]
}
