#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report
# answers-basis.bats - one answer, one basis: every figure of the study's
# answer (ops/s, ops per dollar, the ratio and the ratio per dollar) from the
# same hosts, the same cells and the same statistic, the median host at the
# optimum with the bad apples left out; bad apples that are slow in most of
# their cells, not in one; a figure above its own caps never offered as the
# answer; settings that change the result kept apart. Each test holds a
# fixture whose truth is known (lines by tests/data/report/gen-lines with
# provision facts by jq, and the real namespace-host study in
# tests/data/study) against the conclusion a reader draws.

bats_require_minimum_version 1.5.0

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
  export PRICES=$BATS_TEST_DIRNAME/../share/prices-sample.json
  export STUDY=$BATS_TEST_DIRNAME/data/study
}

# cell HOST SIG THREADS OPS FACTS-JSON [GEN-WORDS...]: one 60 s run of HOST
# at OPS ops/s (ten steady 6 s buckets), its latency THREADS/OPS, with those
# provision facts.
cell() {
  local host=$1 sig=$2 t=$3 ops=$4 facts=$5
  shift 5
  "$GEN" "host=$host sig=$sig threads=$t runtime=60 bucket=6 modes=$((t * 1000000000 / ops)):$((ops * 60)) $*" |
    jq -c --argjson p "$facts" '.provision = $p'
}

SINGLE='{"instanceType":"m5.large","volumeType":"gp3","volumeSize":100}'
RAID='{"instanceType":"m5.large","volumeType":"gp3","volumeSize":100,"volumeCount":4,"raidLevel":"0","raidChunk":262144}'

