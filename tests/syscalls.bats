#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# What iobench asks of the kernel, seen through strace: open flags, pread/pwrite
# sizes, and fdatasync frequency.

load lib/core

each_setup() {
  command -v strace >/dev/null || skip "strace not installed"
  make_file "$TMP/f" 32M
}

# opens_of LOG: the openat lines for the target.
opens_of() {
  grep -F "\"$TMP/f\"" "$1" | grep openat
}

@test "reads open read-only with O_DIRECT" {
  trace "$TMP/st" openat "$IOBENCH" -q -o read4k -t 2 -n 20 -d 10 "$TMP/f"
  [ "$(opens_of "$TMP/st" | grep -c 'O_RDONLY|O_DIRECT')" -ge 2 ]
  [ "$(opens_of "$TMP/st" | grep -cE 'O_WRONLY|O_RDWR')" -eq 0 ]
}

@test "flushed writes open with O_SYNC and O_DIRECT; --dsync uses O_DSYNC" {
  trace "$TMP/st" openat "$IOBENCH" -q -o write4k -n 20 -d 10 "$TMP/f"
  opens_of "$TMP/st" | grep -E 'O_WRONLY.*O_DIRECT' | grep -q 'O_SYNC'
  trace "$TMP/st2" openat "$IOBENCH" -q -o write4k -n 20 -d 10 --dsync "$TMP/f"
  line=$(opens_of "$TMP/st2" | grep 'O_WRONLY' | head -1)
  [[ "$line" == *O_DSYNC* && "$line" == *O_DIRECT* && "$line" != *O_SYNC* ]]
}

@test "write4k/64 is buffered and calls fdatasync about once per 64 writes" {
  trace "$TMP/st" openat,pwrite64,fdatasync \
    "$IOBENCH" -q -o write4k/64 -n 6400 -d 60 --seed 11 "$TMP/f"
  line=$(opens_of "$TMP/st" | grep O_WRONLY | head -1)
  [[ "$line" != *O_DIRECT* && "$line" != *O_SYNC* ]]
  writes=$(grep -cE 'pwrite64\(.*, 4096, [0-9]+\) = 4096' "$TMP/st")
  syncs=$(grep -c 'fdatasync(.*= 0' "$TMP/st")
  [ "$writes" -ge 6400 ]
  # expected 100; binomial sd ~ 10
  [ "$syncs" -ge 65 ] && [ "$syncs" -le 140 ]
  "$IOBENCH" -q -o write4k/64 -n 6400 -d 60 --seed 11 --json "$TMP/o.jsonl" "$TMP/f"
  [ "$(jq '.operations[0].fdatasyncs' "$TMP/o.jsonl")" -eq "$syncs" ]
}

@test "--direct and --no-direct override the defaults" {
  trace "$TMP/st" openat "$IOBENCH" -q -o write4k/64 -n 10 -d 10 --direct "$TMP/f"
  opens_of "$TMP/st" | grep O_WRONLY | grep -q O_DIRECT
  trace "$TMP/st2" openat "$IOBENCH" -q -o read4k -n 10 -d 10 --no-direct "$TMP/f"
  [ "$(opens_of "$TMP/st2" | grep -c O_DIRECT)" -eq 0 ]
}

@test "each operation transfers exactly its size" {
  trace "$TMP/st" pread64,pwrite64 \
    "$IOBENCH" -q -o read4m -o write64k -n 10 -d 10 "$TMP/f"
  [ "$(grep -c 'pread64(.*, 4194304, [0-9]*) = 4194304' "$TMP/st")" -ge 10 ]
  [ "$(grep -c 'pwrite64(.*, 65536, [0-9]*) = 65536' "$TMP/st")" -ge 10 ]
  [ "$(grep -F ', 4194304, ' "$TMP/st" | offsets_of /dev/stdin pread64 | awk '$1 % 4194304 != 0' | wc -l)" -eq 0 ]
}

# all_distinct_and_incompressible FILE BLOCK: no two BLOCK-byte blocks of FILE
# alike, and gzip saves less than 1% of it.
all_distinct_and_incompressible() {
  local size
  size=$(stat -c %s "$1")
  # one line of hex per block (-v: repeated lines too), in one process, not a
  # hashing process per block (16384 of them for 8 MiB of sectors)
  [ "$(od -An -v -tx1 -w"$2" "$1" | sort -u | wc -l)" -eq $((size / $2)) ]
  [ "$(gzip -c "$1" | wc -c)" -gt $((size * 99 / 100)) ]
}

@test "written data differs from write to write (no dedupable blocks)" {
  rm -f "$TMP/f"
  "$IOBENCH" create -q "$TMP/f" 1M
  # overwrite every block many times, then check blocks are all distinct
  "$IOBENCH" -q -o write4k -n 2000 -d 30 "$TMP/f"
  all_distinct_and_incompressible "$TMP/f" 4096
}

@test "large writes stay unique and incompressible without regenerating megabytes" {
  rm -f "$TMP/f"
  "$IOBENCH" create -q "$TMP/f" 8M
  "$IOBENCH" -q -o write1m -n 100 -d 30 "$TMP/f"
  # every 512-byte sector distinct, nothing for gzip to find
  all_distinct_and_incompressible "$TMP/f" 512
}
