#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# bonnie.bats - scripts/bonnie with the real bonnie++ on a temp dir (small
# file sizes made legal with bonnie++'s -r, the RAM size it assumes).

bats_require_minimum_version 1.5.0

BONNIE=$BATS_TEST_DIRNAME/../scripts/bonnie

setup() {
  command -v bonnie++ >/dev/null || skip "bonnie++ not installed (see .ci/apt-fleet.txt)"
  command -v jq >/dev/null || skip "jq not installed"
  DIR=$BATS_TEST_TMPDIR/mnt
  mkdir -p "$DIR"
}

@test "bonnie --help, and a missing DIR is a usage error (exit 2)" {
  run "$BONNIE" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: bonnie [OPTIONS] DIR"* ]]
  run "$BONNIE"
  [ "$status" -eq 2 ]
  run "$BONNIE" "$BATS_TEST_TMPDIR/nope"
  [ "$status" -eq 2 ]
}

@test "bonnie sizes the file at twice the RAM by default, with -f, N runs" {
  run --separate-stderr "$BONNIE" --dry-run -x 3 -r 100 "$DIR"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^bonnie++ ' <<<"$output")" -eq 3 ]
  [[ "$output" == *" -f "* && "$output" == *" -s 200 -r 100 "* ]]
  if [[ $(id -u) == 0 ]]; then [[ "$output" == *" -u root"* ]]; fi
  local ram
  ram=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
  run --separate-stderr "$BONNIE" --dry-run -x 1 "$DIR"
  [[ "$output" == *" -s $((2 * ram)) -r $ram "* ]]
}

