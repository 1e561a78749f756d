#!/usr/bin/env bats
# study.bats - the 2012 study's analyses in `iobench report`: its archive layout,
# what count means across 2012 and today, comparisons with confidence, bad apples
# and caps, the study's charts, the one-page HTML report, and --expect.
# Fixtures are made by tests/data/report/gen-lines (histograms with known buckets).

bats_require_minimum_version 1.5.0

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
  export FIX=$BATS_FILE_TMPDIR/fix
  mkdir -p "$FIX"
  make_archive "$FIX/iobench_1"
}

# A small archive in the layout the study published: trialK/output/ with, per
# instance N, run.out.N (the tool's log) and json.N (its JSON lines, as the
# study's collect.sh made them: grep '{' run.out), create.out.N beside them.
# trial7 (large/ebs4): three instances at 300, 320 and 340 read4k ops/s at 8 threads;
# trial6 (large/ebs):  three at 100, 110, 120; trial2 (small/ebs1): one at 50.
make_archive() {
  local dir=$1 n ops
  mkdir -p "$dir/trial7/output" "$dir/trial6/output" "$dir/trial2/output"
  for n in 1 2 3; do
    ops=$((280 + 20 * n))
    "$GEN" "format=java threads=8 modes=20000000:$((ops * 60))" \
      "format=java sig=writeFlush,4K,4K modes=3000000:1200" >"$dir/trial7/output/run.out.$n"
    ops=$((90 + 10 * n))
    "$GEN" "format=java threads=8 modes=60000000:$((ops * 60))" >"$dir/trial6/output/run.out.$n"
  done
  "$GEN" "format=java threads=8 modes=100000000:3000" >"$dir/trial2/output/run.out.1"
  for f in "$dir"/trial*/output/run.out.*; do
    grep '{' "$f" >"${f/run.out./json.}"
    printf 'Creating file\n' >"${f/run.out./create.out.}"
  done
}

@test "the 2012 archive layout: each json.N an instance, each trialK the study's config" {
  run --separate-stderr "$IOBENCH" report --json --section groups "$FIX/iobench_1"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  # json.N only: run.out.N holds the same lines and is not read twice
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 10 ]
  jq -e '[.groups[] | select(.signature == "read,4K,4K") | {config, host, count}] == [
    {config: "config=large/ebs,study=2012",  host: "#1", count: 6000},
    {config: "config=large/ebs,study=2012",  host: "#2", count: 6600},
    {config: "config=large/ebs,study=2012",  host: "#3", count: 7200},
    {config: "config=large/ebs4,study=2012", host: "#1", count: 18000},
    {config: "config=large/ebs4,study=2012", host: "#2", count: 19200},
    {config: "config=large/ebs4,study=2012", host: "#3", count: 20400},
    {config: "config=small/ebs1,study=2012", host: "#1", count: 3000}]' <<<"$output"
}

@test "a 2012 archive's run.out.N is read when its json.N is missing; other trial folders keep their name" {
  local dir=$BATS_TEST_TMPDIR/arch
  mkdir -p "$dir/trial9/output"
  "$GEN" "format=java threads=2 modes=100000:600" >"$dir/trial9/output/run.out.5"
  run --separate-stderr "$IOBENCH" report --json --section groups "$dir"
  [ "$status" -eq 0 ]
  jq -e '.groups == [.groups[0]] and .groups[0].config == "config=trial9" and .groups[0].host == "#5"
    and .groups[0].count == 600' <<<"$output"
}

@test "2012 and today side by side: iobench report old/ new/ keeps them apart on the same axes" {
  local new=$BATS_TEST_TMPDIR/new
  mkdir -p "$new/db1"
  "$GEN" "host=db1 threads=8 labels=config=large/ebs4 modes=1000000:60000" >"$new/db1/iobench.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups --merge-hosts "$FIX/iobench_1" "$new"
  [ "$status" -eq 0 ]
  jq -e '[.groups[] | select(.signature == "read,4K,4K") | .config] ==
    ["config=large/ebs,study=2012", "config=large/ebs4", "config=large/ebs4,study=2012", "config=small/ebs1,study=2012"]' <<<"$output"
}

@test "count means successful operations: a 2012 line with errors merges with an iobench line with errors" {
  local dir=$BATS_TEST_TMPDIR/mixed
  mkdir -p "$dir/h1"
  # 2012: 1000 samples of which 100 failed (errorCount is a subset of count);
  # iobench: 500 successful operations and 50 failed ones (count leaves them out)
  "$GEN" "format=java modes=100000:400,300000:600 errors=100" >"$dir/h1/run.out"
  "$GEN" "host=h1 modes=100000:500 errors=50" >"$dir/h1/iobench.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups "$dir"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 1 ]
  jq -e '.groups[0] | .count == 1400 and .errors == 150 and .runs == 2' <<<"$output"
  # the 900 successful 2012 samples keep the 2:3 shape: 360 + 500 at 100 us, 540 at 300 us
  local p50
  p50=$(jq '.groups[0].p50Ns' <<<"$output")
  awk -v p="$p50" 'BEGIN { exit !(p > 95000 && p < 110000) }'
  # ops/s counts successful operations only: 1400 over 120 s
  jq -e '.groups[0].opsPerSec * 120 | round == 1400' <<<"$output"
}
