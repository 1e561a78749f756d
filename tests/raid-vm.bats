#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=vm,root,slow
# raid/ for real: a Debian kernel under qemu (software emulation) with four
# virtio disks (and a fifth that qemu throttles, for the slow-member case)
# runs raid-create / iobench / raid-destroy for every level
# (tests/vm/guest-test) and reports one PASS/FAIL line per check on a serial
# port; these tests read those lines and the iobench JSON it sends back.
# The guest boots once for the whole file (about 1.5 min; the kernel .deb is
# cached under ${XDG_CACHE_HOME:-$HOME/.cache}/iobench/vm).

# qemu holds a fifth disk (vde, serial iobench-throttled) to this many
# requests per second: about a fifth of what a member of the even RAID 0 does
# under TCG (400 to 1,100 reads/s, with the host's CPU shared).
THROTTLED_IOPS=150

setup_file() {
  local c
  for c in qemu-system-x86_64 busybox mdadm mkfs.xfs mke2fs wipefs cpio depmod dpkg-deb jq; do
    command -v "$c" >/dev/null || skip "$c not installed (see .ci/apt-raid.txt)"
  done
  export IOBENCH=${IOBENCH:-$IOBENCH_ROOT/iobench}
  export VMDIR=$IOBENCH_ROOT/tests/.tmp/raid-vm
  export R=$VMDIR/results.txt
  rm -rf "$VMDIR"
  mkdir -p "$VMDIR"
  "$IOBENCH_ROOT/tests/vm/build-vm" "$VMDIR" >"$VMDIR/build.log" 2>&1 || {
    cat "$VMDIR/build.log" >&3
    return 1
  }
  # Each test reads the results; a guest that dies half-way still lets the
  # tests for the finished cases pass and the others say what is missing.
  "$IOBENCH_ROOT/tests/vm/run-vm" --timeout 900 --throttled-disk "$THROTTLED_IOPS" "$VMDIR" \
    >"$VMDIR/run.log" 2>&1 || true
  touch "$R"
}

# assert_case CASE CHECK...: the guest reported PASS for every CHECK of CASE
# and no FAIL for CASE.
assert_case() {
  local c=$1 chk fails
  shift
  fails=$(grep "^IOBENCH-VM FAIL $c " "$R" || true)
  if [[ -n $fails ]]; then
    echo "$fails"
    grep -v '^\[' "$VMDIR/console.log" | grep -A15 "FAIL $c " | head -n 40
    return 1
  fi
  for chk in "$@"; do
    grep -qx "IOBENCH-VM PASS $c $chk" "$R" || {
      echo "no PASS for $c $chk; console tail:"
      tail -n 20 "$VMDIR/console.log"
      return 1
    }
  done
}

# json_of CASE: the iobench JSON lines the guest sent for CASE.
json_of() {
  sed -n "/^IOBENCH-VM JSON-BEGIN $1\$/,/^IOBENCH-VM JSON-END $1\$/p" "$R" | grep '^{'
}

# members_of CASE: the JSON's members of its array, one object each: name,
# serial, reads and readAwaitMs over the run.
members_of() {
  json_of "$1" | jq -c '.devices[0].name as $md | .devices[]
    | select(.above == $md) | {name, serial, reads: .total.reads, readAwaitMs: .total.readAwaitMs}'
}

ARRAY_CHECKS=(create mdstat-level mdstat-members sysfs-level readahead fstype noatime
  iobench destroy unmounted stopped superblocks-gone destroy-again)

