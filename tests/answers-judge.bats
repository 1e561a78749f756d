#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,root,slow
# answers-judge.bats - what `iobench report` concludes about hosts, caps, tiers
# and unlike runs, on result files whose truth is known: a throttled host is a
# bad apple and not excused by a cap its fleet runs far above, every host at
# its cap is counted, a flat sweep is one tier and a cliff two, partial runs
# and rounds stay apart. Lines are made by tests/data/report/gen-lines (known
# histograms, known ops/s) with provision facts added by jq; the last test
# measures a real fleet of throttled "hosts" (cgroup-v1 blkio, as
# the shared notes on throttling under test describe).

bats_require_minimum_version 1.5.0

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
}

# provision FACTS-JSON: every line on stdin gets that provision object.
provision() {
  jq -c --argjson p "$1" '.provision = $p'
}

# host NAME SIG OPS_PER_SEC [RUNTIME]: one run line of NAME at OPS_PER_SEC
# (10 s time buckets at that rate), 1 thread, p50 at 1 ms.
host() {
  local name=$1 sig=$2 ops=$3 runtime=${4:-60}
  "$GEN" "host=$name sig=$sig runtime=$runtime modes=1000000:$(awk -v o="$ops" -v r="$runtime" 'BEGIN { printf "%d", o * r }')"
}

GP3='{"instanceType": "m5.large", "volumeType": "gp3", "volumeSize": 200, "volumeCount": 1}'
IO2='{"instanceType": "m5.large", "volumeType": "io2", "volumeSize": 200, "volumeIops": 8000, "volumeCount": 1}'

@test "a throttled gp3 host at the 31 ops/s read4m cap its fleet runs far above is a bad apple, and the report says the cap does not hold" {
  local dir=$BATS_TEST_TMPDIR/results/r1
  mkdir -p "$dir"
  # gp3 without --volume-iops: 125 MiB/s baseline / 4 MiB = 31.25 ops/s; the fleet runs 250-390
  {
    host g1 read,4M,4M 250
    host g2 read,4M,4M 290
    host g3 read,4M,4M 390
    host g4 read,4M,4M 31
  } | provision "$GP3" >"$dir/r.jsonl"
  # as the README says
  run --separate-stderr "$IOBENCH" report --merge-hosts --section instances,badApples "$dir/"
  [ "$status" -eq 0 ]
  [[ "$output" == *"fleet median 270 ops/s is far above the 31 ops/s cap: the facts are wrong or the volume was not what was measured"* ]]
  [[ "$output" != *"not a bad apple"* ]]
  run --separate-stderr "$IOBENCH" report --json --section instances,badApples "$dir/"
  [ "$status" -eq 0 ]
  jq -e '[.badApples[] | select(.badApple) | .host] == ["g4"]' <<<"$output"
  jq -e '.badApples[0].capOpsPerSec > 31.2 and .badApples[0].capOpsPerSec < 31.3' <<<"$output"
  jq -e '.badApples[0].rule | test("89% below the median \\(>= 20%\\); 4 hosts: too few for a robust z")' <<<"$output"
  jq -e '.badApples[0].rule | test("judged against the fleet")' <<<"$output"
  # the cap does not hold, so nobody is "at" it
  jq -e '.instances[0] | .badApples == 1 and .atCap == 0 and (.note | test("far above"))' <<<"$output"
}

@test "every io2 host at its 8000 IOPS cap is counted, and the throttled one is the only bad apple" {
  local dir=$BATS_TEST_TMPDIR/io2
  mkdir -p "$dir"
  {
    host i1 read,4K,4K 7999.3
    host i2 read,4K,4K 8000
    host i3 read,4K,4K 7700
    host i4 read,4K,4K 3000
  } | provision "$IO2" >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances,badApples "$dir"
  [ "$status" -eq 0 ]
  # 7999.3, 8000 and 7700 (3.75% under) are at the cap; 3000 is not, and is 62% short
  jq -e '.instances[0] | .atCap == 3 and .capOpsPerSec == 8000 and .badApples == 1 and .note == null' <<<"$output"
  jq -e '[.badApples[] | select(.badApple) | .host] == ["i4"]' <<<"$output"
  jq -e '[.badApples[] | select(.badApple | not)] == []' <<<"$output"
}

