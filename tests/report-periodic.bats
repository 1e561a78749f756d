#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,quick
# report-periodic.bats - the periodic section: a regular oscillation in the
# probes' p50/p99 (watch lines) or in a run's ops/s per time bucket, with its
# period and amplitude; none in a random series, a step or a short run.
# Fixtures are made by tests/data/report/gen-lines (one mode per line: its
# latency is the period's p50 and p99).

bats_require_minimum_version 1.5.0
load lib/core

GEN=$BATS_TEST_DIRNAME/data/report/gen-lines

# Park-Miller in awk (16807 x 2^31 stays exact in a double): the same noise
# from gawk and mawk, whose rand() differ.
PM='function unif() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }'

# watch_lines FILE: 96 one-minute watch periods of two hosts: w1's latency
# 1 ms ±40% over a 7.5-minute sine, w2's log-normal noise (sd 0.3) around 1 ms.
watch_lines() {
  awk "$PM"'
  BEGIN { seed = 7; pi = atan2(0, -1)
    for (i = 0; i < 96; i++) {
      t = 1795300000 + i * 60
      printf "host=w1 runtime=60 bucket=60 launch=%d modes=%d:600\n", t, 1000000 * (1 + 0.4 * sin(2 * pi * i / 7.5))
      g = 0
      for (j = 0; j < 6; j++) g += unif()
      printf "host=w2 runtime=60 bucket=60 launch=%d modes=%d:600\n", t, 1000000 * exp(0.3 * (g - 3) * sqrt(2))
    } }' | "$GEN" | jq -c '.mode = "watch"' > "$1"
}

# run_lines FILE: runs of 10 s time buckets: r1 48 buckets of 1000 ops/s
# +-30% every 80 s, r2 48 of uniform noise (+-20%), r3 48 with one step
# down from 1000 to 600 halfway, r4 the oscillation of r1 over 20 buckets.
run_lines() {
  awk "$PM"'
  BEGIN { seed = 11; pi = atan2(0, -1)
    for (i = 0; i < 48; i++) {
      a = a (i ? "," : "") sprintf("%d", 1000 * (1 + 0.3 * sin(2 * pi * i / 8)))
      b = b (i ? "," : "") sprintf("%d", 1000 * (1 + 0.4 * (unif() - 0.5)))
      s = s (i ? "," : "") (i < 24 ? 1000 : 600)
    }
    print "host=r1 runtime=480 bucket=10 series=" a
    print "host=r2 runtime=480 bucket=10 series=" b
    print "host=r3 runtime=480 bucket=10 series=" s
    print "host=r4 runtime=200 bucket=10 series=" a
  }' | "$GEN" > "$1"
}

@test "periodic: a probe's p50 swinging ±40% every 7.5 min is found with that period and amplitude" {
  watch_lines "$TMP/w.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section periodic "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.periodic[] | select(.host == "w1" and .series == "p50")] | length == 1 and (.[0]
    | .op == "read4k" and (.periodSeconds - 450 | fabs) < 450 * 0.05 and .periodHuman == "7.5 min"
      and (.amplitude - 0.4 | fabs) < 0.4 * 0.15 and .cycles > 12 and .pValue < 0.01 and .points == 96
      and .finding == "p50 oscillates every 7.5 min, ±40%")' <<<"$output"
  # one mode a period: p99 is that latency too
  jq -e '[.periodic[] | select(.host == "w1")] | map(.series) == ["p50", "p99"]' <<<"$output"
}

@test "periodic: a probe's random latency has no period" {
  watch_lines "$TMP/w.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section periodic,watch "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  # w2 was read (96 periods), and nothing periodic is said of it
  jq -e '[.watch[] | select(.host == "w2")][0].periods == 96' <<<"$output"
  jq -e '[.periodic[] | select(.host == "w2")] | length == 0' <<<"$output"
}

@test "periodic: a run's ops/s per time bucket: an 80 s cycle found; noise, a step and 20 buckets not" {
  run_lines "$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section periodic,time "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.time[] | .buckets] | sort == [20, 48, 48, 48]' <<<"$output"
  jq -e '.periodic | length == 1 and (.[0] | .host == "r1" and .series == "ops/s"
    and (.periodSeconds - 80 | fabs) < 80 * 0.05 and (.amplitude - 0.3 | fabs) < 0.3 * 0.15
    and .finding == "ops/s oscillates every 80.3 s, ±30%")' <<<"$output"
}

@test "periodic: the text table says the finding" {
  watch_lines "$TMP/w.jsonl"
  run --separate-stderr "$IOBENCH" report --section periodic "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Oscillations"* ]]
  [[ "$output" == *"w1    read4k"*"7.5 min  40.0%"*"p50 oscillates every 7.5 min, ±40%"* ]]
}

@test "periodic: the summary names the oscillation and points at its section" {
  watch_lines "$TMP/w.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.summary[] | select(.kind == "oscillation")] | length == 2 and all(.section == "periodic")
    and (.[0].finding == "w1 read4k: p50 oscillates every 7.5 min, ±40%")' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section summary "$TMP/w.jsonl"
  grep -E '^time +w1 read4k: p50 oscillates every 7\.5 min, ±40%  \[periodic\]$' <<<"$output"
}

@test "periodic: a run of 20,000 time buckets is searched as block means, its cycle found, the rule said" {
  # gen-lines' two buckets, then 20,000 of the same form (gen-lines itself takes minutes for that many)
  echo "host=r1 runtime=20000 bucket=1 series=1000,1000" | "$GEN" >"$TMP/one.jsonl"
  awk "$PM"'
  BEGIN { seed = 5; pi = atan2(0, -1); printf "["
    for (i = 0; i < 20000; i++) {
      c = int(1000 * (1 + 0.3 * sin(2 * pi * i / 400) + 0.1 * (unif() - 0.5)))
      printf "%s{\"count\":%d,\"errorCount\":0,\"minValue\":100000,\"maxValue\":100000,\"totalValue\":%d,\"bucketRatio\":1.1,\"firstBucketStart\":97017.2337848725,\"buckets\":[%d],\"pinMinimum\":1000,\"pinMaximum\":10000000000}", i ? "," : "", c, c * 100000, c
    }
    print "]" }' >"$TMP/buckets.json"
  jq -c --slurpfile b "$TMP/buckets.json" '.operations[0].timeBuckets = $b[0]' "$TMP/one.jsonl" >"$TMP/long.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section periodic,time "$TMP/long.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.time[] | .buckets] == [20000]' <<<"$output"
  jq -e '.periodic | length == 1 and (.[0] | .series == "ops/s" and (.periodSeconds - 400 | fabs) < 400 * 0.02
    and .points == 20000)' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section periodic "$TMP/long.jsonl"
  [[ "$output" == *"A series of more than 4096 points is searched as the means of consecutive blocks, at most 4096 of them (here up to 20000 points, blocks of 5)"* ]]
}
