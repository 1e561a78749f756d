#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# Agreement with fio on what reaches the kernel, seen through strace: the same
# operation in both tools opens the file with the same flags and issues the
# same calls (size, alignment, count, syncs). What each tool then measures
# (IOPS, p50 side by side) is a measurement, not a test: bench/vs-fio.

load lib/core

each_setup() {
  command -v fio >/dev/null || skip "fio not installed (.ci/apt-core.txt)"
  command -v strace >/dev/null || skip "strace not installed (.ci/apt-core.txt)"
  make_file "$TMP/f" 32M
}

# both NAME IOBENCH_OP FIO_ARGS...: N=640 operations of each tool on the same
# file under strace; their calls in $TMP/NAME.iob and $TMP/NAME.fio.
N=640
both() {
  local name=$1 op=$2
  shift 2
  trace "$TMP/$name.iob" openat,pread64,pwrite64,fdatasync \
    "$IOBENCH" -q -o "$op" -n "$N" -d 60 --seed 7 "$TMP/f"
  trace "$TMP/$name.fio" openat,pread64,pwrite64,fdatasync \
    fio --name="$name" --filename="$TMP/f" --ioengine=psync --numjobs=1 --number_ios="$N" \
    --randrepeat=0 --norandommap --output="$TMP/$name.fio.txt" "$@"
}

# open_flags LOG: the open flags of the target's descriptor, sorted, one line.
open_flags() {
  grep -F "\"$TMP/f\"" "$1" | grep openat | tail -n 1 | sed -E 's/.*", ([A-Z_|]+).*/\1/' |
    tr '|' '\n' | grep -E '^O_(DIRECT|SYNC|DSYNC)$' | sort | paste -sd' ' -
}

# calls LOG SYSCALL [ALIGNED]: how many SYSCALL calls moved 4096 bytes (with
# ALIGNED: at a 4 KiB-aligned offset). The loader's reads of the libraries are
# other sizes.
calls() {
  grep -E "^([0-9]+ +)?$2\(.*, 4096, [0-9]+\) += 4096" "$1" | sed -E 's/.*, ([0-9]+)\) += .*/\1/' |
    awk -v a="${3:-}" 'a == "" || $1 % 4096 == 0' | wc -l
}

# ops_of LOG SYSCALL: whether LOG holds N SYSCALL calls of 4 KiB, all aligned,
# besides at most 2 made before the clock starts (iobench probes the target
# and each worker checks its descriptor with one I/O).
ops_of() {
  local all aligned
  all=$(calls "$1" "$2")
  aligned=$(calls "$1" "$2" aligned)
  echo "$1: $all $2 calls of 4 KiB, $aligned aligned"
  ((all == aligned && all >= N && all <= N + 2))
}

@test "read4k reads as fio's randread direct=1 bs=4k: O_DIRECT, 4 KiB aligned preads, one per op" {
  both read read4k --rw=randread --bs=4k --direct=1
  [ "$(open_flags "$TMP/read.iob")" = "O_DIRECT" ]
  [ "$(open_flags "$TMP/read.fio")" = "O_DIRECT" ]
  ops_of "$TMP/read.iob" pread64
  ops_of "$TMP/read.fio" pread64
  [ "$(grep -c 'pwrite64(' "$TMP/read.iob")" -eq 0 ]
  [ "$(grep -c 'pwrite64(' "$TMP/read.fio")" -eq 0 ]
}

@test "write4k writes as fio's randwrite direct=1 sync=1: O_DIRECT|O_SYNC, 4 KiB aligned pwrites, no fdatasync" {
  both write write4k --rw=randwrite --bs=4k --direct=1 --sync=1
  [ "$(open_flags "$TMP/write.iob")" = "O_DIRECT O_SYNC" ]
  [ "$(open_flags "$TMP/write.fio")" = "O_DIRECT O_SYNC" ]
  ops_of "$TMP/write.iob" pwrite64
  ops_of "$TMP/write.fio" pwrite64
  [ "$(grep -c 'fdatasync(' "$TMP/write.iob")" -eq 0 ]
  [ "$(grep -c 'fdatasync(' "$TMP/write.fio")" -eq 0 ]
}

@test "write4k/64 writes as fio's randwrite fdatasync=64: buffered, 4 KiB aligned pwrites, about one fdatasync per 64" {
  both wsync write4k/64 --rw=randwrite --bs=4k --fdatasync=64
  [ -z "$(open_flags "$TMP/wsync.iob")" ]
  [ -z "$(open_flags "$TMP/wsync.fio")" ]
  ops_of "$TMP/wsync.iob" pwrite64
  ops_of "$TMP/wsync.fio" pwrite64
  # fio syncs after every 64th write but the last (9 of 640); iobench with
  # probability 1/64 (seeded): near 10.
  local fio_syncs iob_syncs
  fio_syncs=$(grep -c 'fdatasync(' "$TMP/wsync.fio")
  iob_syncs=$(grep -c 'fdatasync(' "$TMP/wsync.iob")
  echo "fdatasync: fio $fio_syncs, iobench $iob_syncs"
  ((fio_syncs >= N / 64 - 1 && fio_syncs <= N / 64))
  ((iob_syncs >= 3 && iob_syncs <= 30))
}
