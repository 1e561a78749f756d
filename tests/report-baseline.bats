#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report
# report-baseline.bats - iobench report --baseline: each cell of the results
# against the baseline's same cell, a verdict, exit 4 on a regression beyond
# --tolerance, JUnit XML a CI reads; cells on one side only listed.

bats_require_minimum_version 1.5.0
load lib/core

GEN=$BATS_TEST_DIRNAME/data/report/gen-lines

# junit_count FILE WHAT: how many testcases (WHAT=tests), failures or skipped, as Python's parser reads them.
junit_count() {
  python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
cases = r.findall("./testsuite/testcase")
print({"tests": len(cases), "failures": sum(1 for c in cases if c.find("failure") is not None),
       "skipped": sum(1 for c in cases if c.find("skipped") is not None)}[sys.argv[2]])' "$1" "$2"
}

@test "baseline: a run held to half its speed by --rate is a regression: exit 4, a JUnit failure" {
  make_file "$TMP/f" 64M
  # open loop on both sides, so that a loaded machine's noise does not hide the halving: 2000
  # ops/s (which any disk here keeps up with), then 1000; 1 s buckets give the interval
  "$IOBENCH" -q -o read4k -t 1 -d 6 -b 1 --rate 2000 --json "$TMP/base.jsonl" "$TMP/f"
  "$IOBENCH" -q -o read4k -t 1 -d 6 -b 1 --rate 1000 --json "$TMP/slow.jsonl" "$TMP/f"
  local half=1000
  run --separate-stderr "$IOBENCH" report --baseline "$TMP/base.jsonl" --junit "$TMP/j.xml" "$TMP/slow.jsonl"
  [ "$status" -eq 4 ]
  [[ $output == *"REGRESSION: 1 of 1 paired cells slower beyond the 5% tolerance"* ]]
  [[ $output == *"settings: rate 2000 → $half"* ]]
  [ "$(junit_count "$TMP/j.xml" tests)" -eq 1 ]
  [ "$(junit_count "$TMP/j.xml" failures)" -eq 1 ]
  run --separate-stderr "$IOBENCH" report --json --baseline "$TMP/base.jsonl" "$TMP/slow.jsonl"
  [ "$status" -eq 4 ]
  jq -e '.baseline | length == 1 and (.[0] | .status == "paired" and .regression == true
    and .ratio < 0.95 and .high < 1 and .low <= .ratio and (.verdict | startswith("slower")))' <<<"$output"
}

@test "baseline: a run against itself is no difference, exit 0, a JUnit testcase that passes" {
  make_file "$TMP/f" 64M
  "$IOBENCH" -q -o read4k -t 1 -d 6 -b 1 --json "$TMP/r.jsonl" "$TMP/f"
  run --separate-stderr "$IOBENCH" report --baseline "$TMP/r.jsonl" --junit "$TMP/j.xml" "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  [[ $output == *"no difference at this sample size"* ]]
  [[ $output == *"OK: 0 of 1 paired cells slower beyond the 5% tolerance"* ]]
  [ "$(junit_count "$TMP/j.xml" tests)" -eq 1 ]
  [ "$(junit_count "$TMP/j.xml" failures)" -eq 0 ]
}

# lines SIG@THREADS@OPS...: a line per host of each: h1 at OPS ops/s, h2 at 0.95 x OPS, h3 at 1.05 x OPS
lines() {
  local spec sig thr ops h pct
  for spec in "$@"; do
    IFS=@ read -r sig thr ops <<<"$spec"
    for h in h1:100 h2:95 h3:105; do
      pct=${h#*:}
      echo "host=${h%:*} sig=$sig threads=$thr runtime=60 bucket=5 modes=100000:$((ops * 60 * pct / 100)) labels=config=c1"
    done
  done | "$GEN"
}

@test "baseline: cells on one side only are listed as new and gone, not dropped; the baseline is A" {
  lines 'read,4K,4K@1@1000' 'read,4K,4K@4@3000' > "$TMP/old.jsonl"
  lines 'read,4K,4K@1@1500' 'writeFlush,4K,4K@1@200' > "$TMP/new.jsonl"
  run --separate-stderr "$IOBENCH" report --json --baseline "$TMP/old.jsonl" "$TMP/new.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.inputs.baseline.cells == 6 and .inputs.cells == 6' <<<"$output"
  jq -e '.baseline | map({op, threads, status}) == [
    {op: "read4k", threads: 1, status: "paired"}, {op: "write4k", threads: 1, status: "new"},
    {op: "read4k", threads: 4, status: "gone"}]' <<<"$output"
  # the baseline is A whatever the names: 1500 over 1000 is faster, B/A 1.5
  jq -e '.baseline[0] | .opsPerSecA == 1000 and .opsPerSecB == 1500 and .ratio == 1.5
    and .hostsA == 3 and .hostsB == 3 and (.verdict | startswith("faster +50.0%")) and .regression == false' <<<"$output"
  # and the other way round: slower by a third, beyond 5%, exit 4
  run --separate-stderr "$IOBENCH" report --csv --baseline "$TMP/new.jsonl" "$TMP/old.jsonl"
  [ "$status" -eq 4 ]
  [[ $output == *"read4k,1,config=c1,config=c1,1073741824,paired,"* ]]
  [[ $(grep -c ',gone,' <<<"$output") -eq 1 && $(grep -c ',new,' <<<"$output") -eq 1 ]]
  # a tolerance above the change is no regression: slower, within it
  run --separate-stderr "$IOBENCH" report --json --tolerance 40 --baseline "$TMP/new.jsonl" "$TMP/old.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.baseline[0] | .regression == false and (.verdict | test("^slower -33.3% \\[.*\\], within 40%$"))' <<<"$output"
}

