#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# fleet-job.bats - a host's share of a fleet run, run here as fleet-run runs
# it on a host (in a folder holding iobench, fleet-job and lib/common.sh,
# the plan in NAME/plan.txt), with no ssh: --check --session as one
# process that waits for "go", and --timeout as each child's bound.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  JOB=$TMP/job
  mkdir -p "$JOB/lib" "$JOB/h1"
  cp "$IOBENCH" "$BATS_TEST_DIRNAME/../scripts/fleet-job" "$JOB/"
  cp "$BATS_TEST_DIRNAME/../scripts/lib/common.sh" "$JOB/lib/"
  printf '1 read4k 1 -\n2 read4k 2 -\n' >"$JOB/h1/plan.txt"
}

# job_procs: the processes whose folder is the job's (its fleet-job, its
# iobench and timeout), a line each.
job_procs() {
  local p
  for p in /proc/[0-9]*; do
    [[ "$(readlink "$p/cwd" 2>/dev/null)" != "$JOB" ]] || printf '%s %s\n' "${p#/proc/}" "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)"
  done
}

# wait_gone PID: PID's end, within 60 s (else the test fails, nothing hangs).
wait_gone() {
  local n
  for ((n = 0; n < 600; n++)); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  echo "process $1 still there after 60 s"
  return 1
}

# job ARGS...: fleet-job in its folder, as a host runs it (stdin: the test's).
job() {
  (cd "$JOB" && exec ./fleet-job "$@")
}

@test "--check --session: the check, then nothing until \"go\"; then the plan in the same process, no second check" {
  local in=$TMP/in out=$TMP/out n
  mkfifo "$in"
  # The test holds the input open: fleet-run's session.
  exec {w}<>"$in"
  (cd "$JOB" && exec ./fleet-job --check --session --target data.bin --file-size 8M --duration 1 --bucket 1 h1) \
    <"$in" >"$out" 2>&1 &
  local pid=$!
  for ((n = 0; n < 300; n++)); do grep -q '^fleet-job: check ok$' "$out" && break; sleep 0.1; done
  grep -q '^fleet-job: check ok$' "$out"
  # Checked, waiting: no data file made, no run, the job's pid said.
  sleep 1
  kill -0 "$pid"
  [ ! -e "$JOB/data.bin" ]
  [ -z "$(find "$JOB/h1/runs" -name '*.result' 2>/dev/null)" ]
  [ "$(cat "$JOB/h1/job.pid")" = "$pid" ]
  printf 'go\n' >&"$w"
  # The plan runs and the job ends by itself (the input still open): exit
  # 0, both results, the check said once.
  wait_gone "$pid"
  local rc=0
  wait "$pid" || rc=$?
  exec {w}>&-
  cat "$out"
  [ "$rc" -eq 0 ]
  [ "$(find "$JOB/h1/runs" -name '*.result' | wc -l)" -eq 2 ]
  [ "$(wc -l <"$JOB/h1/iobench.jsonl")" -eq 2 ]
  [ "$(grep -c '^fleet-job: check ok$' "$out")" -eq 1 ]
  [ "$(stat -c %s "$JOB/data.bin")" -eq $((8 * 1048576)) ]
  # What the check learnt is not asked again: the target's file system said
  # once, in the job's log.
  [ "$(grep -c '^fleet-job: data.bin is on ' "$JOB/logs/h1.log")" -eq 1 ]
}

@test "--check --session: the input ending before \"go\" runs nothing, exit 130; a check that fails never waits" {
  run --separate-stderr job --check --session --target data.bin --file-size 8M --duration 1 h1 </dev/null
  [ "$status" -eq 130 ]
  [[ "$output" == *"fleet-job: check ok"*"fleet-job: the session ended before the start; nothing run"* ]]
  [ ! -e "$JOB/data.bin" ]
  [ -z "$(find "$JOB/h1/runs" -name '*.result' 2>/dev/null)" ]
  # A line other than "go" is no start either.
  run --separate-stderr job --check --session --target data.bin --file-size 8M --duration 1 h1 <<<"stop"
  [ "$status" -eq 130 ]
  [ ! -e "$JOB/data.bin" ]
  # No room for the data file: the check fails at once (the input stays
  # open: a job that waited would hang here until bats' own timeout).
  local in=$TMP/in
  mkfifo "$in"
  exec {w}<>"$in"
  run --separate-stderr timeout 20 bash -c 'cd "$1" && exec ./fleet-job --check --session --target data.bin --file-size 8000T --duration 1 h1 <"$2"' _ "$JOB" "$in"
  exec {w}>&-
  [ "$status" -eq 1 ]
  [[ "$output" == *"fleet-job: check failed: no-space: "* ]]
  [[ "$output" != *"session ended"* ]]
}

@test "--timeout bounds each run by what is left: the job stops at the limit with exit 124, the cut run not kept" {
  # Two runs of 30 s, a limit of 3 s: the first is stopped at 3 s.
  local t0=$SECONDS
  run --separate-stderr job --timeout 3 --target data.bin --file-size 8M --duration 30 --bucket 1 h1 </dev/null
  echo "$output"
  [ "$status" -eq 124 ]
  # Well before the plan's 60 s (3 s and a margin a loaded machine keeps).
  ((SECONDS - t0 < 25))
  [[ "$output" == *"fleet-job: run failed step=1 op=read4k threads=1 span=- exit=124"* ]]
  [[ "$output" == *"fleet-job: stopped by its --timeout of 3 s"* ]]
  [[ "$output" != *"run 2:"* ]]
  [ -z "$(find "$JOB/h1/runs" -name '*.result' -o -name '.*.part')" ]
  [ ! -s "$JOB/h1/iobench.jsonl" ]
  # Nothing of the job is left (its iobench ran under timeout).
  [ -z "$(job_procs)" ]
  # --timeout 0 is no limit (as timeout's own), a bad one a usage error.
  printf '1 read4k 1 -\n' >"$JOB/h1/plan.txt"
  run --separate-stderr job --timeout 0 --target data.bin --file-size 8M --duration 1 --bucket 1 h1 </dev/null
  [ "$status" -eq 0 ]
  [ "$(find "$JOB/h1/runs" -name '*.result' | wc -l)" -eq 1 ]
  local bad
  for bad in 1.5 x '' 1234567890; do
    run --separate-stderr job --timeout "$bad" h1 </dev/null
    [ "$status" -eq 2 ]
    [ "$stderr" = "fleet-job: bad --timeout '$bad'; give whole seconds, e.g. 3600 (0: none) (see fleet-job --help)" ]
  done
}
