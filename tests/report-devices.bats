#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,quick
# report-devices.bats - the devices section: each member of an array under a
# run's target against its siblings, from the "devices" figures runs record,
# the slow one named (the bonnie++ EBS RAID study's sdi1), in the summary and
# on a chart. Lines are a real run's with an md0 of four members written in
# (the host kernel has no md; tests/raid-vm.bats makes real ones).

bats_require_minimum_version 1.5.0
load lib/core

# base_line FILE: one real run line (its devices replaced below).
base_line() {
  make_file "$TMP/f" 16M
  "$IOBENCH" run -q -o read4k -t 2 -d 1 -b 1 --host base "$TMP/f" --json "$1"
}

# md_line BASE SLOW FACTOR HOST [FROM]: BASE's line on HOST with an md0 (raid0)
# of vdb..vde, 8 one-second buckets; member SLOW's await FACTOR times the
# others' (0.5 ms) from bucket FROM (default 2) on, busy 99% then (60% else).
md_line() {
  jq -c --arg slow "$2" --argjson f "$3" --arg host "$4" --argjson from "${5:-2}" '
    def st(a): {seconds: 1, reads: 1000, writes: 0, readsPerSec: 1000, writesPerSec: 0, readMBPerSec: 4.1,
      writeMBPerSec: 0, readAwaitMs: a, writeAwaitMs: null, utilPct: (if a > 1 then 99 else 60 end), queueSize: 1};
    .host = $host | .bucketDuration = 1 |
    .devices = ([{name: "md0", majMin: "9:0", type: "md", role: "target", above: null,
                  below: ["vdb", "vdc", "vdd", "vde"], raidLevel: "raid0", total: st(1),
                  buckets: [range(8)] | map(st(1))}] +
      (["vdb", "vdc", "vdd", "vde"] | map(. as $n | {name: $n, majMin: "254:16", type: "disk", role: "member",
         above: "md0", below: [], serial: ("vol0abc" + $n),
         buckets: ([range(8)] | map(. as $k | st(if $n == $slow and $k >= $from then 0.5 * $f else 0.5 end)))}
        | .total = {seconds: 8, reads: 8000, writes: 0,
            readAwaitMs: (.buckets | map(.readAwaitMs) | add / length),
            utilPct: (.buckets | map(.utilPct) | add / length)})))' "$1"
}

@test "devices: the throttled member named with its await against its siblings; an even array names none" {
  base_line "$TMP/base.jsonl"
  md_line "$TMP/base.jsonl" vdd 5 h1 >"$TMP/r.jsonl"
  md_line "$TMP/base.jsonl" none 1 h2 >>"$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section devices "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  # a row per member and host, the array and its members as the line says
  [ "$(jq '.devices | length' <<<"$output")" -eq 8 ]
  [ "$(jq -r '[.devices[] | select(.host == "h1") | .member] | join(" ")' <<<"$output")" == "vdb vdc vdd vde" ]
  # h1's vdd: slow, 4x its siblings' await over the run (5x in the 6 buckets it was slow in)
  jq -e '[.devices[] | select(.slow)] | length == 1 and (.[0] | .host == "h1" and .member == "vdd" and .array == "md0"
    and .volume == "vol-0abcvdd" and (.vsSiblings - 4 | fabs) < 0.01 and .siblingsAwaitMs == 0.5
    and .slowBuckets == 6 and .buckets == 8 and .utilPct > 80)' <<<"$output"
  # the array's await at its siblings' speed: a member's share of the ops at its own await
  jq -e '.devices[] | select(.slow) | (.arrayAwaitMs - 0.875 | fabs) < 0.001 and .arrayAwaitAtSiblingsMs == 0.5' <<<"$output"
  # h2's even array: no one slow
  jq -e '[.devices[] | select(.host == "h2") | .vsSiblings] | all(. == 1)' <<<"$output"
  # the text: the slow member's row and its buckets
  run --separate-stderr "$IOBENCH" report --section devices "$TMP/r.jsonl"
  grep -E '^h1 .* md0 +vdd +vol-0abcvdd +2\.00 .* 4\.00 +\* +6 of 8 \(2-8 s\) +slow member: await 4\.0x' <<<"$output"
}

