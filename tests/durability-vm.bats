#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=vm,root,slow
# iobench durability against a real kernel storage stack that lies and one
# that does not: a Debian kernel under qemu (software emulation) puts the
# target on dm-flakey, the server runs here on the host (the guest reaches it
# at 10.0.2.2 over qemu's user network), the "power cut" is a drop_writes
# table (acknowledges, keeps nothing) or an error_writes table (fails every
# write), the "reboot" removes the device and creates it again with a working
# table (tests/vm/guest-durability). Then a whole VM is killed with SIGKILL
# mid-run and a fresh boot verifies. About 2.5 minutes.

bats_require_minimum_version 1.5.0

# start_server DIR: a durability server on a free loopback port, its pid in
# DIR.pid; sets PORT.
start_server() {
  local dir=$1 i
  : >"$dir.err"
  "$IOBENCH" durability serve --listen 127.0.0.1:0 --dir "$dir" </dev/null >/dev/null 2>>"$dir.err" 3>&- &
  echo $! >"$dir.pid"
  PORT=
  for ((i = 0; i < 100 && ${#PORT} == 0; i++)); do
    sleep 0.1
    PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$dir.err")
  done
  [[ -n $PORT ]] || { echo "the server did not start: $(cat "$dir.err")" >&3; return 1; }
}

# vm_dir NAME: a folder with the built kernel and initramfs.
vm_dir() {
  mkdir -p "$VMDIR/$1"
  ln -sf ../vmlinuz "$VMDIR/$1/vmlinuz"
  ln -sf ../initramfs.gz "$VMDIR/$1/initramfs.gz"
}

# acks_in DIR: acknowledgement records in the logs under DIR.
acks_in() { cat "$1"/*.log 2>/dev/null | grep -c '^A ' || true; }

kill_scenario() {
  local d=$VMDIR/kill runpid i
  vm_dir kill
  start_server "$VMDIR/kill-logs"
  tests/vm/run-vm --timeout 300 --script guest-durability --net --keep-disks \
    --append "iobench.server=10.0.2.2:$PORT iobench.phase=kill-write" "$d" >"$d/write.log" 2>&1 &
  runpid=$!
  # Cut the power once the writers are busy: qemu dies with everything in flight.
  for ((i = 0; i < 2400; i++)); do
    grep -q '^IOBENCH-VM WRITING' "$d/results.txt" 2>/dev/null &&
      (($(acks_in "$VMDIR/kill-logs") >= 1000)) && break
    sleep 0.1
  done
  [[ -s $d/qemu.pid ]] && kill -KILL "$(cat "$d/qemu.pid")"
  wait "$runpid" || true
  cp "$d/results.txt" "$d/results-write.txt" 2>/dev/null || true
  tests/vm/run-vm --timeout 300 --script guest-durability --net --keep-disks \
    --append "iobench.server=10.0.2.2:$PORT iobench.phase=kill-verify" "$d" >"$d/verify.log" 2>&1 || true
  touch "$d/results.txt"
}

setup_file() {
  local c
  for c in qemu-system-x86_64 busybox dmsetup cpio depmod dpkg-deb jq; do
    command -v "$c" >/dev/null || skip "$c not installed (see .ci/apt-raid.txt)"
  done
  export VMDIR=$IOBENCH_ROOT/tests/.tmp/durability-vm
  rm -rf "$VMDIR"
  mkdir -p "$VMDIR"
  cd "$IOBENCH_ROOT" || return 1
  IOBENCH=${IOBENCH:-$IOBENCH_ROOT/iobench} tests/vm/build-vm "$VMDIR" >"$VMDIR/build.log" 2>&1 || {
    cat "$VMDIR/build.log" >&3
    return 1
  }
  # The four power cuts in one boot; the disks stay for the host's own look.
  vm_dir flakey
  start_server "$VMDIR/flakey-logs"
  tests/vm/run-vm --timeout 400 --script guest-durability --net --keep-disks \
    --append "iobench.server=10.0.2.2:$PORT iobench.phase=flakey" "$VMDIR/flakey" >"$VMDIR/flakey/run.log" 2>&1 || true
  touch "$VMDIR/flakey/results.txt"
  kill_scenario
}

teardown_file() {
  local f
  for f in "$VMDIR"/flakey-logs.pid "$VMDIR"/kill-logs.pid; do
    [[ -s $f ]] && kill -TERM "$(cat "$f")" 2>/dev/null
  done
  rm -f "$VMDIR"/*/*.img
}

# assert_case RESULTS CASE CHECK...: PASS for every CHECK of CASE, no FAIL.
assert_case() {
  local r=$1 c=$2 chk fails
  shift 2
  fails=$(grep "^IOBENCH-VM FAIL $c " "$r" || true)
  if [[ -n $fails ]]; then
    echo "$fails"
    grep "^IOBENCH-VM INFO $c " "$r" | head -n 30
    return 1
  fi
  for chk in "$@"; do
    grep -qx "IOBENCH-VM PASS $c $chk" "$r" || {
      echo "no PASS for $c $chk; console tail:"
      tail -n 20 "$(dirname "$r")/console.log"
      return 1
    }
  done
}

# json_of RESULTS CASE: verify's JSON line for CASE.
json_of() {
  sed -n "/^IOBENCH-VM JSON-BEGIN $2\$/,/^IOBENCH-VM JSON-END $2\$/p" "$1" | grep '^{'
}

# acked_blocks LOG: distinct blocks the server heard acknowledged in LOG.
acked_blocks() { grep '^A ' "$1" | awk '{print $3}' | sort -u | wc -l; }

# check_cut CASE LOGDIR: the JSON of a power-cut case against the server's own log; echoes the JSON.
check_cut() {
  local json run log
  json=$(json_of "$VMDIR/flakey/results.txt" "$1")
  [[ $(wc -l <<<"$json") == 1 ]] || { echo "want 1 JSON line for $1, got: $json" >&2; return 1; }
  run=$(jq -r .durability.run <<<"$json")
  log=$VMDIR/flakey-logs/$run.log
  [[ -s $log ]] || { echo "no server log for run $run" >&2; return 1; }
  # what verify counted is what the host-side server heard, block for block
  jq -e --argjson acked "$(acked_blocks "$log")" --arg case "$1" '
    .mode == "durability" and .labels.case == $case and .target.type == "block"
    and .durability.acknowledged == $acked and $acked > 0
    and .durability.intact + .durability.newer + .durability.torn + .durability.lost == $acked
    and .durability.lost == .durability.lostOlder + .durability.lostMissing + .durability.lostTorn
    and .durability.writersSeen == 2 and .durability.blocks == 2048' <<<"$json" >/dev/null || {
    jq -c .durability <<<"$json" >&2
    return 1
  }
  printf '%s\n' "$json"
}

# seq_at IMAGE BLOCK: the sequence stamped in BLOCK's first sector of a disk image ("" if none).
seq_at() {
  [[ $(dd if="$1" bs=4096 skip="$2" count=1 status=none | head -c 8) == IOBDUR01 ]] || return 0
  od -An -tu8 -j $(($2 * 4096 + 24)) -N 8 "$1" | tr -d ' '
}

# lying CASE IMAGE: LOST blocks reported, and the host's look at the disk image agrees.
assert_lying() {
  local json b want got n
  json=$(check_cut "$1")
  jq -e '.durability.verdict == "lost" and .durability.lost > 0' <<<"$json" >/dev/null || {
    jq -c .durability <<<"$json"
    return 1
  }
  echo "# $1: $(jq -r '.durability | "\(.lost) of \(.acknowledged) acknowledged blocks LOST (older \(.lostOlder), missing \(.lostMissing), torn \(.lostTorn)); \(.intact) intact"' <<<"$json")" >&3
  # Each lost block the JSON names does not hold its acknowledged version in the image file.
  n=0
  while read -r b want; do
    got=$(seq_at "$VMDIR/flakey/$2" "$b")
    [[ $got != "$want" ]] || { echo "block $b holds version $want in $2, but was reported lost"; return 1; }
    n=$((n + 1))
  done < <(jq -r '.durability.lostBlocks[] | "\(.block) \(.acknowledged)"' <<<"$json")
  ((n > 0))
}

assert_honest() {
  local json
  json=$(check_cut "$1")
  jq -e '.durability.verdict == "ok" and .durability.lost == 0 and .durability.writersEnded == 2' \
    <<<"$json" >/dev/null || {
    jq -c .durability <<<"$json"
    return 1
  }
  echo "# $1: 0 of $(jq .durability.acknowledged <<<"$json") acknowledged blocks lost" >&3
}

@test "the guest boots with dm-flakey, reaches the server on the host, runs the four power cuts and finishes" {
  assert_case "$VMDIR/flakey/results.txt" boot network iobench dm-flakey
  grep -qx 'IOBENCH-VM DONE' "$VMDIR/flakey/results.txt" || { tail -n 30 "$VMDIR/flakey/console.log"; false; }
}

@test "a lying stack (drop_writes) under write4k: verify reports LOST blocks, exit 3" {
  assert_case "$VMDIR/flakey/results.txt" lying-direct create writer-exit-130 remove recreate verify-exit-3
  assert_lying lying-direct disk0.img
}

@test "an honest stack (error_writes) under write4k: the writer stops on EIO, no acknowledged block is lost, exit 0" {
  assert_case "$VMDIR/flakey/results.txt" honest-direct create writer-exit-1 writer-saw-eio remove recreate \
    verify-exit-0
  assert_honest honest-direct
}

@test "a lying stack under write4k/16 (fdatasync acknowledged, nothing kept): LOST blocks, exit 3" {
  assert_case "$VMDIR/flakey/results.txt" lying-buffered create writer-exit-130 remove recreate verify-exit-3
  assert_lying lying-buffered disk2.img
}

@test "an honest stack under write4k/16: fdatasync fails, nothing after it is acknowledged, nothing lost" {
  assert_case "$VMDIR/flakey/results.txt" honest-buffered create writer-exit-1 writer-saw-eio remove recreate \
    verify-exit-0
  assert_honest honest-buffered
}

@test "the report reads the verdicts: LOST for both lying cases, ok for both honest ones" {
  local f=$VMDIR/verdicts.jsonl c
  : >"$f"
  for c in lying-direct honest-direct lying-buffered honest-buffered; do
    json_of "$VMDIR/flakey/results.txt" "$c" >>"$f"
  done
  run --separate-stderr "$IOBENCH" report --json --section durabilityVerify "$f"
  [ "$status" -eq 0 ]
  jq -e '[.durabilityVerify[] | {case: (.labels | capture("case=(?<c>[^,]*)").c), verdict}] | sort_by(.case) ==
    [{case: "honest-buffered", verdict: "ok"}, {case: "honest-direct", verdict: "ok"},
     {case: "lying-buffered", verdict: "LOST"}, {case: "lying-direct", verdict: "LOST"}]' <<<"$output"
}

@test "SIGKILL to qemu mid-run, then a fresh boot: verify finds every acknowledged block, the server logged both writers cut off" {
  local r=$VMDIR/kill/results.txt json run log
  grep -qx 'IOBENCH-VM WRITING' "$VMDIR/kill/results-write.txt"
  ! grep -q 'IOBENCH-VM DONE' "$VMDIR/kill/results-write.txt"
  assert_case "$r" kill verify-exit-0
  json=$(json_of "$r" kill)
  run=$(jq -r .durability.run <<<"$json")
  log=$VMDIR/kill-logs/$run.log
  grep -q '^GONE 0 ' "$log"
  grep -q '^GONE 1 ' "$log"
  ! grep -q '^BYE ' "$log"
  jq -e --argjson acked "$(acked_blocks "$log")" '.durability |
    .acknowledged == $acked and $acked > 0 and .lost == 0 and .verdict == "ok"
    and .writersSeen == 2 and .writersEnded == 0 and .writeTarget == "/dev/vdc"' <<<"$json" || {
    jq -c .durability <<<"$json"
    false
  }
  echo "# kill: $(jq -r '.durability | "\(.acknowledged) acknowledged blocks, \(.lost) lost, \(.newer) newer, \(.neverAcknowledged) never acknowledged"' <<<"$json")" >&3
}
