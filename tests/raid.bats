#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# raid/raid-create and raid/raid-destroy on the host: usage, --dry-run
# commands for every level, and the refusals, over loop devices (the host
# kernel may lack md, so nothing here creates an array; tests/raid-vm.bats
# does that under qemu).

setup_file() {
  [[ $EUID == 0 ]] || skip "needs root for loop devices"
  local c
  for c in losetup mkfs.ext4 wipefs mdadm blockdev; do
    command -v "$c" >/dev/null || skip "$c not installed (see .ci/apt-raid.txt)"
  done
  local i loops=()
  for i in 0 1 2 3; do
    truncate -s 64M "$BATS_FILE_TMPDIR/disk$i.img"
    loops+=("$(losetup --find --show "$BATS_FILE_TMPDIR/disk$i.img")")
  done
  printf '%s\n' "${loops[@]}" >"$BATS_FILE_TMPDIR/loops"
}

teardown_file() {
  [[ -e $BATS_FILE_TMPDIR/loops ]] || return 0
  local l
  while read -r l; do
    umount "$l" 2>/dev/null || true
    losetup -d "$l" || true
  done <"$BATS_FILE_TMPDIR/loops"
}

setup() {
  CREATE=$IOBENCH_ROOT/raid/raid-create
  DESTROY=$IOBENCH_ROOT/raid/raid-destroy
  if [[ -e $BATS_FILE_TMPDIR/loops ]]; then
    mapfile -t L <"$BATS_FILE_TMPDIR/loops"
    # Every test starts from blank, unmounted loop devices.
    local l
    for l in "${L[@]}"; do
      wipefs --all --quiet "$l"
    done
  fi
}

teardown() {
  if [[ -n ${MNT-} ]]; then umount "$MNT" 2>/dev/null || true; fi
}

# mdadm_line: the mdadm --create line of a dry run's output.
mdadm_line() { grep '^mdadm --create ' <<<"$output"; }

# cmds: a dry run's commands (its output without the progress messages).
cmds() { grep -v '^raid-create: ' <<<"$output"; }

@test "raid-create --help prints the usage block and exits 0" {
  run "$CREATE" --help
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == "raid-create - "* ]]
  [[ $output == *"usage: raid-create --level LEVEL [OPTIONS] DEVICE..."* ]]
  [[ $output == *"--instance-store"* && $output == *"--assume-clean"* ]]
  [[ $output != *"set -euo"* ]]
}

@test "raid-destroy --help prints the usage block and exits 0" {
  run "$DESTROY" --help
  [ "$status" -eq 0 ]
  [[ $output == *"usage: raid-destroy [OPTIONS] [MD_DEVICE...]"* ]]
  [[ $output == *"--zero-superblock"* ]]
}

@test "unknown options are usage errors (exit 2) for both scripts" {
  run "$CREATE" --level 0 --bogus "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == "raid-create: unknown option '--bogus' (see raid-create --help)" ]]
  run "$DESTROY" --bogus
  [ "$status" -eq 2 ]
  [[ $output == "raid-destroy: unknown option '--bogus'"* ]]
}

@test "raid-create without --level, with an unknown level or a missing value exits 2" {
  run "$CREATE" --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == *"--level is required"* ]]
  run "$CREATE" --level 4 --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == *"unknown level '4'"* ]]
  run "$CREATE" --dry-run "${L[@]}" --level
  [ "$status" -eq 2 ]
  [[ $output == *"--level needs a value"* ]]
}

@test "dry run RAID 0: mdadm --create with chunk in KiB, read-ahead, mkfs.xfs, mount noatime" {
  MNT=$BATS_TEST_TMPDIR/mnt
  run "$CREATE" --level 0 --chunk 256K --readahead 4096 --mount "$MNT" --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  local want=(
    "mdadm --create /dev/md/iobench --run --metadata=1.2 --name=iobench --level=0 --raid-devices=4 --chunk=256 ${L[*]}"
    "blockdev --setra 4096 /dev/md/iobench"
    "mkfs.xfs -f /dev/md/iobench"
    "mkdir -p $MNT"
    "mount -t xfs -o noatime /dev/md/iobench $MNT"
  )
  [ "$(cmds)" = "$(printf '%s\n' "${want[@]}")" ]
  [[ $output != *nobarrier* ]]
  [ ! -e "$MNT" ]
}

