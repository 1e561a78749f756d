#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# testrunner.bats - tests/run-tests itself, on the fixture suites of
# tests/data/runner/: the closing counts, the CI rule on skips, suites side
# by side with each one's output whole, the timing table, tags; and two runs
# of a namespace suite at once on one machine.

bats_require_minimum_version 1.5.0
load lib/core

RUNNER=$BATS_TEST_DIRNAME/data/runner

each_setup() {
  export IOBENCH_TEST_TIMES=$TMP/times
}

@test "run-tests counts passes, failures and skips, and ends with them" {
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 2 "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "4 passed, 0 failed, 2 skipped" ]
  [[ $output == *"  $RUNNER/other.bats: other skip: frobnicate not installed"* ]]
  RUNNER_FAIL=1 run env -u CI "$BATS_TEST_DIRNAME/run-tests" "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 1 ]
  [ "${lines[-1]}" = "3 passed, 1 failed, 2 skipped" ]
  [[ $output == *"failed: $RUNNER/other.bats"* ]]
}

@test "under CI a skip is a failure unless its reason starts with env:" {
  CI=true run "$BATS_TEST_DIRNAME/run-tests" "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 1 ]
  [ "${lines[-1]}" = "4 passed, 1 failed, 1 skipped" ]
  [[ $output == *"FAILED (a skip under CI): $RUNNER/other.bats: other skip: frobnicate not installed"* ]]
  [[ $output == *"  $RUNNER/pass.bats: pass env skip: env: a fact of the machine"* ]]
}

@test "suites side by side: each suite's lines stay together, under its name" {
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 2 "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 0 ]
  local suite='' line n=0
  for line in "${lines[@]}"; do
    case $line in
      "# $RUNNER/"*.bats) suite=${line##*/} ;;
      "# pass.bats: "* | "# other.bats: "*)
        [ "${line#\# }" != "${line#\# "$suite": }" ] || { echo "'$line' under $suite"; return 1; }
        n=$((n + 1)) ;;
      "#   "*" passed, "*) suite= ;;
    esac
  done
  [ "$n" -eq 4 ]
}

