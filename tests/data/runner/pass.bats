#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A fixture of tests/testrunner.bats: two passes and a skip for an
# environment limit, each saying its name on the output.

@test "pass one" {
  echo "# pass.bats: one" >&3
}

# bats test_tags=quick
@test "pass two" {
  echo "# pass.bats: two" >&3
}

@test "pass env skip" {
  skip "env: a fact of the machine"
}
