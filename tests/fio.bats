#!/usr/bin/env bats
# Cross-check against fio on the same file and settings: if iobench measured
# itself rather than the device, IOPS and p50 would disagree. Both run at
# the same time, one thread each, and must agree within a factor 1.5;
# bench/vs-fio measures the ratios closely, one tool at a time. (fio's clat leaves out fdatasync time; its p50 does not
# see it either way, since only 1 in 64 writes syncs.)

load lib/core

setup() {
  command -v fio >/dev/null || skip "fio not installed"
  core_setup
  make_file "$TMP/f" 256M
}

teardown() {
  core_teardown
}

# within_factor A B F: A and B differ by at most a factor F.
within_factor() {
  awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a > 0 && b > 0 && a / b <= f && b / a <= f) }'
}

# compare_once NAME IOBENCH_OP FIO_ARGS...: run iobench and fio side by side on
# the same file for 4 s (the device's mood on this shared machine swings by 3x
# within seconds, so running them apart compares moods, not tools), then
# compare IOPS and p50.
compare_once() {
  local name=$1 op=$2 dir
  shift 2
  fio --name="$name" --filename="$TMP/f" --ioengine=psync --numjobs=1 --runtime=4 --time_based \
    --randrepeat=0 --norandommap --output-format=json "$@" > "$TMP/$name.fio.json" &
  local fio_pid=$!
  "$IOBENCH" -q -o "$op" -d 4 --json "$TMP/$name.jsonl" "$TMP/f"
  wait "$fio_pid"
  dir=$(jq -r 'if .jobs[0].read.io_bytes > 0 then "read" else "write" end' "$TMP/$name.fio.json")
  local ib_iops ib_p50 fio_iops fio_p50
  ib_iops=$(jq '.operations[0].iops' "$TMP/$name.jsonl")
  ib_p50=$(jq '.operations[0].percentiles.p50' "$TMP/$name.jsonl")
  fio_iops=$(jq ".jobs[0].$dir.iops" "$TMP/$name.fio.json")
  fio_p50=$(jq ".jobs[0].$dir.clat_ns.percentile[\"50.000000\"]" "$TMP/$name.fio.json")
  echo "# $name: iobench $ib_iops IOPS, p50 $ib_p50 ns; fio $fio_iops IOPS, p50 $fio_p50 ns" >&3
  within_factor "$ib_iops" "$fio_iops" 1.5 && within_factor "$ib_p50" "$fio_p50" 1.5
}

# compare NAME IOBENCH_OP FIO_ARGS...: compare_once, up to three times. Side by
# side on a loaded machine, one tool can lose the CPU to the other for a whole
# run (a page-cache op is CPU-bound); a tool that measures itself disagrees
# every time.
compare() {
  local try
  for try in 1 2 3; do
    compare_once "$@" && return 0
    echo "# $1: attempt $try disagrees" >&3
  done
  return 1
}

@test "read4k O_DIRECT agrees with fio randread direct=1" {
  compare read4k read4k --rw=randread --bs=4k --direct=1
}

@test "write4k O_DIRECT|O_SYNC agrees with fio randwrite direct=1 sync=1" {
  compare write4k write4k --rw=randwrite --bs=4k --direct=1 --sync=1
}

@test "write4k/64 agrees with fio randwrite fdatasync=64" {
  compare write4k_64 write4k/64 --rw=randwrite --bs=4k --fdatasync=64
}