@test "the table has a row per suite, slowest first, with its CPU time, tests and skips; the run's wall time" {
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 2 "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 0 ]
  local table
  table=$(sed -n '/^suites by wall time (2 at a time):$/,/^slowest tests/p' <<<"$output" | sed '1,2d;$d')
  [ "$(wc -l <<<"$table")" -eq 2 ]
  [ "$(awk '{print $3, $4, $5}' <<<"$table" | sort -k3)" = "3 1 $RUNNER/other.bats
3 1 $RUNNER/pass.bats" ]
  [ "$(awk '{print $1}' <<<"$table")" = "$(awk '{print $1}' <<<"$table" | sort -nr)" ]
  [[ $output == *$'\n'"wall time: "*" s"*$'\n'"4 passed, 0 failed, 2 skipped" ]]
  # the times are kept for the next run's order
  [ "$(awk '{print $2}' "$IOBENCH_TEST_TIMES")" = "$RUNNER/other.bats
$RUNNER/pass.bats" ]
}

@test "a suite tagged alone runs after the others, with none beside it" {
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 4 "$RUNNER/alone.bats" "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "5 passed, 0 failed, 2 skipped" ]
  [ "$(grep -E '^# .*/data/runner/[a-z]+\.bats$' <<<"$output" | tail -n 1)" = "# $RUNNER/alone.bats" ]
}

@test "--tags runs only the tests with those tags; --unit-only no suite; bad options exit 2" {
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --tags quick "$RUNNER/pass.bats" "$RUNNER/other.bats"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "1 passed, 0 failed, 0 skipped" ]
  [[ $output != *other.bats* ]]
  run "$BATS_TEST_DIRNAME/run-tests" --jobs 0
  [ "$status" -eq 2 ]
  [ "$output" = "run-tests: --jobs needs a count of 1 or more; say --jobs 4" ]
  run "$BATS_TEST_DIRNAME/run-tests" "$TMP/none.bats"
  [ "$status" -eq 2 ]
  [ "$output" = "run-tests: no suite $TMP/none.bats; name files like tests/run.bats" ]
}

# bats test_tags=root,net
@test "two runs of a namespace suite at once: each its own hosts and subnet, neither's cleanup touches the other's" {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
  command -v /usr/sbin/sshd >/dev/null || skip "sshd not installed (.ci/apt-fleet.txt)"
  IOBENCH=$IOBENCH RUNNER_SYNC=$TMP RUNNER_ME=a RUNNER_OTHER=b bats --tap "$RUNNER/fleet2.bats" >"$TMP/a.tap" 2>&1 3>&- &
  local a=$!
  IOBENCH=$IOBENCH RUNNER_SYNC=$TMP RUNNER_ME=b RUNNER_OTHER=a bats --tap "$RUNNER/fleet2.bats" >"$TMP/b.tap" 2>&1 3>&-
  local rb=$? ra=0
  wait "$a" || ra=$?
  cat "$TMP/a.tap" "$TMP/b.tap"
  [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ]
  grep -qx 'ok 1 a fleet that lives beside another run'"'"'s' "$TMP/a.tap"
  grep -qx 'ok 1 a fleet that lives beside another run'"'"'s' "$TMP/b.tap"
  [ -e "$TMP/a.down" ]
}

@test "a namespace suite's slot is claimed in the kernel: a slot held from another root (no file shared) is never taken, and it is free when the run ends" {
  [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
  # The three lowest free slots held as a run in a chroot holds them (an
  # abstract socket in this network namespace, no file this run can see);
  # the slots below them are other suites'.
  local s pid got mine
  perl -MSocket -e 'my @held; for my $s (1 .. 250) {
      socket(my $h, AF_UNIX, SOCK_STREAM, 0) or exit 1;
      next unless bind($h, pack_sockaddr_un("\0iobench-tests-slot$s"));
      push @held, [$s, $h]; last if @held == 3 }
    $| = 1; print join(" ", map { $_->[0] } @held), "\n"; sleep 120' </dev/null >"$TMP/held" 2>&1 3>&- &
  pid=$!
  for ((got = 0; got < 100; got++)); do
    [[ ! -s $TMP/held ]] || break
    sleep 0.1
  done
  read -r -a mine <"$TMP/held"
  [ "${#mine[@]}" -eq 3 ]
  mkdir "$TMP/suite" "$TMP/runtmp"
  # (@test spelt TEST here: bats would take the line for this file's own test)
  sed 's/^TEST /@test /' >"$TMP/suite/slot.bats" <<SUITE
TEST "slot" {
  source "$BATS_TEST_DIRNAME/lib/netns.bash"
  echo "\$NETNS_SLOT \$NETNS_PREFIX \$NETNS_SUBNET" >"$TMP/slot"
}
SUITE
  TMPDIR=$TMP/runtmp bats --tap "$TMP/suite/slot.bats" >"$TMP/slot.tap" 2>&1 3>&- || { cat "$TMP/slot.tap"; false; }
  kill "$pid"
  read -r s _ <"$TMP/slot"
  echo "held ${mine[*]}; the run's: $(cat "$TMP/slot")"
  [[ " ${mine[*]} " != *" $s "* ]]
  [ "$(cat "$TMP/slot")" == "$s ib${s}n 10.251.$s" ]
  # Its claim goes with the run (the holder polls once a second).
  for ((got = 0; got < 50; got++)); do
    grep -q "@iobench-tests-slot$s\$" /proc/net/unix || break
    sleep 0.1
  done
  [ "$(grep -c "@iobench-tests-slot$s\$" /proc/net/unix)" -eq 0 ]
}

@test "the CPU column counts what a suite's processes spent: a suite that burns CPU shows it, the others do not" {
  [[ $(id -u) == 0 ]] || skip "needs root (a cgroup per suite)"
  [[ -f /sys/fs/cgroup/cpuacct/cpuacct.usage || -f /sys/fs/cgroup/unified/cgroup.controllers ||
    -f /sys/fs/cgroup/cgroup.controllers ]] || skip "env: no cgroup file system for CPU accounting"
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 2 "$RUNNER/burn.bats" "$RUNNER/pass.bats"
  [ "$status" -eq 0 ]
  local burn pass
  burn=$(awk -v s="$RUNNER/burn.bats" '$5 == s {print $2}' <<<"$output")
  pass=$(awk -v s="$RUNNER/pass.bats" '$5 == s {print $2}' <<<"$output")
  [[ $burn =~ ^[0-9]+$ && $pass =~ ^[0-9]+$ ]]
  ((burn >= 1 && burn > pass))
  [[ $output == *"CPU time of the suites: "*" s"* ]]
}

@test "--sanitizers: a sanitizer build's suites run in its tree, against its iobench, in the one queue" {
  # A tree of its own: run-tests, sanitize and a fake asan build whose every
  # suite is a fixture saying where it ran.
  local tree=$TMP/tree s
  mkdir -p "$tree/tests" "$tree/build/sanitize/asan/tests"
  cp "$BATS_TEST_DIRNAME/run-tests" "$BATS_TEST_DIRNAME/sanitize" "$tree/tests/"
  run env -u CI "$tree/tests/run-tests" --sanitizers asan --sanitized-only
  [ "$status" -eq 2 ]
  [ "$output" = "run-tests: no asan build in build/sanitize/asan; run tests/sanitize --build-only asan" ]
  printf '#!/bin/sh\n' >"$tree/build/sanitize/asan/iobench"
  chmod +x "$tree/build/sanitize/asan/iobench"
  for s in $("$tree/tests/sanitize" --suites asan); do
    cp "$RUNNER/sanitized.bats" "$tree/build/sanitize/asan/tests/$s.bats"
  done
  cp "$RUNNER/pass.bats" "$tree/tests/pass.bats"
  run env -u CI "$tree/tests/run-tests" --sanitizers asan tests/pass.bats
  echo "$output"
  [ "$status" -eq 0 ]
  local n
  n=$("$tree/tests/sanitize" --suites asan | wc -l)
  [ "${lines[-1]}" = "$((n + 2)) passed, 0 failed, 1 skipped" ]
  [ "$(grep -c "^# ran in $tree/build/sanitize/asan with IOBENCH=$tree/build/sanitize/asan/iobench ASAN_OPTIONS=abort_on_error=1" <<<"$output")" -eq "$n" ]
  grep -qE '^ +[0-9]+ +[0-9-]+ +1 +0  asan:tests/run\.bats$' <<<"$output"
  # --sanitized-only: those suites alone.
  run env -u CI "$tree/tests/run-tests" --sanitizers asan --sanitized-only
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "$n passed, 0 failed, 0 skipped" ]
  [[ $output != *pass.bats* ]]
  run env -u CI "$tree/tests/run-tests" --sanitized-only
  [ "$status" -eq 2 ]
}

@test "--beside-alone: the command runs at idle priority once the others are done, beside the alone suite; its failure fails the run" {
  # The command records its scheduling policy and whether pass.bats (not an
  # alone suite) still runs; the alone fixture is what it runs beside.
  local cmd="chrt -p \$\$ > '$TMP/policy'; pgrep -f 'bats-exec-[a-z]+ .*/pass\\.bats' > '$TMP/others' || true; echo beside-done"
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --jobs 4 --beside-alone "$cmd" "$RUNNER/alone.bats" "$RUNNER/pass.bats"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "3 passed, 0 failed, 1 skipped" ]
  grep -q 'SCHED_IDLE' "$TMP/policy"
  [ ! -s "$TMP/others" ]
  grep -qx 'beside-done' <<<"$output"
  # With no alone suite it starts once every suite has; a failure counts.
  run env -u CI "$BATS_TEST_DIRNAME/run-tests" --beside-alone 'echo broken; exit 3' "$RUNNER/pass.bats"
  [ "$status" -eq 1 ]
  grep -qx 'broken' <<<"$output"
  [[ $output == *"failed: --beside-alone 'echo broken; exit 3'"* ]]
  [ "${lines[-1]}" = "2 passed, 1 failed, 1 skipped" ]
}