@test "gp3 with no --volume-iops is capped at its 3000 IOPS baseline: a host pinned there with its fleet is at its cap" {
  local dir=$BATS_TEST_TMPDIR/gp3
  mkdir -p "$dir"
  {
    host a1 read,4K,4K 2999.3
    host a2 read,4K,4K 3001
    host a3 read,4K,4K 2990
  } | provision "$GP3" >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances "$dir"
  [ "$status" -eq 0 ]
  jq -e '.instances[0] | .atCap == 3 and .capOpsPerSec == 3000 and .badApples == 0' <<<"$output"
}

@test "three hosts: one at 85% of the median is no bad apple; one at 70% is, by the shortfall alone" {
  local dir=$BATS_TEST_TMPDIR/three
  mkdir -p "$dir"
  { host t1 read,4K,4K 1000; host t2 read,4K,4K 1001; host t3 read,4K,4K 850; } >"$dir/a.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances,badApples "$dir/a.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.badApples == [] and .instances[0].badApples == 0' <<<"$output"
  { host t1 read,4K,4K 1000; host t2 read,4K,4K 1001; host t3 read,4K,4K 700; } >"$dir/b.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section badApples "$dir/b.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.badApples[] | select(.badApple) | .host] == ["t3"]' <<<"$output"
  jq -e '.badApples[0].rule | test("30% below the median \\(>= 20%\\); 3 hosts: too few for a robust z, the shortfall alone")' <<<"$output"
}

@test "five hosts or more: a bad apple needs a robust z below -3 and a 20% shortfall, the rule says both" {
  local dir=$BATS_TEST_TMPDIR/six
  mkdir -p "$dir"
  # a tight fleet: one 15% short (z far below -3, no minimum effect), one 30% short
  { for h in 1 2 3 4; do host s$h read,4K,4K $((995 + h * 2)); done; host s5 read,4K,4K 850; host s6 read,4K,4K 700; } >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section badApples "$dir"
  [ "$status" -eq 0 ]
  jq -e '[.badApples[] | select(.badApple) | .host] == ["s6"]' <<<"$output"
  jq -e '.badApples[] | select(.host == "s6") | .rule | test("^robust z -[0-9.]+ < -3 and 30% below the median \\(>= 20%\\); bad apple: slow in 1 of 1 cells$")' <<<"$output"
}

# sweep SPEC...: one run line per "SIZE_MIB:P50_NS:OPS" on host sw, as a
# file-size sweep labels it (SWEEP_EXTRA: more gen-lines words).
sweep() {
  local s mb p50 ops
  for s in "$@"; do
    IFS=: read -r mb p50 ops <<<"$s"
    "$GEN" "host=sw labels=fileSize=${mb}M bucket=10 runtime=60 modes=$p50:$((ops * 60)) ${SWEEP_EXTRA:-}"
  done
}

@test "a volume held to its IOPS: p50 doubles at the large sizes, ops/s does not move: one tier; at --rate latency alone decides" {
  # A blkio-capped volume: the throttle's queueing moves the p50 (21 -> 45
  # us), the closed-loop threads get the same 8000 ops/s at every size.
  sweep 16:21000:8000 32:21000:8010 64:45000:7990 128:45000:8005 >"$BATS_TEST_TMPDIR/capped.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/capped.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 1 and .[0].sizes == 4' <<<"$output"
  # A real cliff moves both: two tiers.
  sweep 16:21000:40000 32:21000:40100 64:200000:4000 128:200000:4010 >"$BATS_TEST_TMPDIR/cliff2.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/cliff2.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 2 and .[0].toSize == 33554432' <<<"$output"
  # Open loop (--rate 8000): ops/s is the schedule's; the p50 step is the tier.
  SWEEP_EXTRA=rate=8000 sweep 16:21000:8000 32:21000:8010 64:45000:7990 128:45000:8005 >"$BATS_TEST_TMPDIR/rate.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/rate.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 2' <<<"$output"
}

