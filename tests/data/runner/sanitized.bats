#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A fixture of tests/testrunner.bats: copied as every suite of a sanitizer
# build's tree; says where it ran and which iobench and options it was given.

@test "sanitized suite" {
  echo "# ran in $PWD with IOBENCH=$IOBENCH ASAN_OPTIONS=$ASAN_OPTIONS" >&3
}