@test "devices: the summary names the slow member, its host, volume and cause; the page charts it" {
  base_line "$TMP/base.jsonl"
  md_line "$TMP/base.jsonl" vdc 6 h1 0 >"$TMP/r.jsonl"
  md_line "$TMP/base.jsonl" none 1 h2 >>"$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.summary[] | select(.kind == "slowMember")] | length == 1 and (.[0] | .section == "devices"
    and (.finding | startswith("slow member vdc (vol-0abcvdc) of md0 on h1: await 6.0x its siblings'"'"', busy 99%, 8 of 8 buckets")))' <<<"$output"
  command -v gnuplot >/dev/null || skip "env: gnuplot is not installed (Debian: gnuplot-nox)"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  # one chart: the array with the slow member, a line per member over the 8 buckets
  [ "$(ls "$TMP/plots"/members-*.svg | wc -l)" -eq 1 ]
  [ "$(grep -c '^# vd[b-e]$' "$TMP/plots/members-1.dat")" -eq 4 ]
  awk '/^# vdc$/ { on = 1; next } /^# vd/ { on = 0 } on && NF == 2 { n++; if ($2 != 3) bad = 1 } END { exit !(n == 8 && !bad) }' \
    "$TMP/plots/members-1.dat"
  grep -q 'id="chart-members-1"' "$TMP/plots/index.html"
}

@test "devices: runs merge per host; no array, one member, or a line without figures: no rows and no failure" {
  base_line "$TMP/base.jsonl"
  # two runs of one host: counts add up, awaits weight by completions
  md_line "$TMP/base.jsonl" vdd 5 h1 >"$TMP/two.jsonl"
  md_line "$TMP/base.jsonl" vdd 1 h1 >>"$TMP/two.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section devices "$TMP/two.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.devices[] | select(.member == "vdd")] | length == 1 and (.[0] | .runs == 2 and .slowBuckets == 6
    and .buckets == 16 and (.vsSiblings - 2.5 | fabs) < 0.01 and .slow)' <<<"$output"
  # a plain disk (the base line's own devices), a one-member array, devices that are not objects
  jq -c '.devices |= map(select(.name != "vdc" and .name != "vdd" and .name != "vde"))' <(md_line "$TMP/base.jsonl" vdb 5 h3) >"$TMP/odd.jsonl"
  jq -c '.host = "h4" | .devices = [1, "x", {name: 7}, {name: "md9", type: "md", total: "no"}]' "$TMP/base.jsonl" >>"$TMP/odd.jsonl"
  cat "$TMP/base.jsonl" >>"$TMP/odd.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section devices,groups "$TMP/odd.jsonl"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq '.devices | length' <<<"$output")" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 3 ]
}

@test "devices: --only keeps the hosts it names" {
  base_line "$TMP/base.jsonl"
  md_line "$TMP/base.jsonl" vdd 5 h1 >"$TMP/r.jsonl"
  md_line "$TMP/base.jsonl" vdb 5 h2 >>"$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section devices --only host=h2 "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq -r '[.devices[] | select(.slow) | .host + ":" + .member] | join(" ")' <<<"$output")" == "h2:vdb" ]
  [ "$(jq '[.devices[] | select(.host == "h1")] | length' <<<"$output")" -eq 0 ]
}

@test "devices: the VM's RAID 0 with a qemu-throttled member: vde named, the even array names none" {
  local data=$BATS_TEST_DIRNAME/data/devices
  run --separate-stderr "$IOBENCH" report --json --section devices,summary "$data/raid0-slow-member.jsonl" "$data/raid0-even.jsonl"
  [ "$status" -eq 0 ]
  # the throttled disk is the one qemu named iobench-throttled; its await is far above its siblings'
  jq -e '[.devices[] | select(.slow)] | length == 1 and (.[0] | .member == "vde" and .serial == "iobench-throttled"
    and .vsSiblings > 20 and .utilPct > 90)' <<<"$output"
  jq -e '[.devices[] | select(.labels | test("raid0-even"))] | length == 4 and all(.slow | not) and all(.vsSiblings < 1.5)' <<<"$output"
  jq -e '[.summary[] | select(.kind == "slowMember")] | length == 1 and (.[0].finding | startswith("slow member vde of md"))' <<<"$output"
  # docs/report.md shows this report, line for line, as a reader runs it
  local cmd='iobench report --section summary,devices tests/data/devices/raid0-slow-member.jsonl' block
  block=$(awk -v first="    \$ $cmd" 'index($0, first) == 1 { on = 1; next } on && /^[^ ]/ && NF { exit }
    on { sub(/^    /, ""); print }' "$BATS_TEST_DIRNAME/../docs/report.md")
  [ -n "$block" ]
  cd "$BATS_TEST_DIRNAME/.."
  COLUMNS=100 run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$cmd"
  [ "$status" -eq 0 ]
  diff <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' <<<"$block") <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' <<<"$output")
}
