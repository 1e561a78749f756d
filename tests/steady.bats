#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# iobench run --steady: rounds until steady state (SNIA PTS), judged on real
# throttles (cgroup-v1 blkio on the disk under $TMP, as the shared notes on
# throttling under test describe), and what a result line records of them.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  make_file "$TMP/f" 64M
  CG=
  FLIPPER=
}

each_teardown() {
  if [[ -n "${FLIPPER:-}" ]]; then
    kill "$FLIPPER" 2>/dev/null || true
    wait "$FLIPPER" 2>/dev/null || true
  fi
  # empty again once the process it held is gone
  if [[ -n "${CG:-}" && -d "$CG" ]]; then rmdir "$CG"; fi
  return 0
}

# throttle READ_IOPS: a blkio cgroup ($CG) capping O_DIRECT reads on the disk under $TMP.
throttle() {
  [[ -d /sys/fs/cgroup/blkio ]] || skip "env: no cgroup v1 blkio controller to throttle with"
  local disk
  disk=$(findmnt -nvo SOURCE --target "$TMP")
  [[ "$(lsblk -dno TYPE "$disk" 2>/dev/null)" == disk ]] || disk=/dev/$(lsblk -no PKNAME "$disk" | head -n 1)
  MAJMIN=$(lsblk -dno MAJ:MIN "$disk" | tr -d ' ')
  [[ -n "$MAJMIN" ]] || skip "env: $TMP is not on a block device blkio can throttle"
  CG=/sys/fs/cgroup/blkio/iobench-steady-$$-$BATS_TEST_NUMBER
  mkdir "$CG"
  limit "$1"
}

# limit READ_IOPS: the cap of $CG from now on.
limit() {
  echo "$MAJMIN $1" >"$CG/blkio.throttle.read_iops_device"
}

# in_cgroup CMD...: CMD in $CG (its pid written there before it starts).
in_cgroup() {
  bash -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$CG" "$@"
}

@test "a burst that ends (4000 read IOPS for 2 s, then 1500): steady only after the fall, at 1500" {
  throttle 4000
  (sleep 2 && limit 1500) &
  FLIPPER=$!
  run --separate-stderr in_cgroup "$IOBENCH" -q --direct -o read4k -t 4 --steady --steady-round 1 \
    --max-rounds 20 --json "$TMP/out.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  local op
  op=$(jq -c '.operations[0]' "$TMP/out.jsonl")
  jq -e '.steadyState.attained and .steadyState.window == 5' <<<"$op"
  # the burst was measured: the first round near its cap (the throttle's slack aside)
  jq -e '.rounds[0].iops > 2800' <<<"$op"
  # the window that attained holds no burst round: it starts after round 2
  jq -e '.steadyState.round >= 7 and .steadyState.windowFirst >= 3' <<<"$op"
  jq -e '.steadyState.round == (.rounds | length)' <<<"$op"
  # the steady figure is the sustained one, 1500 +-10%, not the burst's average
  jq -e '.steadyState.iops > 1350 and .steadyState.iops < 1650' <<<"$op"
  jq -e '.steadyState.rangePct <= 20 and .steadyState.slopePct <= 10' <<<"$op"
  # the rounds are the time buckets: one per round, exactly the total
  jq -e '(.timeBuckets | length) == (.rounds | length) and ([.rounds[].ops] | add) == .total.count' <<<"$op"
  jq -e '.bucketDuration == 1 and .runtime == (.operations[0].rounds | length)' "$TMP/out.jsonl"
}

@test "a cap flipping between 800 and 3000 read IOPS every second never attains steady state in 8 rounds, and says so" {
  throttle 800
  # rounds of 1 s start a few ms after the flipper, so each round sees one cap
  (while :; do sleep 1; limit 3000; sleep 1; limit 800; done) &
  FLIPPER=$!
  run --separate-stderr in_cgroup "$IOBENCH" -q --direct -o read4k -t 4 --steady --steady-round 1 \
    --max-rounds 8 --json "$TMP/out.jsonl" "$TMP/f"
  # not attained is a result, not a failure
  [ "$status" -eq 0 ]
  [ "$output" = "" ]
  [ "${#stderr_lines[@]}" -eq 1 ]
  [[ "$stderr" == "iobench: read4k: steady state not attained in 8 rounds of 1 s"* ]]
  jq -e '.operations[0] | (.rounds | length) == 8 and .steadyState.attained == false and .steadyState.round == null' \
    "$TMP/out.jsonl"
  jq -e '.operations[0].steadyState | .rangePct > 20 and .rounds == 8' "$TMP/out.jsonl"
}

