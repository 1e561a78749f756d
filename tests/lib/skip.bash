# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# skip.bash - skips with their reason, for bats suites (lib/netns and
# lib/moto source it; a suite may load it alone).
#
#   setup_file() { ... || { suite_skip_all "$why"; return 0; }; }
#   setup()      { suite_skip; ...; }     # each test skips with that reason
#   skip_unless_cmd mkfs.xfs xfsprogs     # skip "mkfs.xfs not installed (xfsprogs)"
#   skip_unless_static                    # skip "iobench-static not built (make static)"
#
# A reason says what is missing and where it comes from. Under CI=true a
# skip fails the run unless its reason starts with "env: " (tests/run-tests).

# suite_skip_all REASON: every test of the file is to skip with REASON. For
# setup_file, where bats 1.8 cannot skip (a skip there fails the file): the
# reason is kept in BATS_FILE_TMPDIR, and each test's suite_skip skips.
suite_skip_all() {
  printf '%s\n' "$1" >"${BATS_FILE_TMPDIR:?skip.bash needs bats}/suite-skip"
}

# suite_skip_reason: the reason suite_skip_all kept (nothing if none): for
# a teardown_file with nothing to undo when the file skipped.
suite_skip_reason() {
  cat "${BATS_FILE_TMPDIR:?skip.bash needs bats}/suite-skip" 2>/dev/null || true
}

# suite_skip: skip this test when setup_file said the file cannot run.
suite_skip() {
  local why
  why=$(suite_skip_reason)
  [[ -z $why ]] || skip "$why"
}

# skip_unless_cmd CMD [WHERE]: skip unless CMD is on PATH; WHERE says what
# installs it (a package, a .ci/apt-*.txt list).
skip_unless_cmd() {
  command -v "$1" >/dev/null 2>&1 || skip "$1 not installed${2:+ ($2)}"
}

# static_missing: why the static build fleet-run ships is not there
# (nothing if it is): IOBENCH_STATIC, else iobench-static in the checkout.
static_missing() {
  [[ -x "${IOBENCH_STATIC:-$BATS_TEST_DIRNAME/../iobench-static}" ]] ||
    echo "iobench-static not built (make static)"
}

# skip_unless_static: skip unless that static build is there.
skip_unless_static() {
  local why
  why=$(static_missing)
  [[ -z $why ]] || skip "$why"
}
