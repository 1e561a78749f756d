# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# raid.sh - what raid/raid-create and raid/raid-destroy share: finding out
# what a block device is and what holds it. Source it after common.sh; do
# not run it.
#
# Everything here only reads the system (sysfs, /proc, wipefs, mdadm --examine);
# the scripts decide what to change and do it through common_run.
#
# RAID_SYSFS and RAID_PROC name the sysfs and procfs roots (default /sys and
# /proc) so the device discovery can be exercised against a prepared tree.

RAID_SYSFS=${RAID_SYSFS:-/sys}
RAID_PROC=${RAID_PROC:-/proc}

# raid_level_normalize LEVEL: print the canonical level (0 1 5 6 10 10f2) for
# LEVEL (also accepted: raid5, RAID10f2, 10-f2, 10,f2); fail if unknown.
raid_level_normalize() {
  local l=${1,,}
  l=${l#raid}
  l=${l//[-,]/}
  case $l in
  0 | 1 | 5 | 6 | 10 | 10f2) printf '%s\n' "$l" ;;
  *) return 1 ;;
  esac
}

# raid_min_devices LEVEL: fewest members mdadm accepts for a useful array.
raid_min_devices() {
  case $1 in
  0 | 1 | 10 | 10f2) echo 2 ;;
  5) echo 3 ;;
  6) echo 4 ;;
  esac
}

# raid_level_args LEVEL: the mdadm --create arguments selecting LEVEL.
raid_level_args() {
  case $1 in
  10f2) printf '%s\n' --level=10 --layout=f2 ;;
  *) printf '%s\n' "--level=$1" ;;
  esac
}

# raid_md_level LEVEL: the name the kernel reports in /sys/block/mdX/md/level.
raid_md_level() {
  case $1 in
  10f2) echo raid10 ;;
  *) echo "raid$1" ;;
  esac
}

# raid_chunk_kib SIZE: print SIZE (512, 512k, 64K, 1M; bare numbers are KiB
# as with mdadm) in KiB; fail unless it is a power of two of at least 4 KiB.
raid_chunk_kib() {
  local s=${1,,} n mult=1
  [[ $s =~ ^([0-9]+)(k|kb|kib|m|mb|mib)?$ ]] || return 1
  n=$((10#${BASH_REMATCH[1]}))
  [[ ${BASH_REMATCH[2]} == m* ]] && mult=1024
  n=$((n * mult))
  ((n >= 4 && (n & (n - 1)) == 0)) || return 1
  echo "$n"
}

# raid_kname DEV: the kernel name of block device DEV (/dev/md/x -> md127).
raid_kname() {
  local p
  p=$(readlink -f -- "$1") || return 1
  printf '%s\n' "${p##*/}"
}

# raid_sysdir KNAME: the sysfs directory of block device KNAME (whole disk or
# partition); fails if there is none.
raid_sysdir() {
  local d=$RAID_SYSFS/class/block/$1
  [[ -e $d/dev ]] || return 1
  printf '%s\n' "$d"
}

# raid_partitions KNAME: kernel names of the partitions of disk KNAME.
raid_partitions() {
  local d p
  d=$(raid_sysdir "$1") || return 0
  for p in "$d"/*/partition; do
    [[ -e $p ]] || continue
    p=${p%/partition}
    printf '%s\n' "${p##*/}"
  done
}

# raid_devnums KNAME: major:minor of KNAME and of each of its partitions.
raid_devnums() {
  local k d
  for k in "$1" $(raid_partitions "$1"); do
    d=$(raid_sysdir "$k") || continue
    cat "$d/dev"
  done
}

# raid_mountpoints KNAME: mount points of KNAME or of its partitions, one a
# line, deepest last (from mountinfo, so paths with spaces survive).
raid_mountpoints() {
  local nums mp
  nums=" $(raid_devnums "$1" | tr '\n' ' ')"
  [[ -r $RAID_PROC/self/mountinfo ]] || return 0
  # mountinfo: id parent major:minor root mountpoint ...; \040 etc. escaped.
  while read -r _ _ num _ mp _; do
    [[ $nums == *" $num "* ]] && printf '%b\n' "$mp"
  done <"$RAID_PROC/self/mountinfo"
}

# raid_swaps KNAME: swap areas on KNAME or its partitions (from /proc/swaps).
raid_swaps() {
  local k names dev
  names=" $1 $(raid_partitions "$1" | tr '\n' ' ') "
  [[ -r $RAID_PROC/swaps ]] || return 0
  while read -r dev _; do
    [[ $dev == /dev/* ]] || continue
    k=$(raid_kname "$dev" 2>/dev/null) || continue
    [[ $names == *" $k "* ]] && printf '%s\n' "$dev"
  done <"$RAID_PROC/swaps"
}

# raid_holders KNAME: kernel names of devices stacked on KNAME or its
# partitions (md arrays, device-mapper, ...), from sysfs holders/ and from
# /proc/mdstat (which also lists inactive arrays).
raid_holders() {
  local k d h line md
  {
    for k in "$1" $(raid_partitions "$1"); do
      d=$(raid_sysdir "$k") || continue
      for h in "$d"/holders/*; do
        [[ -e $h ]] && printf '%s\n' "${h##*/}"
      done
      [[ -r $RAID_PROC/mdstat ]] || continue
      while read -r line; do
        [[ $line =~ ^(md[^[:space:]]*)[[:space:]]*: ]] || continue
        md=${BASH_REMATCH[1]}
        [[ " $line " =~ [[:space:]]$k\[[0-9]+\] ]] && printf '%s\n' "$md"
      done <"$RAID_PROC/mdstat"
    done
  } | sort -u
}

# raid_md_members KNAME: kernel names of the members of md array KNAME.
raid_md_members() {
  local d s
  d=$(raid_sysdir "$1") || return 0
  for s in "$d"/slaves/*; do
    [[ -e $s ]] && printf '%s\n' "${s##*/}"
  done
}

