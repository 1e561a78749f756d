#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# report.bats - `iobench report`: reading, exact merges, the analyses, CSV/JSON output.
# Fixtures are made by tests/data/report/gen-lines (histograms with known buckets)
# or committed under tests/data/report/.

bats_require_minimum_version 1.5.0

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
  export DATA=$BATS_TEST_DIRNAME/data/report
  export FIX=$BATS_FILE_TMPDIR/fix
  mkdir -p "$FIX"
  make_fleet "$FIX/fleet/run1"
}

# Six hosts of config=large/ebs4, a thread sweep 1..16 of read4k, one
# flushed-write run each; h6 delivers 40% of the others (a bad apple).
make_fleet() {
  local dir=$1 h scale t ops
  local -A base=([1]=100 [2]=190 [4]=370 [8]=380 [16]=385)
  local -A hscale=([h1]=1.00 [h2]=1.02 [h3]=0.98 [h4]=1.01 [h5]=0.99 [h6]=0.40)
  for h in h1 h2 h3 h4 h5 h6; do
    mkdir -p "$dir/$h"
    scale=${hscale[$h]}
    for t in 1 2 4 8 16; do
      ops=$(awk -v b="${base[$t]}" -v s="$scale" 'BEGIN { printf "%d", b * s * 60 }')
      # 6% of reads hit a cache at 15 us, the rest go to the device at 13 ms.
      "$GEN" "host=$h threads=$t labels=config=large/ebs4 modes=15000:$((ops * 6 / 100)),13000000:$((ops - ops * 6 / 100))"
    done >"$dir/$h/read4k.jsonl"
    "$GEN" "host=$h sig=writeFlush,4K,4K threads=1 labels=config=large/ebs4 modes=1000000:6000" >"$dir/$h/write4k.jsonl"
  done
  printf '{\n  "runId": "run1",\n  "hosts": ["h1"]\n}\n' >"$dir/state.json"
  printf 'h1\nh2\n' >"$dir/hosts"
  mkdir -p "$dir/logs"
  printf 'ssh: some log text\n' >"$dir/logs/h1.log"
}

# Twelve file sizes 256M..3G whose p50 is level over 256M-1.25G, 1.5G-2.25G and 2.5G+.
make_sweep() {
  local i mb p50 specs=()
  for i in $(seq 1 12); do
    mb=$((256 * i))
    if ((mb <= 1280)); then p50=100000; elif ((mb <= 2304)); then p50=600000; else p50=8000000; fi
    # one thread, closed loop: ops/s is 1 / latency (60 s runs)
    specs+=("host=s labels=config=large/ephemeral;fileSize=${mb}M modes=$p50:$((60000000000 / p50))")
  done
  "$GEN" "${specs[@]}"
}

@test "report --help lists every option and every section" {
  run "$IOBENCH" report --help
  [ "$status" -eq 0 ]
  for word in --csv --json --section --merge-hosts --include-partial --merge-rounds --prices --floor --within --tier-threshold --compare --expect --plot --quiet \
    groups instances badApples threads compare time regimes series modes tiers durability cost bonnie bonnieRuns expect; do
    [[ "$output" == *"$word"* ]] || { echo "missing: $word"; return 1; }
  done
}

# A section is its file's struct rep_section_def and one row of REP_SECTIONS
# (report/analyze.h): a definition left out of the table would be a section
# that never prints, and nothing else lists them.
@test "every section a file defines is a row of the sections' table, and --help and --section know each row" {
  local src=$BATS_TEST_DIRNAME/../src/report table s
  local -a defs rows listed
  table=$(grep -rlE '^#define REP_SECTIONS\(X\)' "$src")
  mapfile -t defs < <(grep -rhoE '^const struct rep_section_def rep_sec_[A-Za-z0-9_]+ =' "$src" |
    sed -E 's/.* rep_sec_([A-Za-z0-9_]+) =/\1/' | sort)
  mapfile -t rows < <(sed -n '/^#define REP_SECTIONS(X)/,/^$/p' "$table" |
    grep -oE 'X\(SEC_[A-Z_]+, rep_sec_[A-Za-z0-9_]+\)' | sed -E 's/.*rep_sec_([A-Za-z0-9_]+)\)/\1/' | sort)
  [ "${#defs[@]}" -ge 26 ]
  [ "${defs[*]}" = "${rows[*]}" ] || { echo "defined: ${defs[*]}"; echo "rows:    ${rows[*]}"; return 1; }
  run --separate-stderr "$IOBENCH" report --help
  mapfile -t listed < <(sed -n '/^Sections:/,/^$/p' <<<"$output" | grep -oE '^  [A-Za-z0-9]+ ' | tr -d ' ')
  [ "${#listed[@]}" -eq "${#rows[@]}" ]
  for s in "${listed[@]}"; do
    run --separate-stderr "$IOBENCH" report --json --section "$s" "$FIX/fleet"
    [ "$status" -eq 0 ] || { echo "--section $s: $status $stderr"; return 1; }
    jq -e --arg s "$s" 'keys == (["inputs", $s] | sort)' <<<"$output"
  done
}

