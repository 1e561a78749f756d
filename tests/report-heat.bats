#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report
# report-heat.bats - report --plot's latency heat maps: one beside each
# throughput-over-time chart (heat-N) and each watch chart (watchheat-N),
# from the time buckets' histograms merged exactly; modes show as bands.

bats_require_minimum_version 1.5.0
load lib/core

GEN=$BATS_TEST_DIRNAME/data/report/gen-lines

each_setup() {
  command -v gnuplot >/dev/null || skip "gnuplot not installed (.ci/apt-core.txt)"
}

# map_sum DAT: the operations the map's bins hold (its first block), all columns.
map_sum() {
  awk 'BEGIN { b = 0 } /^$/ { blank++; next } { if (blank >= 2) exit; blank = 0 } !/^#/ && $3 != "NaN" { s += $3 } END { printf "%.0f\n", s }' "$1"
}

# band DAT LO HI: the share of the map's operations whose bin centre lies between LO and HI microseconds.
band() {
  awk -v lo="$2" -v hi="$3" '/^$/ { blank++; next } { if (blank >= 2) exit; blank = 0 }
    !/^#/ && $3 != "NaN" { all += $3; us = 10 ^ $2; if (us >= lo && us < hi) in_band += $3 }
    END { printf "%.3f\n", all ? in_band / all : 0 }' "$1"
}

@test "heat map: a buffered run over a half-cached file shows its two modes, cache hits and disk reads" {
  command -v python3 >/dev/null || skip "python3 not installed"
  "$IOBENCH" create "$TMP/f" 1G
  # the file out of the page cache, then its first half read into it: a random read hits or misses
  python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$TMP/f"
  dd if="$TMP/f" of=/dev/null bs=1M count=512 status=none
  # short, so that the misses (and their readahead) do not bring the rest of it in
  "$IOBENCH" -q -o read4k -t 1 -d 2 -b 0.25 --no-direct --json "$TMP/r.jsonl" "$TMP/f" 2>/dev/null
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  for ext in dat gp png svg; do [ -s "$TMP/plots/heat-1.$ext" ]; done
  grep -q 'id="chart-heat-1"' "$TMP/plots/index.html"
  # every operation of the run is on the map, once
  [ "$(map_sum "$TMP/plots/heat-1.dat")" -eq "$(jq '[.operations[0].timeBuckets[0:8][].count] | add' "$TMP/r.jsonl")" ]
  # two modes: page-cache hits under 8 us, disk reads from 16 us, each a tenth of the reads or more
  local hits misses
  hits=$(band "$TMP/plots/heat-1.dat" 0 8)
  misses=$(band "$TMP/plots/heat-1.dat" 16 1000000)
  echo "hits $hits misses $misses"
  awk -v h="$hits" -v m="$misses" 'BEGIN { exit !(h >= 0.1 && m >= 0.1) }'
  # the colour scale is said, and the percentiles drawn over the map
  grep -q "set cblabel 'operations in the bin (log scale)'" "$TMP/plots/heat-1.gp"
  grep -q "title 'p50'" "$TMP/plots/heat-1.gp"
  grep -q "title 'p99'" "$TMP/plots/heat-1.gp"
}

@test "heat map: hosts merge exactly at each time offset; p50 follows a run whose latency steps" {
  # each host: a run of 2 buckets at 2 us, then one 2 s later of 2 buckets at 50 us
  for h in h1 h2; do
    echo "host=$h runtime=2 bucket=1 launch=1763770000 modes=2000:200"
    echo "host=$h runtime=2 bucket=1 launch=1763770002 modes=50000:200"
  done | "$GEN" > "$TMP/r.jsonl"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  [ "$(map_sum "$TMP/plots/heat-1.dat")" -eq 800 ]
  grep -q "2 hosts merged" "$TMP/plots/heat-1.gp"
  # the percentile block: 4 columns, p50 at about 2 us then about 50 us (log10 of us: 0.3, 1.7)
  awk '/^$/ { blank++; next } { if (blank >= 2) pct = 1; blank = 0 } pct && !/^#/ { print }' "$TMP/plots/heat-1.dat" > "$TMP/pct"
  [ "$(wc -l < "$TMP/pct")" -eq 4 ]
  awk 'NR <= 2 && ($2 < 0.2 || $2 > 0.45) { exit 1 } NR > 2 && ($2 < 1.6 || $2 > 1.8) { exit 1 }' "$TMP/pct"
}

@test "heat map: a watch series gets one beside its chart, every period on it" {
  for t in 0 1 2 3; do
    echo "host=w1 runtime=60 bucket=60 launch=$((1795300000 + t * 3600)) modes=$((t < 2 ? 1000000 : 20000000)):600"
  done | "$GEN" | jq -c '.mode = "watch"' > "$TMP/w.jsonl"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  [ -s "$TMP/plots/watch-1.png" ]
  [ -s "$TMP/plots/watchheat-1.png" ]
  [ "$(map_sum "$TMP/plots/watchheat-1.dat")" -eq 2400 ]
  grep -q 'id="chart-watchheat-1"' "$TMP/plots/index.html"
}
