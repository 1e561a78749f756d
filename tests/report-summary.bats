#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,quick
# report-summary.bats - the report's answers first: the summary section on a
# study whose truth is known (tests/data/study: gp3 and io2 fleets of four
# throttled hosts, g2 and i2 held to a tenth; see its README), its length and
# width, the per-host detail left to --detail, and tables that fit a terminal.

bats_require_minimum_version 1.5.0
load lib/core

STUDY=$BATS_TEST_DIRNAME/data/study
PRICES=$BATS_TEST_DIRNAME/../share/prices-sample.json

# summary_json ARGS...: the summary rows of the study, one JSON array.
summary_json() {
  "$IOBENCH" report --json --section summary "$@" "$STUDY" | jq -c '.summary'
}

@test "summary: the study's answers per op: io2 fastest, gp3 most per dollar, the ratio and its interval" {
  run --separate-stderr summary_json --prices "$PRICES"
  [ "$status" -eq 0 ]
  local rows=$output op
  for op in read4k write4k/64; do
    # the fastest config at its optimum, as its median host ran it (not the
    # fleet's mean, which the bad apple drags down): near io2's 8000 cap
    jq -e --arg op "$op" '.[] | select(.kind == "best" and .op == $op) | .config == "m5.large / io2 x1"
      and .value > 6000 and .value < 8800 and .section == "threads"' <<<"$rows"
    jq -e --arg op "$op" '.[] | select(.kind == "best" and .op == $op) | .finding | test("^most ops/s: m5.large / io2 x1, [0-9,]+ \\(median host of 3 of 4, i2 left out, 1 thread.*; gp3 x1: [0-9,]+$")' <<<"$rows"
    # the most per dollar: gp3 (io2's provisioned IOPS are billed)
    jq -e --arg op "$op" '.[] | select(.kind == "perDollar" and .op == $op) | .config == "m5.large / gp3 x1" and .section == "cost"' <<<"$rows"
    # the comparison in words, with its interval clear of 1, and per dollar
    jq -e --arg op "$op" '.[] | select(.kind == "compare" and .op == $op) | .value > 2.3 and .value < 3.1
      and .low > 1.5 and .high < 3.5 and .section == "compare"' <<<"$rows"
    jq -e --arg op "$op" '.[] | select(.kind == "compare" and .op == $op) | .finding | test("^io2 x1 is 2\\.[0-9]+x gp3 x1 \\[[0-9.]+, [0-9.]+\\] \\(3 of 4 gp3 x1 hosts, g2 left out; 3 of 4 io2 x1 hosts, i2 left out; with them: \\[[0-9.]+, [0-9.]+\\]\\); 0\\.[0-9]+x per dollar$")' <<<"$rows"
  done
  # the per-dollar ratio is what the cost section says: io2 gives about a third
  local ratio
  ratio=$(jq -r '.[] | select(.kind == "compare" and .op == "read4k") | .finding | capture("; (?<r>[0-9.]+)x per dollar").r' <<<"$rows")
  awk -v r="$ratio" 'BEGIN { exit !(r > 0.2 && r < 0.5) }'
}

@test "summary: the hosts: g2 and i2 bad apples in (nearly) every cell, the others at their cap" {
  run --separate-stderr summary_json --prices "$PRICES"
  [ "$status" -eq 0 ]
  local rows=$output
  jq -e '.[] | select(.kind == "badApple" and (.finding | startswith("bad apple g2 (m5.large / gp3 x1): "))) | .value < 0.2' <<<"$rows"
  jq -e '.[] | select(.kind == "badApple" and (.finding | startswith("bad apple i2 (m5.large / io2 x1): slow in 12 of 12 cells"))) | .value < 0.2' <<<"$rows"
  # a host at its cap is not a bad apple: three of each four are said to be there
  [ "$(jq -r '[.[] | select(.kind == "atCap") | .value | tostring] | join(" ")' <<<"$rows")" == "3 3" ]
  jq -e '.[] | select(.kind == "atCap" and .config == "m5.large / io2 x1") | .finding | test("3 of 4 hosts .*8,000 ops/s")' <<<"$rows"
}