# raid_study: one gp3 volume against a RAID 0 of four, four hosts each, three
# ops at three thread counts. s4 is throttled to a sixth in 8 of its 9 cells
# (the bad apple); r2 has one noisy write4k cell at 55% of the median.
raid_study() {
  local h t sig ops
  for h in s1 s2 s3 s4; do
    for t in 1 8 16; do
      for sig in read,4K,4K writeFlush,4K,4K read,4M,4M; do
        case $sig in read,4M,4M) ops=30 ;; *) ops=$((t == 1 ? 1000 : 2990 + ${h#s} * 3)) ;; esac
        [[ $h != s4 || ($sig == read,4M,4M && $t == 1) ]] || ops=$((ops / 6))
        cell "$h" "$sig" "$t" "$ops" "$SINGLE"
      done
    done
  done
  for h in r1 r2 r3 r4; do
    for t in 1 8 16; do
      for sig in read,4K,4K writeFlush,4K,4K read,4M,4M; do
        case $sig in read,4M,4M) ops=120 ;; *) ops=$((t == 1 ? 1000 : 11900 + ${h#r} * 20)) ;; esac
        [[ $h != r2 || $sig != writeFlush,4K,4K || $t != 8 ]] || ops=$((ops * 55 / 100))
        cell "$h" "$sig" "$t" "$ops" "$RAID"
      done
    done
  done
}

@test "one basis: ops/s, ops per dollar and the ratio per dollar all come from the median host at the optimum" {
  raid_study >"$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 0 ]
  local json=$output
  # RAID 0's read4k at 8 threads (16 is no better): r1-r4 at 11920-11980, the median 11950
  jq -e '.summary[] | select(.kind == "best" and .op == "read4k") | .config == "m5.large / gp3 x4 / raid0"
    and .value == 11950 and .threads == 8 and .hosts == 4 and .hostsOf == 4' <<<"$json"
  # the single volume's: s1-s3 are 2993, 2996, 2999 (s4 left out): the median is 2996
  jq -e '.cost[] | select(.op == "read4k" and .config == "m5.large / gp3 x1") | .opsPerSec == 2996
    and .hosts == 3 and .hostsOf == 4 and .leftOut == "s4" and .volumes == 1' <<<"$json"
  # ops per dollar: that figure x 3600 / the config's $/h, for both configs, and the summary says the same
  jq -e '[.cost[] | select(.op == "read4k") | (.opsPerDollar - .opsPerSec * 3600 / .dollarsPerHour | fabs) < 1]
    == [true, true]' <<<"$json"
  jq -e '(.summary[] | select(.kind == "perDollar" and .op == "read4k")) as $s
    | (.cost[] | select(.op == "read4k" and .rank == 1)) as $c | $s.value == $c.opsPerDollar and $s.config == $c.config' <<<"$json"
  # the ratio is the two figures' ratio, and per dollar the ratio times the price ratio
  local a b
  a=$(jq -c '.cost[] | select(.op == "read4k" and .config == "m5.large / gp3 x1")' <<<"$json")
  b=$(jq -c '.cost[] | select(.op == "read4k" and .config == "m5.large / gp3 x4 / raid0")' <<<"$json")
  jq -e --argjson a "$a" --argjson b "$b" '.summary[] | select(.kind == "compare" and .op == "read4k")
    | (.value - $b.opsPerSec / $a.opsPerSec | fabs) < 1e-9
    and (.perDollar - .value * $a.dollarsPerHour / $b.dollarsPerHour | fabs) < 1e-9
    and (.perDollar - $b.opsPerDollar / $a.opsPerDollar | fabs) < 1e-9
    and .hosts == 7 and .hostsOf == 8' <<<"$json"
  # and the text a reader sees rounds them alike: "3.99x ... 1.57x per dollar"
  run --separate-stderr "$IOBENCH" report --section summary --prices "$PRICES" "$BATS_TEST_TMPDIR/s.jsonl"
  local ratio per
  ratio=$(jq -r '.summary[] | select(.kind == "compare" and .op == "read4k") | .value * 100 | round / 100' <<<"$json")
  per=$(jq -r '.summary[] | select(.kind == "compare" and .op == "read4k") | .perDollar * 100 | round / 100' <<<"$json")
  tr '\n' ' ' <<<"$output" | tr -s ' ' | grep -F "raid0 is ${ratio}x gp3 x1"
  tr '\n' ' ' <<<"$output" | tr -s ' ' | grep -E "; ${per}x per dollar \[compare\]"
}

@test "one basis on the real namespace-host study: per dollar recomputed from the median host and the price file" {
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" "$STUDY/gp3" "$STUDY/io2"
  [ "$status" -eq 0 ]
  local json=$output op
  for op in read4k write4k/64; do
    # the median of the three hosts that are not bad apples, at the optimum, from the per-host groups
    jq -e --arg op "$op" '(.cost[] | select(.op == $op and .volume == "gp3")) as $c
      | [.groups[] | select(.op == $op and .config == $c.config and .threads == $c.threads and .host != "g2")
         | .opsPerSec] | sort | .[1] as $med | ($c.opsPerSec - $med | fabs) < 1e-6
      and ($c.opsPerDollar - $med * 3600 / $c.dollarsPerHour | fabs) < 1' <<<"$json"
    jq -e --arg op "$op" '(.cost | map(select(.op == $op)) | INDEX(.volume)) as $c
      | .summary[] | select(.kind == "compare" and .op == $op)
      | (.perDollar - .value * $c.gp3.dollarsPerHour / $c.io2.dollarsPerHour | fabs) < 1e-9' <<<"$json"
  done
}

@test "bad apples: only the host slow in most of its cells is named; one slow cell is a noisy cell, not in the summary" {
  raid_study >"$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,badApples "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.summary[] | select(.kind == "badApple") | .finding | capture("^bad apple (?<h>[^ ]+)").h] == ["s4"]' <<<"$output"
  jq -e '.summary[] | select(.kind == "badApple") | .finding | test("slow in 8 of 9 cells, typically 17% of the median")' <<<"$output"
  # r2's one slow cell is listed where the evidence is, as a noisy cell
  jq -e '[.badApples[] | select(.host == "r2") | [.verdict, .badApple, .threads]] == [["noisy cell", false, 8]]' <<<"$output"
  jq -e '.badApples[] | select(.host == "r2") | .rule | test("a noisy cell: slow in 1 of 9 cells")' <<<"$output"
  # ranked by severity: a host slower in more cells comes first
  { raid_study; for t in 1 8 16; do for sig in read,4K,4K writeFlush,4K,4K read,4M,4M; do
      case $sig in read,4M,4M) ops=10 ;; *) ops=$((t == 1 ? 100 : 300)) ;; esac
      cell s5 "$sig" "$t" "$ops" "$SINGLE"; done; done; } >"$BATS_TEST_TMPDIR/s5.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary "$BATS_TEST_TMPDIR/s5.jsonl"
  jq -e '[.summary[] | select(.kind == "badApple") | .finding | capture("^bad apple (?<h>[^ ]+)").h] == ["s5", "s4"]' <<<"$output"
}

@test "bad apples: two hosts are too few to tell, and the summary says so instead of guessing" {
  { cell a read,4K,4K 4 3000 "$SINGLE"; cell b read,4K,4K 4 300 "$SINGLE"; } >"$BATS_TEST_TMPDIR/two.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,badApples "$BATS_TEST_TMPDIR/two.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.summary[] | select(.kind == "badApple")] == []' <<<"$output"
  jq -e '.summary[] | select(.kind == "tooFewHosts") | .finding == "m5.large / gp3 x1: 2 hosts, too few to tell a bad apple (3 at least)"' <<<"$output"
  jq -e '.badApples == []' <<<"$output"
}

