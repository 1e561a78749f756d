#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=alone
# A fixture of tests/testrunner.bats: a suite that must run with no other
# suite of its run beside it.

@test "alone: no other fixture suite runs now" {
  [ -z "$(pgrep -f "bats-exec-[a-z]+ .*$BATS_TEST_DIRNAME/(pass|other)\.bats")" ]
}