@test "lib/core's hooks: \$TMP per test, each_setup and each_teardown run, \$TMP goes even when each_teardown fails, a skip in each_setup skips" {
  # A throwaway suite beside a copy of lib/core; it notes what ran in $TMP/log.
  mkdir -p "$TMP/suite/lib"
  cp "$BATS_TEST_DIRNAME/lib/core.bash" "$TMP/suite/lib/"
  # (@test spelt TEST here: bats would take the lines for this file's own tests)
  sed 's/^TEST /@test /' >"$TMP/suite/hooks.bats" <<'SUITE'
load lib/core
each_setup() {
  [[ $BATS_TEST_DESCRIPTION != skipped* ]] || skip "each_setup said so"
  echo "each_setup $TMP" >>"$HOOKS_LOG"
}
each_teardown() {
  echo "each_teardown $TMP $([[ -d $TMP ]] && echo present)" >>"$HOOKS_LOG"
  [[ $BATS_TEST_DESCRIPTION != fails* ]]
}
TEST "passes" {
  [[ -d $TMP ]]
  grep -qx "each_setup $TMP" "$HOOKS_LOG"
  echo "test $TMP" >>"$HOOKS_LOG"
}
TEST "fails in each_teardown" {
  echo "test $TMP" >>"$HOOKS_LOG"
}
TEST "skipped by each_setup" {
  echo "test $TMP" >>"$HOOKS_LOG"
}
SUITE
  HOOKS_LOG=$TMP/log run bats --tap "$TMP/suite/hooks.bats"
  echo "$output"
  [ "$status" -eq 1 ]
  [ "${lines[1]}" = "ok 1 passes" ]
  [ "${lines[2]}" = "not ok 2 fails in each_teardown" ]
  grep -qx 'ok 3 skipped by each_setup # skip each_setup said so' <<<"$output"
  cat "$TMP/log"
  # Each test ran between its own each_setup and each_teardown, $TMP there all along.
  mapfile -t dirs < <(awk '$1 == "test" {print $2}' "$TMP/log")
  [ "${#dirs[@]}" -eq 2 ]
  [ "${dirs[0]}" != "${dirs[1]}" ]
  local d
  for d in "${dirs[@]}"; do
    [ "$(grep " $d" "$TMP/log" | cut -d' ' -f1)" = "each_setup
test
each_teardown" ]
    grep -qx "each_teardown $d present" "$TMP/log"
    # and gone after, the failing each_teardown's included
    [ ! -e "$d" ]
  done
  # The skipped test: no test body, each_teardown still ran, its $TMP gone too.
  [ "$(grep -c '^each_teardown ' "$TMP/log")" -eq 3 ]
  d=$(grep '^each_teardown ' "$TMP/log" | cut -d' ' -f2 | grep -vxF -e "${dirs[0]}" -e "${dirs[1]}")
  [ -n "$d" ]
  [ ! -e "$d" ]
}

@test "no suite overrides lib/core's setup or teardown, nor calls core_setup or core_teardown itself" {
  # Either would lose $TMP or its cleanup; suites define each_setup and
  # each_teardown (tests/lib/core.bash).
  # A suite's own lines: those of a suite it writes out (<<'SUITE') are not.
  own() { awk '/<<.SUITE.$/ { h = 1; next } /^SUITE$/ { h = 0; next } !h' "$1"; }
  local f bad=()
  for f in "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/data/runner/*.bats; do
    if own "$f" | grep -nE '(^|[;&|({]|then|do|else)[[:space:]]*core_(setup|teardown)[[:space:]]*($|[;&|)}])'; then
      bad+=("$f: calls core_setup or core_teardown")
    fi
    if own "$f" | grep -qE '^load (\.\./)*lib/core' && own "$f" | grep -nE '^(setup|teardown)\(\)'; then
      bad+=("$f: loads lib/core and defines setup or teardown")
    fi
  done
  printf '%s\n' "${bad[@]}"
  [ "${#bad[@]}" -eq 0 ]
}

@test "lib/skip: suite_skip_all in setup_file skips every test with its reason; skip_unless_cmd names what is missing" {
  mkdir -p "$TMP/suite/lib"
  cp "$BATS_TEST_DIRNAME/lib/skip.bash" "$TMP/suite/lib/"
  # (@test spelt TEST here: bats would take the lines for this file's own tests)
  sed 's/^TEST /@test /' >"$TMP/suite/skips.bats" <<'SUITE'
load lib/skip
setup_file() { [[ -z ${SKIP_ALL:-} ]] || suite_skip_all "env: $SKIP_ALL"; }
setup() { suite_skip; }
TEST "a" { skip_unless_cmd no-such-program-here .ci/apt-none.txt; }
TEST "b" { skip_unless_cmd bash; }
SUITE
  SKIP_ALL="no such machine" run bats --tap "$TMP/suite/skips.bats"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "1..2
ok 1 a # skip env: no such machine
ok 2 b # skip env: no such machine" ]
  run env -u SKIP_ALL bats --tap "$TMP/suite/skips.bats"
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$output" = "1..2
ok 1 a # skip no-such-program-here not installed (.ci/apt-none.txt)
ok 2 b" ]
}