# raid_md_present KNAME: true if KNAME is an md array that is running or
# still holds members (an inactive, half-assembled array).
raid_md_present() {
  local d state
  d=$(raid_sysdir "$1") || return 1
  [[ -r $d/md/array_state ]] || return 1
  state=$(<"$d/md/array_state")
  [[ $state != clear ]] || [[ -n $(raid_md_members "$1") ]]
}

# raid_signatures DEV: "TYPE@OFFSET" for every filesystem, RAID or partition
# table signature wipefs finds on DEV (nothing if DEV is blank).
raid_signatures() {
  common_need_cmd wipefs util-linux
  wipefs --noheadings --output TYPE,OFFSET -- "$1" | awk 'NF {print $1 "@" $2}'
}

# raid_root_disk: kernel name of the disk that holds / (empty if / is not
# on a block device, e.g. overlay or tmpfs).
raid_root_disk() {
  local num mp d
  [[ -r $RAID_PROC/self/mountinfo ]] || return 0
  while read -r _ _ num _ mp _; do
    [[ $mp == / ]] || continue
    d=$(readlink -f "$RAID_SYSFS/dev/block/$num" 2>/dev/null) || continue
    [[ -e $d/dev ]] || continue
    [[ -e $d/partition ]] && d=${d%/*}
    printf '%s\n' "${d##*/}"
  done <"$RAID_PROC/self/mountinfo" | tail -n 1
}