# Which sections the defaults leave out is said once, in each section's
# definition: --help's words for --section and --detail come from it too.
@test "--section's and --detail's help name the sections the default outputs leave out" {
  local help detail s title
  help=$("$IOBENCH" report --help)
  [[ "$help" == *"(default: all with data"*"but series, notes only in JSON;"* ]]
  detail=$(grep -oE 'also the per-host sections in text: .*' <<<"$help" | sed 's/.*in text: //')
  [ "$detail" = "groups, time, regimes, modes" ]
  run --separate-stderr "$IOBENCH" report --json "$FIX/fleet"
  jq -e 'has("groups") and has("time") and has("regimes") and has("modes") and has("notes")
    and (has("series") or has("expect") or has("baseline") | not)' <<<"$output"
  local text with checked=0
  text=$("$IOBENCH" report "$FIX/fleet")
  with=$("$IOBENCH" report --detail "$FIX/fleet")
  for s in ${detail//,/}; do
    # the section's title: the line over its table when asked for alone (none when it has no rows)
    title=$("$IOBENCH" report --section "$s" "$FIX/fleet" | sed -n 3p)
    [ -n "$title" ] || continue
    ! grep -qxF "$title" <<<"$text" || { echo "$s in the default text"; return 1; }
    grep -qxF "$title" <<<"$with" || { echo "$s not in --detail's text"; return 1; }
    checked=$((checked + 1))
  done
  [ "$checked" -ge 2 ]
  run --separate-stderr "$IOBENCH" report --csv "$FIX/fleet"
  [[ "${lines[0]}" == signature,op,threads,config,* ]]
}

@test "report without a PATH is a usage error (exit 2)" {
  run --separate-stderr "$IOBENCH" report
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: no PATH given"* ]]
}

@test "report rejects unknown options, unknown sections and --csv with --json (exit 2)" {
  run "$IOBENCH" report --bogus "$FIX/fleet"
  [ "$status" -eq 2 ]
  run "$IOBENCH" report --section groups,nosuch "$FIX/fleet"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown section 'nosuch'"* ]]
  run "$IOBENCH" report --csv --json "$FIX/fleet"
  [ "$status" -eq 2 ]
}

@test "report exits 1 when nothing usable was read" {
  printf 'not json\n' >"$BATS_TEST_TMPDIR/junk.jsonl"
  run --separate-stderr "$IOBENCH" report "$BATS_TEST_TMPDIR/junk.jsonl" "$BATS_TEST_TMPDIR/missing.jsonl"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"junk.jsonl:1: not a JSON line"* ]]
  [[ "$stderr" == *"missing.jsonl: No such file or directory"* ]]
  # each problem is said once; the summary line only when nothing else was said
  [[ "$stderr" != *"no usable results"* ]]
  run --separate-stderr "$IOBENCH" report -q "$BATS_TEST_TMPDIR/junk.jsonl"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: report: no usable results in "*"junk.jsonl; nothing to report" ]]
}

@test "two runs of one host and signature merge exactly: counts and buckets add up" {
  "$GEN" "host=a threads=2 modes=20000:100,5000000:300" "host=a threads=2 modes=20000:50,9000000:25" \
    >"$BATS_TEST_TMPDIR/two.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$BATS_TEST_TMPDIR/two.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 1 ]
  [ "$(jq '.groups[0].count' <<<"$output")" -eq 475 ]
  [ "$(jq '.groups[0].runs' <<<"$output")" -eq 2 ]
  # 475 ops over 2 x 60 s
  [ "$(jq '.groups[0].opsPerSec * 1000 | round' <<<"$output")" -eq "$(( 475000 / 120 ))" ]
  # min and max of the merged histogram are the extremes of both runs
  [ "$(jq '.groups[0].maxNs' <<<"$output")" -eq 9000000 ]
  # p50 = 238th of 475: in the 5 ms bucket
  jq -e '.groups[0].p50Ns > 4.5e6 and .groups[0].p50Ns < 5.6e6' <<<"$output"
  # the mean is exact (from totals, not buckets)
  jq -e '(.groups[0].meanNs - (20000 * 150 + 5000000 * 300 + 9000000 * 25) / 475 | fabs) < 1e-6' <<<"$output"
}

@test "groups split by signature, threads, labels and host; --merge-hosts merges hosts exactly" {
  run --separate-stderr "$IOBENCH" report --json "$FIX/fleet"
  [ "$status" -eq 0 ]
  # 6 hosts x (5 thread counts of read + 1 write)
  [ "$(jq '.groups | length' <<<"$output")" -eq 36 ]
  [ "$(jq '[.groups[] | select(.signature == "writeFlush,4K,4K")] | length' <<<"$output")" -eq 6 ]
  [ "$(jq -r '[.groups[].labels] | unique | join(" ")' <<<"$output")" = "config=large/ebs4" ]
  local per_host
  per_host=$(jq '[.groups[] | select(.signature == "read,4K,4K" and .threads == 8) | .count] | add' <<<"$output")
  run --separate-stderr "$IOBENCH" report --json --merge-hosts "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 6 ]
  [ "$(jq '.groups[] | select(.signature == "read,4K,4K" and .threads == 8) | .count' <<<"$output")" -eq "$per_host" ]
  [ "$(jq '.groups[] | select(.signature == "read,4K,4K" and .threads == 8) | .hosts' <<<"$output")" -eq 6 ]
}

