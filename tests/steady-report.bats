#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# iobench report on runs in rounds (run --steady): the steady section, the
# summary ranking configs on steady figures and naming the burst, the PTS
# chart. The lines are real runs, each in a blkio cgroup of its own capping
# its O_DIRECT reads (as the shared notes on throttling under test describe).

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  make_file "$TMP/f" 64M
  CGROUPS=()
  PIDS=()
}

# blkio: skip unless the disk under $TMP can be throttled; $MAJMIN its device.
blkio() {
  [[ -d /sys/fs/cgroup/blkio ]] || skip "env: no cgroup v1 blkio controller to throttle with"
  local disk
  disk=$(findmnt -nvo SOURCE --target "$TMP")
  [[ "$(lsblk -dno TYPE "$disk" 2>/dev/null)" == disk ]] || disk=/dev/$(lsblk -no PKNAME "$disk" | head -n 1)
  MAJMIN=$(lsblk -dno MAJ:MIN "$disk" | tr -d ' ')
  [[ -n "$MAJMIN" ]] || skip "env: $TMP is not on a block device blkio can throttle"
}

each_teardown() {
  local p cg
  for p in "${PIDS[@]}"; do
    kill "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  for cg in "${CGROUPS[@]}"; do
    if [[ -d "$cg" ]]; then rmdir "$cg"; fi
  done
  return 0
}

# host NAME CONFIG IOPS [LATER AFTER]: a steady run of read4k as host NAME of
# config CONFIG, its reads capped at IOPS, and at LATER from AFTER s on (a burst that ends).
host() {
  local name=$1 config=$2 iops=$3 later=${4:-} after=${5:-}
  local cg=/sys/fs/cgroup/blkio/iobench-steady-report-$$-$name
  mkdir "$cg"
  CGROUPS+=("$cg")
  echo "$MAJMIN $iops" >"$cg/blkio.throttle.read_iops_device"
  # the later cap's clock starts where the run does, not before the shell that starts it
  # (on a loaded machine that can take seconds, and a burst of 2 s would be none)
  bash -c 'echo $$ >"$1/cgroup.procs"
    if [[ -n $2 ]]; then
      (sleep "$3" && echo "$4 $2" >"$1/blkio.throttle.read_iops_device") </dev/null >/dev/null 2>&1 &
    fi
    shift 4; exec "$@"' _ "$cg" "$later" "$after" "$MAJMIN" \
    "$IOBENCH" -q --host "$name" --label "config=$config" --direct -o read4k -t 4 --steady --steady-round 1 \
    --max-rounds 15 --json "$TMP/fleet/$name.jsonl" "$TMP/f"
}

@test "four hosts, one bursting to 4000 then held at 1000: its config is ranked on 1000, below the steady 1500s, and the burst is named" {
  blkio
  mkdir "$TMP/fleet"
  host b1 burst 4000 1000 4
  host s1 steady 1500
  host s2 steady 1500
  host s3 steady 1500
  # the burst host's whole run averages above 1500: ranked on it, it would win
  jq -e '.operations[0] | .total.count / (.rounds | length) > 1500' "$TMP/fleet/b1.jsonl"
  jq -e '.operations[0].steadyState | .attained and .iops < 1100' "$TMP/fleet/b1.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,steady,groups "$TMP/fleet"
  [ "$status" -eq 0 ]
  local best burst
  best=$(jq -c '.summary[] | select(.kind == "best" and .op == "read4k")' <<<"$output")
  # the steady config wins, on its steady figure, the burst one second
  jq -e '.config == "config=steady" and .value > 1350 and .value < 1650' <<<"$best"
  jq -e '.finding | test("steady figure") and test("; config=burst: [0-9,]+$")' <<<"$best"
  burst=$(jq -c '.summary[] | select(.kind == "burst")' <<<"$output")
  jq -e '.config == "config=burst" and .value > 900 and .value < 1100' <<<"$burst"
  jq -e '.finding | capture("^config=burst read4k: [34],[0-9]{3} ops/s for [2-6] s, then (?<a>[0-9,]+): ranked on (?<b>[0-9,]+)$") |
    .a == .b' <<<"$burst"
  # the steady section: per host, attained at round k of n, the first round's figure
  jq -e '[.steady[] | select(.host == "b1")][0] | .attained and .round >= 7 and .firstOpsPerSec > 2800 and .burstRounds >= 2' \
    <<<"$output"
  jq -e '[.steady[] | select(.attained)] | length == 4' <<<"$output"
  # the groups table carries the same steady figure: one basis
  jq -e '[.groups[] | select(.host == "b1")][0].opsPerSec < 1100' <<<"$output"
  # the text says it as the JSON does
  run --separate-stderr "$IOBENCH" report "$TMP/fleet"
  [ "$status" -eq 0 ]
  [[ "$output" == *"config=burst read4k: "*" ops/s for "*", then "*": ranked on "* ]]
}

