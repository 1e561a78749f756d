#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,quick
# report-vocabulary.bats - `iobench report` names ops as they were typed
# (read4k, write4k/64), in every text table and in --only, --expect; the 2012
# signature (read,4K,4K) stays a data column of JSON and CSV. And --expect
# says its units: a latency without one, a fractional thread count, hex are
# usage errors. Fixtures are made by tests/data/report/gen-lines.

bats_require_minimum_version 1.5.0

load lib/core

setup_file() {
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
  export FIX=$BATS_FILE_TMPDIR/fix
  export PRICES=$BATS_TEST_DIRNAME/../share/prices-sample.json
  mkdir -p "$FIX/ops" "$FIX/pair"
  make_ops "$FIX/ops"
  make_pair "$FIX/pair"
}

# Three hosts of config=large/ebs4, each 7 runs: read4k at 1, 2 and 4
# threads (h3 at 40%: a bad apple), write4k/64, write4k (flushed, 1 ms beside
# 13 ms reads: durability suspicious), read64k@4k and rw16k:70.
make_ops() {
  local dir=$1 h t scale ops
  local -A base=([1]=100 [2]=190 [4]=370)
  local -A hscale=([h1]=1.00 [h2]=1.02 [h3]=0.40)
  for h in h1 h2 h3; do
    scale=${hscale[$h]}
    for t in 1 2 4; do
      ops=$(awk -v b="${base[$t]}" -v s="$scale" 'BEGIN { printf "%d", b * s * 60 }')
      echo "host=$h threads=$t labels=config=large/ebs4 modes=13000000:$ops"
    done
    echo "host=$h sig=write64,4K,4K labels=config=large/ebs4 modes=1000000:6000"
    echo "host=$h sig=writeFlush,4K,4K labels=config=large/ebs4 modes=1000000:6000"
    echo "host=$h sig=read,64K,4K labels=config=large/ebs4 modes=200000:6000"
    echo "host=$h sig=rw70,16K,16K labels=config=large/ebs4 modes=300000:6000"
  done | "$GEN" >"$dir/runs.jsonl"
}

# Two configs that differ in one label part (large/ebs1, large/ebs4), two
# hosts each, read4k and write4k/64: a comparison per op.
make_pair() {
  local dir=$1 h
  for h in p1 p2; do
    echo "host=$h labels=config=large/ebs1 modes=100000:6000"
    echo "host=$h sig=write64,4K,4K labels=config=large/ebs1 modes=200000:6000"
    echo "host=q$h labels=config=large/ebs4 modes=100000:24000"
    echo "host=q$h sig=write64,4K,4K labels=config=large/ebs4 modes=200000:24000"
  done | "$GEN" >"$dir/runs.jsonl"
}

# shows_ops OP...: $output (a text report) has a row for each OP, an "op"
# column heading, and no signature anywhere.
shows_ops() {
  local op
  for op; do
    grep -qE "^$op " <<<"$output" || { echo "no row of $op" >&2; return 1; }
  done
  grep -qE '^op ' <<<"$output" || { echo "no op column" >&2; return 1; }
  ! grep -E '[a-zA-Z]+[0-9]*,[0-9]+[KMGTP]?,[0-9]+[KMGTP]?' <<<"$output"
}

# runs_kept ARGS...: the runs the groups of `report --json ARGS` hold.
runs_kept() {
  "$IOBENCH" report --json "$@" | jq '[.groups[].runs] | add // 0'
}

@test "groups: the op column reads read4k, write4k/64, write4k, read64k@4k, rw16k:70" {
  run --separate-stderr "$IOBENCH" report --section groups "$FIX/ops"
  [ "$status" -eq 0 ]
  [[ "$output" == *"Groups (op x threads x config x size x host)"* ]]
  shows_ops read4k write4k/64 write4k read64k@4k rw16k:70
  [ "$(grep -cE '^read4k ' <<<"$output")" -eq 9 ]
}

@test "instances and badApples: the op column reads read4k" {
  run --separate-stderr "$IOBENCH" report --section instances "$FIX/ops"
  [ "$status" -eq 0 ]
  shows_ops read4k write4k/64
  run --separate-stderr "$IOBENCH" report --section badApples "$FIX/ops"
  [ "$status" -eq 0 ]
  shows_ops read4k
  [ "$(grep -cE '^read4k .* h3 ' <<<"$output")" -eq 3 ]
}

@test "threads: the op column reads read4k, one curve of three counts" {
  run --separate-stderr "$IOBENCH" report --section threads "$FIX/ops"
  [ "$status" -eq 0 ]
  shows_ops read4k
  [ "$(grep -cE '^read4k ' <<<"$output")" -eq 3 ]
}

