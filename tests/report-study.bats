#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,quick
# report-study.bats - the 2012 study's analyses in `iobench report`: its archive layout,
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

# Hosts of two configs with known per-host read4k ops/s over 60 s at 8 threads.
# large/ebs1 (p50 500 us): h1..h5 at 100, 95, 105, 90, 110; large/ebs4 (250 us): twice that.
make_pair() {
  local dir=$1 h ops
  mkdir -p "$dir"
  for h in 1 2 3 4 5; do
    ops=$(((h % 2 ? 100 + 5 * (h / 2) : 100 - 5 * (h / 2)) * 60))
    echo "host=h$h threads=8 labels=config=large/ebs1 modes=500000:$ops"
    echo "host=h$h threads=8 labels=config=large/ebs4 modes=250000:$((ops * 2))"
  done | "$GEN" >"$dir/r.jsonl"
}

@test "compare: B is Nx A with a seeded bootstrap interval, the same on every run" {
  local dir=$BATS_TEST_TMPDIR/pair
  make_pair "$dir"
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'config=large/ebs1 vs config=large/ebs4' "$dir"
  [ "$status" -eq 0 ]
  local first=$output
  # ratio of the medians of per-host ops/s: 200 / 100
  jq -e '.compare[] | select(.op == "read4k" and .metric == "ops/s")
    | .ratio == 2 and .low <= 2 and .high >= 2 and .low > 1.5 and .high < 2.5 and .hostsA == 5 and .hostsB == 5
      and (.verdict | test("^B is 2.00x A \\([0-9.]+-[0-9.]+\\)$"))' <<<"$output"
  # latency halves: p50 ratio 0.5
  jq -e '.compare[] | select(.metric == "p50") | (.ratio - 0.5 | fabs) < 0.06' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'config=large/ebs1 vs config=large/ebs4' "$dir"
  [ "$output" = "$first" ]
  # the text says the verdict as a reader reads it
  run --separate-stderr "$IOBENCH" report --section compare "$dir"
  [ "$status" -eq 0 ]
  [[ "$output" == *"read4k"*"ops/s"*"B is 2.00x A ("* ]]
  # a side that matches nothing is said, not left out
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'large/ebs1 vs *ebs4' "$dir"
  [ "$status" -eq 0 ]
  jq -e '.compare == [.compare[0]] and (.compare[0].verdict | test("'"'"'large/ebs1'"'"' matches no run"))' <<<"$output"
}

@test "compare: one host a side is said, with the hosts a one-in-ten bad apple needs" {
  local dir=$BATS_TEST_TMPDIR/one
  mkdir -p "$dir"
  "$GEN" "host=a threads=8 labels=config=x modes=500000:6000" "host=a threads=8 labels=config=y modes=500000:6300" >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section compare,instances "$dir"
  [ "$status" -eq 0 ]
  jq -e '[.compare[] | select(.metric == "ops/s")] | length == 1 and (.[0].note | test("one host"))' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section compare "$dir"
  [[ "$output" == *"29 hosts"* ]]
}

@test "bad apples: a host a hair under the median is none, one held to its --rate is a config of its own" {
  local dir=$BATS_TEST_TMPDIR/cap
  mkdir -p "$dir"
  # five hosts at 50 ops/s, one at 49.9 (pinned by its volume), one at 20 held there by --rate 20
  {
    for h in 1 2 3 4 5; do "$GEN" "host=h$h threads=4 modes=500000:3000"; done
    "$GEN" "host=h6 threads=4 modes=500000:2994"
    "$GEN" "host=h7 threads=4 modes=500000:1200" | jq -c '.operations[0].rate = {target: 20}'
    "$GEN" "host=h8 threads=4 modes=500000:1200"
  } >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section badApples,instances "$dir"
  [ "$status" -eq 0 ]
  jq -e '[.badApples[] | {host, badApple}] == [{host: "h8", badApple: true}]' <<<"$output"
  # --rate changes what a host can do: its runs are a configuration of their own, never a bad apple of the fleet's
  jq -e '[.instances[] | .config] == [null]' <<<"$output"
  jq -e '.instances[0] | .badApples == 1 and .atCap == 0 and .hosts == 7' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section groups "$dir"
  jq -e '[.groups[] | select(.host == "h7") | .config] == ["rate 20"]' <<<"$output"
}

