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

@test "-o read4k -o read64k: two runs in the order given, one op each, their times not overlapping" {
  "$IOBENCH" -q -o read4k -o read64k -d 2 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  [ "$(json_lines "$TMP/o.jsonl")" -eq 2 ]
  [ "$(jq -r '[.operations[].name] | join(",")' "$TMP/o.jsonl" | paste -sd' ')" = "read4k read64k" ]
  jq -e '.operations[0].total.count > 0' "$TMP/o.jsonl"
  # the second started after the first ended (launchTime is in whole seconds)
  jq -s -e '.[1].launchTime >= .[0].launchTime + (.[0].elapsed | floor) and .[0].elapsed >= 2' "$TMP/o.jsonl"
}

@test "--together still runs the ops at the same time: one run, one line, both ops" {
  "$IOBENCH" -q -o read4k -o read64k --together -d 2 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  [ "$(json_lines "$TMP/o.jsonl")" -eq 1 ]
  jq -e '[.operations[].name] == ["read4k", "read64k"] and ([.operations[].total.count > 0] | all)
         and .elapsed < 4' "$TMP/o.jsonl"
}

@test "the 2012 '.' form runs its phases together, the next -o after them" {
  "$IOBENCH" -q -o 'read,2,4K,4K.read,1,64K,64K' -o read4k -d 1 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  [ "$(jq -r '[.operations[].signature] | join(" ")' "$TMP/o.jsonl" | paste -sd,)" = \
    "read,4K,4K read,64K,64K,read,4K,4K" ]
}

@test "--shuffle orders the runs of several ops and counts, the same for the same seed" {
  for i in 1 2; do
    "$IOBENCH" -q -o read4k -o read64k -t 1,2 -n 5 -d 5 --no-direct --shuffle --seed 7 \
      --json "$TMP/s$i.jsonl" "$TMP/f" 2>/dev/null
  done
  [ "$(json_lines "$TMP/s1.jsonl")" -eq 4 ]
  order=$(jq -r '"\(.operations[0].name)x\(.threads)"' "$TMP/s1.jsonl" | paste -sd' ')
  [ "$order" = "$(jq -r '"\(.operations[0].name)x\(.threads)"' "$TMP/s2.jsonl" | paste -sd' ')" ]
  [ "$(tr ' ' '\n' <<<"$order" | sort | paste -sd' ')" = "read4kx1 read4kx2 read64kx1 read64kx2" ]
}

# The first table of the output file, as a log shows it.
first_table_there() {
  grep -qE '^read4k +1 +[0-9]+ ' "$TMP/out"
}

@test "a sweep's first table is on stdout (a file) before the second run ends" {
  start_run "$IOBENCH" -o read4k -t 1,2 -d 6 --no-direct --json "$TMP/o.jsonl" "$TMP/f"
  wait_for 30 first_table_there || { kill -INT "$PID"; wait "$PID" || true; false; }
  # the second run (6 s) is still under way: its table and line are not there yet
  local second=0
  grep -qE '^read4k +2 ' "$TMP/out" || second=1
  kill -0 "$PID"
  kill -INT "$PID"
  local rc=0
  wait "$PID" || rc=$?
  [ "$second" -eq 1 ]
  [ "$rc" -eq 130 ]
  [ "$(jq -r .interrupted "$TMP/o.jsonl" | paste -sd,)" = "false,true" ]
}

@test "--progress 1 off a terminal: a line a second on stderr with run k of n, elapsed, ETA, IOPS and p99" {
  "$IOBENCH" -q -o read4k -t 1,2 -d 3 -b 1 --no-direct --progress 1 "$TMP/f" 2>"$TMP/err"
  local line='^iobench: run [12] of 2 \(read4k, [12] threads?\): [0-9.]+s of 3s, ETA [0-9.]+s: read4k [0-9]+ IOPS, p99 '
  # about 2 a run; at least 1 each even on a loaded machine
  [ "$(grep -cE "$line" "$TMP/err")" -ge 2 ]
  grep -qE '^iobench: run 1 of 2 .*: read4k [0-9]+ IOPS, p99 ' "$TMP/err"
  grep -qE '^iobench: run 2 of 2 .*: read4k [0-9]+ IOPS, p99 ' "$TMP/err"
  # a p99 once a time bucket is whole
  grep -qE "$line"'[0-9.]+(ns|us|ms|s)$' "$TMP/err"
  # the ETA counts the run after the current one: the first run's lines say more than 3 s left
  grep -E '^iobench: run 1 of 2 ' "$TMP/err" | grep -qE 'ETA [3-5](\.[0-9])?s:'
}

@test "progress off a terminal: none for a run shorter than 30 s; --progress 0: not even the run lines" {
  "$IOBENCH" -o read4k -t 1,2 -d 1.5 --no-direct "$TMP/f" >/dev/null 2>"$TMP/err"
  grep -q '^iobench: run 2 of 2: read4k, 2 threads$' "$TMP/err"
  run ! grep -q 'ETA' "$TMP/err"
  "$IOBENCH" -o read4k -t 1,2 -n 5 -d 5 --no-direct --progress 0 "$TMP/f" >/dev/null 2>"$TMP/err"
  run ! grep -q 'run 1 of 2' "$TMP/err"
}