@test "--only keeps the runs whose host, signature, threads or label match a glob" {
  run --separate-stderr "$IOBENCH" report --json --only host=h6 "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.groups[].host] | unique' <<<"$output")" = '["h6"]' ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 6 ]
  run --separate-stderr "$IOBENCH" report --json --only 'config=large/*' --only 'signature=read,*' --only threads=8 "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 6 ]
  jq -e '[.groups[] | .signature == "read,4K,4K" and .threads == 8] | all' <<<"$output"
  run --separate-stderr "$IOBENCH" report --only config=small "$FIX/fleet"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"that match --only"* ]]
  run "$IOBENCH" report --only host "$FIX/fleet"
  [ "$status" -eq 2 ]
}

@test "a folder is searched recursively; state.json, hosts and logs are passed over silently" {
  run --separate-stderr "$IOBENCH" report --json "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 36 ]
  [ "$(jq '.inputs.skipped' <<<"$output")" -eq 0 ]
}

@test "text output is aligned tables with a summary line" {
  run --separate-stderr "$IOBENCH" report --merge-hosts --detail "$FIX/fleet"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" == "iobench report: 13 files, 36 runs, 36 operations in 36 cells, 0 bonnie++ lines" ]]
  [[ "$output" == *"Groups (op x threads x config x size x host)"* ]]
  # header and rows of the groups table have the same width
  local header row
  header=$(grep -A1 '^Groups' <<<"$output" | sed -n 2p)
  row=$(grep -A2 '^Groups' <<<"$output" | sed -n 3p)
  [ "${#header}" -eq "${#row}" ]
  [[ "$row" == "read4k "*"(6 hosts)"* ]]
}

@test "--csv prints the groups table with a header and one row per group" {
  run --separate-stderr "$IOBENCH" report --csv --merge-hosts "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "signature,op,threads,config,labels,provision,size,host,hosts,runs,count,opsPerSec,mbPerSec,meanNs,p50Ns,p90Ns,p95Ns,p99Ns,p999Ns,maxNs,errors,cpuNsPerOp,writeP99Ns,syncP99Ns" ]
  [ "${#lines[@]}" -eq 7 ]
  [[ "${lines[1]}" == '"read,4K,4K",read4k,1,config=large/ebs4,config=large/ebs4,,1073741824,(6 hosts),6,6,'* ]]
}

@test "groups: a syncing op's writes-only and fdatasync p99, merged as total is, in data columns only" {
  local d=$BATS_TEST_TMPDIR
  "$IOBENCH" create -q "$d/f" 16M
  "$IOBENCH" -q -o write4k/64 -o read4k -n 400 -d 30 --json "$d/r.jsonl" "$d/f"
  "$IOBENCH" -q -o write4k/64 -o read4k -n 400 -d 30 --json "$d/r.jsonl" "$d/f"
  run --separate-stderr "$IOBENCH" report --json --section groups "$d/r.jsonl"
  [ "$status" -eq 0 ]
  jq -e '[.groups[] | select(.op == "read4k") | .writeP99Ns, .syncP99Ns] == [null, null]' <<<"$output"
  # the same as the p99 of a report whose totals are those histograms: read and merged alike
  local w s
  w=$(jq '.groups[] | select(.op == "write4k/64") | .writeP99Ns' <<<"$output")
  s=$(jq '.groups[] | select(.op == "write4k/64") | .syncP99Ns' <<<"$output")
  jq -c '.operations[0].total = .operations[0].writeOnly' "$d/r.jsonl" >"$d/w.jsonl"
  jq -c '.operations[0].total = .operations[0].sync' "$d/r.jsonl" >"$d/s.jsonl"
  [ "$("$IOBENCH" report --json --section groups "$d/w.jsonl" | jq '.groups[] | select(.op == "write4k/64") | .p99Ns')" = "$w" ]
  [ "$("$IOBENCH" report --json --section groups "$d/s.jsonl" | jq '.groups[] | select(.op == "write4k/64") | .p99Ns')" = "$s" ]
  jq -e --argjson w "$w" --argjson s "$s" '$w > 0 and $s > 0' <<<"null"
  # a line without them (an older iobench's) leaves the merge partial: no figure
  jq -c 'del(.operations[0].writeOnly, .operations[0].sync)' "$d/r.jsonl" | head -n 1 >>"$d/r.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section groups "$d/r.jsonl"
  jq -e '.groups[] | select(.op == "write4k/64") | .runs == 3 and .writeP99Ns == null and .syncP99Ns == null' <<<"$output"
  # no text heading for them
  run --separate-stderr "$IOBENCH" report --section groups "$d/r.jsonl"
  [[ $output != *writeP99* && $output != *syncP99* ]]
}