# assert_json CASE RAIDLEVEL FS: one run on the array, both ops did I/O
# without errors, reads used O_DIRECT, and the target names the md level.
assert_json() {
  local json
  json=$(json_of "$1")
  [[ $(wc -l <<<"$json") == 1 ]] || { echo "want 1 JSON line for $1, got: $json"; return 1; }
  jq -e --arg level "$2" --arg fs "$3" --arg case "$1" '
    .target.raidLevel == $level and .target.filesystem == $fs
    and (.target.device | startswith("md"))
    and ([.operations[].name] | sort) == ["read4k", "write4k/64"]
    and all(.operations[]; .total.count > 0 and .total.errorCount == 0)
    and (.operations[] | select(.name == "read4k") | .direct) == true
    and .labels.case == $ARGS.named.case' <<<"$json" >/dev/null || {
    jq -c '{target, ops: [.operations[] | {name, direct, count: .total.count}]}' <<<"$json"
    return 1
  }
}

@test "the guest boots with the md, raid and xfs modules, four disks and iobench, and finishes" {
  assert_case boot modules disks iobench
  grep -qx 'IOBENCH-VM DONE' "$R" || { tail -n 30 "$VMDIR/console.log"; false; }
}

@test "RAID 0 over 4 disks, 64K chunk, xfs: built, mounted noatime without nobarrier, benchmarked, torn down" {
  assert_case raid0 "${ARRAY_CHECKS[@]}" chunk no-nobarrier
  grep -qx 'mdstat: md[0-9]* : active raid0 .*' "$R"
  assert_json raid0 raid0 xfs
}

@test "RAID 1 over 2 disks, ext4: built, mounted noatime with flushes on (no nobarrier), benchmarked, torn down" {
  assert_case raid1 "${ARRAY_CHECKS[@]}" no-nobarrier
  assert_json raid1 raid1 ext4
}

@test "RAID 5 over 3 disks, 128K chunk, xfs: built, benchmarked, torn down" {
  assert_case raid5 "${ARRAY_CHECKS[@]}" chunk no-nobarrier
  assert_json raid5 raid5 xfs
}

@test "RAID 6 over 4 disks, ext4: built, benchmarked, torn down" {
  assert_case raid6 "${ARRAY_CHECKS[@]}" chunk no-nobarrier
  assert_json raid6 raid6 ext4
}

@test "RAID 10 over 4 disks has the near-2 layout, xfs: built, benchmarked, torn down" {
  assert_case raid10 "${ARRAY_CHECKS[@]}" chunk layout no-nobarrier
  assert_json raid10 raid10 xfs
}

@test "RAID 10 far-2 over 4 disks has the far=2 layout, ext4: built, benchmarked, torn down" {
  assert_case raid10f2 "${ARRAY_CHECKS[@]}" chunk layout no-nobarrier
  assert_json raid10f2 raid10 ext4
}

@test "RAID 0 with ext3 and --nobarrier: built, mounted noatime,nobarrier, benchmarked, torn down" {
  assert_case raid0-ext3 "${ARRAY_CHECKS[@]}" chunk nobarrier
  assert_json raid0-ext3 raid0 ext3
}

@test "iobench on a bare RAID 5 device (--fs none) reports a block target with level raid5" {
  assert_case raid5-block create iobench destroy
  local json
  json=$(json_of raid5-block)
  jq -e '.target.type == "block" and .target.raidLevel == "raid5"
    and (.target.device | startswith("md")) and .target.filesystem == null
    and .operations[0].total.count > 0 and .operations[0].total.errorCount == 0' <<<"$json" || {
    echo "$json"
    false
  }
}

@test "--instance-store builds the array from exactly the NVMe disks with the instance-store model" {
  assert_case instance-store create members only-nvme destroy superblocks-gone
}

@test "a member with an ext4 signature is refused without --force and taken over with it" {
  assert_case refuse-signature refused message no-array untouched force-creates destroy
}

@test "a member of a running array is refused; --force stops that array and reuses its members" {
  assert_case refuse-in-array first-array refused message force-creates force-stopped-old destroy \
    superblocks-gone
}

@test "a mounted member is refused" {
  assert_case refuse-mounted refused message
}

@test "--chunk with level 1 is a usage error inside the guest too" {
  assert_case refuse-chunk-raid1 refused message
}

@test "--wait returns once the initial resync of a RAID 1 has finished, showing its percentage and ETA on a terminal" {
  assert_case wait-resync create progress idle in-sync destroy
}

