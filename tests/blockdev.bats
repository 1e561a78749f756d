#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# Block devices as targets (loop devices): size from the device, reads
# read-only, writes refused on devices in use unless --force.

load lib/core
bats_require_minimum_version 1.5.0

each_setup() {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  PART=
  command -v losetup >/dev/null || skip "losetup not installed"
  truncate -s 320M "$TMP/img"  # xfs needs 300 MB
  head -c 4194304 /dev/urandom | dd of="$TMP/img" conv=notrunc status=none
  LOOP=$(losetup --find --show "$TMP/img") || skip "env: no free loop device"
}

each_teardown() {
  if [[ -n "${SWAP:-}" ]]; then swapoff "$SWAP" 2>/dev/null || true; fi
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
  # A node this test made for a partition (no udev here); the kernel's goes with the loop device.
  if [[ -n "${PART:-}" ]]; then rm -f "$PART"; fi
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" 2>/dev/null || true; fi
}

@test "a block device's size comes from the device, and reads leave it unchanged" {
  before=$(md5sum < "$TMP/img")
  run "$IOBENCH" -q -o read4k -o read4m --together -t 2 -d 2 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  [ "$(jq -r .target.type "$TMP/o.jsonl")" = block ]
  [ "$(jq -r .fileSize "$TMP/o.jsonl")" -eq 335544320 ]
  [ "$(jq -r .target.device "$TMP/o.jsonl")" = "$(basename "$LOOP")" ]
  [ "$(jq '[.operations[].total.count > 0] | all' "$TMP/o.jsonl")" = true ]
  [ "$(md5sum < "$TMP/img")" = "$before" ]
}

@test "a write benchmark on a blank device runs" {
  run "$IOBENCH" -q -o write4k -o write4k/64 --together -n 50 -d 10 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  [ "$(jq '.operations[0].total.count' "$TMP/o.jsonl")" -eq 50 ]
}

@test "a write benchmark refuses a device holding a filesystem unless --force" {
  mkfs.ext4 -q -F "$LOOP"
  before=$(md5sum < "$TMP/img")
  run --separate-stderr "$IOBENCH" -q -o write4k -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $LOOP holds a filesystem (blkid: TYPE=ext4); a write benchmark would destroy it (use --force"* ]]
  [ "$(md5sum < "$TMP/img")" = "$before" ]
  # a read benchmark is fine
  run "$IOBENCH" -q -o read4k -d 1 "$LOOP"
  [ "$status" -eq 0 ]
  run "$IOBENCH" -q -o write4k -n 20 -d 10 --force "$LOOP"
  [ "$status" -eq 0 ]
}

@test "xfs is recognised, and so are bare md RAID and GPT magic bytes blkid no longer names" {
  for sig in xfs md gpt; do
    dd if=/dev/zero of="$LOOP" bs=1M count=8 status=none oflag=direct
    case $sig in
      xfs) mkfs.xfs -q -f "$LOOP"; want="a filesystem (blkid: TYPE=xfs)" ;;
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

@test "--hipri on a loop device (no poll queues) is refused before the run, in one line (exit 2)" {
  dev=$(basename "$LOOP")
  [ "$(cat "/sys/block/$dev/queue/io_poll")" = 0 ] || skip "env: $dev has poll queues"
  run --separate-stderr "$IOBENCH" -e io_uring --hipri -o read4k -d 1 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 2 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "iobench: --hipri: $dev has no poll queues (/sys/block/$dev/queue/io_poll is 0); drop --hipri, or give the driver poll queues (NVMe: nvme.poll_queues=N)" ]]
  [ ! -e "$TMP/o.jsonl" ]
}

# refused_intact DEVICE PATTERN: a write benchmark on DEVICE exits 1 with a
# message matching PATTERN and leaves the image byte for byte as it was.
# With SKIP_FROM SKIP_BYTES, that region is left out of the comparison (an
# active swap partition: the kernel may page out to it meanwhile).
refused_intact() {
  local before
  before=$(image_sum "${3:-0}" "${4:-0}")
  run --separate-stderr "$IOBENCH" -q -o write4k -n 10 -d 5 "$1"
  [ "$status" -eq 1 ] || { echo "exit $status for $2: $stderr"; return 1; }
  [[ "$stderr" == $2 ]] || { echo "message: $stderr"; return 1; }
  [ "$(image_sum "${3:-0}" "${4:-0}")" = "$before" ]
}

