#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report
# report-charts.bats - the report page's charts as a reader sees them: the
# shipped study's page (tests/data/study) rendered by headless Chromium at
# 1400 px and at 700 px, every inline chart's every text measured as drawn
# (lib/chart-text.js): at least 9 px, no two overlapping, none cut off; the
# compare chart by direction with its legend, the cost chart with its
# interval, the charts' figures as the tables beside them round them. A
# wider study made here (three ops, 30 hosts a config, long config names,
# latencies 60x apart) is measured the same way. Screenshots of both widths
# are kept in build/tests/report-charts/ to look at.

bats_require_minimum_version 1.5.0

load lib/skip

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export STUDY=$BATS_TEST_DIRNAME/data/study PRICES=$BATS_TEST_DIRNAME/../share/prices-sample.json
  export PLOTS=$BATS_FILE_TMPDIR/plots
  export KEEP=${IOBENCH_CHARTS_OUT:-$BATS_TEST_DIRNAME/../build/tests/report-charts}
  command -v gnuplot >/dev/null || { suite_skip_all "gnuplot is not installed (.ci/apt-report.txt)"; return 0; }
  command -v chromium >/dev/null || { suite_skip_all "chromium is not installed (.ci/apt-report.txt)"; return 0; }
  "$IOBENCH" report --prices "$PRICES" --plot "$PLOTS" "$STUDY" >/dev/null 2>"$BATS_FILE_TMPDIR/stderr"
  mkdir -p "$KEEP"
}

# make_wide FILE: two configs of long names, 30 hosts each (one slow), read4k,
# read4m and write4k/64 at 1 and 4 threads; B's reads 15x and 60x slower
# than A's, its writes 60x faster: ratios from 1/64x to 64x.
make_wide() {
  local cfg h t n r4k r4m w host
  for cfg in a b; do
    if [[ $cfg == a ]]; then r4k=100000 r4m=2000000 w=1500000; else r4k=1500000 r4m=120000000 w=25000; fi
    for h in $(seq -w 1 30); do
      host=host-$cfg-$h.example.internal
      for t in 1 4; do
        n=$((6000 * t))
        [[ $h != 07 ]] || n=$((n / 5))
        echo "host=$host threads=$t labels=config=a-rather-long-configuration-name-$cfg/gp3 modes=$r4k:$n"
        echo "host=$host threads=$t sig=read,4M,4M labels=config=a-rather-long-configuration-name-$cfg/gp3 modes=$r4m:$((n / 10))"
        echo "host=$host threads=$t sig=write64,4K,4K labels=config=a-rather-long-configuration-name-$cfg/gp3 modes=$w:$((n / 2))"
      done
    done
  done | "$BATS_TEST_DIRNAME/data/report/gen-lines" >"$1"
}

setup() {
  suite_skip
}

# chromium ARGS...: headless, nothing fetched, a profile of its own per call.
chromium_run() {
  local profile
  profile=$(mktemp -d "$BATS_FILE_TMPDIR/chromium.XXXXXX")
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --hide-scrollbars \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" "$@" 2>/dev/null
}

# with_script HTML JS OUT: a copy of page HTML that runs JS at its end.
with_script() {
  { sed '/<\/body>/,$d' "$1"; printf '<script>\n'; cat "$2"; printf '</script>\n</body>\n</html>\n'; } >"$3"
}

# measure DIR NAME WIDTH [MAXHEIGHT]: DIR/index.html at WIDTH px, its
# charts' texts measured into $BATS_FILE_TMPDIR/NAME-WIDTH.txt (kept in
# $KEEP too), and a screenshot of the page, every fold open, in
# $KEEP/NAME-page-WIDTH.png (its first MAXHEIGHT px, else all of it).
measure() {
  local dir=$1 name=$2 width=$3 page=$BATS_FILE_TMPDIR/$2-$3.html out=$BATS_FILE_TMPDIR/$2-$3.txt
  with_script "$dir/index.html" "$BATS_TEST_DIRNAME/lib/chart-text.js" "$page"
  chromium_run --window-size="$width,900" --dump-dom "file://$page" |
    sed -n '/<pre id="chart-text">/,/<\/pre>/{s/<[^>]*>//g;s/&quot;/"/g;s/&amp;/\&/g;p}' >"$out"
  cp "$out" "$KEEP/$name-measure-$width.txt"
  # the screenshot: as tall as the page with its folds open
  local open=$BATS_FILE_TMPDIR/$2-open-$3.html height
  printf "document.querySelectorAll('details').forEach(function (d) { d.open = true; });\n" >"$BATS_FILE_TMPDIR/open.js"
  with_script "$dir/index.html" "$BATS_FILE_TMPDIR/open.js" "$open"
  height=$(awk '$1 == "page" { print $3 }' "$out")
  height=${height:-8000}
  [[ -z ${4:-} ]] || ((height <= $4)) || height=$4
  chromium_run --window-size="$width,$height" --screenshot="$KEEP/$name-page-$width.png" "file://$open" >/dev/null
  echo "screenshot: $KEEP/$name-page-$width.png; measurements: $KEEP/$name-measure-$width.txt"
}

