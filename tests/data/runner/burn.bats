#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A fixture of tests/testrunner.bats: a test that spends about two seconds of
# CPU in a process of its own (what a daemon a suite starts would spend).

@test "burn two seconds of CPU" {
  awk 'BEGIN { for (i = 0; i < 6e7; i++) s += i; print s > "/dev/null" }'
}