@test "a provisioned volume's IOPS make the cap: volumeIops x volumeCount" {
  local dir=$BATS_TEST_TMPDIR/prov
  mkdir -p "$dir"
  {
    for h in 1 2 3; do "$GEN" "host=h$h threads=4 modes=500000:17940"; done
    "$GEN" "host=h4 threads=4 modes=500000:9000"
  } | jq -c '.provision = {instanceType: "m5.large", volumeType: "gp3", volumeIops: 150, volumeCount: 2}' >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section badApples,instances "$dir"
  [ "$status" -eq 0 ]
  # h1-h3 ran 299 ops/s: at the 300 = 150 x 2 provisioned, all three counted; h4 ran half of it
  jq -e '.instances[0] | .atCap == 3 and .capOpsPerSec == 300 and .badApples == 1 and .note == null' <<<"$output"
  jq -e '.badApples == [.badApples[0]] and .badApples[0].host == "h4" and .badApples[0].capOpsPerSec == 300
    and .badApples[0].badApple == true' <<<"$output"
  jq -e '.badApples[0].rule | test("50% below the median \\(>= 20%\\); 4 hosts: too few for a robust z")' <<<"$output"
}

@test "p95 is listed wherever percentiles are; bonnie++ runs average with their spread, seeks per volume" {
  local dir=$BATS_TEST_TMPDIR/p95
  mkdir -p "$dir"
  # 95 of 100 operations at 100 us, 5 at 1 ms: p95 inside the 100 us bucket, p99 at 1 ms
  "$GEN" "modes=100000:95,1000000:5" >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups "$dir"
  jq -e '.groups[0] | .p95Ns < 110000 and .p99Ns > 900000' <<<"$output"
  run --separate-stderr "$IOBENCH" report --section groups "$dir"
  [[ "${lines[2]}" == *" p90 "*" p95 "*" p99 "* ]]
  # two bonnie++ runs of one host on 4 volumes: seeks 5000.5 and 7000.5
  {
    "$GEN" "format=bonnie host=b1"
    "$GEN" "format=bonnie host=b1" | jq -c '.bonnie.randomSeeksPerSec = 7000.5'
  } | jq -c '.labels = {volumeCount: "4"}' >"$dir/b.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section bonnieRuns "$dir/b.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.bonnieRuns[0] | .runs == 2 and .randomSeeksPerSec == 6000.5 and (.randomSeeksPerSecSd - 1414.2 | fabs) < 0.1
    and .volumes == 4 and (.seeksPerVolume - 1500.125 | fabs) < 0.001' <<<"$output"
}

@test "--expect: PASS/FAIL per host, exit 1 on a failure, 2 with FILE:LINE for a bad file" {
  local dir=$BATS_TEST_TMPDIR/pair
  make_pair "$dir"
  printf '# a fresh large/ebs4 box\nread4k >= 180 iops at 8 threads\nread4k p99 <= 300us\n' >"$dir/ok.expect"
  run --separate-stderr "$IOBENCH" report --expect "$dir/ok.expect" --only config=large/ebs4 "$dir"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^PASS ' <<<"$output")" -eq 10 ]
  [[ "$output" == *"PASS: 10 of 10 checks passed"* ]]
  printf 'read4k >= 200 iops\n' >"$dir/hi.expect"
  run --separate-stderr "$IOBENCH" report --json --expect "$dir/hi.expect" --only config=large/ebs4 "$dir"
  [ "$status" -eq 1 ]
  # h1, h3, h5 (200, 210, 220) pass; h2 and h4 (190, 180) do not
  jq -e '[.expect[] | select(.result == "FAIL") | .host] == ["h2", "h4"]' <<<"$output"
  printf 'read4k >= 200 iops\nread4k p99 <= soon\n' >"$dir/bad.expect"
  run --separate-stderr "$IOBENCH" report --expect "$dir/bad.expect" "$dir"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: $dir/bad.expect:2: "* ]]
  # a byte-order mark an editor wrote is skipped, as in result files
  printf '\xef\xbb\xbfread4k >= 180 iops at 8 threads\n' >"$dir/bom.expect"
  run --separate-stderr "$IOBENCH" report --json --expect "$dir/bom.expect" --only config=large/ebs4 "$dir"
  [ "$status" -eq 0 ]
  jq -e '[.expect[] | .result] | length == 5 and all(. == "PASS")' <<<"$output"
}