@test "a host that never settles is ranked with a mark, not silently" {
  blkio
  mkdir "$TMP/fleet"
  local cg=/sys/fs/cgroup/blkio/iobench-steady-report-$$-flip
  host s1 steady 1500
  mkdir "$cg"
  CGROUPS+=("$cg")
  echo "$MAJMIN 800" >"$cg/blkio.throttle.read_iops_device"
  (while :; do sleep 1; echo "$MAJMIN 3000" >"$cg/blkio.throttle.read_iops_device"; sleep 1
    echo "$MAJMIN 800" >"$cg/blkio.throttle.read_iops_device"; done) &
  PIDS+=($!)
  bash -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
    "$IOBENCH" -q --host f1 --label config=flipping --direct -o read4k -t 4 --steady --steady-round 1 \
    --max-rounds 6 --json "$TMP/fleet/f1.jsonl" "$TMP/f" 2>/dev/null
  run --separate-stderr "$IOBENCH" report --json --section summary,steady "$TMP/fleet"
  [ "$status" -eq 0 ]
  jq -e '[.steady[] | select(.host == "f1")][0] | .attained == false and .rounds == 6' <<<"$output"
  # ranked on its last window, whichever side it lands: the best with its mark, or the runner-up with it
  jq -e '.summary[] | select(.kind == "best" and .op == "read4k") |
    (.config == "config=flipping" and (.finding | test("not steady: 1 of 1 host never settled"))) or
    (.config == "config=steady" and (.finding | test("config=flipping: [0-9,]+ \\(not steady\\)")))' <<<"$output"
}

# dat_block FILE N: block N (0-based) of a gnuplot data file, its comment lines left out.
dat_block() {
  awk -v want="$2" 'BEGIN { RS = ""; FS = "\n" } NR == want + 1 { for (i = 1; i <= NF; i++) if ($i !~ /^#/) print $i }' "$1"
}