@test "--csv with several sections separates them with # name lines" {
  run --separate-stderr "$IOBENCH" report --csv --section instances,badApples "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "# instances" ]
  [[ "${lines[1]}" == signature,op,threads,config,labels,size,hosts,plannedHosts,minOpsPerSec,* ]]
  grep -qx '# badApples' <<<"$output"
}

@test "CSV quotes labels that hold commas" {
  "$GEN" "host=a labels=config=x;disk=b" >"$BATS_TEST_TMPDIR/l.jsonl"
  run --separate-stderr "$IOBENCH" report --csv "$BATS_TEST_TMPDIR/l.jsonl"
  [ "$status" -eq 0 ]
  [[ "${lines[1]}" == '"read,4K,4K",read4k,1,"config=x,disk=b","config=x,disk=b",'* ]]
}

@test "the slow host of six is flagged as the only bad apple, with its figures" {
  run --separate-stderr "$IOBENCH" report --json --section instances,badApples "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq '[.badApples[].host] | unique' -c <<<"$output")" = '["h6"]' ]
  # one flag per read thread count (the write runs are equal on all hosts)
  [ "$(jq '.badApples | length' <<<"$output")" -eq 5 ]
  jq -e '.badApples[0].vsMedian > 0.39 and .badApples[0].vsMedian < 0.41' <<<"$output"
  # six hosts: both tests, both said
  jq -e '.badApples[0].rule | test("^robust z -[0-9.]+ < -3 and 60% below the median \\(>= 20%\\); bad apple: slow in 5 of 6 cells$")' <<<"$output"
  jq -e '.instances[] | select(.signature == "read,4K,4K" and .threads == 4) |
    .hosts == 6 and .badApples == 1 and .bestWorstRatio > 2.5' <<<"$output"
}

@test "the thread curve marks the fewest threads within 5% of the best as optimal" {
  run --separate-stderr "$IOBENCH" report --json --section threads "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq '.threads | length' <<<"$output")" -eq 5 ]
  [ "$(jq -c '[.threads[] | select(.optimal) | .threads]' <<<"$output")" = "[4]" ]
}

@test "a burst-credit cliff is one regime change down, at its start time" {
  "$GEN" "host=burst runtime=120 bucket=10 modes=100000:180000 series=3000,3000,3000,3000,3000,3000,100,100,100,100,100,100" \
    >"$BATS_TEST_TMPDIR/burst.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section time,regimes "$BATS_TEST_TMPDIR/burst.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.time[0].buckets' <<<"$output")" -eq 12 ]
  [ "$(jq '.time[0].regimeChanges' <<<"$output")" -eq 1 ]
  [ "$(jq '.regimes[0].atSeconds' <<<"$output")" -eq 60 ]
  # launchTime 1763770000 + 60 s
  [ "$(jq -r '.regimes[0].startUtc' <<<"$output")" = "2025-11-22T00:07:40Z" ]
  [ "$(jq -r '.regimes[0].direction' <<<"$output")" = down ]
  jq -e '.time[0].cv > 0.9' <<<"$output"
}

@test "the series section lists every whole time bucket, only when asked for" {
  "$GEN" "host=s runtime=30 bucket=10 modes=100000:600 series=10,20,30,40" >"$BATS_TEST_TMPDIR/s.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq 'has("series")' <<<"$output")" = false ]
  run --separate-stderr "$IOBENCH" report --csv --section series "$BATS_TEST_TMPDIR/s.jsonl"
  [ "$status" -eq 0 ]
  # 30 s in 10 s buckets: the fourth (late finishers) is left out
  [ "${#lines[@]}" -eq 4 ]
  [[ "${lines[1]}" == *",s,0,10,0.5" ]]
  [[ "${lines[3]}" == *",s,20,30,1.5" ]]
}

@test "steady throughput has no regime change" {
  "$GEN" "host=calm runtime=120 bucket=10 series=1000,1010,990,1005,995,1000,1002,998,1000,1001,999,1000" \
    >"$BATS_TEST_TMPDIR/calm.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section time,regimes "$BATS_TEST_TMPDIR/calm.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.time[0].regimeChanges' <<<"$output")" -eq 0 ]
  [ "$(jq '.regimes | length' <<<"$output")" -eq 0 ]
}

@test "latency modes: 6% at 15 us (cache hits) and 94% at 13 ms" {
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section modes "$FIX/fleet"
  [ "$status" -eq 0 ]
  local m
  m=$(jq -c '[.modes[] | select(.signature == "read,4K,4K" and .threads == 1)]' <<<"$output")
  [ "$(jq length <<<"$m")" -eq 2 ]
  jq -e '.[0].latencyNs > 14000 and .[0].latencyNs < 16500 and .[0].share > 0.055 and .[0].share < 0.065' <<<"$m"
  jq -e '.[1].latencyNs > 12e6 and .[1].latencyNs < 14e6 and .[1].share > 0.935' <<<"$m"
  jq -e '.[0].note | startswith("fast mode: cache hit ratio about 6%")' <<<"$m"
}

