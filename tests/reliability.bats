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
