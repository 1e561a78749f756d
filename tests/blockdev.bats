#!/usr/bin/env bats
# Block devices as targets (loop devices): size from the device, reads
# read-only, writes refused on devices in use unless --force.

load lib/core

setup() {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  command -v losetup >/dev/null || skip "losetup not installed"
  core_setup
  truncate -s 320M "$TMP/img"  # xfs needs 300 MB
  head -c 4194304 /dev/urandom | dd of="$TMP/img" conv=notrunc status=none
  LOOP=$(losetup --find --show "$TMP/img") || skip "env: no free loop device"
}

teardown() {
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" 2>/dev/null || true; fi
  core_teardown
}

@test "a block device's size comes from the device, and reads leave it unchanged" {
  before=$(md5sum < "$TMP/img")
  run "$IOBENCH" -q -o read4k -o read4m -t 2 -d 2 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  [ "$(jq -r .target.type "$TMP/o.jsonl")" = block ]
  [ "$(jq -r .fileSize "$TMP/o.jsonl")" -eq 335544320 ]
  [ "$(jq -r .target.device "$TMP/o.jsonl")" = "$(basename "$LOOP")" ]
  [ "$(jq '[.operations[].total.count > 0] | all' "$TMP/o.jsonl")" = true ]
  [ "$(md5sum < "$TMP/img")" = "$before" ]
}

@test "a write benchmark on a blank device runs" {
  run "$IOBENCH" -q -o write4k -o write4k/64 -n 50 -d 10 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  [ "$(jq '.operations[0].total.count' "$TMP/o.jsonl")" -eq 50 ]
}

@test "a write benchmark refuses a device holding a filesystem unless --force" {
  mkfs.ext4 -q -F "$LOOP"
  before=$(md5sum < "$TMP/img")
  run --separate-stderr "$IOBENCH" -q -o write4k -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $LOOP holds an ext2/3/4 filesystem; a write benchmark would destroy it (use --force"* ]]
  [ "$(md5sum < "$TMP/img")" = "$before" ]
  # a read benchmark is fine
  run "$IOBENCH" -q -o read4k -d 1 "$LOOP"
  [ "$status" -eq 0 ]
  run "$IOBENCH" -q -o write4k -n 20 -d 10 --force "$LOOP"
  [ "$status" -eq 0 ]
}

@test "xfs, md RAID and partition-table signatures are recognised" {
  for sig in xfs md gpt; do
    dd if=/dev/zero of="$LOOP" bs=1M count=8 status=none oflag=direct
    case $sig in
      xfs) command -v mkfs.xfs >/dev/null || continue; mkfs.xfs -q -f "$LOOP"; want="an xfs filesystem" ;;
      md) printf '\xfc\x4e\x2b\xa9' | dd of="$LOOP" bs=1 seek=4096 conv=notrunc status=none; want="an md RAID superblock (1.2)" ;;
      gpt) printf 'EFI PART' | dd of="$LOOP" bs=1 seek=512 conv=notrunc status=none; want="a GPT partition table" ;;
    esac
    sync
    run --separate-stderr "$IOBENCH" -q -o write4k -d 1 "$LOOP"
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"holds $want"* ]]
  done
}

@test "a write benchmark refuses a mounted device" {
  mkfs.ext4 -q -F "$LOOP"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount "$LOOP" "$MNT"
  run --separate-stderr "$IOBENCH" -q -o write4k -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $LOOP is mounted on $MNT; a write benchmark would destroy it"* ]]
}

@test "a file on a mounted filesystem records filesystem and device" {
  mkfs.ext4 -q -F "$LOOP"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount "$LOOP" "$MNT"
  "$IOBENCH" create -q "$MNT/f" 8M
  "$IOBENCH" -q -o read4k -n 10 -d 5 --json "$TMP/o.jsonl" "$MNT/f"
  [ "$(jq -r .target.filesystem "$TMP/o.jsonl")" = ext4 ]
  [ "$(jq -r .target.device "$TMP/o.jsonl")" = "$(basename "$LOOP")" ]
  [ "$(jq -r .target.raidLevel "$TMP/o.jsonl")" = null ]
}