@test "a flat sweep (64M at p50 116 us, 128M-256M at 109 us, same ops/s) is one tier, its ops/s axis from zero" {
  sweep 64:116000:2338 128:109000:2343 256:109000:2333 >"$BATS_TEST_TMPDIR/flat.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/flat.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 1 and .[0].sizes == 3' <<<"$output"
  jq -e '.tiers[0].stepNeeded == 0.5' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section tiers --plot "$BATS_TEST_TMPDIR/plots" "$BATS_TEST_TMPDIR/flat.jsonl"
  [ "$status" -eq 0 ]
  grep -qF 'File-size sweep, 1 tier:' "$BATS_TEST_TMPDIR/plots/sizes-1.gp"
  grep -qxF 'set y2range [0:*]' "$BATS_TEST_TMPDIR/plots/sizes-1.gp"
}

@test "a page-cache sweep with one cliff is two tiers, not five; --tier-threshold sets the minimum step" {
  # cached at ~2 us up to 1G, 2G half cached, then the disk at ~100 us with +-30% wobble
  sweep 128:2000:400000 256:2100:390000 512:1900:410000 1024:2000:400000 2048:3500:200000 \
    4096:40000:22000 8192:100000:9800 16384:130000:7500 32768:80000:12000 65536:125000:8000 \
    131072:95000:10000 >"$BATS_TEST_TMPDIR/cliff.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/cliff.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 2' <<<"$output"
  jq -e '.tiers[0].fromSize == 134217728 and .tiers[1].toSize == 137438953472' <<<"$output"
  jq -e '.tiers[0].p50Ns < 3000 and .tiers[1].p50Ns > 80000' <<<"$output"
  # a 20% minimum still leaves the disk's wobble one tier: its own spread counts
  run --separate-stderr "$IOBENCH" report --json --tier-threshold 20 --section tiers "$BATS_TEST_TMPDIR/cliff.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 2 and .[0].stepNeeded == 0.2' <<<"$output"
  # a minimum above the cliff: one tier
  run --separate-stderr "$IOBENCH" report --json --tier-threshold 10000 --section tiers "$BATS_TEST_TMPDIR/cliff.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 1' <<<"$output"
  run --separate-stderr "$IOBENCH" report --tier-threshold 0 "$BATS_TEST_TMPDIR/cliff.jsonl"
  [ "$status" -eq 2 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ "$stderr" == "iobench: bad --tier-threshold '0'; use a percentage above 0, e.g. 50" ]]
}

@test "noisy time buckets hide a 1.8x step: the boundary needs twice the noise" {
  # 1.8x in p50 between 512M and 1G, but every run's buckets swing 0.5x-1.5x (CV ~0.4)
  local s mb p50
  for s in 256:100000 512:100000 1024:180000 2048:180000; do
    IFS=: read -r mb p50 <<<"$s"
    "$GEN" "host=n labels=fileSize=${mb}M runtime=60 bucket=10 modes=$p50:6000 series=50,150,50,150,50,150"
  done >"$BATS_TEST_TMPDIR/noisy.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/noisy.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 1 and .[0].noise > 0.4 and .[0].stepNeeded > 0.8' <<<"$output"
  # the same p50s from quiet runs (one thread, closed loop: ops/s is 1 / latency): two tiers
  for s in 256:100000 512:100000 1024:180000 2048:180000; do
    IFS=: read -r mb p50 <<<"$s"
    "$GEN" "host=n labels=fileSize=${mb}M runtime=60 bucket=10 modes=$p50:$((60000000000 / p50))"
  done >"$BATS_TEST_TMPDIR/quiet.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers "$BATS_TEST_TMPDIR/quiet.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.tiers | length == 2' <<<"$output"
}