@test "a file-size sweep shows the three cache tiers of the companion study" {
  make_sweep >"$BATS_TEST_TMPDIR/sweep.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section tiers,groups "$BATS_TEST_TMPDIR/sweep.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 12 ]
  [ "$(jq -r '[.groups[].labels] | unique | join(" ")' <<<"$output")" = "config=large/ephemeral" ]
  [ "$(jq '.tiers | length' <<<"$output")" -eq 3 ]
  [ "$(jq -c '[.tiers[] | [.fromSize / 1048576, .toSize / 1048576]]' <<<"$output")" = \
    "[[256,1280],[1536,2304],[2560,3072]]" ]
}

@test "flushed writes faster than reads of the same target are durability suspicious" {
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section durability "$FIX/fleet"
  [ "$status" -eq 0 ]
  [ "$(jq '.durability | length' <<<"$output")" -eq 1 ]
  jq -e '.durability[0].suspicious == true and .durability[0].readSignature == "read,4K,4K"' <<<"$output"
  # 1 ms flushed writes beside 13 ms reads, host by host: each write against its own host's read
  jq -e '.durability[0].evidence == "read of the same target"
    and .durability[0].verdict == "durability suspicious: on 6 of 6 hosts; a flush under a quarter of a read4k of the same target by the same host (h1: write p50 1.00ms, read p50 13.0ms, 0 min apart): it wrote to a cache"' <<<"$output"
}

@test "flushed writes slower than reads and the floor are plausible; --floor moves the floor" {
  "$GEN" "host=d sig=read,4K,4K modes=200000:100" "host=d sig=writeFlush,4K,4K modes=400000:100" \
    >"$BATS_TEST_TMPDIR/d.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/d.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability[0].suspicious == false and .durability[0].verdict == "plausible"' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section durability --floor 1ms "$BATS_TEST_TMPDIR/d.jsonl"
  jq -e '.durability[0].suspicious == true and .durability[0].floorNs == 1000000' <<<"$output"
  run "$IOBENCH" report --floor fast "$BATS_TEST_TMPDIR/d.jsonl"
  [ "$status" -eq 2 ]
  # a duration says its unit, as --expect's do: 50 is not taken for 50 ns
  run --separate-stderr "$IOBENCH" report --floor 50 "$BATS_TEST_TMPDIR/d.jsonl"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: bad --floor '50': a duration says its unit; say 50us or 0.05ms (ns, us or µs, ms, s)" ]
  run --separate-stderr "$IOBENCH" report --json --section durability --floor 1000µs "$BATS_TEST_TMPDIR/d.jsonl"
  jq -e '.durability[0].floorNs == 1000000' <<<"$output"
}

@test "--within and --tier-threshold read a percentage as the rest of iobench does: no blank, no hex" {
  "$GEN" "host=d sig=read,4K,4K modes=200000:100" >"$BATS_TEST_TMPDIR/d.jsonl"
  local opt v
  for opt in --within --tier-threshold; do
    for v in ' 1' '0x10' '1 ' '-1' 'inf' '5 %'; do
      run --separate-stderr "$IOBENCH" report "$opt" "$v" "$BATS_TEST_TMPDIR/d.jsonl"
      [ "$status" -eq 2 ]
      [[ "$stderr" == "iobench: bad $opt '$v'; use a percentage "* ]]
    done
    for v in 5 5% 12.5; do
      run --separate-stderr "$IOBENCH" report "$opt" "$v" "$BATS_TEST_TMPDIR/d.jsonl"
      [ "$status" -eq 0 ]
    done
  done
}

@test "ops per dollar from the sample prices file" {
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$BATS_TEST_DIRNAME/../share/prices-sample.json" "$FIX/fleet"
  [ "$status" -eq 0 ]
  # one row per op and config, at its optimal thread count (read4k: 4 threads, within 5% of 16's)
  [ "$(jq '.cost | length' <<<"$output")" -eq 2 ]
  jq -e '[.cost[] | select(.op == "read4k")] | length == 1 and .[0].threads == 4 and .[0].rank == 1' <<<"$output"
  local row
  row=$(jq -c '.cost[] | select(.signature == "writeFlush,4K,4K")' <<<"$output")
  jq -e '.instance == "m1.large" and .volume == "standard" and .config == "large/ebs4"' <<<"$row"
  # 100 ops/s; $/h = 0.175 + 4 x 100 GB x 0.05 / 730 + 100 x 3600 x 0.05 / 1e6
  jq -e '(.dollarsPerHour - (0.175 + 20 / 730 + 0.018) | fabs) < 1e-9' <<<"$row"
  jq -e '(.opsPerDollar - 360000 / (0.175 + 20 / 730 + 0.018) | fabs) < 1e-6' <<<"$row"
}

