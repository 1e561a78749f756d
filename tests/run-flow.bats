#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# iobench run over time: signals as users mean them (nohup, SIGCONT alone),
# progress a log can show, ops one after another, a plan file.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  make_file "$TMP/f" 32M
}

# The run under test in the background, its pid in $PID; stdout and stderr to $TMP/out, $TMP/err.
start_run() {
  "$@" >"$TMP/out" 2>"$TMP/err" &
  PID=$!
}

@test "SIGHUP ignored with trap '' HUP: the run completes, exit 0, not interrupted" {
  # The ignore is inherited through exec, as a shell's trap '' HUP hands it on.
  (trap '' HUP; exec "$IOBENCH" -q -o read4k --no-direct -d 3 --json "$TMP/h.jsonl" "$TMP/f") 2>"$TMP/err" &
  local pid=$! rc=0
  sleep 1
  kill -HUP "$pid"
  kill -HUP "$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$TMP/err"; false; }
  [ "$(json_lines "$TMP/h.jsonl")" -eq 1 ]
  jq -e '.interrupted == false and .operations[0].total.count > 0' "$TMP/h.jsonl"
}

@test "SIGHUP under nohup: the run completes, exit 0, not interrupted" {
  nohup "$IOBENCH" -q -o read4k --no-direct -d 3 --json "$TMP/h.jsonl" "$TMP/f" >"$TMP/out" 2>"$TMP/err" &
  local pid=$! rc=0
  sleep 1
  kill -HUP "$pid"
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$TMP/err"; false; }
  jq -e '.interrupted == false' "$TMP/h.jsonl"
}

@test "SIGHUP not ignored still interrupts: results written, exit 130" {
  rc=$(stop_after 1 HUP "$IOBENCH" -q -o read4k --no-direct -d 60 --json "$TMP/h.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted == true and .operations[0].total.count > 0' "$TMP/h.jsonl"
}

@test "SIGCONT alone (kill -CONT) does not mark a run stopped" {
  start_run "$IOBENCH" -o read4k --no-direct -d 3 --json "$TMP/c.jsonl" "$TMP/f"
  sleep 1
  kill -CONT "$PID"
  sleep 0.5
  kill -CONT "$PID"
  local rc=0
  wait "$PID" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$TMP/err"; false; }
  [ "$(jq 'has("stopped")' "$TMP/c.jsonl")" = false ]
  run ! grep -q 'was stopped' "$TMP/out" "$TMP/err"
}

@test "timeout's SIGTERM and SIGCONT: interrupted, exit 130 inside, not stopped" {
  local rc=0
  timeout -s TERM 1.5 "$IOBENCH" -q -o read4k --no-direct -d 60 --json "$TMP/t.jsonl" "$TMP/f" 2>"$TMP/err" || rc=$?
  [ "$rc" -eq 124 ]
  jq -e '.interrupted == true' "$TMP/t.jsonl"
  [ "$(jq 'has("stopped")' "$TMP/t.jsonl")" = false ]
}

@test "a real stop (SIGSTOP, then SIGCONT) is still counted once" {
  start_run "$IOBENCH" -q -o read4k --no-direct -d 4 --json "$TMP/s.jsonl" "$TMP/f"
  sleep 1
  kill -STOP "$PID"
  sleep 1
  kill -CONT "$PID"
  local rc=0
  wait "$PID" || rc=$?
  [ "$rc" -eq 0 ]
  [ "$(jq .stopped "$TMP/s.jsonl")" -eq 1 ]
}