# image_sum SKIP_FROM SKIP_BYTES: md5 of the image without that region.
image_sum() {
  { head -c "$1" "$TMP/img"; tail -c +$(($1 + $2 + 1)) "$TMP/img"; } | md5sum
}

@test "every kind blkid knows is refused: minix, cramfs, squashfs, f2fs, erofs, swap, ext4, xfs, dos and gpt tables" {
  mkdir -p "$TMP/src"
  echo data > "$TMP/src/a"
  for kind in minix cramfs squashfs f2fs erofs swap ext4 xfs dos gpt; do
    dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none
    case $kind in
      minix) mkfs.minix "$LOOP" >/dev/null ;;
      cramfs) mkfs.cramfs "$TMP/src" "$LOOP" >/dev/null ;;
      squashfs) mksquashfs "$TMP/src" "$LOOP" -noappend -quiet >/dev/null ;;
      f2fs) mkfs.f2fs -q -f "$LOOP" ;;
      erofs) mkfs.erofs "$LOOP" "$TMP/src" >/dev/null 2>&1 ;;
      swap) mkswap "$LOOP" >/dev/null ;;
      ext4) mkfs.ext4 -q -F "$LOOP" ;;
      xfs) mkfs.xfs -q -f "$LOOP" ;;
      dos|gpt) echo ',100M,L' | sfdisk -q --label "$kind" "$LOOP" >/dev/null ;;
    esac
    sync
    case $kind in
      dos|gpt) [ "$(blkid -p -o value -s PTTYPE "$LOOP")" = "$kind" ]
        want="iobench: $LOOP holds a partition table \\(blkid: PTTYPE=$kind\\); a write benchmark would destroy it*" ;;
      *) [ "$(blkid -p -o value -s TYPE "$LOOP")" = "$kind" ]
        want="iobench: $LOOP holds a*\\(blkid: TYPE=$kind\\); a write benchmark would destroy it*" ;;
    esac
    refused_intact "$LOOP" "$want"
  done
  # watch writes too (write4k/64 by default): refused the same way.
  run "$IOBENCH" watch -q --count 1 --interval 1 --period 1 "$LOOP"
  [ "$status" -eq 1 ]
}

# part_node DISK N: the partition's device node (made from sysfs when no udev made it).
part_node() {
  local b p
  b=$(basename "$1")
  p=${1}p$2
  partx -u "$1" 2>/dev/null || true
  if [[ ! -b "$p" ]]; then
    mknod "$p" b $(tr ':' ' ' < "/sys/block/$b/${b}p$2/dev")
    PART=$p
  fi
  echo "$p"
}

@test "a whole disk whose partition is mounted or swap is refused, whatever its table says now" {
  losetup -d "$LOOP"
  LOOP=$(losetup --find --show --partscan "$TMP/img")
  printf ',100M,L\n,100M,L\n' | sfdisk -q "$LOOP" >/dev/null
  p1=$(part_node "$LOOP" 1)
  # Inode tables and journal written now: a lazily initialised ext4 goes on
  # writing them from a kernel thread after the mount, into the image that
  # refused_intact compares.
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$p1"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount "$p1" "$MNT"
  echo precious > "$MNT/file"
  sync
  # The table zeroed: the kernel still has the partition, and it is mounted.
  dd if=/dev/zero of="$LOOP" bs=512 count=1 conv=notrunc,fsync status=none
  sync
  refused_intact "$LOOP" "iobench: $LOOP has its partition $(basename "$LOOP")p1 mounted on $MNT; a write benchmark would destroy it*"
  [ "$(cat "$MNT/file")" = precious ]
  # Read-only before it goes: a mount namespace made meanwhile by another
  # suite (a namespace host's sshd, where / is private as in a chroot) keeps
  # its copy of this mount after our umount, and ext4 would go on writing
  # (its lazy inode-table init) into the image the swap case compares.
  mount -o remount,ro "$MNT"
  umount "$MNT"
  MNT=
  # A partition in use as swap.
  p2=$(part_node "$LOOP" 2)
  mkswap "$p2" >/dev/null
  if swapon "$p2" 2>/dev/null; then
    SWAP=$p2
    dd if=/dev/zero of="$LOOP" bs=512 count=1 conv=notrunc,fsync status=none
    b=$(basename "$LOOP")
    refused_intact "$LOOP" "iobench: $LOOP has its partition ${b}p2 in use as swap*" \
      $(($(cat "/sys/block/$b/${b}p2/start") * 512)) $(($(cat "/sys/block/$b/${b}p2/size") * 512))
  fi
}