@test "the live progress line on a terminal is rewritten in place" {
  command -v script >/dev/null || skip "script (util-linux) not installed"
  script -qec "'$IOBENCH' -o read4k -d 2.5 -b 1 --no-direct '$TMP/f'" /dev/null >"$TMP/tty"
  # a carriage return, the line, an erase to its end; no line of its own
  grep -qaE $'\r\\[[0-9.]+s/2.5s\\] run 1/1, ETA [0-9.]+s: read4k [0-9]+ IOPS, p99 [^\r]*\e\\[K' "$TMP/tty"
  run ! grep -qa '^iobench: run 1 of 1 (' "$TMP/tty"
}

@test "a bad --progress is one line, exit 2" {
  run "$IOBENCH" --progress soon -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: bad --progress 'soon'; use seconds between progress lines (30, 0.5, 5m), or 0 for none" ]
}

@test "--plan: two lines give their runs in order, each line recorded in its JSON" {
  printf '%s\n' '# two runs, then a comment line and a blank one' \
    '-o read4k -d 1 --label phase=first   # the reads' \
    '' '# between' \
    "-o read64k -t 2 -n 50 --label 'phase=second one'" >"$TMP/p.plan"
  "$IOBENCH" run -q --plan "$TMP/p.plan" -d 5 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  [ "$(json_lines "$TMP/o.jsonl")" -eq 2 ]
  [ "$(jq -r '"\(.operations[0].name) \(.threads) \(.labels.phase) \(.runtime)"' "$TMP/o.jsonl" | paste -sd,)" = \
    "read4k 1 first 1,read64k 2 second one 5" ]
  [ "$(jq -r '.notes | "\(.planLineNumber)|\(.planLine)"' "$TMP/o.jsonl" | paste -sd,)" = \
    "2|-o read4k -d 1 --label phase=first,5|-o read64k -t 2 -n 50 --label 'phase=second one'" ]
  jq -s -e '.[1].launchTime >= .[0].launchTime + (.[0].elapsed | floor)' "$TMP/o.jsonl"
  jq -s -e '.[1].operations[0].total.count == 100' "$TMP/o.jsonl"
}

@test "--plan: a bad line is one line naming the file and the line number, exit 2, and nothing runs" {
  printf '%s\n' '-o read4k -d 1' '# fine so far' '-o read4k --bogus' >"$TMP/p.plan"
  run "$IOBENCH" run --plan "$TMP/p.plan" --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: $TMP/p.plan line 3: unknown option '--bogus'; see 'iobench run --help'" ]
  [ ! -s "$TMP/o.jsonl" ]
  # a value an option refuses, a TARGET in the line, an option of the whole command
  printf '%s\n' '-o read4k -d soon' >"$TMP/p.plan"
  run "$IOBENCH" run --plan "$TMP/p.plan" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: $TMP/p.plan line 1: bad --duration 'soon'; use seconds (60, 2.5) or 90s, 5m, 1h" ]
  printf '\n%s\n' '-o read4k data.bin' >"$TMP/p.plan"
  run "$IOBENCH" run --plan "$TMP/p.plan" "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: $TMP/p.plan line 2: 'data.bin' is not an option; TARGET goes on the command line"* ]]
  printf '%s\n' '-o read4k --js x' >"$TMP/p.plan"
  run "$IOBENCH" run --plan "$TMP/p.plan" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: $TMP/p.plan line 1: --json is about the whole command; give it on the command line, not in the plan" ]
  # -o belongs to the plan's lines
  run "$IOBENCH" run --plan "$TMP/p.plan" -o read4k "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: --plan gives the operations: put -o in the plan's lines, not on the command line" ]
}

@test "--plan with --progress: run k of n over the whole plan, naming the plan line" {
  printf '%s\n' '-o read4k -t 1,2 -d 1.5 -b 1' '-o read64k -d 1.5 -b 1' >"$TMP/p.plan"
  "$IOBENCH" run -q --plan "$TMP/p.plan" --progress 1 --no-direct "$TMP/f" 2>"$TMP/err"
  grep -qE '^iobench: run 1 of 3 \(plan line 1: read4k, 1 thread\): ' "$TMP/err"
  grep -qE '^iobench: run 3 of 3 \(plan line 2: read64k, 1 thread\): ' "$TMP/err"
}

@test "a plan, good and bad, is memcheck-clean (its argv as getopt reads it, its words freed)" {
  command -v valgrind >/dev/null || skip "valgrind not installed"
  local vg=(valgrind --error-exitcode=9 --leak-check=full '--errors-for-leak-kinds=definite,indirect' -q)
  printf '%s\n' '-o read4k -t 1,2 -n 20  # a sweep' "-o read64k -n 20 --label 'a=b c'" \
    '-o read4k -o read64k --together -n 20' >"$TMP/p.plan"
  run "${vg[@]}" "$IOBENCH" run -q --plan "$TMP/p.plan" -d 5 --no-direct --progress 1 --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "$(json_lines "$TMP/o.jsonl")" -eq 4 ]
  printf '%s\n' '-o read4k -n 5' '-d soon' >"$TMP/p.plan"
  run "${vg[@]}" "$IOBENCH" run -q --plan "$TMP/p.plan" "$TMP/f"
  [ "$status" -eq 2 ]
}
