#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# iobench precondition (and run's --precondition, --initialize): sequential
# 128 KiB writes over twice a loop device's size, counted by the device
# itself (/sys/block/loopN/stat) and by strace; the refusals of every write.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  command -v losetup >/dev/null || skip "losetup not installed (.ci/apt-core.txt)"
  truncate -s 32M "$TMP/img"
  LOOP=$(losetup --find --show "$TMP/img") || skip "env: no free loop device"
  DEV=${LOOP#/dev/}
}

each_teardown() {
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" 2>/dev/null || true; fi
}

# stat_field N: field N of the loop device's /sys/block stat (3 sectors read, 7 sectors written).
stat_field() {
  awk -v n="$1" '{print $n}' "/sys/block/$DEV/stat"
}

@test "precondition writes twice the device's size, as the device counts it, and says so" {
  local before after
  before=$(stat_field 7)
  run --separate-stderr "$IOBENCH" precondition "$LOOP"
  [ "$status" -eq 0 ]
  after=$(stat_field 7)
  [ $(((after - before) * 512)) -eq $((2 * 32 * 1048576)) ]
  [ "$output" = "$LOOP: preconditioned: 2 passes over 32.00 MiB, 64.00 MiB written sequentially in 128 KiB blocks, ${output##*blocks, }" ]
  # progress on stderr, without a terminal a line now and then
  [[ "$stderr" == *"iobench: precondition pass "*" of 2: "*" written, "* ]]
  # --passes N: N times the size
  before=$(stat_field 7)
  run --separate-stderr "$IOBENCH" precondition -q --passes 3 "$LOOP"
  [ "$status" -eq 0 ]
  [ "$output" = "" ] && [ "$stderr" = "" ]
  after=$(stat_field 7)
  [ $(((after - before) * 512)) -eq $((3 * 32 * 1048576)) ]
}

@test "precondition writes 128 KiB blocks in order, from the start to the end, twice" {
  command -v strace >/dev/null || skip "strace not installed (.ci/apt-core.txt)"
  trace "$TMP/tr" pwrite64 "$IOBENCH" precondition -q "$LOOP"
  # every write 128 KiB and whole
  [ "$(grep -c 'pwrite64(' "$TMP/tr")" -eq 512 ]
  [ "$(grep -c ', 131072, [0-9]*) *= 131072$' "$TMP/tr")" -eq 512 ]
  # offsets 0, 128K, ... 32M-128K, then the same again
  offsets_of "$TMP/tr" pwrite64 >"$TMP/got"
  { seq 0 131072 $((32 * 1048576 - 1)); seq 0 131072 $((32 * 1048576 - 1)); } >"$TMP/want"
  diff "$TMP/want" "$TMP/got"
}

@test "precondition refuses a device holding a filesystem or mounted, writing nothing; --force writes the unmounted one" {
  command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed (.ci/apt-core.txt)"
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP"
  local before after
  before=$(stat_field 7)
  run --separate-stderr "$IOBENCH" precondition "$LOOP"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: $LOOP holds a filesystem (blkid: TYPE=ext4); preconditioning would destroy it (use --force to write anyway)" ]
  # run --precondition makes the same refusal, even for a read-only op
  run --separate-stderr "$IOBENCH" run --precondition -o read4k -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $LOOP holds a filesystem"* ]]
  # the refusals wrote nothing
  [ "$(stat_field 7)" -eq "$before" ]
  MNT=$TMP/mnt
  mkdir "$MNT"
  mount "$LOOP" "$MNT"
  run --separate-stderr "$IOBENCH" precondition "$LOOP"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: $LOOP is mounted on $MNT; preconditioning would destroy it (use --force to write anyway)" ]
  umount "$MNT"
  MNT=
  before=$(stat_field 7)
  run --separate-stderr "$IOBENCH" precondition -q --force "$LOOP"
  [ "$status" -eq 0 ]
  after=$(stat_field 7)
  [ $(((after - before) * 512)) -ge $((2 * 32 * 1048576)) ]
  run blkid -p "$LOOP"
  [ "$status" -ne 0 ]
}

@test "precondition --initialize reads every block once and writes none" {
  local r0 w0
  r0=$(stat_field 3) w0=$(stat_field 7)
  run --separate-stderr "$IOBENCH" precondition --initialize "$LOOP"
  [ "$status" -eq 0 ]
  [ $((($(stat_field 3) - r0) * 512)) -eq $((32 * 1048576)) ]
  [ "$(stat_field 7)" -eq "$w0" ]
  [ "$output" = "$LOOP: initialized: every block of 32.00 MiB read once, ${output##*once, }" ]
}

@test "a file is preconditioned over its own size, which it keeps" {
  make_file "$TMP/f" 3M
  head -c 1000 /dev/urandom >>"$TMP/f"
  local size
  size=$(stat -c %s "$TMP/f")
  cp "$TMP/f" "$TMP/before"
  run --separate-stderr "$IOBENCH" precondition -q --passes 1 "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(stat -c %s "$TMP/f")" -eq "$size" ]
  # every byte rewritten: not one 4 KiB block as it was, the unaligned tail included
  run cmp "$TMP/before" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$(tail -c 1000 "$TMP/f" | md5sum)" != "$(tail -c 1000 "$TMP/before" | md5sum)" ]
  run --separate-stderr "$IOBENCH" precondition "$TMP/missing"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: $TMP/missing: does not exist; give an existing file or block device" ]
  run --separate-stderr "$IOBENCH" precondition --passes 0 "$TMP/f"
  [ "$status" -eq 2 ]
  run --separate-stderr "$IOBENCH" precondition --initialize --passes 3 "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: --passes counts writes and --initialize only reads; give one" ]
}

@test "run --precondition --initialize does both before the first run, once, and the line's facts say so" {
  local before
  before=$(stat_field 7)
  run --separate-stderr "$IOBENCH" -q --precondition --initialize -o read4k -t 1,2 -d 1 \
    --json "$TMP/out.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  # once for the sweep, not once per run
  [ $((($(stat_field 7) - before) * 512)) -eq $((2 * 32 * 1048576)) ]
  [ "$(wc -l <"$TMP/out.jsonl")" -eq 2 ]
  jq -s -e 'all(.[]; .provision.preconditioned == true and .provision.initialized == true)' "$TMP/out.jsonl"
}

@test "fleet-job --precondition --steady: the target preconditioned once before the plan, every run in rounds, the facts say so" {
  mkdir -p "$TMP/job/lib" "$TMP/job/h1"
  cp "$IOBENCH" "$BATS_TEST_DIRNAME/../scripts/fleet-job" "$TMP/job/"
  cp "$BATS_TEST_DIRNAME/../scripts/lib/common.sh" "$TMP/job/lib/"
  printf '1 read4k 1 -\n2 read4k 2 -\n' >"$TMP/job/h1/plan.txt"
  local before
  before=$(stat_field 7)
  run --separate-stderr bash -c 'cd "$1" && shift && ./fleet-job "$@"' _ "$TMP/job" --target "$LOOP" --precondition \
    --steady --steady-round 0.5 --steady-window 3 --max-rounds 4 --iobench=--rate --iobench=400 h1
  [ "$status" -eq 0 ]
  # once for the plan, not once per run
  [ $((($(stat_field 7) - before) * 512)) -eq $((2 * 32 * 1048576)) ]
  [ "$(wc -l <"$TMP/job/h1/iobench.jsonl")" -eq 2 ]
  jq -s -e 'all(.[]; .provision.preconditioned == true and .operations[0].steadyState.window == 3)' \
    "$TMP/job/h1/iobench.jsonl"
}