@test "a failure after mdadm --create (mount point cannot be made) stops the array and zeroes the members" {
  assert_case undo-on-failure failed message no-array superblocks-gone
}

@test "RAID 0 over four disks, one throttled by qemu: the devices name the array, its four members and the slow one" {
  assert_case raid0-slow-member throttled-disk create iobench destroy
  local json
  json=$(json_of raid0-slow-member)
  [[ $(wc -l <<<"$json") == 1 ]] || { echo "want 1 JSON line, got: $json"; return 1; }
  # The median of three siblings is the middle one. With 8 reads in flight
  # the throttled member holds nearly all of them (its await is its queue over
  # 150/s: ~50 ms), the others only their service time (0.1-2 ms under TCG):
  # measured 120x to 400x on a quiet host, but 2.8x once while the whole CI
  # queue ran beside the guest (TCG's own service times rose to 7-9 ms). 2x is
  # the report's rule for a slow member, and what this asks.
  jq -e '.devices[0] as $md
    | [.devices[] | select(.above == $md.name)] as $m
    | [$m[] | select(.serial == "iobench-throttled")] as $slow
    | ([$m[] | select(.serial != "iobench-throttled") | .total.readAwaitMs] | sort) as $sib
    | $md.type == "md" and $md.raidLevel == "raid0" and $md.role == "target"
      and $md.above == null and ($md.below | length) == 4 and .target.device == $md.name
      and ($m | length) == 4 and all($m[]; .role == "member" and .type == "disk" and .total.reads > 0)
      and ($slow | length) == 1 and $slow[0].name == "vde"
      and $slow[0].total.readAwaitMs >= 2 * $sib[1]' <<<"$json" >/dev/null || {
    jq -c '.devices[] | {name, type, role, above, below, serial, raidLevel, reads: .total.reads,
      readAwaitMs: .total.readAwaitMs, utilPct: .total.utilPct}' <<<"$json"
    return 1
  }
}

@test "the same RAID 0 with no throttled member: its members' read awaits are within 1.5x of each other" {
  # Measured: within 1.14x to 1.33x (vdd, probed last, always the quickest).
  assert_case raid0-even create iobench destroy
  local members
  members=$(members_of raid0-even)
  jq -se 'length == 4 and all(.[]; .reads > 0 and .serial != "iobench-throttled")
    and ([.[].readAwaitMs] | max <= 1.5 * min)' <<<"$members" >/dev/null || {
    echo "$members"
    return 1
  }
}

@test "the report names the slow member of the RAID 0 with a throttled disk, and none of the even one" {
  json_of raid0-slow-member >"$BATS_TEST_TMPDIR/slow.jsonl"
  json_of raid0-even >"$BATS_TEST_TMPDIR/even.jsonl"
  run "$IOBENCH" report --json --section devices "$BATS_TEST_TMPDIR/slow.jsonl"
  [[ $status == 0 ]] || { echo "$output"; return 1; }
  # One row per member; the throttled one (vde) alone is slow, by as much as
  # the line's own figures say (2x at least, see above), with a finding.
  jq -e '.devices as $rows | [$rows[] | select(.slow)] as $slow
    | ($rows | length) == 4 and ($slow | length) == 1
    and ($slow[0].member | ltrimstr("/dev/")) == "vde"
    and ($slow[0].array | ltrimstr("/dev/") | startswith("md"))
    and $slow[0].vsSiblings >= 2 and $slow[0].slowBuckets >= 1
    and ($slow[0].finding | type) == "string"' <<<"$output" >/dev/null || { echo "$output"; return 1; }
  run "$IOBENCH" report --json --section devices "$BATS_TEST_TMPDIR/even.jsonl"
  [[ $status == 0 ]] || { echo "$output"; return 1; }
  jq -e '(.devices | length) == 4 and all(.devices[]; .slow == false)' <<<"$output" >/dev/null || {
    echo "$output"
    return 1
  }
}