@test "baseline: runs held to one --rate on both sides are judged on their p99, higher slower" {
  # 3 hosts at 1000 ops/s each side; the p99 around 100 us, then around 200 us
  local h
  for h in h1:100 h2:95 h3:105; do
    echo "host=${h%:*} rate=1000 runtime=60 modes=$((1000 * ${h#*:})):60000"
  done | "$GEN" > "$TMP/old.jsonl"
  for h in h1:100 h2:95 h3:105; do
    echo "host=${h%:*} rate=1000 runtime=60 modes=$((2000 * ${h#*:})):60000"
  done | "$GEN" > "$TMP/new.jsonl"
  run --separate-stderr "$IOBENCH" report --json --baseline "$TMP/old.jsonl" "$TMP/new.jsonl"
  [ "$status" -eq 4 ]
  jq -e '.baseline | length == 1 and (.[0] | .metric == "p99" and .opsPerSecA == 1000 and .opsPerSecB == 1000
    and (.ratio - 2 | fabs) < 0.2 and .low > 1 and .regression == true and (.verdict | startswith("slower p99 +")))' <<<"$output"
  # the other way round: faster, exit 0
  run --separate-stderr "$IOBENCH" report --json --baseline "$TMP/new.jsonl" "$TMP/old.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.baseline[0] | .metric == "p99" and .high < 1 and .regression == false and (.verdict | startswith("faster p99 -"))' <<<"$output"
}

@test "baseline: --junit has a testcase per cell and per --expect line, a failure per regression and FAIL" {
  lines 'read,4K,4K@1@1000' 'read,4K,4K@4@3000' > "$TMP/old.jsonl"
  lines 'read,4K,4K@1@500' 'read,4K,4K@4@3000' 'writeFlush,4K,4K@1@200' > "$TMP/new.jsonl"
  printf 'read4k >= 800 iops at 1 threads\nwrite4k >= 100 iops\n' > "$TMP/box.expect"
  run --separate-stderr "$IOBENCH" report --baseline "$TMP/old.jsonl" --expect "$TMP/box.expect" \
    --junit "$TMP/j.xml" "$TMP/new.jsonl"
  # a FAIL is exit 1, as --expect says, before the regression's 4
  [ "$status" -eq 1 ]
  # 3 cells (paired, paired, new) + 2 lines x 3 hosts
  [ "$(junit_count "$TMP/j.xml" tests)" -eq 9 ]
  # the regression of read4k x1, and its three hosts' FAIL
  [ "$(junit_count "$TMP/j.xml" failures)" -eq 4 ]
  python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
s = {t.get("name"): (int(t.get("tests")), int(t.get("failures"))) for t in r.findall("testsuite")}
assert s == {"baseline": (3, 1), "expect": (6, 3)}, s' "$TMP/j.xml"
}

@test "baseline: bad use is one line and exit 2" {
  lines 'read,4K,4K@1@1000' > "$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --junit "$TMP/j.xml" "$TMP/r.jsonl"
  [ "$status" -eq 2 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ $stderr == "iobench: --junit writes the verdicts of --baseline or --expect; give one of them" ]]
  run --separate-stderr "$IOBENCH" report --tolerance 120 --baseline "$TMP/r.jsonl" "$TMP/r.jsonl"
  [ "$status" -eq 2 ]
  [[ $stderr == "iobench: bad --tolerance '120'; use a percentage from 0 to 99, e.g. 5" ]]
  run --separate-stderr "$IOBENCH" report --baseline "$TMP/none.jsonl" "$TMP/r.jsonl"
  [ "$status" -eq 1 ]
  [ ! -e "$TMP/j.xml" ]
}