@test "dry run RAID 1 over 2 devices: no chunk, ext4 made without lazy init, mounted noatime only (flushes on)" {
  run "$CREATE" --level 1 --fs ext4 --mount /mnt/r1 --name r1 --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 0 ]
  [ "$(mdadm_line)" = "mdadm --create /dev/md/r1 --run --metadata=1.2 --name=r1 --level=1 --raid-devices=2 ${L[0]} ${L[1]}" ]
  [[ $output == *$'\nmkfs.ext4 -F -q -E lazy_itable_init=0\\,lazy_journal_init=0 /dev/md/r1\n'* ]]
  [ "$(cmds | grep '^mount ')" = "mount -t ext4 -o noatime /dev/md/r1 /mnt/r1" ]
  [[ $output != *nobarrier* ]]
}

@test "--nobarrier on request: ext4 mounted noatime,nobarrier, with a warning that says what it costs" {
  run "$CREATE" --level 1 --fs ext4 --nobarrier --mount /mnt/r1 --name r1 --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 0 ]
  [ "$(cmds | grep '^mount ')" = "mount -t ext4 -o noatime\\,nobarrier /dev/md/r1 /mnt/r1" ]
  [ "$(grep -c '^raid-create: warning: --nobarrier: the disks get no flushes, so write4k and the durability check measure a cache, not production, and a power cut can lose data the array acknowledged; benchmark only$' <<<"$output")" -eq 1 ]
  # xfs refuses the option: none added, no warning, said.
  run "$CREATE" --level 0 --fs xfs --nobarrier --mount /mnt/x --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  [ "$(cmds | grep '^mount ')" = "mount -t xfs -o noatime /dev/md/iobench /mnt/x" ]
  [[ $output == *"not adding nobarrier: xfs on Linux"* && $output != *"warning: --nobarrier"* ]]
}

@test "dry run RAID 5 over 3 devices with --assume-clean" {
  run "$CREATE" --level 5 --chunk 64 --assume-clean --dry-run "${L[@]:0:3}"
  [ "$status" -eq 0 ]
  [ "$(mdadm_line)" = "mdadm --create /dev/md/iobench --run --metadata=1.2 --name=iobench --level=5 --raid-devices=3 --chunk=64 --assume-clean ${L[0]} ${L[1]} ${L[2]}" ]
}

@test "dry run RAID 6 over 4 devices on a chosen --md-device with ext3" {
  run "$CREATE" --level raid6 --md-device /dev/md9 --fs ext3 --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  [ "$(mdadm_line)" = "mdadm --create /dev/md9 --run --metadata=1.2 --name=iobench --level=6 --raid-devices=4 ${L[*]}" ]
  [[ $output == *"mkfs.ext3 -F -q -E lazy_itable_init=0\\,lazy_journal_init=0 /dev/md9"* ]]
}

@test "dry run RAID 10 uses mdadm's default near-2 layout" {
  run "$CREATE" --level 10 --chunk 1M --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  [ "$(mdadm_line)" = "mdadm --create /dev/md/iobench --run --metadata=1.2 --name=iobench --level=10 --raid-devices=4 --chunk=1024 ${L[*]}" ]
}

@test "dry run RAID 10f2 asks mdadm for the far-2 layout" {
  run "$CREATE" --level 10f2 --fs none --dry-run "${L[@]:0:2}"
  [ "$status" -eq 0 ]
  [ "$(cmds)" = "mdadm --create /dev/md/iobench --run --metadata=1.2 --name=iobench --level=10 --layout=f2 --raid-devices=2 ${L[0]} ${L[1]}" ]
}

@test "--fs none makes no filesystem; --keep-barriers (the default now) mounts with noatime only" {
  run "$CREATE" --level 0 --fs none --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  [[ $output != *mkfs* && $output != *mount* ]]
  run "$CREATE" --level 0 --fs ext4 --keep-barriers --mount /mnt/k --dry-run "${L[@]}"
  [ "$status" -eq 0 ]
  [[ $output == *$'\nmount -t ext4 -o noatime /dev/md/iobench /mnt/k'* ]]
}

@test "too few devices for the level is a usage error naming the minimum" {
  run "$CREATE" --level 5 --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 2 ]
  [[ $output == "raid-create: RAID 5 needs at least 3 devices, got 2"* ]]
  run "$CREATE" --level 6 --dry-run "${L[@]:0:3}"
  [ "$status" -eq 2 ]
  [[ $output == *"RAID 6 needs at least 4 devices, got 3"* ]]
  run "$CREATE" --level 10f2 --dry-run "${L[0]}"
  [ "$status" -eq 2 ]
  [[ $output == *"RAID 10f2 needs at least 2 devices, got 1"* ]]
}