@test "--plot draws the PTS chart per run in rounds: every round, the window, its average, +-10% and the fitted line" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  mkdir "$TMP/runs"
  local h
  for h in r1 r2; do
    "$IOBENCH" -q --host "$h" --no-direct -o read4k --rate 800 --steady --steady-round 0.5 --steady-window 3 \
      --max-rounds 6 --json "$TMP/runs/$h.jsonl" "$TMP/f" 2>/dev/null
  done
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plot" "$TMP/runs"
  [ "$status" -eq 0 ]
  [ -s "$TMP/plot/steady-1.png" ] && [ -s "$TMP/plot/steady-1.svg" ] && [ -s "$TMP/plot/steady-2.svg" ]
  [ ! -e "$TMP/plot/steady-3.dat" ]
  local op rounds first last avg
  op=$(jq -c '.operations[0]' "$TMP/runs/r1.jsonl")
  rounds=$(jq '.rounds | length' <<<"$op")
  first=$(jq '.steadyState.windowFirst' <<<"$op")
  last=$(jq '.steadyState.windowLast' <<<"$op")
  avg=$(jq '.steadyState.iops' <<<"$op")
  # every round, then the window's rounds, as the line has them
  [ "$(dat_block "$TMP/plot/steady-1.dat" 0 | wc -l)" -eq "$rounds" ]
  [ "$(dat_block "$TMP/plot/steady-1.dat" 0 | awk '{print $1}' | tr '\n' ' ')" = "$(seq -s ' ' 1 "$rounds") " ]
  [ "$(dat_block "$TMP/plot/steady-1.dat" 1 | awk 'NR == 1 {print $1}')" -eq "$first" ]
  [ "$(dat_block "$TMP/plot/steady-1.dat" 1 | wc -l)" -eq $((last - first + 1)) ]
  jq -e --argjson r "$(dat_block "$TMP/plot/steady-1.dat" 0 | awk '{print $2}' | jq -s .)" \
    '[.rounds[].iops] as $i | [range(0; $i | length) | ($r[.] - $i[.]) | fabs < 1] | all' <<<"$op"
  # the average over the window, the band at +-10% of it, the fit from the line's own numbers
  dat_block "$TMP/plot/steady-1.dat" 2 | awk -v a="$avg" -v f="$first" -v l="$last" '
    NR == 1 && $1 != f { exit 1 } NR == 2 && $1 != l { exit 1 } ($2 - a) > 1 || (a - $2) > 1 { exit 1 }'
  dat_block "$TMP/plot/steady-1.dat" 3 | awk -v a="$avg" '
    ($2 - 0.9 * a) > 1 || (0.9 * a - $2) > 1 || ($3 - 1.1 * a) > 1 || (1.1 * a - $3) > 1 { exit 1 }'
  jq -e --argjson y "$(dat_block "$TMP/plot/steady-1.dat" 4 | awk '{print $2}' | jq -s .)" \
    '.steadyState.fit as $f | ($y[0] - $f.intercept | fabs) < 1 and
     ($y[1] - ($f.intercept + $f.slope * (.steadyState.windowLast - .steadyState.windowFirst)) | fabs) < 1' <<<"$op"
  # on the page, in the steady section, with its title
  grep -q 'id="chart-steady-1"' "$TMP/plot/index.html"
  grep -q "Steady state (SNIA PTS): read4k, 1 thread" "$TMP/plot/steady-1.gp"
}

@test "a watch series held at one cap, then a lower one: the report says where its p99 left the steady state it had reached" {
  blkio
  local cg=/sys/fs/cgroup/blkio/iobench-steady-report-$$-watch
  mkdir "$cg"
  CGROUPS+=("$cg")
  # probes every 10 ms held to 5 reads a second: a p99 near 200 ms, well above what a
  # loaded machine's scheduling adds (tens of ms); once 16 periods are written, 1 a second
  # (counted in periods, not seconds: on a loaded machine watch can start seconds after
  # the test's clock, and a timer then falls mid-series)
  echo "$MAJMIN 5" >"$cg/blkio.throttle.read_iops_device"
  (
    until [[ -s $TMP/w.jsonl && $(wc -l <"$TMP/w.jsonl") -ge 16 ]]; do sleep 0.05; done
    echo "$MAJMIN 1" >"$cg/blkio.throttle.read_iops_device"
  ) &
  PIDS+=($!)
  bash -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg" \
    "$IOBENCH" watch -q --host w1 -o read4k --interval 0.01 --period 1 --count 28 --json "$TMP/w.jsonl" "$TMP/f"
  [ "$(wc -l <"$TMP/w.jsonl")" -eq 28 ]
  run --separate-stderr "$IOBENCH" report --json --section summary,steady "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  local row
  row=$(jq -c '.steady[] | select(.host == "w1")' <<<"$output")
  echo "row: $row"
  jq -e '.series == "p99" and .attained and .round >= 5 and .round < 16 and .rounds == 28' <<<"$row"
  # it left after the cap fell (after period 16: period 17 or so), not before, at a p99 well above the steady one
  jq -e '.leftAt >= 17 and .leftAt <= 20 and .leftP99Ns > 1.5 * .p99Ns' <<<"$row"
  jq -e '[.summary[] | select(.kind == "leftSteady")] | length == 1 and (.[0].finding | test("^read4k on w1 left its steady state: p99 "))' \
    <<<"$output"
  # the periods before the change alone: steady, never left, nothing said
  head -n 15 "$TMP/w.jsonl" >"$TMP/before.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section summary,steady "$TMP/before.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.steady[0] | .attained and .leftAt == null' <<<"$output"
  jq -e '[.summary[] | select(.kind == "leftSteady")] | length == 0' <<<"$output"
}
