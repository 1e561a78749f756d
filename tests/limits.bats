#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# Signals at every phase and the edges of the ranges: either it works or it
# is refused clearly; no overflow, no giant allocation, no stuck threads.

load lib/core

each_setup() {
  make_file "$TMP/f" 16M
}

@test "SIGHUP and SIGTERM mid-run write results and exit 130, like SIGINT" {
  for sig in HUP TERM; do
    rc=$(stop_after 1.5 "$sig" "$IOBENCH" -q -o read4k -o write4k -t 4 -d 60 --json "$TMP/$sig.jsonl" "$TMP/f")
    [ "$rc" -eq 130 ]
    jq -e '.interrupted == true and ([.operations[].total.count > 0] | all)' "$TMP/$sig.jsonl"
  done
}

@test "a signal during --size creation removes the partial file and exits 130" {
  [ "$(df --output=avail -B1 "$TMP" | tail -1)" -gt $((10 * 1024 * 1024 * 1024)) ] || skip "env: needs 10 GiB free"
  rc=$(stop_after 0.3 INT "$IOBENCH" -q -o read4k -d 5 --size 8G "$TMP/big")
  if [ "$rc" -eq 0 ]; then skip "env: creation finished before the signal"; fi
  [ "$rc" -eq 130 ]
  [ ! -e "$TMP/big" ]
}

@test "1024 threads run and are all accounted for" {
  "$IOBENCH" -q -o read4k -t 1024 -n 3 -d 30 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '.operations[0] | .threadCount == 1024 and .total.count == 3072' "$TMP/o.jsonl"
}

@test "a 1-byte operation works buffered and is explained with O_DIRECT" {
  "$IOBENCH" -q -o read1 -o write1/0 --together -n 100 -d 30 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '[.operations[] | .total.count == 100 and .blockSize == 1] | all' "$TMP/o.jsonl"
  run "$IOBENCH" -q -o read1 -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == *"read1 with O_DIRECT needs a size and alignment that are multiples of"*"--no-direct"* ]]
}

@test "a 1 GiB operation works; 2 GiB is refused; giant buffer sets are refused" {
  truncate -s 2G "$TMP/sparse"
  "$IOBENCH" -q -o read1g -n 1 -d 60 --no-direct --json "$TMP/o.jsonl" "$TMP/sparse" 2>/dev/null
  jq -e '.operations[0] | .total.count == 1 and .bytes == 1073741824' "$TMP/o.jsonl"
  run "$IOBENCH" -q -o read2g -d 1 "$TMP/sparse"
  [ "$status" -eq 2 ]
  [[ "$output" == *"over 1G"* ]]
  run "$IOBENCH" -q -o read1g -t 1024 -d 1 --no-direct "$TMP/sparse"
  [ "$status" -eq 1 ]
  [[ "$output" == *"iobench: the I/O buffers would need 1024.0 GiB (threads x iodepth x op size), over half the RAM"* ]]
}

@test "very short and very long durations" {
  "$IOBENCH" -q -o read4k -d 0.01 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '.elapsed < 1 and .operations[0].total.count > 0' "$TMP/o.jsonl"
  run "$IOBENCH" -q -o read4k -d 101d "$TMP/f"
  [ "$status" -eq 2 ]
  # a week-long run with 1 s buckets needs too many histograms: refused, not attempted
  run "$IOBENCH" -q -o read4k -t 2000 -d 7d -b 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == *"time buckets need over 2 GB; use a longer --bucket"* ]]
}

@test "huge numbers do not overflow" {
  run "$IOBENCH" -q -o read99999999999999999999k -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  run "$IOBENCH" -q -n 99999999999999999999 -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  run "$IOBENCH" -q --span 16E -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  run "$IOBENCH" -q -o 'read,4096.5,4K,4K' -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
}

@test "a signal during a sweep of short runs keeps every finished line and exits 130" {
  rc=$(stop_after 1.5 INT "$IOBENCH" -q -o read4k -t 1..200 -n 200 -d 30 --no-direct --json "$TMP/o.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  n=$(wc -l < "$TMP/o.jsonl")
  [ "$n" -ge 1 ] && [ "$n" -lt 200 ]
  # every line whole; only the last may be marked interrupted
  [ "$(jq -c . "$TMP/o.jsonl" | wc -l)" -eq "$n" ]
  [ "$(jq -r '.threads' "$TMP/o.jsonl" | paste -sd, -)" = "$(seq -s, 1 "$n")" ]
  [ "$(jq -s '[.[:-1][] | .interrupted] | any' "$TMP/o.jsonl")" = false ]
}

@test "SIGINT stops a report at once with 130 and no partial table" {
  for i in $(seq 1 300); do "$IOBENCH" -q -o read4k -n 5 -d 5 --label "i=$i" --json "$TMP/r.jsonl" "$TMP/f"; done
  # 60,000 lines: a second or more of work, so the signal lands mid-report
  for i in $(seq 1 200); do cat "$TMP/r.jsonl"; done > "$TMP/big.jsonl"
  # background jobs of a non-interactive shell start with SIGINT ignored: undo that, as a terminal would
  env --default-signal=INT "$IOBENCH" report --json "$TMP/big.jsonl" > "$TMP/out.json" &
  pid=$!
  sleep 0.2
  kill -INT "$pid" || true
  rc=0
  wait "$pid" || rc=$?
  if [ "$rc" -eq 0 ]; then skip "env: report finished before the signal"; fi
  [ "$rc" -eq 130 ]
  [ ! -s "$TMP/out.json" ]
}