@test "--chunk with level 1 is refused as mdadm does, before anything runs" {
  run "$CREATE" --level 1 --chunk 64K --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 2 ]
  [[ $output == *"--chunk does not apply to --level 1"*"drop --chunk"* ]]
  [[ $output != *mdadm\ --create* ]]
}

@test "bad chunk sizes, read-ahead, filesystems and names are usage errors" {
  run "$CREATE" --level 0 --chunk 3K --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == *"bad chunk size '3K'"* ]]
  run "$CREATE" --level 0 --chunk 2K --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  run "$CREATE" --level 0 --readahead lots --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  run "$CREATE" --level 0 --fs btrfs --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == *"unknown filesystem 'btrfs'"* ]]
  run "$CREATE" --level 0 --name 'a b' --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
}

@test "contradictory options are usage errors" {
  run "$CREATE" --level 0 --fs none --mount /mnt/x --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  run "$CREATE" --level 0 --wait --assume-clean --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  run "$CREATE" --level 0 --instance-store --dry-run "${L[@]}"
  [ "$status" -eq 2 ]
  [[ $output == *"not both"* ]]
  run "$CREATE" --level 0 --dry-run "${L[0]}" "${L[0]}"
  [ "$status" -eq 2 ]
  [[ $output == *"device ${L[0]} given twice"* ]]
}

@test "a member with an ext4 signature is refused (exit 1) and left untouched" {
  mkfs.ext4 -q -F "${L[0]}"
  run "$CREATE" --level 0 --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 1 ]
  [[ $output == "raid-create: ${L[0]} is not free (ext4 signature at offset 0x438); use another device or --force to take it over" ]]
  [ "$(wipefs --noheadings --output TYPE "${L[0]}")" = ext4 ]
}

@test "--force takes a member with a signature over by wiping it first; a dry run still wipes nothing" {
  mkfs.ext4 -q -F "${L[1]}"
  run "$CREATE" --level 0 --force --dry-run "${L[0]}" "${L[1]}"
  [ "$status" -eq 0 ]
  [ "$(cmds | head -n 2)" = "wipefs --all --quiet ${L[1]}"$'\n'"$(mdadm_line)" ]
  [[ $(cmds) != *"wipefs --all --quiet ${L[0]}"* ]]
  [ "$(wipefs --noheadings --output TYPE "${L[1]}")" = ext4 ]
}

@test "a mounted member is refused, naming the mount point; --force unmounts it first" {
  mkfs.ext4 -q -F "${L[2]}"
  MNT=$BATS_TEST_TMPDIR/mounted
  mkdir -p "$MNT"
  # Mounted in a mount namespace of the test's own: a namespace another
  # suite makes meanwhile (its ssh hosts) would copy a mount of the root
  # namespace and hold the loop device busy after our umount.
  in_own_mounts() {
    unshare --mount --propagation private bash -c 'mount "$1" "$2" && shift 2 && "$@"' _ "${L[2]}" "$MNT" "$@"
  }
  run in_own_mounts "$CREATE" --level 0 --dry-run "${L[2]}" "${L[3]}"
  [ "$status" -eq 1 ]
  [[ $output == "raid-create: ${L[2]} is not free (mounted on $MNT, ext4 signature"* ]]
  run in_own_mounts bash -c '"$@" && mountpoint -q "$0"' "$MNT" "$CREATE" --level 0 --force --dry-run "${L[2]}" "${L[3]}"
  [ "$status" -eq 0 ]
  [ "$(cmds | head -n 3)" = "umount $MNT"$'\n'"wipefs --all --quiet ${L[2]}"$'\n'"$(mdadm_line)" ]
  # nothing of it is left in the root namespace
  ! mountpoint -q "$MNT"
}

@test "a member with a partition table is refused" {
  printf 'label: dos\n,32M\n' | sfdisk -q "${L[3]}" 2>/dev/null || skip "sfdisk not available"
  run "$CREATE" --level 0 --dry-run "${L[0]}" "${L[3]}"
  [ "$status" -eq 1 ]
  [[ $output == *"${L[3]} is not free (dos signature"* ]]
}

