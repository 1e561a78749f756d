#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=slow
# Inputs that once crashed a fuzz target (tests/fuzz/regressions/<target>/)
# must pass through it cleanly now. The targets are built by `make fuzz`
# (clang); .ci/run builds them before `make check`.

ROOT=$BATS_TEST_DIRNAME/..

replay() {
  local name=$1 bin=$ROOT/build/fuzz/fuzz_$1
  [ -x "$bin" ] || skip "build/fuzz/fuzz_$name not built (make fuzz)"
  mapfile -t inputs < <(find "$ROOT/tests/fuzz/regressions/$name" "$ROOT/tests/fuzz/corpus/$name" -type f ! -name .keep)
  [ "${#inputs[@]}" -gt 0 ]
  run "$bin" "${inputs[@]}"
  [ "$status" -eq 0 ]
}

@test "op-spec fuzz regressions and corpus run cleanly" {
  replay opspec
}

@test "histogram JSON fuzz regressions and corpus run cleanly" {
  replay histjson
}

@test "report-input fuzz regressions and corpus run cleanly" {
  replay report
}

@test "the report's JSON parser agrees with jansson on its fuzz regressions and corpus" {
  replay json
}