@test "bonnie turns each bonnie++ CSV line into one JSON line with the same numbers" {
  run --separate-stderr "$BONNIE" -q -x 2 -s 1G -r 512 --host h1 --label layout=single \
    --json "$BATS_TEST_TMPDIR/b.jsonl" "$DIR"
  [ "$status" -eq 0 ]
  local j=$BATS_TEST_TMPDIR/b.jsonl c=$BATS_TEST_TMPDIR/b.csv
  [ "$(wc -l <"$j")" -eq 2 ]
  [ "$(wc -l <"$c")" -eq 2 ]
  # Exactly the keys of the contract.
  [ "$(jq -c '[keys_unsorted, (.bonnie | keys)]' "$j" | sort -u)" == \
    '[["tool","launchTime","host","labels","bonnie"],["fileSize","randomSeeksCpu","randomSeeksLatency","randomSeeksPerSec","seqInBlockCpu","seqInBlockKBps","seqInBlockLatency","seqOutBlockCpu","seqOutBlockKBps","seqOutBlockLatency","seqOutRewriteCpu","seqOutRewriteKBps","seqOutRewriteLatency","version"]]' ]
  [ "$(jq -r '[.tool, .host, .labels.layout, .bonnie.fileSize, (.launchTime | type)] | @tsv' "$j" | sort -u)" == \
    "$(printf 'bonnie++\th1\tsingle\t1G\tnumber')" ]
  # Field by field against bonnie++'s own CSV: a number where it printed
  # digits, null where it printed +++++ or nothing; latencies as strings.
  local n key col v want
  for n in 1 2; do
    for key in seqOutBlockKBps:12 seqOutBlockCpu:13 seqOutRewriteKBps:14 seqOutRewriteCpu:15 \
      seqInBlockKBps:18 seqInBlockCpu:19 randomSeeksPerSec:20 randomSeeksCpu:21; do
      col=${key#*:} key=${key%%:*}
      v=$(sed -n "${n}p" "$c" | cut -d, -f"$col")
      if [[ "$v" =~ ^[0-9]+$ ]]; then want=$v; else want=null; fi
      [ "$(sed -n "${n}p" "$j" | jq -c ".bonnie.$key")" == "$want" ]
    done
    for key in seqOutBlockLatency:40 seqOutRewriteLatency:41 seqInBlockLatency:43 randomSeeksLatency:44; do
      col=${key#*:} key=${key%%:*}
      v=$(sed -n "${n}p" "$c" | cut -d, -f"$col")
      [[ "$v" =~ ^[0-9]+(us|ms|s)$ ]]
      [ "$(sed -n "${n}p" "$j" | jq -r ".bonnie.$key")" == "$v" ]
    done
    [ "$(sed -n "${n}p" "$j" | jq -r .bonnie.version)" == "$(sed -n "${n}p" "$c" | cut -d, -f2)" ]
  done
}

@test "bonnie --from-csv converts saved bonnie++ CSV: numbers, nulls for +++++, latencies" {
  run --separate-stderr "$BONNIE" --from-csv "$BATS_TEST_DIRNAME/data/bonnie-2.00a.csv" --host h2
  [ "$status" -eq 0 ]
  # The header line is skipped: two results, two JSON lines.
  [ "$(wc -l <<<"$output")" -eq 2 ]
  [ "$(sed -n 1p <<<"$output" | jq -c '.bonnie | [.seqOutBlockKBps, .seqOutBlockCpu, .seqOutRewriteKBps, .seqInBlockKBps, .randomSeeksPerSec, .randomSeeksCpu, .seqOutBlockLatency, .randomSeeksLatency]')" == \
    '[544092,33,1001353,null,null,null,"17561us","24085us"]' ]
  [ "$(sed -n 2p <<<"$output" | jq -c '.bonnie | [.fileSize, .seqOutBlockKBps, .seqOutRewriteCpu, .seqInBlockKBps, .seqInBlockCpu, .randomSeeksPerSec, .randomSeeksCpu, .seqOutRewriteLatency, .seqInBlockLatency]')" == \
    '["48G",131072,7,262144,9,1523.4,38,"1540ms","95120us"]' ]
  [ "$(jq -r .host <<<"$output" | sort -u)" == h2 ]
}

@test "bonnie reports a bonnie++ failure with exit 1" {
  # Twice the assumed RAM is more than the file: bonnie++ refuses.
  run "$BONNIE" -q -x 1 -s 64 -r 1024 --json "$BATS_TEST_TMPDIR/f.jsonl" "$DIR"
  [ "$status" -eq 1 ]
  [[ "$output" == *"bonnie++ failed"* ]]
  [ ! -s "$BATS_TEST_TMPDIR/f.jsonl" ]
}

@test "bonnie refuses a zero size or RAM before bonnie++ starts, and says when --from-csv finds no result" {
  mkdir -p "$BATS_TEST_TMPDIR/d"
  for args in "-s 0" "-s 0M" "-r 0"; do
    # shellcheck disable=SC2086 # words on purpose
    run "$BONNIE" --dry-run $args "$BATS_TEST_TMPDIR/d"
    [ "$status" -eq 2 ]
    [[ "$output" == "bonnie: --"*"over 0"*"(see bonnie --help)" ]]
    [[ "$output" != *bonnie++* ]]
  done
  head -c 4096 /dev/urandom > "$BATS_TEST_TMPDIR/garbage"
  printf 'format_version,bonnie_version\nnot,a,result\n' > "$BATS_TEST_TMPDIR/header-only.csv"
  for f in garbage header-only.csv; do
    run "$BONNIE" --from-csv "$BATS_TEST_TMPDIR/$f" --json "$BATS_TEST_TMPDIR/out.jsonl"
    [ "$status" -eq 1 ]
    [ "$output" = "bonnie: '$BATS_TEST_TMPDIR/$f' holds no bonnie++ CSV result line (one starting with its version, e.g. 1.98,); nothing converted" ]
  done
  [ ! -s "$BATS_TEST_TMPDIR/out.jsonl" ]
}

@test "bonnie --provision and --provision-fact: the line's provision object names its config in iobench report" {
  local iobench=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench} out=$BATS_TEST_TMPDIR/all.jsonl
  [ -x "$iobench" ] || skip "no iobench binary (make)"
  printf '{"instanceType": "m5.large", "volumeType": "gp2", "instanceId": "i-0b1"}\n' >"$BATS_TEST_TMPDIR/p.json"
  # A fact given after the file wins; typed as iobench types it.
  run --separate-stderr "$BONNIE" --from-csv "$BATS_TEST_DIRNAME/data/bonnie-2.00a.csv" --host b1 \
    --provision "$BATS_TEST_TMPDIR/p.json" --provision-fact volumeType=gp3 --provision-fact volumeCount=4 \
    --provision-fact raidLevel=0 --provision-fact raidChunk=256K --json "$out"
  [ "$status" -eq 0 ]
  [ "$(jq -c .provision "$out" | sort -u)" == \
    '{"instanceType":"m5.large","volumeType":"gp3","instanceId":"i-0b1","volumeCount":4,"raidLevel":"0","raidChunk":262144}' ]
  # An iobench run with the same facts: the report puts both under one config.
  "$iobench" -q -o read4k -n 20 -d 1 --no-direct --size 4M --host b1 \
    --provision "$BATS_TEST_TMPDIR/p.json" --provision-fact volumeType=gp3 --provision-fact volumeCount=4 \
    --provision-fact raidLevel=0 --provision-fact raidChunk=256K --json "$out" "$BATS_TEST_TMPDIR/data.bin"
  run --separate-stderr "$iobench" report --json "$out"
  [ "$status" -eq 0 ]
  [ "$(jq -r '[.bonnie[].config] | unique | .[]' <<<"$output")" == "m5.large / gp3 x4 / raid0" ]
  [ "$(jq -c '[.bonnieRuns[] | [.host, .config, .runs, .volumes]]' <<<"$output")" == '[["b1","m5.large / gp3 x4 / raid0",2,4]]' ]
  # (its --no-direct reads are a setting of their own: the config's name says "buffered")
  [ "$(jq -r '[.groups[].config] | unique | .[]' <<<"$output")" == "m5.large / gp3 x4 / raid0 / buffered" ]
  # A bad fact or file is a usage error, and nothing is written.
  run "$BONNIE" --from-csv "$BATS_TEST_DIRNAME/data/bonnie-2.00a.csv" --provision-fact volumeCount=four
  [ "$status" -eq 2 ]
  [[ "$output" == "bonnie: --provision-fact 'volumeCount=four': use KEY=VALUE"* ]]
  printf '[1]\n' >"$BATS_TEST_TMPDIR/bad.json"
  run "$BONNIE" --from-csv "$BATS_TEST_DIRNAME/data/bonnie-2.00a.csv" --provision "$BATS_TEST_TMPDIR/bad.json"
  [ "$status" -eq 2 ]
  [[ "$output" == "bonnie: --provision '$BATS_TEST_TMPDIR/bad.json': give a JSON object of facts"* ]]
}