@test "the disk holding / is refused even with --force" {
  local root
  root=$(findmnt -nv -o SOURCE / 2>/dev/null || true)
  [[ -b $root ]] || skip "env: / is not on a block device here"
  root=/dev/$(lsblk -n -o PKNAME "$root" | head -n 1)
  [[ $root != /dev/ ]] || root=$(findmnt -nv -o SOURCE /)
  run "$CREATE" --level 0 --force --dry-run "$root" "${L[0]}"
  [ "$status" -eq 1 ]
  [[ $output == *"$root holds the root filesystem"* ]]
}

@test "a path that is not a block device is refused" {
  run "$CREATE" --level 0 --dry-run "$BATS_FILE_TMPDIR/disk0.img" "${L[1]}"
  [ "$status" -eq 1 ]
  [[ $output == *"disk0.img is not a block device"* ]]
}

@test "--instance-store picks NVMe instance-store disks by model and never the root disk" {
  local sys=$BATS_TEST_TMPDIR/sys proc=$BATS_TEST_TMPDIR/proc n model
  mkdir -p "$sys/dev/block" "$proc/self"
  for n in 0 1 2 10; do
    case $n in
    0) model="Amazon Elastic Block Store" ;;
    *) model="Amazon EC2 NVMe Instance Storage" ;;
    esac
    mkdir -p "$sys/block/nvme${n}n1/device"
    echo "259:$n" >"$sys/block/nvme${n}n1/dev"
    printf '%-40s\n' "$model" >"$sys/block/nvme${n}n1/device/model"
    ln -s "../../block/nvme${n}n1" "$sys/dev/block/259:$n"
  done
  # / lives on nvme1n1 (an instance-store disk: never taken).
  echo '22 1 259:1 / / rw,relatime - ext4 /dev/nvme1n1 rw' >"$proc/self/mountinfo"
  run env RAID_SYSFS="$sys" RAID_PROC="$proc" RAID_IMDS=http://127.0.0.1:9 bash -c \
    "source '$IOBENCH_ROOT/scripts/lib/common.sh'; source '$IOBENCH_ROOT/scripts/lib/raid.sh'; raid_instance_store_devices"
  [ "$status" -eq 0 ]
  [ "$output" = $'/dev/nvme2n1\n/dev/nvme10n1' ]
}

# raid_lib PROC FUNC ARGS...: FUNC of scripts/lib/raid.sh with /proc at PROC.
raid_lib() {
  local proc=$1
  shift
  RAID_PROC=$proc bash -c 'source "$1/scripts/lib/common.sh"; source "$1/scripts/lib/raid.sh"; shift; "$@"' \
    raid-create "$IOBENCH_ROOT" "$@"
}

@test "raid_resync_status reads resync, recovery and waiting arrays from /proc/mdstat" {
  local proc=$BATS_TEST_TMPDIR/proc
  mkdir -p "$proc"
  cat >"$proc/mdstat" <<'EOF'
Personalities : [raid1] [raid10] [raid6] [raid5] [raid4]
md125 : active raid5 vdc[3] vdb[1] vda[0]
      1046528 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [UU_]
      [====>................]  recovery = 22.5% (118016/523264) finish=0.7min speed=9078K/sec

md126 : active raid10 vdd[3] vdc[2] vdb[1] vda[0]
      1046528 blocks super 1.2 512K chunks 2 near-copies [4/4] [UUUU]
      	resync=DELAYED

md127 : active raid1 vdb[1] vda[0]
      523264 blocks super 1.2 [2/2] [UU]
      [==>..................]  resync = 13.2% (69376/523264) finish=2.5min speed=23125K/sec

md124 : active raid0 vdd[1] vdc[0]
      1046528 blocks super 1.2 512k chunks

unused devices: <none>
EOF
  [ "$(raid_lib "$proc" raid_resync_status md127)" == "resync 13.2 2.5" ]
  [ "$(raid_lib "$proc" raid_resync_status md125)" == "recovery 22.5 0.7" ]
  [ "$(raid_lib "$proc" raid_resync_status md126)" == "resync pending -" ]
  [ -z "$(raid_lib "$proc" raid_resync_status md124)" ]
  [ -z "$(raid_lib "$proc" raid_resync_status md12)" ]
}