@test "time, series and modes: the op column reads read4k and write4k/64" {
  local s
  for s in time series modes; do
    run --separate-stderr "$IOBENCH" report --section "$s" "$FIX/ops"
    [ "$status" -eq 0 ]
    shows_ops read4k write4k/64 write4k read64k@4k rw16k:70
  done
}

@test "regimes: a burst-credit cliff of write4k/64 is said as write4k/64" {
  "$GEN" "host=burst sig=write64,4K,4K runtime=120 bucket=10 modes=100000:180000 series=3000,3000,3000,3000,3000,3000,100,100,100,100,100,100" \
    >"$TMP/burst.jsonl"
  run --separate-stderr "$IOBENCH" report --section regimes "$TMP/burst.jsonl"
  [ "$status" -eq 0 ]
  shows_ops write4k/64
  [ "$(grep -cE '^write4k/64 .* down$' <<<"$output")" -eq 1 ]
}

@test "tiers: a size sweep of read4k is said as read4k" {
  local mb p50 specs=()
  for mb in 256 512 768 1536 1792 2048 2560 2816 3072; do
    if ((mb <= 768)); then p50=100000; elif ((mb <= 2048)); then p50=600000; else p50=8000000; fi
    specs+=("host=s labels=config=large/ephemeral;fileSize=${mb}M modes=$p50:$((60000000000 / p50))")
  done
  "$GEN" "${specs[@]}" >"$TMP/sweep.jsonl"
  run --separate-stderr "$IOBENCH" report --section tiers "$TMP/sweep.jsonl"
  [ "$status" -eq 0 ]
  shows_ops read4k
  [ "$(grep -cE '^read4k ' <<<"$output")" -eq 3 ]
}

@test "durability: the flushed write is write4k and its read op read4k" {
  run --separate-stderr "$IOBENCH" report --merge-hosts --section durability "$FIX/ops"
  [ "$status" -eq 0 ]
  shows_ops write4k
  grep -qE '^op +threads .* read op ' <<<"$output"
  grep -qE '^write4k .* read4k .*durability suspicious: .*a flush under a quarter of a read4k of the same target by the same host' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section durability "$FIX/ops"
  jq -e '.durability == [.durability[0]] and .durability[0].op == "write4k" and .durability[0].signature == "writeFlush,4K,4K"
    and .durability[0].readOp == "read4k" and .durability[0].readSignature == "read,4K,4K"' <<<"$output"
}

@test "cost and compare: the op column reads read4k and write4k/64" {
  run --separate-stderr "$IOBENCH" report --section cost --prices "$PRICES" "$FIX/ops"
  [ "$status" -eq 0 ]
  shows_ops read4k write4k/64
  run --separate-stderr "$IOBENCH" report --section compare "$FIX/pair"
  [ "$status" -eq 0 ]
  shows_ops read4k write4k/64
  [ "$(grep -cE '^(read4k|write4k/64) +(ops/s|p50|p99) +config=large/ebs1 +config=large/ebs4 ' <<<"$output")" -eq 6 ]
}

@test "watch and watchRegimes: probes are said as read4k and write4k/64" {
  local k p50
  for k in 0 1 2 3 4 5 6 7; do
    p50=$((k < 4 ? 100000 : 5000000))
    echo "host=w launch=$((1763770000 + k * 3600)) runtime=3600 bucket=3600 modes=$p50:360"
    echo "host=w sig=write64,4K,4K launch=$((1763770000 + k * 3600)) runtime=3600 bucket=3600 modes=$p50:360"
  done | "$GEN" | jq -c '.mode = "watch"' >"$TMP/watch.jsonl"
  run --separate-stderr "$IOBENCH" report --section watch "$TMP/watch.jsonl"
  [ "$status" -eq 0 ]
  shows_ops read4k write4k/64
  run --separate-stderr "$IOBENCH" report --section watchRegimes "$TMP/watch.jsonl"
  [ "$status" -eq 0 ]
  shows_ops read4k write4k/64
  [ "$(grep -cE ' up$' <<<"$output")" -eq 2 ]
}

@test "notes: a run's ops read as typed; JSON keeps its signatures" {
  "$GEN" "host=n" "host=n sig=write64,4K,4K" | jq -c '.notes = {runId: "r1"}' >"$TMP/n.jsonl"
  run --separate-stderr "$IOBENCH" report --section notes "$TMP/n.jsonl"
  [ "$status" -eq 0 ]
  grep -qE '^host .* ops +notes$' <<<"$output"
  [ "$(grep -cE ' (read4k|write4k/64) +runId=r1$' <<<"$output")" -eq 2 ]
  [[ "$output" != *",4K,4K"* ]]
  run --separate-stderr "$IOBENCH" report --json --section notes "$TMP/n.jsonl"
  jq -e '[.notes[] | [.ops, .signatures]] == [["read4k", "read,4K,4K"], ["write4k/64", "write64,4K,4K"]]' <<<"$output"
}