@test "a prices file that is not JSON is a usage error" {
  printf 'nope\n' >"$BATS_TEST_TMPDIR/p.json"
  run "$IOBENCH" report --prices "$BATS_TEST_TMPDIR/p.json" "$FIX/fleet"
  [ "$status" -eq 2 ]
  [[ "$output" == *"p.json:1: not a prices file"* ]]
}

@test "the 2012 tool's run.out and one-object-per-line json are read" {
  run --separate-stderr "$IOBENCH" report --json "$DATA/java"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 3 ]
  # host from the folder; float thread count 8.0 read as 8
  jq -e '.groups[] | select(.signature == "read,4K,4K" and .host == "i-0a1") | .threads == 8 and .count == 19516' <<<"$output"
  [ "$(jq '[.groups[] | select(.host == "i-0b2")] | length' <<<"$output")" -eq 2 ]
}

@test "bonnie++ lines get their own table" {
  "$GEN" "format=bonnie host=b1" "format=bonnie host=b2" >"$BATS_TEST_TMPDIR/bonnie.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$BATS_TEST_TMPDIR/bonnie.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.bonnie | length' <<<"$output")" -eq 2 ]
  jq -e '.bonnie[0].seqOutBlockKBps == 512000 and .bonnie[0].randomSeeksCpu == null and .bonnie[0].seqOutBlockLatency == "1234us"' <<<"$output"
  run --separate-stderr "$IOBENCH" report "$BATS_TEST_TMPDIR/bonnie.jsonl"
  [[ "$output" == *"Bonnie++ baseline"* ]]
  # bonnie++'s latencies read as latencies: "1234us" is 1.23ms in the text, kept as written in JSON
  [[ "$(sed -n '/^Bonnie++ baseline/{n;p}' <<<"$output")" == *"out lat"*"seek lat" ]]
  grep -E '^b1 .* 1\.23ms( |$)' <<<"$output"
  ! grep -q '1234us' <<<"$output"
}

@test "malformed lines are reported with file and line and skipped; good lines still count" {
  run --separate-stderr "$IOBENCH" report --json "$DATA/malformed.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 2 ]
  [ "$(jq '.inputs.skipped' <<<"$output")" -eq 7 ]
  [[ "$stderr" == *"malformed.jsonl:2: not valid JSON"* ]]
  [[ "$stderr" == *"malformed.jsonl:3: not a JSON line; skipped"* ]]
  [[ "$stderr" == *"malformed.jsonl:4: not a result line (no \"operations\" array); skipped"* ]]
  [[ "$stderr" == *"malformed.jsonl:5: operation 1 (read,4K,4K): histogram has ratio 1.2 and pin range [1000, 1e+10]; only 1.1 and [1000, 1e10] merge exactly; skipped"* ]]
  [[ "$stderr" == *"malformed.jsonl:6: operation 1 (read,4K,4K): histogram buckets sum to 3 but count is 5; skipped"* ]]
  [[ "$stderr" == *"malformed.jsonl:7: result line has no positive \"runtime\""* ]]
  [[ "$stderr" == *"malformed.jsonl:8: operation 1 has no \"signature\""* ]]
  [ "$(grep -c '^iobench: ' <<<"$stderr")" -eq 7 ]
}

@test "hostile lines (wrong types, absurd numbers, binary) are skipped without a crash" {
  run --separate-stderr "$IOBENCH" report --json "$DATA/hostile.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.inputs.skipped >= 10 and .inputs.runs >= 4' <<<"$output"
  [[ "$stderr" == *"hostile.jsonl:14: operation 1 has no \"signature\""* ]]
  [[ "$stderr" == *"hostile.jsonl:9: operation 1 (read,4K,4K): histogram "*"firstBucketStart"* ]]
}

@test "-q silences the reports of skipped lines" {
  run --separate-stderr "$IOBENCH" report -q --json "$DATA/malformed.jsonl"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
}

@test "- reads standard input" {
  run --separate-stderr bash -c '"$0" "host=p threads=3 modes=50000:600" | "$1" report --json -' "$GEN" "$IOBENCH"
  [ "$status" -eq 0 ]
  jq -e '.groups[0].host == "p" and .groups[0].threads == 3 and .groups[0].count == 600' <<<"$output"
}