@test "--wait's progress: the resync's percentage and ETA as mdstat moves, on a terminal only" {
  local proc=$BATS_TEST_TMPDIR/proc
  mkdir -p "$proc"
  printf '%s\n' 'md127 : active raid1 vdb[1] vda[0]' '      523264 blocks super 1.2 [2/2] [UU]' \
    '      [==>..................]  resync = 13.2% (69376/523264) finish=2.5min speed=23125K/sec' '' \
    'unused devices: <none>' >"$proc/mdstat"
  # The resync moves on, then ends (each state held for 3 polls).
  (
    sleep 3
    sed -i 's|resync = 13.2% (69376/523264) finish=2.5min|resync = 57.0% (298000/523264) finish=0.5min|' "$proc/mdstat"
    sleep 3
    sed -i '/resync =/d' "$proc/mdstat"
  ) 3>&- &
  local cmd
  printf -v cmd 'RAID_PROC=%q bash -c %q %q %q' "$proc" \
    'source "$1/scripts/lib/common.sh"; source "$1/scripts/lib/raid.sh"; raid_resync_progress md127 1' raid-create "$IOBENCH_ROOT"
  run script -qec "$cmd" /dev/null
  wait
  [ "$status" -eq 0 ]
  local out=${output//$'\r'/}
  grep -qx 'raid-create: resync of /dev/md127: 13.2%, ETA 3 min' <<<"$out"
  grep -qx 'raid-create: resync of /dev/md127: 57.0%, ETA 30 s' <<<"$out"
  [ "$(grep -vc '^raid-create: resync of /dev/md127: ' <<<"$out")" -eq 0 ]
  # Not a terminal: the same wait, silent.
  printf '%s\n' 'md127 : active raid1 vdb[1] vda[0]' \
    '      [==>..]  resync = 13.2% (69376/523264) finish=2.5min speed=1K/sec' >"$proc/mdstat"
  (sleep 2; : >"$proc/mdstat") 3>&- &
  run --separate-stderr raid_lib "$proc" raid_resync_progress md127 1
  wait
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
}

@test "raid-destroy of an array that does not exist does nothing and succeeds (idempotent)" {
  run "$DESTROY" /dev/md/iobench-absent
  [ "$status" -eq 0 ]
  [[ $output == *"/dev/md/iobench-absent does not exist; nothing to stop"* ]]
  run "$DESTROY" --dry-run --name iobench-absent
  [ "$status" -eq 0 ]
  [[ $output != *mdadm* ]]
}

@test "raid-destroy --member leaves a device without md superblock alone" {
  run "$DESTROY" --name iobench-absent --member "${L[0]}"
  [ "$status" -eq 0 ]
  [[ $output == *"${L[0]} carries no md superblock; nothing to erase"* ]]
}

@test "raid-destroy refuses arguments that are not device paths" {
  run "$DESTROY" md0
  [ "$status" -eq 2 ]
  [[ $output == *"'md0' is not a device path"* ]]
  run "$DESTROY" --member
  [ "$status" -eq 2 ]
}

@test "the raid scripts and the VM builder are shellcheck clean" {
  command -v shellcheck >/dev/null || skip "shellcheck not installed"
  cd "$IOBENCH_ROOT"
  shellcheck -x raid/raid-create raid/raid-destroy scripts/lib/raid.sh scripts/lib/common.sh \
    tests/vm/build-vm tests/vm/run-vm tests/vm/guest-test
  shellcheck -s sh tests/vm/guest-init
}

@test "on a kernel without md raid-create says so before creating anything; --dry-run says so too" {
  # A /proc without mdstat: what a kernel without md shows (the host's may or may not have it).
  local proc=$BATS_TEST_TMPDIR/proc
  mkdir -p "$proc/self"
  cp /proc/self/mountinfo "$proc/self/mountinfo"
  cp /proc/swaps "$proc/swaps"
  run env RAID_PROC="$proc" "$CREATE" --level 0 --fs none --name ib-nomd "${L[0]}" "${L[1]}"
  [ "$status" -eq 1 ]
  [[ "$output" == *"raid-create: this kernel has no md RAID support (no $proc/mdstat"*"use a kernel built with md"* ]]
  [[ "$output" != *"mdadm:"* ]]
  [ ! -e /dev/md/ib-nomd ]
  [ -z "$(wipefs --no-headings "${L[0]}")" ]
  if ! modprobe -q -n md_mod 2>/dev/null; then
    run env RAID_PROC="$proc" "$CREATE" --dry-run --level 0 --fs none --name ib-nomd "${L[0]}" "${L[1]}"
    [ "$status" -eq 0 ]
    [[ "$output" == *"raid-create: warning: this kernel has no md RAID support"*"mdadm --create below would fail"* ]]
  fi
}
