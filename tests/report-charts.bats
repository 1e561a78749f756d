#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report
# report-charts.bats - the report page's charts as a reader sees them: the
# shipped study's page (tests/data/study) rendered by headless Chromium at
# 1400 px and at 700 px, every inline chart's every text measured as drawn
# (lib/chart-text.js): at least 9 px, no two overlapping, none cut off; the
# compare chart by direction with its legend, the cost chart with its
# interval, the charts' figures as the tables beside them round them.
# Screenshots of both widths are kept in build/tests/report-charts/ to look at.

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

# measure WIDTH: the page at WIDTH px, its charts' texts measured into
# $BATS_FILE_TMPDIR/measure-WIDTH.txt (kept beside the screenshots too),
# and a screenshot of the whole page, every fold open, in $KEEP.
measure() {
  local width=$1 page=$BATS_FILE_TMPDIR/page-$1.html out=$BATS_FILE_TMPDIR/measure-$1.txt
  with_script "$PLOTS/index.html" "$BATS_TEST_DIRNAME/lib/chart-text.js" "$page"
  chromium_run --window-size="$width,900" --dump-dom "file://$page" |
    sed -n '/<pre id="chart-text">/,/<\/pre>/{s/<[^>]*>//g;s/&quot;/"/g;s/&amp;/\&/g;p}' >"$out"
  cp "$out" "$KEEP/measure-$width.txt"
  # the screenshot: as tall as the page with its folds open
  local open=$BATS_FILE_TMPDIR/open-$1.html height
  printf "document.querySelectorAll('details').forEach(function (d) { d.open = true; });\n" >"$BATS_FILE_TMPDIR/open.js"
  with_script "$PLOTS/index.html" "$BATS_FILE_TMPDIR/open.js" "$open"
  height=$(awk '$1 == "page" { print $3 }' "$out")
  chromium_run --window-size="$width,${height:-8000}" --screenshot="$KEEP/study-page-$width.png" "file://$open" >/dev/null
  echo "screenshot: $KEEP/study-page-$width.png; measurements: $KEEP/measure-$width.txt"
}

# check_texts WIDTH: every inline chart measured, each text 9 px or more, none
# over another, none cut off by its chart's edge.
check_texts() {
  local m=$BATS_FILE_TMPDIR/measure-$1.txt ncharts nkey
  ncharts=$(find "$PLOTS" -name '*.svg' | wc -l)
  nkey=$(find "$PLOTS" -name compare.svg -o -name cost.svg | wc -l)
  [ "$ncharts" -ge 50 ]
  [ "$nkey" -eq 2 ]
  # a line per chart on the page (the key charts twice), each with its texts
  [ "$(grep -c '^chart ' "$m")" -eq $((ncharts + nkey)) ]
  awk '$1 == "chart" && ($5 < 5 || $6 == "none") { print "no text: " $0; bad = 1 } END { exit bad }' "$m"
  # the smallest text of each chart, as rendered: 9 px or more
  awk '$1 == "chart" && $6 < 9 { print "small: " $0; bad = 1 } END { exit bad }' "$m"
  ! grep -E '^(small|overlap|clipped) ' "$m"
}

@test "every chart's text is 9 px or more, none overlapping or cut, at 1400 px" {
  measure 1400
  check_texts 1400
  # two charts a row: shown at their canvas's width or more, never narrower
  awk '$1 == "chart" && $3 < $4 - 1 { print "shrunk: " $0; bad = 1 } END { exit bad }' "$BATS_FILE_TMPDIR/measure-1400.txt"
}

@test "every chart's text is 9 px or more, none overlapping or cut, at 700 px" {
  measure 700
  check_texts 700
  # one chart a row, none wider than the window: the page does not scroll sideways
  [ "$(awk '$1 == "page" { print $2 }' "$BATS_FILE_TMPDIR/measure-700.txt")" -eq 0 ]
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