@test "interrupted and targetLost runs are marked, left out of the fleet's figures, and merged only with --include-partial" {
  local dir=$BATS_TEST_TMPDIR/partial
  mkdir -p "$dir"
  {
    for h in 1 2 3; do host p$h read,4K,4K 1000 30; done
    # 3 s of 30: its ops/s look fine, its run is not whole
    host p4 read,4K,4K 100 30 | jq -c '.elapsed = 3 | .interrupted = true'
    host p5 read,4K,4K 400 30 | jq -c '.targetLost = true'
  } | provision "$GP3" >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --section groups,instances,badApples "$dir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"kept apart: 1 interrupted run, 1 targetLost run ("*"--include-partial merges them)"* ]]
  [[ "$(grep -c ' p4 ' <<<"$output")" -eq 1 && "$(grep ' p4 ' <<<"$output")" == *"[interrupted]"* ]]
  [[ "$(grep ' p5 ' <<<"$output")" == *"[targetLost]"* ]]
  run --separate-stderr "$IOBENCH" report --json --section groups,instances,badApples "$dir"
  [ "$status" -eq 0 ]
  jq -e '.inputs.keptApart == {interrupted: 1, targetLost: 1, short: 0, roundsOrDurations: false}' <<<"$output"
  # the fleet is the three whole hosts: p5's 400 ops/s is no bad apple of it
  jq -e '[.instances[] | .hosts] == [3] and .badApples == []' <<<"$output"
  jq -e '[.groups[] | select(.host == "p4" or .host == "p5") | .config] == ["m5.large / gp3 x1 [interrupted]", "m5.large / gp3 x1 [targetLost]"]' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --include-partial --section instances,badApples "$dir"
  [ "$status" -eq 0 ]
  jq -e '.instances[0].hosts == 5 and ([.badApples[] | select(.badApple) | .host] == ["p5"])' <<<"$output"
  jq -e '.inputs.keptApart.interrupted == 0' <<<"$output"
  # the page to share says it too
  run --separate-stderr "$IOBENCH" report --section groups --plot "$BATS_TEST_TMPDIR/plots" "$dir"
  [ "$status" -eq 0 ]
  grep -qF "left out of the fleet's figures: 1 interrupted run, 1 targetLost run" "$BATS_TEST_TMPDIR/plots/index.html"
}

@test "a run that ended far short of its runtime without saying so is kept apart as short" {
  local dir=$BATS_TEST_TMPDIR/short
  mkdir -p "$dir"
  { host q1 read,4K,4K 1000 30; host q2 read,4K,4K 1000 30; host q3 read,4K,4K 1000 30 | jq -c '.elapsed = 12'; } >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups,instances "$dir"
  [ "$status" -eq 0 ]
  jq -e '.inputs.keptApart.short == 1 and .instances[0].hosts == 2' <<<"$output"
  jq -e '[.groups[] | select(.host == "q3") | .config] == ["[short]"]' <<<"$output"
  # a run to -n N operations ends on its count: whole, not short
  { host q1 read,4K,4K 1000 30; host q2 read,4K,4K 1000 30; host q3 read,4K,4K 1000 30 | jq -c '.elapsed = 12 | .maxOps = 30000'; } >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances "$dir"
  [ "$status" -eq 0 ]
  jq -e '.inputs.keptApart.short == 0 and .instances[0].hosts == 3' <<<"$output"
}