@test "a cached file read at a steady pace attains steady state and stops there (round 5, the first full window, unless a busy host stalled one)" {
  # --rate: the engine's own schedule, not the kernel's throttle (see the report of this branch).
  # On a quiet machine it attains at round 5; a round a loaded machine stalled (a CI run of
  # six suites on two cores) puts it off, so the test asks for the window ending where it stopped.
  run --separate-stderr "$IOBENCH" --no-direct -o read4k --rate 2000 --steady --steady-round 1 --max-rounds 10 \
    --json "$TMP/out.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e '.operations[0].steadyState | .attained and .round >= 5 and .rounds == .round and .windowFirst == .round - 4' \
    "$TMP/out.jsonl"
  jq -e '.operations[0].steadyState | .iops > 1800 and .iops <= 2001' "$TMP/out.jsonl"
  jq -e '.operations[0].steadyState.criteria | .maxRangePct == 20 and .maxSlopePct == 10 and .on == ["iops"]' \
    "$TMP/out.jsonl"
  local k
  k=$(jq '.operations[0].steadyState.round' "$TMP/out.jsonl")
  [[ "$output" == *"read4k: steady state at round $k of $k: "* ]]
}

@test "--steady-on lat judges each round's p99 too, and records its fit" {
  run --separate-stderr "$IOBENCH" -q --no-direct -o read4k --rate 1000 --steady --steady-on lat \
    --steady-round 0.5 --steady-window 3 --max-rounds 3 --json "$TMP/out.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e '.operations[0].steadyState | .criteria.on == ["iops", "p99"] and (.p99Fit | has("rangePct"))' "$TMP/out.jsonl"
  jq -e '.operations[0].rounds | length == 3 and all(.p99 > 0)' "$TMP/out.jsonl"
}

@test "--steady in a sweep and with several ops: each thread count and each op judged on its own" {
  run --separate-stderr "$IOBENCH" -q --no-direct -o read4k -o read64k -t 1,2 --rate 400 --steady \
    --steady-round 0.5 --steady-window 3 --max-rounds 4 --json "$TMP/out.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  # each -o a run of its own, each thread count in turn: four runs, each in rounds
  [ "$(wc -l <"$TMP/out.jsonl")" -eq 4 ]
  [ "$(jq -s '[.[].threads] | join(",")' "$TMP/out.jsonl")" = '"1,2,1,2"' ]
  jq -s -e 'all(.[].operations[]; .steadyState.window == 3 and (.rounds | length) >= 3)' "$TMP/out.jsonl"
  jq -s -e '[.[].operations[].name] == ["read4k", "read4k", "read64k", "read64k"]' "$TMP/out.jsonl"
  # --together: one run of both ops a thread count, each op judged on its own
  run --separate-stderr "$IOBENCH" -q --no-direct -o read4k -o read64k --together -t 1 --rate 400 --steady \
    --steady-round 0.5 --steady-window 3 --max-rounds 4 --json "$TMP/tog.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e '(.operations | length) == 2 and all(.operations[]; .steadyState.window == 3 and (.rounds | length) >= 3)' "$TMP/tog.jsonl"
}

@test "--steady's options alone, or a window longer than the rounds allowed, are usage errors" {
  run --separate-stderr "$IOBENCH" --steady-round 2 "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: --steady-round is an option of --steady; add --steady" ]
  run --separate-stderr "$IOBENCH" --steady --steady-window 9 --max-rounds 5 "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--max-rounds 5 is fewer than --steady-window 9"* ]]
  run --separate-stderr "$IOBENCH" --steady --steady-on p50 "$TMP/f"
  [ "$status" -eq 2 ]
  run --separate-stderr "$IOBENCH" --steady --steady-window 2 "$TMP/f"
  [ "$status" -eq 2 ]
  run --separate-stderr "$IOBENCH" --steady -n 100 "$TMP/f"
  [ "$status" -eq 2 ]
  [ ! -e "$TMP/out.jsonl" ]
}

@test "a run in rounds stopped by SIGINT keeps the rounds so far, marked interrupted, and exits 130" {
  rc=$(stop_after 2.5 INT "$IOBENCH" -q --no-direct -o read4k --rate 1000 --steady --steady-round 1 \
    --steady-window 3 --max-rounds 10 --json "$TMP/out.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted and (.operations[0].rounds | length) == 3' "$TMP/out.jsonl"
  # the third round was cut short: no verdict of steady state from it
  jq -e '.operations[0].steadyState | .attained == false and .rounds == 3' "$TMP/out.jsonl"
}
