#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A fixture of tests/testrunner.bats: a pass, a skip for want of something an
# install step provides, and with RUNNER_FAIL=1 a failure.

@test "other pass" {
  echo "# other.bats: one" >&3
}

@test "other skip" {
  skip "frobnicate not installed"
}

@test "other may fail" {
  echo "# other.bats: three" >&3
  [[ ${RUNNER_FAIL:-0} == 0 ]]
}