@test "summary: the thread optima as a config x op matrix, the tiers, nothing left out" {
  run --separate-stderr summary_json
  [ "$status" -eq 0 ]
  local rows=$output
  # the study's round-two table: one optimum per config and op
  [ "$(jq '[.[] | select(.kind == "optimum")] | length' <<<"$rows")" -eq 4 ]
  [ "$(jq -r '[.[] | select(.kind == "optimum") | .op] | unique | join(" ")' <<<"$rows")" == "read4k write4k/64" ]
  # capped volumes: one thread is within 5% of the best
  jq -e '[.[] | select(.kind == "optimum") | .threads] | all(. == 1)' <<<"$rows"
  # the cache sweep has a cliff, the direct sweep on the capped volume none
  jq -e '.[] | select(.kind == "tiers" and .config == "m5.large / gp3 x1 / buffered") | .value == 2' <<<"$rows"
  jq -e '.[] | select(.kind == "tiers" and .config == "m5.large / io2 x1") | .value == 1 and (.finding | test("one tier, no cache cliff"))' <<<"$rows"
  # no prices: the summary says how to get the answer per dollar
  jq -e '.[] | select(.kind == "noPrices") | .finding | test("--prices FILE")' <<<"$rows"
  [ "$(jq '[.[] | select(.kind == "keptApart" or .kind == "skipped" or .kind == "target")] | length' <<<"$rows")" -eq 0 ]
}

@test "summary: every finding names a section that holds rows, and comes first in JSON" {
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" "$STUDY"
  [ "$status" -eq 0 ]
  [ "$(jq -r 'keys_unsorted[1]' <<<"$output")" == summary ]
  local s
  for s in $(jq -r '[.summary[].section] | unique | .[]' <<<"$output"); do
    echo "section $s"
    jq -e --arg s "$s" '.[$s] | length > 0' <<<"$output"
  done
}

@test "report as a user runs it: the summary first, within 40 lines and 100 columns; hosts' rows on --detail" {
  COLUMNS=100 run --separate-stderr "$IOBENCH" report --prices "$PRICES" "$STUDY"
  [ "$status" -eq 0 ]
  local text=$output
  # the first section is the summary, and it answers the question
  [ "$(grep -m1 -E '^[A-Z][a-z]' <<<"$(sed 1,/^$/d <<<"$text")")" == "Summary (the section with the evidence in [brackets]; --section NAME shows it)" ]
  local summary
  summary=$(sed -n '/^Summary/,/^$/p' <<<"$text")
  echo "$summary"
  [ "$(wc -l <<<"$summary")" -le 40 ]
  [ "$(wc -L <<<"$summary")" -le 100 ]
  grep -E '^read4k +most ops/s: m5\.large / io2 x1' <<<"$summary"
  grep -E '^ +most per \$: m5\.large / gp3 x1, .* ops/\$' <<<"$summary"
  grep -E '^ +io2 x1 is 2\.[0-9]+x gp3 x1 \[.*\] \(3 of 4 gp3 x1 hosts, g2 left out; 3 of 4 io2 x1$' <<<"$summary"
  grep -E '^ +hosts, i2 left out; with them: \[.*\]\); 0\.[0-9]+x per dollar +\[compare\]$' <<<"$summary"
  grep -E '^threads +optimal threads +read4k +write4k/64 +\[threads\]$' <<<"$summary"
  grep -E '^ +m5\.large / io2 x1 +1 +1$' <<<"$summary"
  # per-host rows are detail: no Groups, time or modes table by default
  ! grep -E '^(Groups|Throughput over time|Latency modes) ' <<<"$text"
  grep -E '^Across instances' <<<"$text"
  # every line fits the 100 columns, the wide tables said to have lost columns
  [ "$(wc -L <<<"$text")" -le 100 ]
  grep -E '^\(left out to fit 100 columns: ' <<<"$text"
  # --detail brings the per-host tables
  COLUMNS=100 run --separate-stderr "$IOBENCH" report --detail "$STUDY"
  [ "$status" -eq 0 ]
  grep -E '^Groups ' <<<"$output"
  grep -E '^Throughput over time ' <<<"$output"
  [ "$(grep -c -E ' g2 ' <<<"$(sed -n '/^Groups /,/^$/p' <<<"$output")")" -eq 12 ]
}

