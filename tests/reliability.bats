#!/usr/bin/env bats
# Issue 17: hostile inputs and moments that once hung the program, wrote
# where it must not, or lost or misreported results. Each test names the
# defect class it guards.

load lib/core

setup() {
  core_setup
  make_file "$TMP/f" 8M
}

teardown() {
  core_teardown
}

# bounded SECS CMD...: run CMD, SIGKILLed after SECS (a hang ends as 137).
bounded() {
  local secs=$1
  shift
  timeout -s KILL "$secs" "$@"
}

@test "a thread that cannot start ends the run with its message and exit 1, not a hang" {
  # 1000 threads' stacks do not fit in 200 MB of address space.
  run bounded 60 bash -c 'ulimit -v 200000; exec "$0" -q -t 1000 -n 1 -d 5 "$1"' "$IOBENCH" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: cannot start thread "*" of 1000: "*"; use fewer threads" ]]
  # The same with several ops, and in a sweep whose second count fails.
  run bounded 60 bash -c 'ulimit -v 200000; exec "$0" -q -o read4k -o write4k/0 -t 1,600 -n 1 -d 5 --json "$2" "$1"' \
    "$IOBENCH" "$TMP/f" "$TMP/o.jsonl"
  [ "$status" -eq 1 ]
  [[ "$output" == *"iobench: cannot start thread "* ]]
  [ "$(json_lines "$TMP/o.jsonl")" -eq 1 ]
}

@test "absurd fractional thread counts are refused; a fractional thread's pause ends with the run and on a signal" {
  for t in 1e-9 1e-300 0.000001 0.009; do
    run bounded 20 "$IOBENCH" -q -o "read,$t,4K,4K" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
    [[ "$output" == "iobench: thread count in 'read,$t,4K,4K' out of range; use 0.01 to 4096"* ]]
  done
  for t in 0x2 inf nan 1e 1,5; do
    run bounded 20 "$IOBENCH" -q -o "read,$t,4K,4K" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
  done
  # The smallest accepted fraction: 1 thread idle 99% of the time, stopped by SIGINT.
  rc=$(stop_after 1 INT timeout -s KILL 20 "$IOBENCH" -q -o read,0.01,4K,4K -d 100 --no-direct --json "$TMP/o.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted and .operations[0].threadCount == 0.01 and .operations[0].total.count > 0' "$TMP/o.jsonl"
}

@test "--rate never overflows its interval: a rate too slow is refused, a slow one runs throttled and stops on a signal" {
  run bounded 20 "$IOBENCH" -q --rate 1e-9 -t 64 -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: bad --rate '1e-9'; use operations per second, 0.001 to 1e9"* ]]
  for r in 0x10 inf nan -5 1e-400; do
    run bounded 20 "$IOBENCH" -q --rate "$r" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
  done
  # 0.001 IOPS over 64 threads: one op (thread 0's, due at the start) in a 1 s run.
  bounded 20 "$IOBENCH" -q --rate 0.001 -t 64 -d 1 --json "$TMP/r.jsonl" "$TMP/f"
  jq -e '.operations[0].total.count == 1' "$TMP/r.jsonl"
  # A thread waiting for its next due time leaves at once on SIGINT.
  rc=$(stop_after 1 INT timeout -s KILL 20 "$IOBENCH" -q --rate 0.01 -d 100 --json "$TMP/s.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted and .operations[0].total.count == 1' "$TMP/s.jsonl"
}
