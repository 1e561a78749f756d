#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# Faults: injected I/O errors (an LD_PRELOAD library, tests/helpers/faultinj.c),
# real errors from a loop device on a full tmpfs, and targets that vanish.
# A benchmark must count errors apart from latencies, finish its run, and
# never take a short transfer for a full one.

load lib/core
bats_require_minimum_version 1.5.0

FAULT_SO=${IOBENCH_ROOT:-$BATS_TEST_DIRNAME/..}/build/tests/faultinj.so

each_setup() {
  [ -f "$FAULT_SO" ] || skip "build/tests/faultinj.so not built (make unit-tests)"
  make_file "$TMP/f" 16M
}

each_teardown() {
  if [[ -n "${LOOP:-}" ]]; then losetup -d "$LOOP" 2>/dev/null || true; fi
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
}

# faulty RULES ARGS...: run iobench with faults injected on $TMP/f
faulty() {
  local rules=$1
  shift
  IOB_FAULT_PATH=$TMP/f IOB_FAULT=$rules LD_PRELOAD=$FAULT_SO "$IOBENCH" "$@"
}

@test "EIO on every 7th read is counted in errorCount, not in the latencies, and the run completes" {
  run faulty pread:eio:7 -q -o read4k -n 700 -d 30 --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  # the preflight reads are calls 1 and 2: of the 700 timed reads (calls 3-702), 7, 14, ... 700 fail
  jq -e '.operations[0] | .total.errorCount == 100 and .total.count == 600
         and (.total.buckets | add) == 600 and .bytes == 600 * 4096
         and .firstError.error == "Input/output error"
         and ([.timeBuckets[].errorCount] | add) == 100' "$TMP/o.jsonl"
  run faulty pread:eio:7 -o read4k -n 70 -d 30 "$TMP/f"
  [[ "$output" == *"warning: read4k: 10 of 70 operations failed (first: Input/output error"* ]]
}

@test "failed operations are warned of on stderr, under -q too, never in the summary on stdout" {
  run --separate-stderr faulty pread:eio:7 -q -o read4k -n 70 -d 30 "$TMP/f"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [ "$(grep -c '^iobench: warning: read4k: 10 of 70 operations failed' <<<"$stderr")" -eq 1 ]
  run --separate-stderr faulty pread:eio:7 -o read4k -n 70 -d 30 "$TMP/f"
  [ "$status" -eq 0 ]
  grep -q '^read4k ' <<<"$output"
  [[ "$output" != *warning* ]]
  [ "$(grep -c '^iobench: warning: read4k: 10 of 70 operations failed' <<<"$stderr")" -eq 1 ]
}

@test "short reads and writes are completed, never counted as full ones" {
  faulty pread:short:3,pwrite:short:2 -q -o read4k -o write4k --together -n 300 -d 30 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '[.operations[] | .total.count == 300 and .total.errorCount == 0 and .bytes == 300 * 4096] | all' "$TMP/o.jsonl"
}

@test "a transfer that stops short (end of file) is an error" {
  faulty pread:zero:5 -q -o read4k -n 100 -d 30 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '.operations[0] | .total.errorCount == 20 and .total.count == 80 and .bytes == 80 * 4096' "$TMP/o.jsonl"
}

@test "EINTR is retried" {
  faulty pread:eintr:2,pwrite:eintr:3,fdatasync:eintr:2 -q -o read4k -o write4k/2 --together -n 200 -d 30 \
    --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '[.operations[] | .total.count == 200 and .total.errorCount == 0] | all' "$TMP/o.jsonl"
}

@test "a failing fdatasync fails its write" {
  faulty fdatasync:eio:2 -q -o write4k/4 -n 400 -d 30 --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '.operations[0] | .fdatasyncs > 50 and .total.errorCount == (.fdatasyncs / 2 | floor)
         and .total.count + .total.errorCount == 400' "$TMP/o.jsonl"
  # the op failed, so it is an error in writeOnly too; the fdatasync an error in sync
  jq -e '.operations[0] | .writeOnly.count == .total.count and .writeOnly.errorCount == .total.errorCount
         and .sync.errorCount == .total.errorCount and .sync.count + .sync.errorCount == .fdatasyncs' "$TMP/o.jsonl"
}