@test "--plot writes gnuplot scripts that name their data files, and renders non-empty PNG and SVG" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  make_sweep >"$BATS_TEST_TMPDIR/sweep.jsonl"
  local out=$BATS_TEST_TMPDIR/plots gp dat name
  run --separate-stderr "$IOBENCH" report --prices "$BATS_TEST_DIRNAME/../share/prices-sample.json" \
    --plot "$out" "$FIX/fleet" "$BATS_TEST_TMPDIR/sweep.jsonl"
  [ "$status" -eq 0 ]
  # one line says where the page is and how many charts it holds
  [ "$stderr" = "plots: $out/index.html ($(ls "$out"/*.svg | wc -l) charts)" ]
  for name in latency-1 time-1 threads instances-1 sizes-1 cost; do
    [ -f "$out/$name.gp" ] || { echo "no $name.gp"; return 1; }
  done
  for gp in "$out"/*.gp; do
    name=$(basename "$gp" .gp)
    # the script plots its own data file (in each panel), names PNG and SVG outputs, and labels the chart
    dat=$(sed -n "s/^plot '\([^']*\)'.*/\1/p" "$gp" | sort -u)
    [ "$dat" = "$name.dat" ] || { echo "$gp plots '$dat'"; return 1; }
    [ -s "$out/$dat" ]
    grep -q "^set output '$name.png'" "$gp"
    grep -q "^set output '$name.svg'" "$gp"
    grep -q "^set title '" "$gp"
    # panels (multiplot) name their axis in each panel's title
    grep -q "^set xlabel '" "$gp" || grep -q "^set multiplot" "$gp"
    grep -q "^set ylabel '" "$gp" || grep -q "^set multiplot" "$gp"
    [ -s "$out/$name.png" ]
    [ "$(head -c 4 "$out/$name.png" | tail -c 3)" = PNG ]
    grep -q '<svg' "$out/$name.svg"
  done
  # one latency chart per signature x threads: 5 read thread counts + 1 write (+ the sweep's 1 thread)
  [ "$(ls "$out"/latency-*.gp | wc -l)" -eq 6 ]
  grep -q '(best 4)' "$out/threads.dat"
  grep -q '^set arrow' "$out/sizes-1.gp"
  # the fleet chart has a line per host: six hosts, best to worst
  [ "$(grep -vc '^#' "$out/instances-1.dat")" -eq 6 ]
}

@test "--plot without gnuplot says so in one line before any work, and exits 1" {
  local out=$BATS_TEST_TMPDIR/plots bin=$BATS_TEST_TMPDIR/bin
  # a PATH with the tools a shell has, but no gnuplot
  mkdir "$bin"
  ln -s "$(command -v env)" "$bin/env"
  run --separate-stderr env PATH="$bin" "$IOBENCH" report --plot "$out" "$FIX/fleet"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: report: gnuplot not found; install it (Debian: gnuplot-nox), or leave out --plot" ]
  # nothing read, nothing printed, nothing written
  [ -z "$output" ]
  [ ! -e "$out" ]
  # an unreadable PATH is not read either: the check comes first
  run --separate-stderr env PATH="$bin" "$IOBENCH" report --plot "$out" "$BATS_TEST_TMPDIR/none.jsonl"
  [ "$status" -eq 1 ]
  [ "${#stderr_lines[@]}" -eq 1 ]
}

@test "real iobench run lines: counts, rates and p50 agree with what run wrote" {
  local f=$BATS_TEST_TMPDIR/data out=$BATS_TEST_TMPDIR/real.jsonl
  "$IOBENCH" -q --size 16M -o read4k -o write4k --together -t 1,2 -d 1 -b 1 --no-direct \
    --label config=local --json "$out" "$f"
  [ "$(wc -l <"$out")" -eq 2 ]
  run --separate-stderr "$IOBENCH" report --json "$out"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 4 ]
  local report=$output sig t
  for sig in read,4K,4K writeFlush,4K,4K; do
    for t in 1 2; do
      # the report of one run says what the run said of itself
      jq -e --arg s "$sig" --argjson t "$t" --slurpfile run "$out" '
        ($run[] | select(.operations[0].threadCount == $t) | .elapsed as $e |
          .operations[] | select(.signature == $s) | {c: .total.count, e: $e, p50: .percentiles.p50}) as $w |
        .groups[] | select(.signature == $s and .threads == $t) |
        .count == $w.c and ((.opsPerSec - $w.c / $w.e) | fabs) < 1e-6 * .opsPerSec and
        ((.p50Ns - $w.p50) | fabs) <= 1e-6 * $w.p50 + 1' <<<"$report"
    done
  done
  [ "$(jq '[.threads[] | select(.optimal)] | length' <<<"$report")" -eq 2 ]
}

# A fleet of many batches (the reader hands lines to its threads a few
# hundred at a time), with lines that draw messages in several files: the
# report must not depend on how many threads read it.
make_many() {
  local dir=$1 h i
  for h in $(seq 1 12); do
    mkdir -p "$dir/h$h"
    for i in $(seq 1 250); do
      echo "host=h$h threads=$((1 << (i % 4))) launch=$((1763770000 + i * 70)) labels=config=c$((h % 3)) sig=$( ((i % 5)) && echo read,4K,4K || echo writeFlush,4K,4K) modes=15000:$((100 + i)),$((9000000 + h * 1000)):$((5000 + i * h))"
    done | "$GEN" >"$dir/h$h/runs.jsonl"
  done
  # messages from several places, to come out in the order of the files and lines
  sed -i '17s/.*/not json at all/; 120s/"count":/"count":1e400,"c":/; 200s/$/ trailing/' "$dir/h3/runs.jsonl"
  sed -i '5s/"bucketRatio":1.1/"bucketRatio":1.2/; 249s/.*/{"operations": 3}/' "$dir/h9/runs.jsonl"
  "$GEN" "format=java modes=2000000:700" >"$dir/h5/run.out"
  "$GEN" "format=bonnie host=h7" >>"$dir/h7/runs.jsonl"
  "$GEN" "host=h11 threads=3" | jq . >"$dir/h11/pretty.json"
}