# check_texts DIR NAME WIDTH: every inline chart of DIR's page measured, each
# text 9 px or more, none over another, none cut off by its chart's edge.
check_texts() {
  local m=$BATS_FILE_TMPDIR/$2-$3.txt ncharts nkey
  ncharts=$(find "$1" -name '*.svg' | wc -l)
  nkey=$(find "$1" -name compare.svg -o -name cost.svg | wc -l)
  [ "$ncharts" -ge 30 ]
  [ "$nkey" -ge 1 ]
  # a line per chart on the page (the key charts twice), each with its texts
  [ "$(grep -c '^chart ' "$m")" -eq $((ncharts + nkey)) ]
  awk '$1 == "chart" && ($5 < 5 || $6 == "none") { print "no text: " $0; bad = 1 } END { exit bad }' "$m"
  # the smallest text of each chart, as rendered: 9 px or more
  awk '$1 == "chart" && $6 < 9 { print "small: " $0; bad = 1 } END { exit bad }' "$m"
  ! grep -E '^(small|overlap|clipped) ' "$m"
}

@test "every chart's text is 9 px or more, none overlapping or cut, at 1400 px" {
  measure "$PLOTS" study 1400
  check_texts "$PLOTS" study 1400
  [ "$(grep -c '^chart ' "$BATS_FILE_TMPDIR/study-1400.txt")" -ge 50 ]
  # two charts a row: shown at their canvas's width or more, never narrower
  awk '$1 == "chart" && $3 < $4 - 1 { print "shrunk: " $0; bad = 1 } END { exit bad }' "$BATS_FILE_TMPDIR/study-1400.txt"
}

@test "every chart's text is 9 px or more, none overlapping or cut, at 700 px" {
  measure "$PLOTS" study 700
  check_texts "$PLOTS" study 700
  # one chart a row, none wider than the window: the page does not scroll sideways
  [ "$(awk '$1 == "page" { print $2 }' "$BATS_FILE_TMPDIR/study-700.txt")" -eq 0 ]
}

@test "a wider study's charts too: three op panels, 30 hosts, long names, ratios 1/64x to 64x" {
  local wide=$BATS_FILE_TMPDIR/wide
  make_wide "$BATS_FILE_TMPDIR/wide.jsonl"
  "$IOBENCH" report --plot "$wide" "$BATS_FILE_TMPDIR/wide.jsonl" >/dev/null 2>&1
  # what it is made to exercise: a threads panel per op, instances named one in two, wide ratio ticks
  grep -q "^set multiplot layout 4,2 " "$wide/threads.gp"
  grep -q "one in 2 named" "$wide/instances-1.gp"
  grep -qF "set xtics ('1/64x' 0.015625, '1/8x' 0.125, '1x' 1, '8x' 8, '64x' 64)" "$wide/compare.gp"
  measure "$wide" wide 1400 3000
  check_texts "$wide" wide 1400
  measure "$wide" wide 700 3000
  check_texts "$wide" wide 700
}

