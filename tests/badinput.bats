#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick,security
# The bad-input corpus (tests/data/bad-inputs.txt): each row is an
# invocation that must fail with its exit code and exactly one clear
# stderr line, leaving the data file byte-for-byte unchanged.

load lib/core

each_setup() {
  make_file "$TMP/f" 8M
  mkdir -p "$TMP/dir"
  ROOT=$BATS_TEST_DIRNAME/..
}

# check_rows PREFIX: run every table row whose command starts with PREFIX.
check_rows() {
  local prefix=$1 want pattern cmd n=0 bad=0 sum
  sum=$(md5sum < "$TMP/f")
  while IFS='|' read -r want pattern cmd; do
    [[ -z "$want" || "$want" == \#* ]] && continue
    want=${want// /}
    pattern=${pattern# }
    pattern=${pattern% }
    cmd=${cmd# }
    cmd=${cmd//\$BIN/$IOBENCH}
    cmd=${cmd//\$F/$TMP/f}
    cmd=${cmd//\$D/$TMP/dir}
    cmd=${cmd//\$X/$TMP/missing}
    cmd=${cmd//\$S/$ROOT/scripts}
    cmd=${cmd//\$R/$ROOT/raid}
    [[ "$cmd" == "$prefix"* ]] || continue
    n=$((n + 1))
    local -a argv
    read -r -a argv <<<"$cmd"
    local out rc=0
    # A row that hangs is a failure, not a stuck suite.
    out=$(timeout -s KILL 60 "${argv[@]}" 2>&1 >/dev/null </dev/null) || rc=$?
    local lines
    lines=$(printf '%s\n' "$out" | grep -c . || true)
    # shellcheck disable=SC2053 # the pattern is a glob on purpose
    if [[ "$rc" != "$want" || "$lines" != 1 || "$out" != $pattern ]]; then
      echo "FAILED: $cmd" >&2
      echo "  exit $rc (want $want), $lines stderr line(s): $out" >&2
      bad=$((bad + 1))
    fi
    if [[ "$(md5sum < "$TMP/f")" != "$sum" ]]; then
      echo "CHANGED the data file: $cmd" >&2
      bad=$((bad + 1))
    fi
  done < "$BATS_TEST_DIRNAME/data/bad-inputs.txt"
  echo "# $n rows checked" >&3
  [ "$n" -gt 0 ]
  [ "$bad" -eq 0 ]
}

@test "the corpus holds at least 40 rows" {
  [ "$(grep -cE '^[0-9]+ \|' "$BATS_TEST_DIRNAME/data/bad-inputs.txt")" -ge 40 ]
}

@test "iobench run, watch and create reject bad input clearly" {
  check_rows "$IOBENCH"
}

@test "the raid scripts reject bad input clearly" {
  check_rows "$ROOT/raid/"
}

@test "the scripts reject bad input clearly" {
  check_rows "$ROOT/scripts/"
}
