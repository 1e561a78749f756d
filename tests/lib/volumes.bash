# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# volumes.bash - an "EBS volume" for each namespace host of a campaign test:
# a loop device over a sparse file, named on the host's line of a hosts file
# (volume=/dev/loopN: campaign's word for the device that stands for
# instance k's volume). moto attaches nothing real; the loop device is what
# the campaign formats, mounts and benchmarks.
#
#   volumes_make N SIZE   loop devices for hosts 1..N; VOLUMES[i-1] each;
#                         writes $NET/hosts-vol ("ADDR volume=/dev/loopN")
#   volumes_remove        detach them (after the hosts are gone)

VOLUMES=()

volumes_make() {
  local n=$1 size=$2 i loop
  : >"$NET/hosts-vol"
  for ((i = 1; i <= n; i++)); do
    truncate -s "$size" "$BATS_TEST_TMPDIR/volume$i.img"
    loop=$(losetup --find --show "$BATS_TEST_TMPDIR/volume$i.img") || return 1
    VOLUMES+=("$loop")
    printf '%s volume=%s\n' "$(netns_addr "$i")" "$loop" >>"$NET/hosts-vol"
  done
}

volumes_remove() {
  local loop
  for loop in "${VOLUMES[@]}"; do
    losetup -d "$loop" 2>/dev/null || true
  done
  VOLUMES=()
}