@test "campaign --rounds 2's rounds (2 s and 8 s runs) are separate groups unless --merge-rounds" {
  local dir=$BATS_TEST_TMPDIR/results/c2 h
  mkdir -p "$dir/round1/h1" "$dir/round2/h1"
  for h in 1 2 3; do
    "$GEN" "host=h$h threads=4 runtime=2 bucket=1 modes=100000:2000" | jq -c '.notes = {runId: "round1", planStep: "1"}'
  done >"$dir/round1/h1/results.jsonl"
  for h in 1 2 3; do
    "$GEN" "host=h$h threads=4 runtime=8 bucket=1 modes=100000:12000" | jq -c '.notes = {runId: "round2", planStep: "1"}'
  done >"$dir/round2/h1/results.jsonl"
  run --separate-stderr "$IOBENCH" report --section instances "$dir/"
  [ "$status" -eq 0 ]
  [[ "$output" == *'kept apart: rounds and runs of different durations are separate groups'*'--merge-rounds merges them)'* ]]
  run --separate-stderr "$IOBENCH" report --json --section instances,threads "$dir/"
  [ "$status" -eq 0 ]
  jq -e '[.instances[] | [.config, .medianOpsPerSec]] == [["round 1 / 2 s runs", 1000], ["round 2 / 8 s runs", 1500]]' <<<"$output"
  jq -e '.inputs.keptApart.roundsOrDurations' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --merge-rounds --section instances "$dir/"
  [ "$status" -eq 0 ]
  jq -e '[.instances[] | [.config, .hosts, .medianOpsPerSec]] == [[null, 3, 1400]]' <<<"$output"
  # one round alone, as campaign reads round one: no marks
  run --separate-stderr "$IOBENCH" report --json --section instances "$dir/round1/"
  [ "$status" -eq 0 ]
  jq -e '[.instances[] | .config] == [null] and (.inputs.keptApart.roundsOrDurations | not)' <<<"$output"
}

# run_throttled NAME READ_IOPS FILE OUT: iobench as host NAME of an io2 fleet,
# in a blkio cgroup of its own that caps its O_DIRECT reads at READ_IOPS on the
# disk holding FILE (shared notes: throttling-under-test).
run_throttled() {
  local name=$1 iops=$2 file=$3 out=$4 disk majmin cg
  disk=$(findmnt -nvo SOURCE --target "$file")
  [[ "$(lsblk -dno TYPE "$disk" 2>/dev/null)" == disk ]] || disk=/dev/$(lsblk -no PKNAME "$disk" | head -n 1)
  majmin=$(lsblk -dno MAJ:MIN "$disk" | tr -d ' ')
  cg=/sys/fs/cgroup/blkio/iobench-answers-judge-$$-$name
  mkdir "$cg"
  CGROUPS+=("$cg")
  echo "$majmin $iops" >"$cg/blkio.throttle.read_iops_device"
  bash -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
    "$IOBENCH" -q --host "$name" --direct -o read4k -t 4 -d 3 --provision-fact instanceType=m5.large \
    --provision-fact volumeType=io2 --provision-fact volumeIops=8000 --provision-fact volumeSize=200 \
    --json "$out" "$file"
}

teardown() {
  local cg
  for cg in "${CGROUPS[@]}"; do
    [[ -d "$cg" ]] && rmdir "$cg"
  done
  return 0
}

@test "a real fleet: four hosts capped at 8000 read IOPS by blkio, one at 150; the report names that one, not excused" {
  [[ -d /sys/fs/cgroup/blkio ]] || skip "env: no cgroup v1 blkio controller to throttle a host with"
  CGROUPS=()
  local dir=$BATS_TEST_TMPDIR/real h
  mkdir -p "$dir"
  "$IOBENCH" create -q "$BATS_TEST_TMPDIR/data.bin" 256M
  for h in r1 r2 r3; do run_throttled "$h" 8000 "$BATS_TEST_TMPDIR/data.bin" "$dir/$h.jsonl"; done
  run_throttled r4 150 "$BATS_TEST_TMPDIR/data.bin" "$dir/r4.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups,instances,badApples "$dir"
  [ "$status" -eq 0 ]
  # the throttle is a ceiling: r4 ran at most 150 ops/s (a burst's slack aside)
  jq -e '[.groups[] | select(.host == "r4") | .opsPerSec] | .[0] < 165' <<<"$output"
  jq -e '.badApples | map(select(.host == "r4")) | length == 1 and .[0].badApple and .[0].capOpsPerSec == 8000' <<<"$output"
  jq -e '.badApples[] | select(.host == "r4") | .rule | test("4 hosts: too few for a robust z")' <<<"$output"
  jq -e '.instances[0] | .hosts == 4 and .badApples >= 1' <<<"$output"
}
