#!/usr/bin/env bats
# bats file_tags=quick
# docs.bats - what a reader is told: the man pages agree with the scripts'
# --help and name each other, the bench scripts answer --help, configure
# ends with the README's test command.

bats_require_minimum_version 1.5.0

ROOT=$BATS_TEST_DIRNAME/..

@test "the bench scripts answer --help with their usage block and refuse unknown options (exit 2)" {
  local b name
  for b in vs-fio device-stats; do
    name=bench/$b
    run --separate-stderr "$ROOT/$name" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"usage: $name "* && "$output" == *"-h, --help"* ]]
    run --separate-stderr "$ROOT/$name" --bogus
    [ "$status" -eq 2 ]
    # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
    [ "$stderr" = "$b: unknown option '--bogus' (see $name --help)" ]
    run --separate-stderr "$ROOT/$name" -Z
    [ "$status" -eq 2 ]
    [ "$stderr" = "$b: unknown option '-Z' (see $name --help)" ]
  done
}

@test "configure's last words name the README's test command" {
  # The README's second command: ".ci/install && ./configure && make check-all".
  local cmd target
  cmd=$(sed -n '1,/^## What it measures/p' "$ROOT/README.md" | grep -E '^    \S' | sed -n 2p)
  target=${cmd##*make }
  [[ "$target" =~ ^[a-z-]+$ ]]
  grep -qx "Now run: make && make $target\])" "$ROOT/configure.ac"
  [ "$(grep -c "^Now run: make && make $target\"" "$ROOT/configure")" -eq 2 ]
}