@test "threads in JSON: the optimum per op and config for scripts, --within moves it" {
  local dir=$BATS_TEST_TMPDIR/thr t ops
  mkdir -p "$dir"
  # read4k: 1000 ops/s per thread up to 4 threads, then 4100 and 4150; write4k/16: 300 per thread
  for t in 1 2 4 8 16; do
    ops=$((t <= 4 ? t * 1000 : (t == 8 ? 4100 : 4150)))
    "$GEN" "host=h1 threads=$t labels=config=big modes=100000:$((ops * 60))" \
      "host=h1 threads=$t labels=config=big sig=write16,4K,4K modes=100000:$((t * 300 * 60))"
  done >"$dir/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section threads "$dir"
  [ "$status" -eq 0 ]
  jq -e '[.threads[] | select(.optimal) | {op, config, threads}] ==
    [{op: "read4k", config: "config=big", threads: 4}, {op: "write4k/16", config: "config=big", threads: 16}]' <<<"$output"
  # as the README has a script read it
  run bash -c "'$IOBENCH' report --json --section threads '$dir' |
    jq -r '.threads[] | select(.optimal) | \"\\(.op) \\(.config) \\(.threads)\"'"
  [ "$output" = $'read4k config=big 4\nwrite4k/16 config=big 16' ]
  run --separate-stderr "$IOBENCH" report --json --within 1 --section threads "$dir"
  jq -e '[.threads[] | select(.optimal) | .threads] == [16, 16]' <<<"$output"
  run --separate-stderr "$IOBENCH" report --within 100 --section threads "$dir"
  [ "$status" -eq 2 ]
}

# The fleet of make_pair with its run named, read4k at 1, 4 and 8 threads (the
# optimum 8), a second op, and iobench watch lines of two hosts.
make_fleet() {
  local dir=$1 h t ops
  mkdir -p "$dir"
  for h in 1 2 3 4 5; do
    for t in 1 4 8; do
      ops=$(((h % 2 ? 100 + 5 * (h / 2) : 100 - 5 * (h / 2)) * 60 * t / 8))
      echo "host=h$h threads=$t labels=config=large/ebs1;runId=r7 modes=500000:$ops,5000000:$((ops / 50))"
      echo "host=h$h threads=$t labels=config=large/ebs4;runId=r7 modes=250000:$((ops * 2)),2000000:$((ops / 25))"
    done
    echo "host=h$h threads=8 sig=write64,4K,4K labels=config=large/ebs4;runId=r7 modes=50000:$((h * 600))"
  done | "$GEN" >"$dir/r.jsonl"
}