@test "JSON and CSV carry both the signature and the op of every row that names an op" {
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" \
    --section groups,instances,badApples,threads,time,series,modes,durability,cost "$FIX/ops"
  [ "$status" -eq 0 ]
  jq -e '[.groups, .instances, .badApples, .threads, .time, .series, .modes, .durability, .cost]
    | all(length > 0) and all(.[][]; (.signature | type) == "string" and (.op | type) == "string")' <<<"$output"
  jq -e '[.groups[] | [.signature, .op]] | unique == [["read,4K,4K", "read4k"], ["read,64K,4K", "read64k@4k"],
    ["rw70,16K,16K", "rw16k:70"], ["write64,4K,4K", "write4k/64"], ["writeFlush,4K,4K", "write4k"]]' <<<"$output"
  run --separate-stderr "$IOBENCH" report --csv --section instances "$FIX/ops"
  [[ "${lines[0]}" == signature,op,threads,config,* ]]
  [[ "${lines[1]}" == '"read,4K,4K",read4k,1,'* ]]
}

@test "--only op=read4k keeps the read4k runs alone" {
  [ "$(runs_kept --only op=read4k "$FIX/ops")" -eq 9 ]
  run --separate-stderr "$IOBENCH" report --json --only op=read4k "$FIX/ops"
  jq -e '[.groups[].op] | unique == ["read4k"]' <<<"$output"
}

@test "--only op='write4k/*' keeps write4k/64, not the flushed write4k" {
  [ "$(runs_kept --only 'op=write4k/*' "$FIX/ops")" -eq 3 ]
  run --separate-stderr "$IOBENCH" report --json --only 'op=write4k/*' "$FIX/ops"
  jq -e '[.groups[].signature] | unique == ["write64,4K,4K"]' <<<"$output"
  [ "$(runs_kept --only op=write4k "$FIX/ops")" -eq 3 ]
  [ "$(runs_kept --only 'op=read*' "$FIX/ops")" -eq 12 ]
}

@test "--only signature='read,*' still matches signatures: read4k and read64k@4k" {
  [ "$(runs_kept --only 'signature=read,*' "$FIX/ops")" -eq 12 ]
  run --separate-stderr "$IOBENCH" report --json --only 'signature=read,*' "$FIX/ops"
  jq -e '[.groups[].op] | unique == ["read4k", "read64k@4k"]' <<<"$output"
}

@test "--only op='read,4K,4K' (a signature) is taken as the op it names" {
  [ "$(runs_kept --only 'op=read,4K,4K' "$FIX/ops")" -eq 9 ]
  [ "$(runs_kept --only 'op=read,4K,*' "$FIX/ops")" -eq 9 ]
  run --separate-stderr "$IOBENCH" report --json --only 'op=read,4K,4K' "$FIX/ops"
  jq -e '[.groups[].op] | unique == ["read4k"]' <<<"$output"
}

# shellcheck disable=SC2154 # $stderr and $stderr_lines are set by run --separate-stderr
@test "--only op= that matches no op says so with the ops read, exit 1" {
  run --separate-stderr "$IOBENCH" report --only op=read4 "$FIX/ops"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: report: --only op=read4 matches no op; the ops read are read4k, read64k@4k, rw16k:70, write4k/64, write4k" ]
  [ -z "$output" ]
  # signature= matches signatures only: the hint names both forms
  run --separate-stderr "$IOBENCH" report --only signature=read4k "$FIX/ops"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: report: --only signature=read4k matches no op; the ops read are read4k (read,4K,4K), "* ]]
  [ "${#stderr_lines[@]}" -eq 1 ]
  # after another filter: the ops that filter left
  run --separate-stderr "$IOBENCH" report --only 'op=read*' --only op=write4k "$FIX/ops"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: report: --only op=write4k matches no op; the ops read are read4k, read64k@4k" ]
}

