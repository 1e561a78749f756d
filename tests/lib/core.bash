# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# core.bash - shared setup for the iobench CLI suites.
#
#   load lib/core
#   each_setup()    { make_file "$TMP/f" 8M; }      # optional, per test
#   each_teardown() { umount "$MNT" || true; }      # optional, per test
#
# Loading this file gives the suite bats's setup and teardown: each test has
# a fresh scratch folder, $TMP (exported), made before the test and removed
# after it. A suite that needs more per test defines each_setup (run after
# $TMP is made) and each_teardown (run before $TMP goes), never setup or
# teardown: a function the suite defines after `load` replaces this file's,
# and its tests would lose $TMP's cleanup. Nor does a suite call core_setup or
# core_teardown itself (testrunner.bats checks both).
#
#   - `skip` in each_setup skips the test (bats treats setup's skip so);
#     teardown still runs, each_teardown included: it must cope with a test
#     that stopped anywhere (check the variables it cleans up after).
#   - $TMP is removed even when each_teardown fails; the test then fails
#     with each_teardown's status.
#   - setup_file and teardown_file stay the suite's own.

IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}

core_setup() {
  TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/iobench-test.XXXXXX")
  export TMP
}

core_teardown() {
  if [[ -n "${TMP:-}" ]]; then rm -rf "$TMP"; fi
}

# setup: $TMP, then the suite's each_setup if it has one.
setup() {
  core_setup
  if declare -F each_setup >/dev/null; then
    each_setup
  fi
}

# teardown: the suite's each_teardown if it has one, then $TMP goes whatever
# each_teardown returned; teardown returns each_teardown's status.
teardown() {
  local rc=0
  if declare -F each_teardown >/dev/null; then
    each_teardown || rc=$?
  fi
  core_teardown
  return "$rc"
}

# make_file PATH SIZE: a random data file made with iobench create.
make_file() {
  "$IOBENCH" create -q "$1" "$2"
}

# stop_after SECS SIGNAL CMD...: run CMD in the background, signal it, echo its status.
stop_after() {
  local secs=$1 sig=$2
  shift 2
  "$@" &
  local pid=$!
  sleep "$secs"
  kill "-$sig" "$pid"
  local rc=0
  wait "$pid" || rc=$?
  echo "$rc"
}

# wait_for SECS CMD...: run CMD every 0.1 s until it succeeds (0), or give up
# after SECS seconds (1, with what was waited for on stderr). Tests wait for
# the condition they need - a file, a line, a port - not for a fixed time.
wait_for() {
  local secs=$1 deadline
  shift
  deadline=$((${EPOCHREALTIME/./} + secs * 1000000))
  until "$@"; do
    if ((${EPOCHREALTIME/./} >= deadline)); then
      echo "wait_for: gave up after ${secs} s on: $*" >&2
      return 1
    fi
    sleep 0.1
  done
}

# lines_at_least N FILE: FILE has N lines or more (for wait_for).
lines_at_least() {
  [[ -f $2 ]] && (($(wc -l <"$2") >= $1))
}

# json_lines FILE: how many lines of FILE parse as JSON (jq fails on the first that does not).
json_lines() {
  jq -c . "$1" | wc -l
}

# offsets_of STRACE_LOG SYSCALL: the offsets passed to pread64/pwrite64, one per line.
offsets_of() {
  grep -E "^([0-9]+ +)?$2\(" "$1" | sed -E 's/.*, ([0-9]+)\) += .*/\1/'
}

# trace OUT SYSCALLS CMD...: run CMD under strace (one file per thread, so no
# "unfinished" lines), then gather every thread's calls into OUT, thread by
# thread in the order they started (by thread id, not as the file names
# sort: "10001" before "9999" put the workers' calls before the main
# thread's, and a test taking the last calls took the main thread's).
trace() {
  local out=$1 calls=$2 f
  shift 2
  rm -f "$out".tr.*
  # LeakSanitizer cannot run under ptrace: keep the rest of ASan.
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -ff -qq -e trace="$calls" -o "$out.tr" "$@"
  for f in "$out".tr.*; do printf '%s %s\n' "${f##*.}" "$f"; done | sort -n |
    while read -r _ f; do cat "$f"; done >"$out"
  rm -f "$out".tr.*
}