@test "--plot draws the study's charts: absolute and normalised time, hosts per level, hosts named, titled" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  local dir=$BATS_TEST_TMPDIR/fleet out=$BATS_TEST_TMPDIR/plots
  make_fleet "$dir"
  run --separate-stderr "$IOBENCH" report --plot "$out" "$dir"
  [ "$status" -eq 0 ]
  # per-host charts at each curve's optimum only: read4k x2 configs (8 threads) and write4k/64
  [ "$(ls "$out"/time-*.png | wc -l)" -eq 3 ]
  [ "$(ls "$out"/timenorm-*.png | wc -l)" -eq 3 ]
  [ "$(ls "$out"/apples-*.png | wc -l)" -eq 3 ]
  [ "$(ls "$out"/instances-*.png | wc -l)" -eq 3 ]
  # time-1: read4k on large/ebs1 at 8 threads, absolute ops/s (h3: 6300 + 126 operations over 60 s),
  # timenorm-1 the same over each host's median
  grep -q "read4k, 8 threads, config=large/ebs1" "$out/time-1.gp"
  [ "$(awk '/^# h3$/ { f = 1; next } f && /^[0-9]/ { print $2; exit }' "$out/time-1.dat")" = 107.1 ]
  grep -q "using 1:2 " "$out/time-1.gp"
  grep -q "using 1:3 " "$out/timenorm-1.gp"
  # apples-1: the 5 hosts in their levels (92 to 112 ops/s), bins of equal ratio on a log axis
  [ "$(awk '!/^#/ && NF { n += $3 } END { print n }' "$out/apples-1.dat")" -eq 5 ]
  awk '!/^#/ && NF && ($2 / $1 < 1.25 || $2 / $1 > 1.26) { exit 1 }' "$out/apples-1.dat"
  grep -q '^set logscale x 10' "$out/apples-1.gp"
  # the median as the bad-apple table beside it rounds it
  grep -q "median 102.0 ops/s" "$out/apples-1.gp"
  # instances-1: hosts named on the axis, five percentiles
  grep -q 'xtic(1)' "$out/instances-1.gp"
  [ "$(grep -c "title 'p10'\|title 'p50'\|title 'p90'\|title 'p99'\|title 'p99.9'" "$out/instances-1.gp")" -eq 5 ]
  [ "$(grep -v '^#' "$out/instances-1.dat" | awk '{ print $1 }' | tr '\n' ' ')" = '"h1" "h2" "h3" "h4" "h5" ' ]
  # every chart titled with its run and date; legends name the op as typed
  for gp in "$out"/*.gp; do
    grep -qE "^set (title|multiplot (layout [0-9]+,[0-9]+ )?title) '.*'\\.\"\\\\n\"\\.'run r7, 2025-11-22'\$" "$gp" ||
      { echo "$gp: $(grep '^set title' "$gp")"; return 1; }
  done
  # threads: a panel per op with a thread curve (read4k), ops/s over p50/p95/p99, a line per config
  grep -q "^set multiplot layout 2,1 " "$out/threads.gp"
  grep -q "^set title 'read4k: ops/s'" "$out/threads.gp"
  grep -q "^set title 'read4k: latency'" "$out/threads.gp"
  grep -q "p50 solid, p95 dashed, p99 dotted" "$out/threads.gp"
  grep -q "title 'config=large/ebs1 (best 8)'" "$out/threads.gp"
  # p50, p95 and p99 of read4k on ebs1: columns 3, 4, 5 of its block
  [ "$(grep -c "index 0 using 1:[345] " "$out/threads.gp")" -eq 6 ]
  ! grep -q 'read,4K,4K' "$out/threads.gp"
}

@test "--plot draws iobench watch lines as latency over time, p50 and p99 per host" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  local dir=$BATS_TEST_TMPDIR/watch h
  mkdir -p "$dir"
  "$IOBENCH" create "$dir/f" 8M
  for h in db1 db2; do
    "$IOBENCH" watch -q --no-direct --interval 0.1 --period 0.5 --count 3 --host "$h" -o read4k --json "$dir/$h.jsonl" "$dir/f"
  done
  run --separate-stderr "$IOBENCH" report --plot "$dir/plots" "$dir/db1.jsonl" "$dir/db2.jsonl"
  [ "$status" -eq 0 ]
  [ -s "$dir/plots/watch-1.png" ]
  [ "$(grep -c '^# db[12]$' "$dir/plots/watch-1.dat")" -eq 2 ]
  [ "$(grep -cE "title 'db[12] p(50|99)'" "$dir/plots/watch-1.gp")" -eq 4 ]
  # three periods a host, each a time and its p50 <= p99
  [ "$(awk '!/^#/ && NF == 3 && $2 <= $3' "$dir/plots/watch-1.dat" | wc -l)" -eq 6 ]
}

# Width, height and a count of distinct colours of a PNG (8-bit RGB or RGBA, as Chromium writes).
png_facts() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
w, h, depth, ctype = struct.unpack('>IIBB', d[16:26])
pos, idat = 8, b''
while pos < len(d):
    n, kind = struct.unpack('>I4s', d[pos:pos + 8])
    if kind == b'IDAT':
        idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, bpp = zlib.decompress(idat), {2: 3, 6: 4}[ctype]
stride, prev, colours, i = w * bpp, bytearray(w * bpp), set(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 8 == 0:
        colours.update(bytes(line[k:k + 3]) for k in range(0, stride, bpp * 4))
    prev = line
print(w, h, len(colours))
PY
}

@test "--plot DIR/index.html: every table and chart on one page, as headless Chromium renders it" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  command -v chromium >/dev/null || skip "chromium is not installed (Debian: chromium)"
  local dir=$BATS_TEST_TMPDIR/fleet out=$BATS_TEST_TMPDIR/plots ud=$BATS_TEST_TMPDIR/chromium
  make_fleet "$dir"
  # a fleet manifest with a host that failed: the page's method says so
  jq -n '{tool: "iobench-fleet", version: 1, runId: "r7", state: "complete",
    hosts: [{name: "h9", status: "failed", planned: 7, finished: 0, fetched: 0,
             failure: {kind: "unreachable", detail: "ssh: connect to host h9 port 22: timed out", exit: 255}}]}' \
    >"$dir/manifest.json"
  run --separate-stderr "$IOBENCH" report --plot "$out" "$dir"
  [ "$status" -eq 0 ]
  [ -s "$out/index.html" ]
  local nsections ncharts nkey
  # the summary's rows are the findings' list, not a table
  nsections=$("$IOBENCH" report --json "$dir" |
    jq '[to_entries[] | select(.key != "inputs" and .key != "notes" and .key != "summary" and (.value | length) > 0)] | length')
  ncharts=$(ls "$out"/*.svg | wc -l)
  [ "$ncharts" -ge 14 ]
  # the key charts (compare; cost with --prices) lead the page under the findings, and sit in their sections too
  nkey=$(ls "$out"/compare.svg "$out"/cost.svg 2>/dev/null | wc -l)
  [ "$nkey" -ge 1 ]
  local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
    --disable-component-update --disable-sync --user-data-dir="$ud")
  timeout 120 chromium "${flags[@]}" --dump-dom "file://$out/index.html" >"$BATS_TEST_TMPDIR/dom.html" 2>/dev/null
  # the DOM as the browser built it: a table per section with rows, an inline SVG per chart with its lines
  # (and the findings' matrix of thread optima when the summary has them)
  local matrix
  matrix=$("$IOBENCH" report --json --section summary "$dir" | jq '[.summary[] | select(.kind == "optimum")] | if length > 0 then 1 else 0 end')
  [ "$(grep -o '<table>' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq $((nsections + matrix)) ]
  [ "$(grep -o '<svg' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq $((ncharts + nkey)) ]
  [ "$(grep -o '<figure id="key-' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq "$nkey" ]
  [ "$(grep -o '<figure id="chart-' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -eq "$ncharts" ]
  [ "$(grep -o '<path [^>]*stroke' "$BATS_TEST_TMPDIR/dom.html" | wc -l)" -gt 100 ]
  grep -q '<section id="threads">' "$BATS_TEST_TMPDIR/dom.html"
  grep -q '<td class="s">h9</td>' "$BATS_TEST_TMPDIR/dom.html"
  grep -q 'h9 (unreachable): ssh: connect to host h9 port 22: timed out' "$BATS_TEST_TMPDIR/dom.html"
  grep -q 'Read 2 files: 35 runs of 35 operations from 5 hosts in 2 configs' "$BATS_TEST_TMPDIR/dom.html"
  grep -q '<section id="findings">' "$BATS_TEST_TMPDIR/dom.html"
  grep -q '@media print' "$BATS_TEST_TMPDIR/dom.html"
  grep -q 'name="viewport"' "$BATS_TEST_TMPDIR/dom.html"
  # a screenshot at a phone's width: a PNG of that size, not blank
  timeout 120 chromium "${flags[@]}" --window-size=412,1600 --screenshot="$BATS_TEST_TMPDIR/phone.png" \
    "file://$out/index.html" 2>/dev/null
  local w h colours
  read -r w h colours < <(png_facts "$BATS_TEST_TMPDIR/phone.png")
  [ "$w" -eq 412 ] && [ "$h" -eq 1600 ]
  [ "$colours" -gt 8 ] || { echo "$colours colours: blank"; return 1; }
}

# measure_page HTML WIDTH OUT: render a copy of HTML in headless Chromium at
# WIDTH px with a script that writes, into a <pre id="measure">, the page's
# height, where the findings start, how far the page scrolls sideways, then
# with every <details> open each table box's scroll and client widths and
# its overflow-x; the DOM as Chromium dumps it into OUT.
measure_page() {
  local html=$1 width=$2 out=$3 copy=${1%.html}-measure.html
  sed 's|</body>|<script>\
(function () {\
  var r = [], de = document.documentElement, f = document.getElementById("findings");\
  r.push("height " + de.scrollHeight);\
  r.push("findings " + Math.round(f.getBoundingClientRect().top + scrollY));\
  r.push("findings-text " + Math.round(f.querySelector("ul, p").getBoundingClientRect().bottom + scrollY));\
  r.push("pagex " + (de.scrollWidth - de.clientWidth));\
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });\
  document.querySelectorAll(".tbl").forEach(function (w) {\
    r.push("box " + w.closest("section").id + " " + w.scrollWidth + " " + w.clientWidth + " " + getComputedStyle(w).overflowX);\
  });\
  var pre = document.createElement("pre");\
  pre.id = "measure";\
  pre.textContent = r.join("\\n");\
  document.body.appendChild(pre);\
})();\
</script></body>|' "$html" >"$copy"
  timeout 60 chromium "${CHROMIUM_FLAGS[@]}" --window-size="$width,900" --dump-dom "file://$copy" 2>/dev/null |
    sed -n '/<pre id="measure">/,/<\/pre>/{s/<[^>]*>//g;p}' >"$out"
}

@test "the study's page: findings in the first screen, no table cut, under 8000 px at 1400 px wide" {
  command -v gnuplot >/dev/null || skip "env: gnuplot is not installed (Debian: gnuplot-nox)"
  command -v chromium >/dev/null || skip "env: chromium is not installed (Debian: chromium)"
  local out=$BATS_TEST_TMPDIR/plots study=$BATS_TEST_DIRNAME/data/study
  CHROMIUM_FLAGS=(--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --hide-scrollbars
    --disable-background-networking --disable-component-update --disable-sync
    --user-data-dir="$BATS_TEST_TMPDIR/chromium")
  run --separate-stderr "$IOBENCH" report --prices "$BATS_TEST_DIRNAME/../share/prices-sample.json" --plot "$out" "$study"
  [ "$status" -eq 0 ]
  [ "$stderr" = "plots: $out/index.html ($(ls "$out"/*.svg | wc -l) charts)" ]
  # self-contained: nothing fetched from a network, no stylesheet or script from elsewhere
  ! grep -qiE '(src|href)="(https?:)?//' "$out/index.html"
  ! grep -qiE '<link |<script src' "$out/index.html"
  # the findings are the study's answers, each linking to its section on the page
  grep -qE '<li><span class="topic">read4k</span>most per \$: m5\.large / gp3 x1, [^<]* <a class="see" href="#cost">cost</a>' "$out/index.html"
  grep -qE '<li><span class="topic">read4k</span>io2 x1 is 2\.[0-9]+x gp3 x1 \[[^<]*\] \([^<]*\); 0\.[0-9]+x per dollar <a class="see" href="#compare">compare</a>' "$out/index.html"
  grep -q '<section id="compare"' "$out/index.html"
  # per-host tables folded with their row counts; the per-group charts folded with theirs
  grep -q '<summary>Groups: 96 rows</summary>' "$out/index.html"
  grep -q '<summary>Throughput over time: 96 rows</summary>' "$out/index.html"
  [ "$(grep -c '<summary>Charts: 12, hosts per throughput level' "$out/index.html")" -eq 1 ]
  # the cost chart: one bar per config (gp3, io2) for read4k and write4k/64 at 256M, not one per thread count
  [ "$(grep -c '^"m5.large / \(gp3\|io2\) x1" ' "$out/cost.dat")" -eq 4 ]
  # the compare chart: a point per op and metric, io2/gp3 read4k ops/s ~2.7 with an interval that misses 1
  awk '/read4k @256M ops\/s/ { exit !($(NF - 3) > 2.4 && $(NF - 3) < 3 && $(NF - 2) > 1 && $NF == 1) }' "$out/compare.dat"
  # no number of more digits than a person reads in the data files
  ! grep -qE '[0-9]\.[0-9]{5,}' "$out"/*.dat
  local m=$BATS_TEST_TMPDIR/measure-1400.txt shot=${BATS_RUN_TMPDIR:-$BATS_TEST_TMPDIR}/study-page-1400.png
  measure_page "$out/index.html" 1400 "$m"
  cat "$m"
  local height findings text
  height=$(awk '$1 == "height" { print $2 }' "$m")
  findings=$(awk '$1 == "findings" { print $2 }' "$m")
  text=$(awk '$1 == "findings-text" { print $2 }' "$m")
  [ -n "$height" ] && [ -n "$findings" ]
  # the findings in the first screen (900 px), the page under 8000 px, nothing wider than the window
  [ "$findings" -lt 900 ] && [ "$text" -lt 900 ]
  [ "$height" -lt 8000 ] || { echo "page $height px tall"; return 1; }
  [ "$(awk '$1 == "pagex" { print $2 }' "$m")" -eq 0 ]
  # every table box (details open): as wide as its table, or a box that scrolls sideways
  [ "$(grep -c '^box ' "$m")" -ge 8 ]
  awk '$1 == "box" && $3 > $4 && $5 != "auto" && $5 != "scroll" { print "cut: " $0; bad = 1 } END { exit bad }' "$m"
  # at a phone's width too
  measure_page "$out/index.html" 700 "$BATS_TEST_TMPDIR/measure-700.txt"
  [ "$(awk '$1 == "pagex" { print $2 }' "$BATS_TEST_TMPDIR/measure-700.txt")" -eq 0 ]
  awk '$1 == "box" && $3 > $4 && $5 != "auto" && $5 != "scroll" { bad = 1 } END { exit bad }' "$BATS_TEST_TMPDIR/measure-700.txt"
  # the first screen as a reader sees it, kept for a look
  timeout 60 chromium "${CHROMIUM_FLAGS[@]}" --window-size=1400,900 --screenshot="$shot" "file://$out/index.html" 2>/dev/null
  echo "screenshot: $shot"
  local w h colours
  read -r w h colours < <(png_facts "$shot")
  [ "$w" -eq 1400 ] && [ "$h" -eq 900 ]
  [ "$colours" -gt 8 ] || { echo "$colours colours: blank"; return 1; }
}

@test "--plot: the thread curves draw the threads table's figure, the median host's, not the fleet mean" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  local study=$BATS_TEST_DIRNAME/data/study out=$BATS_TEST_TMPDIR/plots
  "$IOBENCH" report --plot "$out" "$study" >/dev/null 2>&1
  grep -q "the median host''s, bad apples left out" "$out/threads.gp"
  # gp3 read4k: a bad apple pulls the mean well under the median host
  "$IOBENCH" report --json "$study" 2>/dev/null |
    jq -r '.threads[] | select(.op == "read4k" and .config == "m5.large / gp3 x1") | "\(.threads) \(.opsPerSec) \(.meanOpsPerSec)"' >"$BATS_TEST_TMPDIR/table"
  [ "$(wc -l <"$BATS_TEST_TMPDIR/table")" -ge 3 ]
  awk '/^# read4k m5.large \/ gp3 x1 /{ on = 1; next } on && /^#/ { next } on && NF == 0 { exit } on { print $1, $2 }' \
    "$out/threads.dat" >"$BATS_TEST_TMPDIR/chart"
  [ "$(wc -l <"$BATS_TEST_TMPDIR/chart")" -eq "$(wc -l <"$BATS_TEST_TMPDIR/table")" ]
  # each point within 0.1% of the table's ops/s, and over 10% from the fleet mean
  awk 'NR == FNR { c[$1] = $2; next } {
         d = c[$1] / $2 - 1; m = c[$1] / $3 - 1
         if (d < -0.001 || d > 0.001 || (m < 0.1 && m > -0.1)) { print "threads " $1 ": chart " c[$1] ", table " $2 ", mean " $3; bad = 1 }
       } END { exit bad }' "$BATS_TEST_TMPDIR/chart" "$BATS_TEST_TMPDIR/table"
}