@test "libaio completions with errors are counted; short completions are continued" {
  faulty io_getevents:eio:5 -q -e libaio --iodepth 4 -o read4k -n 500 -d 30 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '.operations[0] | .total.errorCount == 100 and .total.count == 400' "$TMP/o.jsonl"
  faulty io_getevents:short:3 -q -e libaio --iodepth 4 -o read4k -n 300 -d 30 --json "$TMP/s.jsonl" "$TMP/f"
  jq -e '.operations[0] | .total.errorCount == 0 and .total.count == 300 and .bytes == 300 * 4096' "$TMP/s.jsonl"
}

@test "when the engine itself fails, the ops in flight count as failed where they belong: writes, service" {
  # the 20th io_getevents call fails whole: libaio reaps nothing more and the
  # thread stops with 8 writes in flight (--rate far above what is done keeps
  # the queue full; rw4k:0 is a mixed op of writes only)
  run --separate-stderr faulty io_getevents_call:eio:20 -q -e libaio --iodepth 8 -o rw4k:0 --rate 1000000 \
    -n 1000 -d 3 --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e '.operations[0] | .total.errorCount == 8 and .writes.total.errorCount == 8
         and .reads.total.errorCount == 0 and .rate.service.errorCount == 8
         and ([.writes.timeBuckets[].errorCount] | add) == 8
         and .firstError.error == "Input/output error"' "$TMP/o.jsonl"
}

@test "real device errors reach every engine's errorCount (loop device on a full tmpfs)" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for tmpfs and loop devices"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=4m tmpfs "$MNT"
  truncate -s 64M "$MNT/img"
  LOOP=$(losetup --find --show "$MNT/img")
  for e in sync libaio io_uring; do
    run "$IOBENCH" -q -e "$e" -o write4k -n 3000 -d 30 --json "$TMP/$e.jsonl" "$LOOP"
    [ "$status" -eq 0 ]
    jq -e '.operations[0] | .total.errorCount > 100 and .total.count > 100
           and .total.count + .total.errorCount == 3000 and .firstError != null' "$TMP/$e.jsonl"
  done
}

@test "ENOSPC during create leaves no partial file and says so" {
  run env IOB_FAULT_PATH="$TMP/new" IOB_FAULT=pwrite:enospc:3 LD_PRELOAD="$FAULT_SO" \
    "$IOBENCH" create -q "$TMP/new" 32M
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: $TMP/new: no space left after writing part of 32.00 MiB; partial file removed" ]]
  [ ! -e "$TMP/new" ]
}

@test "a failing fsync at the end of create removes the file" {
  run env IOB_FAULT_PATH="$TMP/new" IOB_FAULT=fsync:eio:1 LD_PRELOAD="$FAULT_SO" \
    "$IOBENCH" create -q "$TMP/new" 8M
  [ "$status" -eq 1 ]
  [[ "$output" == *"partial file removed"* ]]
  [ ! -e "$TMP/new" ]
}

@test "a target unlinked mid-run is reported and the results so far are written" {
  cp "$TMP/f" "$TMP/g"
  (sleep 1.2; rm -f "$TMP/g") &
  run --separate-stderr "$IOBENCH" -q -o read4k -d 30 --json "$TMP/o.jsonl" "$TMP/g"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/g disappeared mid-run"*"results so far written"* ]]
  jq -e '.targetLost == true and .elapsed < 10 and .operations[0].total.count > 0' "$TMP/o.jsonl"
}

@test "a loop device detached mid-run is reported and the results so far are written" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  truncate -s 64M "$TMP/img"
  LOOP=$(losetup --find --show "$TMP/img")
  (sleep 1.2; losetup -d "$LOOP") &
  run --separate-stderr "$IOBENCH" -q -o read4k -d 30 --json "$TMP/o.jsonl" "$LOOP"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"disappeared mid-run"* ]]
  jq -e '.targetLost == true and .operations[0].total.count > 0' "$TMP/o.jsonl"
}