@test "the compare chart: throughput over latency, coloured by which way is better, a legend, ratio ticks" {
  local gp=$PLOTS/compare.gp dat=$PLOTS/compare.dat
  grep -q "throughput: higher is better" "$gp"
  grep -q "latency (p50, p99): lower is better" "$gp"
  # the legend says what each colour means
  grep -q "^set label 1 'B better' .* lc rgb '#1a9641'" "$gp"
  grep -q "^set label 2 'B worse' .* lc rgb '#d7191c'" "$gp"
  grep -q "^set label 3 'no difference (interval holds 1x) or no interval' .* lc rgb '#888888'" "$gp"
  # io2 reads and writes 2.6-2.7x gp3, the interval clear of 1: green (better), in the throughput block
  [ "$(awk '/^# throughput/ { on = 1 } /^# latency/ { on = 0 } on && /ops\/s"/ && $(NF - 5) == 1742401' "$dat" | wc -l)" -eq 2 ]
  # the latencies' intervals all hold 1: grey
  [ "$(awk '/^# latency/ { on = 1 } on && /^"/ && $(NF - 5) == 8947848' "$dat" | wc -l)" -eq 4 ]
  # ticks named as ratios, 1x among them, none in gnuplot's exponents
  grep -qE "^set xtics \\('1/[0-9]+x' [0-9.e-]+, .*'1x' 1, .*'[0-9]+x' [0-9]+\\)" "$gp"
  run ! grep -q "set format x" "$gp"
}

@test "the compare chart's figures are the compare table's cells" {
  local csv n=0 op metric ratio shown
  csv=$("$IOBENCH" report --csv --section compare "$STUDY")
  # op,metric,ratio of each row with a ratio, as the text table shows it
  while IFS=$'\t' read -r op metric ratio; do
    shown=$(awk -v want="\"$op $metric\"" 'index($0, want) == 1 { print $(NF - 4) }' "$PLOTS/compare.dat")
    [ "$shown" = "\"$(printf '%.2f' "$ratio")\"" ] || { echo "$op $metric: chart $shown, table $ratio"; return 1; }
    n=$((n + 1))
  done < <(python3 -c '
import csv, sys
rows = csv.DictReader(sys.stdin)
for r in rows:
    if r["ratio"]:
        print("\t".join((r["op"], r["metric"], r["ratio"])))' <<<"$csv")
  [ "$n" -eq 6 ]
}

@test "the cost chart: each bar with the 95% interval of its median host, its figure the table's" {
  local dat=$PLOTS/cost.dat
  # a bar per config and op: value, the table's text, threads, low, high, not ranked
  [ "$(grep -c '^"m5.large / \(gp3\|io2\) x1" ' "$dat")" -eq 4 ]
  awk '/^"/ { v = $(NF - 5); lo = $(NF - 2); hi = $(NF - 1);
              if (!(lo < v && v < hi)) { print "interval " lo "-" hi " misses " v; bad = 1 } }
       END { exit bad }' "$dat"
  # the value is the cost table's opsPerDollar, the text its "ops per $" cell
  "$IOBENCH" report --json --prices "$PRICES" --section cost "$STUDY" |
    jq -r '.cost[] | select(.size == 268435456) | [.config, .opsPerDollar] | @tsv' | while IFS=$'\t' read -r cfg opd; do
      grep -qF "\"$cfg\" $(printf '%.0f' "$opd") " "$dat" || { echo "$cfg: $opd not drawn"; return 1; }
    done
  grep -qF '"m5.large / gp3 x1" 113323957 "113.3M"' "$dat"
  "$IOBENCH" report --prices "$PRICES" --section cost "$STUDY" | grep -qE '^read4k +256M +m5\.large / gp3 x1 .* 113\.3M '
  # whiskers drawn from the low and high columns
  grep -q "using 2:0:5:6 with xerrorbars" "$PLOTS/cost.gp"
}

@test "a chart too small for its text fails the measure" {
  # the measure itself: a copy of the page with one chart's text at 7 px is caught
  local page=$BATS_FILE_TMPDIR/small.html m=$BATS_FILE_TMPDIR/small.txt
  sed '0,/font-size="10.00"/s//font-size="7.00"/' "$PLOTS/index.html" >"$BATS_FILE_TMPDIR/small-src.html"
  with_script "$BATS_FILE_TMPDIR/small-src.html" "$BATS_TEST_DIRNAME/lib/chart-text.js" "$page"
  chromium_run --window-size="1400,900" --dump-dom "file://$page" |
    sed -n '/<pre id="chart-text">/,/<\/pre>/{s/<[^>]*>//g;s/&quot;/"/g;s/&amp;/\&/g;p}' >"$m"
  [ "$(grep -c '^small ' "$m")" -ge 1 ]
}