@test "tables fit the terminal: least important columns left out and named; none without a width" {
  COLUMNS=80 run --separate-stderr "$IOBENCH" report --section instances "$STUDY"
  [ "$status" -eq 0 ]
  [ "$(wc -L <<<"$output")" -le 80 ]
  local heads
  heads=$(sed -n '/^Across instances/{n;p}' <<<"$output")
  # what a row is about stays: the op and the config, the median
  [[ $heads == op* ]]
  [[ $heads == *config* ]]
  [[ $heads == *"median ops/s"* ]]
  # said under the table, wrapped within the width
  sed -n '/^(left out to fit 80 columns: /,/)$/p' <<<"$output" | tr '\n' ' ' |
    grep -E '^\(left out to fit 80 columns: [^;]*MAD[^;]*; --csv or --json has them\) $' 
  # a pipe with no COLUMNS keeps every column (a file for later)
  env -u COLUMNS "$IOBENCH" report --section instances "$STUDY" >"$TMP/wide.txt"
  ! grep -q 'left out to fit' "$TMP/wide.txt"
  grep -q 'MAD' "$TMP/wide.txt"
  # a width too small to be one is not taken
  COLUMNS=5 run --separate-stderr "$IOBENCH" report --section instances "$STUDY"
  ! grep -q 'left out to fit' <<<"$output"
}

@test "summary of one run: its figure and latency, the host, no comparison or cost hint" {
  make_file "$TMP/f" 16M
  "$IOBENCH" run -q -o read4k -t 2 -d 1 --host box1 "$TMP/f" --json "$TMP/one.jsonl"
  run --separate-stderr "$IOBENCH" report "$TMP/one.jsonl"
  [ "$status" -eq 0 ]
  grep -E '^read4k  [0-9,]+ ops/s, p50 [0-9.]+[mun]?s, p99 [0-9.]+[mun]?s \(host box1, 2 threads\)  \[groups\]$' <<<"$output"
  ! grep -q -- '--prices' <<<"$output"
}

@test "summary: runs left out, failed hosts and targets on RAM are said, with their section" {
  cp -r "$STUDY/gp3" "$TMP/gp3"
  # g4 failed: its results gone, the manifest says why
  rm -r "$TMP/gp3/g4"
  jq '(.hosts[] | select(.name == "g4")) |= (.status = "failed" | .failure = {kind: "auth", detail: "Host key verification failed."} | .fetched = 0)' \
    "$STUDY/gp3/manifest.json" >"$TMP/gp3/manifest.json"
  # one of g1's runs was interrupted
  jq -c 'if .operations[0].threadCount == 8 and (.operations[0].signature | startswith("read")) then .interrupted = true else . end' \
    "$STUDY/gp3/g1/iobench.jsonl" >"$TMP/gp3/g1/iobench.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,fleet "$TMP/gp3"
  [ "$status" -eq 0 ]
  jq -e '.fleet | length == 1' <<<"$output"
  jq -e '.summary[] | select(.kind == "failed") | .section == "fleet" and (.finding | test("g4 \\(auth\\)"))' <<<"$output"
  jq -e '.summary[] | select(.kind == "keptApart") | .value == 1 and (.finding | test("1 interrupted run"))' <<<"$output"
}