@test "the report is the same byte for byte read with 1, 2 or 3 threads (--jobs)" {
  local dir=$BATS_TEST_TMPDIR/many j
  make_many "$dir"
  for j in 1 2 3; do
    "$IOBENCH" report --jobs "$j" "$dir" >"$dir.$j.txt" 2>"$dir.$j.err"
    "$IOBENCH" report --jobs "$j" --json "$dir" >"$dir.$j.json" 2>/dev/null
    "$IOBENCH" report --jobs "$j" --csv --section groups,instances,time "$dir" >"$dir.$j.csv" 2>/dev/null
  done
  # not an empty comparison: every good line read (3000, less the four bad ones and the one
  # that is no result, plus the run.out and the pretty-printed one), the messages in order
  jq -e '.inputs.runs == 12 * 250 - 5 + 2 and .inputs.skipped == 4 and .inputs.bonnie == 1
         and (.groups | length) > 50' "$dir.1.json"
  [ "$(grep -c '^iobench: ' "$dir.1.err")" -eq 4 ]
  [ "$(grep -o 'runs.jsonl:[0-9]*' "$dir.1.err" | paste -sd' ')" = "runs.jsonl:17 runs.jsonl:120 runs.jsonl:200 runs.jsonl:5" ]
  grep -q "h9/runs.jsonl:5: operation 1 (writeFlush,4K,4K): histogram has ratio 1.2" "$dir.1.err"
  for j in 2 3; do
    cmp "$dir.1.txt" "$dir.$j.txt"
    cmp "$dir.1.err" "$dir.$j.err"
    cmp "$dir.1.json" "$dir.$j.json"
    cmp "$dir.1.csv" "$dir.$j.csv"
  done
}

@test "the report's order never follows where memory was allocated: twelve runs, one output" {
  # configs were once ordered by their address, which the reading threads decide:
  # the summary's "config=a, config=b" came out either way round, one run in three
  local dir=$BATS_TEST_TMPDIR/order i
  mkdir -p "$dir"
  "$GEN" 'host=r1 labels=config=a threads=4' 'host=r2 labels=config=a threads=4' \
    'host=r3 labels=config=b threads=4' 'host=r4 labels=config=b threads=8' >"$dir/runs.jsonl"
  for i in $(seq 1 12); do
    "$IOBENCH" report -q --prices "$BATS_TEST_DIRNAME/../share/prices-sample.json" "$dir" >"$dir.$i.txt"
    "$IOBENCH" report -q --json --prices "$BATS_TEST_DIRNAME/../share/prices-sample.json" "$dir" >"$dir.$i.json"
  done
  grep -q 'config=a, config=b (2 configs): at most 2 hosts a cell' "$dir.1.txt"
  [ "$(cat "$dir".*.txt | md5sum)" = "$(for i in $(seq 1 12); do cat "$dir.1.txt"; done | md5sum)" ]
  [ "$(cat "$dir".*.json | md5sum)" = "$(for i in $(seq 1 12); do cat "$dir.1.json"; done | md5sum)" ]
}

@test "the groups section shows each group's CPU time per operation, from the runs' own figures" {
  local f=$BATS_TEST_TMPDIR/data out=$BATS_TEST_TMPDIR/cpu.jsonl
  "$IOBENCH" -q --size 16M -o read4k --no-direct -d 1 --json "$out" "$f" 2>/dev/null
  "$IOBENCH" -q -o read4k --no-direct -d 1 --json "$out" "$f" 2>/dev/null
  run --separate-stderr "$IOBENCH" report --json "$out"
  [ "$status" -eq 0 ]
  # the two runs' CPU time over their operations, merged as their histograms are
  jq -e --slurpfile runs "$out" '
    ([$runs[].operations[0] | (.cpuUserSeconds + .cpuSystemSeconds) * 1e9] | add) as $ns |
    ([$runs[].operations[0] | .total.count + .total.errorCount] | add) as $ops |
    (.groups | length) == 1 and .groups[0].cpuNsPerOp > 0 and ((.groups[0].cpuNsPerOp - $ns / $ops) | fabs) < 1e-6 * $ns / $ops' <<<"$output"
  run "$IOBENCH" report --detail "$out"
  [[ "$(grep -E '^op ' <<<"$output" | head -n 1)" == *" cpu/op" ]]
  grep -E '^read4k .* [0-9.]+(ns|us|ms)$' <<<"$output"
}