@test "compare says which hosts it left out, and the interval with every host is in the section" {
  raid_study >"$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,compare "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.compare[] | select(.op == "read4k" and .metric == "ops/s") | .hostsA == 3 and .leftOutA == "s4"
    and .hostsB == 4 and .leftOutB == null and .highAll > .high and .ratioAll != null' <<<"$output"
  jq -e '.summary[] | select(.kind == "compare" and .op == "read4k") | .finding
    | test("\\(3 of 4 gp3 x1 hosts, s4 left out; with them: \\[[0-9.]+, [0-9.]+\\]\\)")' <<<"$output"
}

@test "a figure above its own caps is not offered as the answer: the summary names the contradiction" {
  # gp3's read4m at 1,508 MB/s: twelve times the 125 MiB/s its facts allow (the runs were on a root disk)
  local io2='{"instanceType":"m5.large","volumeType":"io2","volumeSize":100,"volumeIops":8000}' h
  for h in g1 g2 g3; do cell "$h" read,4M,4M 8 $((360 + ${h#g})) "$SINGLE"; done >"$BATS_TEST_TMPDIR/c.jsonl"
  for h in i1 i2 i3; do cell "$h" read,4M,4M 8 $((110 + ${h#i})) "$io2"; done >>"$BATS_TEST_TMPDIR/c.jsonl"
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" --section summary,cost "$BATS_TEST_TMPDIR/c.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.summary[] | select(.kind == "best") | .config == "m5.large / io2 x1"' <<<"$output"
  jq -e '.summary[] | select(.kind == "doubt") | .config == "m5.large / gp3 x1"
    and (.finding | test("^not ranked: m5.large / gp3 x1, 1,518 MB/s is 12x the 131 MB/s its provisioned caps allow"))' <<<"$output"
  # and a comparison with it says so, with no ratio per dollar
  jq -e '.summary[] | select(.kind == "compare") | (.finding | test("gp3 x1.s figure is in doubt"))
    and .perDollar == null' <<<"$output"
  jq -e '.summary[] | select(.kind == "perDollarMB") | .config == "m5.large / io2 x1"' <<<"$output"
  jq -e '.cost[] | select(.volume == "gp3") | .rank == null and (.doubt | test("provisioned caps"))' <<<"$output"
  jq -e '.cost[] | select(.volume == "io2") | .rank == 1' <<<"$output"
  # the cost chart draws it, marked as no answer
  run --separate-stderr "$IOBENCH" report --prices "$PRICES" --plot "$BATS_TEST_TMPDIR/plots" "$BATS_TEST_TMPDIR/c.jsonl"
  [ "$status" -eq 0 ]
  grep -F '"m5.large / gp3 x1" ' "$BATS_TEST_TMPDIR/plots/cost.dat" | grep -qF ', not ranked"'
  [ -z "$(grep -F '"m5.large / io2 x1" ' "$BATS_TEST_TMPDIR/plots/cost.dat" | grep -F 'not ranked')" ]
  # the same when the targets section flags the runs: a host whose data file is on the root disk
  for h in g1 g2 g3; do cell "$h" read,4K,4K 8 2900 "$SINGLE" |
    jq -c '.target.rootDevice = true | .target.device = "nvme0n1p1"'; done >"$BATS_TEST_TMPDIR/root.jsonl"
  for h in i1 i2 i3; do cell "$h" read,4K,4K 8 7900 "$io2"; done >>"$BATS_TEST_TMPDIR/root.jsonl"
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" --section summary,cost "$BATS_TEST_TMPDIR/root.jsonl"
  jq -e '.summary[] | select(.kind == "perDollar") | .config == "m5.large / io2 x1"' <<<"$output"
  jq -e '.summary[] | select(.kind == "doubt") | .finding | test("did not measure the volume \\(g1: measured .*nvme0n1p1 \\(root\\)")' <<<"$output"
}

@test "caps from the instance too: a limit below the volumes' is the cap, and at cap says at which thread counts" {
  # io2 at 16000 IOPS on an instance whose EBS lets 11800 through: the hosts sit at 11800, at their cap
  local facts='{"instanceType":"t3.micro","volumeType":"io2","volumeSize":100,"volumeIops":16000,"ebsMaxIops":11800,"ebsBaselineIops":500,"ebsMaxMBps":260.625,"ebsBaselineMBps":10.875}'
  local h
  for h in a b c d; do
    cell "$h" read,4K,4K 1 2000 "$facts"
    cell "$h" read,4K,4K 8 $((11790 + ${#h})) "$facts"
    cell "$h" read,4K,4K 16 11801 "$facts"
  done >"$BATS_TEST_TMPDIR/i.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,instances "$BATS_TEST_TMPDIR/i.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.instances[] | .capOpsPerSec] | unique == [11800]' <<<"$output"
  jq -e '.summary[] | select(.kind == "atCap") | .value == 4 and .hostsOf == 4
    and (.finding | test("at their cap: 4 of 4 hosts of t3.micro / io2 x1 \\(read4k 11,800 ops/s at 8, 16 threads\\)"))' <<<"$output"
  # the same figure without the instance's limits is judged against the volume's 16000 alone: not at cap
  sed 's/,"ebsMaxIops":11800,"ebsBaselineIops":500,"ebsMaxMBps":260.625,"ebsBaselineMBps":10.875//' \
    "$BATS_TEST_TMPDIR/i.jsonl" >"$BATS_TEST_TMPDIR/v.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,instances "$BATS_TEST_TMPDIR/v.jsonl"
  jq -e '[.instances[] | .capOpsPerSec] | unique == [16000]' <<<"$output"
  jq -e '[.summary[] | select(.kind == "atCap")] == []' <<<"$output"
}

@test "settings are configuration: sync and io_uring runs are not merged, and compare by engine works" {
  local h
  for h in a b c; do
    cell "$h" read,4K,4K 1 31900 '{}'
    cell "$h" read,4K,4K 1 78200 '{}' | jq -c '.engine = "io_uring" | .iodepth = 8'
    cell "$h" read,4K,4K 1 50000 '{}' | jq -c '.operations[0].direct = false'
  done >"$BATS_TEST_TMPDIR/e.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups "$BATS_TEST_TMPDIR/e.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.groups[] | select(.host == "a") | [.config, .opsPerSec]] | sort
    == [[null, 31900], ["buffered", 50000], ["io_uring qd8", 78200]]' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'engine=sync vs engine=io_uring' \
    "$BATS_TEST_TMPDIR/e.jsonl"
  [ "$status" -eq 0 ]
  # engine=sync matches the sync runs, O_DIRECT and buffered: both are one side's
  jq -e '.compare[] | select(.metric == "ops/s") | .hostsB == 3 and (.ratio - 78200 / 50000 | fabs) < 0.5' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'direct=true vs direct=false' \
    "$BATS_TEST_TMPDIR/e.jsonl"
  jq -e '[.compare[] | select(.metric == "ops/s") | .b] == ["direct=false"]' <<<"$output"
}

@test "canonical facts: gp3 without volumeIops is gp3 at 3000, one config" {
  local h
  for h in a b c; do
    cell "$h" read,4K,4K 1 2900 '{"instanceType":"m5.large","volumeType":"gp3"}'
    cell "${h}2" read,4K,4K 1 2950 '{"instanceType":"m5.large","volumeType":"gp3","volumeIops":3000,"volumeThroughput":125,"volumeCount":1,"raidLevel":"none"}'
  done >"$BATS_TEST_TMPDIR/f.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances "$BATS_TEST_TMPDIR/f.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.instances[] | [.config, .hosts]] == [["m5.large / gp3 x1", 6]]' <<<"$output"
}

@test "a campaign's rounds: round 1 searched the threads, round 2 is the result; never ranked against each other" {
  local h
  for h in a b c; do
    cell "$h" read,4K,4K 4 2000 "$SINGLE" | jq -c '.notes = {runId: "round1"} | .runtime = 10'
    cell "$h" read,4K,4K 16 2990 "$SINGLE" | jq -c '.notes = {runId: "round2"}'
  done >"$BATS_TEST_TMPDIR/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" --section summary,cost "$BATS_TEST_TMPDIR/r.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.cost[] | [.rank, (.doubt // "" | test("earlier round"))]] | sort == [[null, true], [1, false]]' <<<"$output"
  jq -e '[.summary[] | select(.kind == "best")] | length == 1 and (.[0].finding | test("round 2"))' <<<"$output"
}

@test "ratios keep their digits, and one host's interval comes from its buckets or is not printed" {
  # B runs at 1/300 of A: never "0.00x"
  { cell a read,4K,4K 1 30000 '{}' | jq -c '.labels = {disk: "fast"}'
    cell a read,4K,4K 1 100 '{}' | jq -c '.labels = {disk: "slow"}'; } >"$BATS_TEST_TMPDIR/t.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,compare "$BATS_TEST_TMPDIR/t.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.summary[] | select(.kind == "compare") | .finding | test("0\\.0033x")' <<<"$output"
  [ -z "$(jq -r '.compare[].verdict' <<<"$output" | grep -E '(^|[^0-9.])0\.00x')" ]
  jq -e '[.compare[].verdict] | .[1] | test("p50 is 300x A")' <<<"$output"
  # a 3-second run of one host a side has three buckets: a ratio, no interval
  { "$GEN" "host=a runtime=3 bucket=1 modes=100000:30000 labels=disk=fast"
    "$GEN" "host=a runtime=3 bucket=1 modes=250000:12000 labels=disk=slow"; } >"$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section compare "$BATS_TEST_TMPDIR/s.jsonl"
  jq -e '.compare[] | select(.metric == "ops/s") | .low == null and .high == null
    and (.verdict | test("no interval: one host, too few time buckets"))' <<<"$output"
}

@test "--expect: a latency without a thread count must hold at every thread count measured" {
  # p99 1.5 ms at the optimum's one thread, 101 ms at 16
  { "$GEN" "host=a threads=1 modes=1500000:40000"; "$GEN" "host=a threads=16 modes=101000000:40200"; } \
    >"$BATS_TEST_TMPDIR/x.jsonl"
  printf 'read4k p99 <= 5ms\nread4k >= 600 iops\n' >"$BATS_TEST_TMPDIR/expect"
  run --separate-stderr "$IOBENCH" report --json --expect "$BATS_TEST_TMPDIR/expect" "$BATS_TEST_TMPDIR/x.jsonl"
  [ "$status" -eq 1 ]
  jq -e '.expect[0] | .result == "FAIL" and .threads == 16 and (.detail | test("fails at 16 threads"))' <<<"$output"
  # throughput is still judged at the optimum
  jq -e '.expect[1] | .result == "PASS" and .threads == 1' <<<"$output"
  printf 'read4k p99 <= 200ms\n' >"$BATS_TEST_TMPDIR/expect2"
  run --separate-stderr "$IOBENCH" report --json --expect "$BATS_TEST_TMPDIR/expect2" "$BATS_TEST_TMPDIR/x.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.expect[0].detail | test("holds at every thread count measured \\(1, 16\\)")' <<<"$output"
}

@test "durability: a flush is judged against its own host's read, taken near it in time" {
  # a's write at 266 us; the only read of a is two days later; b's read is a 5 ms outlier
  {
    "$GEN" "host=a sig=writeFlush,4K,4K modes=266000:6000 launch=1763770000"
    "$GEN" "host=a sig=read,4K,4K modes=300000:6000 launch=1763950000"
    "$GEN" "host=b sig=read,4K,4K modes=5000000:6000 launch=1763770000"
    "$GEN" "host=b sig=writeFlush,4K,4K modes=2000000:6000 launch=1763770000"
  } >"$BATS_TEST_TMPDIR/d.jsonl"
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section durability "$BATS_TEST_TMPDIR/d.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability[0].suspicious == false' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/d.jsonl"
  jq -e '[.durability[] | [.host, .suspicious]] == [["a", false], ["b", false]]' <<<"$output"
  jq -e '.durability[] | select(.host == "a") | .evidence | test("no read of this host within an hour")' <<<"$output"
}

@test "a study of 100 configs: each config is one, the summary stays a page, compare pairs each with the next" {
  local k
  for ((k = 0; k < 100; k++)); do
    printf 'host=a labels=config=c%d modes=100000:%d\nhost=b labels=config=c%d modes=100000:%d\n' \
      "$k" $((6000 + k)) "$k" $((6100 + k))
  done | "$GEN" >"$BATS_TEST_TMPDIR/many.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section instances,compare,summary "$BATS_TEST_TMPDIR/many.jsonl"
  [ "$status" -eq 0 ]
  # every config's two hosts in one group (configs interned once, however many)
  jq -e '[.instances[] | .hosts] | length == 100 and all(. == 2)' <<<"$output"
  # 4,950 pairs differ in the one label: each config is compared with the next, 99 pairs
  jq -e '[.compare[] | select(.metric == "ops/s")] | length == 99' <<<"$output"
  jq -e '[.summary[] | select(.kind == "compare")] | length == 6' <<<"$output"
  jq -e '.summary[] | select(.kind == "moreComparisons") | .value == 93' <<<"$output"
  jq -e '[.summary[] | select(.kind == "tooFewHosts")] | length == 1' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section compare "$BATS_TEST_TMPDIR/many.jsonl"
  grep -F "100 configs differ two by two in one dimension in 4950 pairs: each is compared with the next" <<<"$output"
}