# Model string of AWS instance-store NVMe disks (EBS NVMe volumes read
# "Amazon Elastic Block Store").
RAID_INSTANCE_STORE_MODEL=${RAID_INSTANCE_STORE_MODEL:-Amazon EC2 NVMe Instance Storage}
# Instance metadata endpoint (Xen instances name instance-store disks there).
RAID_IMDS=${RAID_IMDS:-http://169.254.169.254}

# raid_imds_ephemeral: kernel names (xvdb ...) of the instance-store disks the
# EC2 metadata service lists under block-device-mapping/ephemeralN; nothing
# when the service is unreachable (not on EC2) or curl is missing.
raid_imds_ephemeral() {
  local token key dev
  command -v curl >/dev/null 2>&1 || return 0
  token=$(curl -sf -m 2 -X PUT -H 'X-aws-ec2-metadata-token-ttl-seconds: 60' \
    "$RAID_IMDS/latest/api/token" 2>/dev/null) || return 0
  for key in $(curl -sf -m 2 -H "X-aws-ec2-metadata-token: $token" \
    "$RAID_IMDS/latest/meta-data/block-device-mapping/" 2>/dev/null | grep '^ephemeral'); do
    dev=$(curl -sf -m 2 -H "X-aws-ec2-metadata-token: $token" \
      "$RAID_IMDS/latest/meta-data/block-device-mapping/$key" 2>/dev/null) || continue
    dev=${dev#/dev/}
    # The mapping says sdb; Xen kernels call it xvdb.
    printf '%s\n' "xvd${dev#sd}" | sed 's/^xvdxvd/xvd/'
  done
}

# raid_instance_store_devices: /dev paths of all instance-store disks (NVMe
# disks whose model is RAID_INSTANCE_STORE_MODEL, and xvd disks the metadata
# service maps as ephemeral), never the disk holding /. Sorted by name.
raid_instance_store_devices() {
  local root d k model
  root=$(raid_root_disk)
  {
    for d in "$RAID_SYSFS"/block/nvme*n*; do
      [[ -e $d/dev ]] || continue
      k=${d##*/}
      model=$(sed 's/[[:space:]]*$//' "$d/device/model" 2>/dev/null) || continue
      [[ $model == "$RAID_INSTANCE_STORE_MODEL" ]] && printf '%s\n' "$k"
    done
    for k in $(raid_imds_ephemeral); do
      [[ -e $RAID_SYSFS/block/$k/dev ]] && printf '%s\n' "$k"
    done
  } | sort -uV | while read -r k; do
    [[ $k == "$root" ]] || printf '/dev/%s\n' "$k"
  done
}

# raid_resync_status KNAME: "WHAT PERCENT MINUTES" of the resync (or
# recovery, reshape, check) of md array KNAME as /proc/mdstat shows it,
# e.g. "resync 13.2 0.3"; "resync pending -" while it waits to start;
# nothing when none runs.
raid_resync_status() {
  local line mine=0
  [[ -r $RAID_PROC/mdstat ]] || return 0
  while read -r line; do
    if [[ $line =~ ^(md[^[:space:]]*)[[:space:]]*: ]]; then
      mine=0
      [[ ${BASH_REMATCH[1]} != "$1" ]] || mine=1
      continue
    fi
    ((mine)) || continue
    if [[ $line =~ (resync|recovery|reshape|check)[[:space:]]*=[[:space:]]*([0-9.]+)%.*finish=([0-9.]+)min ]]; then
      printf '%s %s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
      return 0
    fi
    if [[ $line =~ (resync|recovery|reshape|check)[[:space:]]*=[[:space:]]*(PENDING|DELAYED) ]]; then
      printf '%s pending -\n' "${BASH_REMATCH[1]}"
      return 0
    fi
  done <"$RAID_PROC/mdstat"
}

# raid_resync_progress KNAME [INTERVAL]: while array KNAME resyncs (or
# recovers, reshapes, checks), say how far it is and its ETA every INTERVAL
# seconds (default 5) through common_progress (a terminal only); returns
# when none runs.
raid_resync_progress() {
  local st what pct min
  while st=$(raid_resync_status "$1") && [[ -n $st ]]; do
    read -r what pct min <<<"$st"
    if [[ $pct == pending ]]; then
      common_progress "$what of /dev/$1: waiting to start"
    else
      common_progress "$what of /dev/$1: $pct%, $(common_eta_text "$(awk -v m="$min" 'BEGIN { printf "%d", m * 60 + 0.5 }')")"
    fi
    sleep "${2:-5}"
  done
}