@test "--expect takes the op as typed or as a signature; rows show it typed" {
  printf '%s\n' 'read,4K,4K >= 300 iops at 4 threads' 'write4k/64 p99 <= 2ms' 'write64,4K,4K p99 <= 500µs' >"$TMP/box.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/box.expect" "$FIX/ops"
  [ "$status" -eq 1 ]
  # h1 370 and h2 377 iops pass, h3 148 does not; the writes' p99 is 1 ms
  [ "$(grep -cE '^PASS +1 +read4k >= 300 iops at 4 threads +h[12] ' <<<"$output")" -eq 2 ]
  [ "$(grep -cE '^FAIL +1 +read4k >= 300 iops at 4 threads +h3 ' <<<"$output")" -eq 1 ]
  [ "$(grep -cE '^PASS +2 +write4k/64 p99 <= 2ms ' <<<"$output")" -eq 3 ]
  [ "$(grep -cE '^FAIL +3 +write4k/64 p99 <= 500µs ' <<<"$output")" -eq 3 ]
  [[ "$output" != *",4K,4K"* ]]
  [ "${lines[-1]}" = "FAIL: 5 of 9 checks passed" ]
  run --separate-stderr "$IOBENCH" report --json --expect "$TMP/box.expect" "$FIX/ops"
  jq -e '[.expect[] | [.op, .signature]] | unique == [["read4k", "read,4K,4K"], ["write4k/64", "write64,4K,4K"]]' <<<"$output"
  printf 'write4k/16 p99 <= 2ms\n' >"$TMP/none.expect"
  run --separate-stderr "$IOBENCH" report --json --expect "$TMP/none.expect" "$FIX/ops"
  [ "$status" -eq 1 ]
  jq -e '.expect == [.expect[0]] and .expect[0].op == "write4k/16" and .expect[0].signature == null
    and .expect[0].detail == "no write4k/16 results were read"' <<<"$output"
}

@test "--expect: a latency without a unit is a usage error that names both readings" {
  printf 'read4k >= 100 iops\nwrite4k/64 p99 <= 600\n' >"$TMP/bare.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/bare.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: $TMP/bare.expect:2: latency '600' has no unit; say 600us or 0.6ms (ns, us or µs, ms, s)" ]
  printf 'read4k mean < 1.5\n' >"$TMP/bare.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/bare.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: $TMP/bare.expect:1: latency '1.5' has no unit; say 1.5us or "* ]]
  # a bare throughput, as before
  printf 'read4k >= 15000\n' >"$TMP/bare.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/bare.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: $TMP/bare.expect:1: say what 15000 is (iops, MB/s, p99 ...); "* ]]
}

@test "--expect: a thread count is a whole number from 1 to 4096" {
  local t
  printf 'read4k >= 100 iops at 16.5 threads\n' >"$TMP/t.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/t.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: $TMP/t.expect:1: 'at 16.5 threads': a thread count is a whole number; say at 16 or 17 threads" ]
  for t in 0 5000 -4 four; do
    printf 'read4k >= 100 iops at %s threads\n' "$t" >"$TMP/t.expect"
    run --separate-stderr "$IOBENCH" report --expect "$TMP/t.expect" "$FIX/ops"
    [ "$status" -eq 2 ]
    [ "$stderr" = "iobench: $TMP/t.expect:1: '$t' is not a thread count; say at N threads, N a whole number from 1 to 4096" ]
  done
}

@test "--expect: hex is refused for figures and thread counts" {
  printf 'read4k >= 0x10 iops\n' >"$TMP/h.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/h.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: $TMP/h.expect:1: '0x10' is hex; write the number in decimal" ]
  printf 'read4k >= 100 iops at 0x4 threads\n' >"$TMP/h.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/h.expect" "$FIX/ops"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: $TMP/h.expect:1: thread count '0x4' is hex; write it in decimal, e.g. at 16 threads" ]
}

@test "--expect: latencies in ns, us, µs, ms and s, stuck to the number or apart, judge alike" {
  local u
  # the writes' p99: 1 ms
  for u in 2000000ns 2000us '2000 µs' 2ms '2 ms' 0.002s 2e3us; do
    printf 'write4k/64 p99 <= %s\n' "$u" >"$TMP/u.expect"
    run --separate-stderr "$IOBENCH" report --expect "$TMP/u.expect" "$FIX/ops"
    [ "$status" -eq 0 ] || { echo "$u: $stderr"; return 1; }
    [ "${lines[-1]}" = "PASS: 3 of 3 checks passed" ]
  done
  printf 'write4k/64 p99 < 0.5ms\n' >"$TMP/u.expect"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/u.expect" "$FIX/ops"
  [ "$status" -eq 1 ]
  [ "${lines[-1]}" = "FAIL: 0 of 3 checks passed" ]
}

@test "report --help names ops as typed for --only and says --expect's units" {
  run "$IOBENCH" report --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"op (as typed: read4k, 'write4k/*'"* ]]
  [[ "$output" == *"signature (read,4K,4K)"* ]]
  [[ "$output" == *"a latency says its unit"* ]]
  [[ "$output" == *"--only op='read*'"* ]]
  [[ "$output" != *"Groups (signature"* && "$output" != *"per signature x"* ]]
}
