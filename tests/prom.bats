#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# iobench watch --prom: the Prometheus page for node_exporter's textfile
# collector, checked with Debian's promtool, served by a real
# prometheus-node-exporter and queried by a real prometheus (.ci/apt-watch.txt),
# each started here on a free loopback port and stopped by its pid.

load lib/core

each_setup() {
  make_file "$TMP/f" 16M
  mkdir -p "$TMP/textfile"
  PROM=$TMP/textfile/iobench.prom
}

each_teardown() {
  local pid
  for pid in "${WPID:-}" "${NE_PID:-}" "${PROM_PID:-}"; do
    [[ -n $pid ]] || continue
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
}

need() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null || skip "$c not installed (.ci/apt-watch.txt)"
  done
}

# wait_for TENTHS CMD...: retry CMD every 0.1 s until it succeeds, at most TENTHS times.
wait_for() {
  local n=$1
  shift
  while ((n-- > 0)); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

# build_info: the iobench_build_info series (without its value) this binary writes,
# from what --version says: "iobench 0.1.0" or "iobench 0.1.0 (commit abc1234)".
build_info() {
  "$IOBENCH" --version | sed -E 's/^iobench ([^ ]+) \(commit (.*)\)$/iobench_build_info{commit="\2",version="\1"}/;
    s/^iobench ([^ ]+)$/iobench_build_info{version="\1"}/'
}

# metric FILE NAME OP [LE]: the value of NAME{..., op="OP"[, le="LE"]} in a text page, any label order.
metric() {
  awk -v n="$2{" -v op="op=\"$3\"" -v le="${4:+le=\"$4\"}" \
    'index($1, n) == 1 && index($1, op) && (le == "" || index($1, le)) { print $2 }' "$1"
}

# json_sum FILE OP FIELD: FIELD (a path under an operation) added up over the watch lines of FILE.
json_sum() {
  jq -s --arg op "$2" "[.[].operations[] | select(.name == \$op) | $3] | add" "$1"
}

# nlines FILE: its lines, 0 when it does not exist yet.
nlines() {
  if [[ -e $1 ]]; then wc -l < "$1"; else echo 0; fi
}

# seconds_to_ns S: a decimal number of seconds (at most 9 decimals) as whole ns, exactly.
seconds_to_ns() {
  local int=${1%%.*} frac=
  [[ $1 == *.* ]] && frac=${1#*.}
  frac=$(printf '%-9s' "$frac" | tr ' ' 0)
  echo $((10#$int * 1000000000 + 10#$frac))
}

# start_node_exporter DIR: node_exporter as the README runs it, on a free loopback port
# (only the textfile collector: the others need what a sandbox may lack). Sets NE_PID, NE_URL.
start_node_exporter() {
  local port _
  for _ in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
      --collector.disable-defaults --collector.textfile --collector.textfile.directory="$1" \
      >"$TMP/node-exporter.log" 2>&1 3>&- &
    NE_PID=$!
    # its own "Listening on" line, not some other server's answer on that port
    if wait_for 100 grep -q "Listening on.*address=127.0.0.1:$port" "$TMP/node-exporter.log"; then
      NE_URL=http://127.0.0.1:$port/metrics
      NE_ADDR=127.0.0.1:$port
      return 0
    fi
    kill "$NE_PID" 2>/dev/null || true
    wait "$NE_PID" 2>/dev/null || true
    NE_PID=
  done
  return 1
}

# start_prometheus: a prometheus scraping NE_ADDR every second, on a free loopback port. Sets PROM_PID, PROM_API.
start_prometheus() {
  local port _
  printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ["%s"]\n' \
    "$NE_ADDR" > "$TMP/prometheus.yml"
  for _ in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
      --web.listen-address="127.0.0.1:$port" >"$TMP/prometheus.log" 2>&1 3>&- &
    PROM_PID=$!
    if wait_for 300 grep -q "Server is ready to receive web requests" "$TMP/prometheus.log"; then
      PROM_API=http://127.0.0.1:$port/api/v1
      return 0
    fi
    kill "$PROM_PID" 2>/dev/null || true
    wait "$PROM_PID" 2>/dev/null || true
    PROM_PID=
  done
  return 1
}

@test "watch --prom writes a page promtool accepts, with exactly the JSON lines' counts" {
  need promtool
  run --separate-stderr "$IOBENCH" watch -q --interval 0.05 --period 0.5 --count 2 \
    --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  [ "$status" -eq 0 ]
  run promtool check metrics < "$PROM"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  [ "$(wc -l < "$TMP/w.jsonl")" -eq 2 ]
  for op in read4k write4k/64; do
    n=$(json_sum "$TMP/w.jsonl" "$op" .total.count)
    [ "$n" -gt 0 ]
    [ "$(metric "$PROM" iobench_op_latency_seconds_count "$op")" -eq "$n" ]
    [ "$(metric "$PROM" iobench_op_latency_seconds_bucket "$op" +Inf)" -eq "$n" ]
    errors=$(json_sum "$TMP/w.jsonl" "$op" .total.errorCount)
    [ "$(metric "$PROM" iobench_op_errors_total "$op")" -eq "$errors" ]
    [ "$(metric "$PROM" iobench_op_operations_total "$op")" -eq $((n + errors)) ]
    [ "$(metric "$PROM" iobench_op_bytes_total "$op")" -eq "$(json_sum "$TMP/w.jsonl" "$op" .bytes)" ]
    sum=$(metric "$PROM" iobench_op_latency_seconds_sum "$op")
    [ "$(seconds_to_ns "$sum")" -eq "$(json_sum "$TMP/w.jsonl" "$op" .total.totalValue)" ]
    # every bound j counts exactly the histogram's buckets below k = 8 + 8j
    mapfile -t les < <(grep -F "op=\"$op\"" "$PROM" | grep -o 'le="[0-9.]*"' | cut -d'"' -f2)
    [ "${#les[@]}" -eq 21 ]
    for j in "${!les[@]}"; do
      want=$(jq -s --arg op "$op" --argjson k $((8 + 8 * j)) '
        [.[].operations[] | select(.name == $op) | .total
         | (((.firstBucketStart / 1000) | log) / (1.1 | log) | round) as $f
         | .buckets | to_entries[] | select(.key + $f < $k) | .value] | add // 0' "$TMP/w.jsonl")
      [ "$(metric "$PROM" iobench_op_latency_seconds_bucket "$op" "${les[$j]}")" -eq "$want" ]
    done
  done
  [ "${les[0]}" = 0.000002143 ]
  [ "${les[20]}" = 8.994377403 ]
  grep -qx 'iobench_watch_up 0' "$PROM"
  grep -qxF "$(build_info) 1" "$PROM"
  [ "$(metric "$PROM" iobench_op_period_p99_seconds read4k)" != "" ]
  # replaced whole, readable by node_exporter's user, no temporary file left (the lock stays)
  [ "$(stat -c %a "$PROM")" = 644 ]
  [ "$(find "$TMP/textfile" -mindepth 1 -printf '%f\n' | sort | paste -sd' ')" = ".iobench.prom.lock iobench.prom" ]
}

@test "node_exporter's textfile collector serves the series with the JSON lines' counts" {
  need prometheus-node-exporter curl
  start_node_exporter "$TMP/textfile"
  "$IOBENCH" watch -q --interval 0.05 --period 0.5 --count 2 --label host=t1 \
    --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  curl -sf "$NE_URL" > "$TMP/scrape"
  grep -qx 'node_textfile_scrape_error 0' "$TMP/scrape"
  for op in read4k write4k/64; do
    n=$(json_sum "$TMP/w.jsonl" "$op" .total.count)
    [ "$n" -gt 0 ]
    [ "$(metric "$TMP/scrape" iobench_op_latency_seconds_count "$op")" -eq "$n" ]
    [ "$(metric "$TMP/scrape" iobench_op_latency_seconds_bucket "$op" +Inf)" -eq "$n" ]
    [ "$(grep -c "^iobench_op_latency_seconds_bucket{.*op=\"${op}\"" "$TMP/scrape")" -eq 22 ]
  done
  grep -q "^iobench_op_latency_seconds_count{op=\"read4k\",target=\"$TMP/f\"} " "$TMP/scrape"
  grep -qx 'iobench_watch_up 0' "$TMP/scrape"
}

@test "docs/watch.md's PromQL gives p99 per instance and op from a real prometheus" {
  need prometheus-node-exporter prometheus curl
  start_node_exporter "$TMP/textfile"
  start_prometheus
  "$IOBENCH" watch -q --interval 0.05 --period 1 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f" 2>"$TMP/err" 3>&- &
  WPID=$!
  q=$(grep -o 'histogram_quantile(0.99, sum by (le, instance, op) (rate(iobench_op_latency_seconds_bucket\[1h\])))' \
    "$BATS_TEST_DIRNAME/../docs/watch.md" | head -n 1)
  [ -n "$q" ]
  # rate() needs two scrapes of a growing counter
  p99s() {
    curl -sf -G "$PROM_API/query" --data-urlencode "query=$q" > "$TMP/q.json" &&
      jq -e '.data.result | length == 2' "$TMP/q.json" >/dev/null
  }
  wait_for 300 p99s
  jq -e --arg inst "$NE_ADDR" '.status == "success" and
    ([.data.result[].metric.op] | sort) == ["read4k", "write4k/64"] and
    all(.data.result[]; .metric.instance == $inst
        and (.value[1] | tonumber) > 0 and (.value[1] | tonumber) < 9)' "$TMP/q.json"
}

@test "a scrape racing the rewrites always sees a whole page" {
  need prometheus-node-exporter curl
  start_node_exporter "$TMP/textfile"
  "$IOBENCH" watch -q --interval 0.01 --period 0.2 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f" 2>"$TMP/err" 3>&- &
  WPID=$!
  # from the first period's end on, the page has all its lines
  wait_for 100 grep -q '^iobench_op_period_p99_seconds{' "$PROM"
  whole=$(wc -l < "$PROM")
  declare -A seen=()
  for ((i = 0; i < 3000 && ${#seen[@]} < 30; i++)); do
    curl -sf --max-time 5 "$NE_URL" > "$TMP/scrape"
    # parsed whole: no collector error, every bucket there, +Inf equal to _count for each op
    awk '
      $1 == "node_textfile_scrape_error" && $2 == 0 { ok = 1 }
      index($1, "iobench_op_latency_seconds_bucket{") == 1 { buckets++ }
      index($1, "iobench_op_latency_seconds_bucket{") == 1 && index($1, "le=\"+Inf\"") { inf[$1] = $2; infs++ }
      index($1, "iobench_op_latency_seconds_count{") == 1 { count[$1] = $2; counts++ }
      $1 == bi { info = 1 }
      END {
        if (!ok || !info || buckets != 44 || infs != 2 || counts != 2) exit 1
        for (k in inf) { c = k; sub(/_bucket\{/, "_count{", c); sub(/,le="\+Inf"/, "", c); if (count[c] != inf[k]) exit 1 }
      }' bi="$(build_info)" "$TMP/scrape"
    seen[$(metric "$TMP/scrape" iobench_op_latency_seconds_count read4k)]=1
    # and the file itself, read directly between two rewrites
    [ "$(wc -l < "$PROM")" -eq "$whole" ]
    [ "$(tail -n 1 "$PROM" | cut -d'{' -f1)" = iobench_build_info ]
  done
  # the race was real: the page changed under the scrapes many times
  [ "${#seen[@]}" -ge 30 ]
  kill -TERM "$WPID"
  rc=0
  wait "$WPID" || rc=$?
  WPID=
  [ "$rc" -eq 130 ]
}

@test "counters continue across restarts: a clean stop, SIGTERM and a hard kill" {
  "$IOBENCH" watch -q --interval 0.05 --period 0.3 --count 2 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  first=$(metric "$PROM" iobench_op_latency_seconds_count read4k)
  [ "$first" -eq "$(json_sum "$TMP/w.jsonl" read4k .total.count)" ]
  # a restart starts from the JSON lines: nothing goes down, the new period adds on
  "$IOBENCH" watch -q --interval 0.05 --period 0.3 --count 1 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  [ "$(wc -l < "$TMP/w.jsonl")" -eq 3 ]
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -eq "$(json_sum "$TMP/w.jsonl" read4k .total.count)" ]
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -gt "$first" ]
  # SIGTERM: the partial period is in both, the page says the probe is down
  "$IOBENCH" watch -q --interval 0.05 --period 60 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f" 3>&- &
  WPID=$!
  before=$(metric "$PROM" iobench_op_latency_seconds_count read4k)
  over() { [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -gt "$1" ]; }
  wait_for 100 over "$before"
  kill -TERM "$WPID"
  rc=0
  wait "$WPID" || rc=$?
  WPID=
  [ "$rc" -eq 130 ]
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -eq "$(json_sum "$TMP/w.jsonl" read4k .total.count)" ]
  grep -qx 'iobench_watch_up 0' "$PROM"
  # a hard kill loses the unfinished period from the JSON lines, not from the counters
  in_json=$(json_sum "$TMP/w.jsonl" read4k .total.count)
  "$IOBENCH" watch -q --interval 0.05 --period 60 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f" 3>&- &
  WPID=$!
  wait_for 100 over "$in_json"
  grep -qx 'iobench_watch_up 1' "$PROM"
  kill -9 "$WPID"
  wait "$WPID" || true
  WPID=
  shown=$(metric "$PROM" iobench_op_latency_seconds_count read4k)
  shown_le=$(metric "$PROM" iobench_op_latency_seconds_bucket read4k 8.994377403)
  [ "$(json_sum "$TMP/w.jsonl" read4k .total.count)" -eq "$in_json" ]
  "$IOBENCH" watch -q --interval 0.05 --period 0.3 --count 1 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  added=$(jq -s '.[-1].operations[] | select(.name == "read4k") | .total.count' "$TMP/w.jsonl")
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -eq $((shown + added)) ]
  [ "$(metric "$PROM" iobench_op_latency_seconds_bucket read4k 8.994377403)" -ge "$shown_le" ]
}

@test "a full disk keeps the previous page, says so once per period, and the probe goes on" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
  need promtool
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=64k tmpfs "$MNT"
  "$IOBENCH" watch -q --interval 0.05 --period 1 --json "$TMP/w.jsonl" --prom "$MNT/iobench.prom" "$TMP/f" \
    2>"$TMP/err" 3>&- &
  WPID=$!
  wait_for 100 test -s "$MNT/iobench.prom"
  dd if=/dev/zero of="$MNT/fill" bs=4096 2>/dev/null || true
  failing() { grep -q "cannot write $MNT/iobench.prom: No space left on device" "$TMP/err"; }
  wait_for 100 failing
  # a rewrite that raced the fill may have freed the old page's blocks: take them too
  dd if=/dev/zero of="$MNT/fill2" bs=4096 2>/dev/null || true
  cp "$MNT/iobench.prom" "$TMP/kept.prom"
  lines_then=$(nlines "$TMP/w.jsonl")
  three_more() { [ "$(nlines "$TMP/w.jsonl")" -ge $((lines_then + 3)) ]; }
  wait_for 600 three_more
  kill -0 "$WPID"
  cmp "$MNT/iobench.prom" "$TMP/kept.prom"
  run promtool check metrics < "$MNT/iobench.prom"
  [ "$status" -eq 0 ]
  [ "$(find "$MNT" -mindepth 1 -printf '%f\n' | sort | paste -sd' ')" = ".iobench.prom.lock fill fill2 iobench.prom" ]
  # 20 rounds a period, yet one message per period at most
  periods=$(($(wc -l < "$TMP/w.jsonl") - lines_then + 2))
  said=$(grep -c 'No space left on device' "$TMP/err")
  [ "$said" -ge 1 ]
  [ "$said" -le "$periods" ]
  [[ "$(grep -m1 'No space' "$TMP/err")" == "iobench: watch: cannot write $MNT/iobench.prom: No space left on device; the previous file stays, probing goes on (said once per period)" ]]
  # space again: the next round writes it, with every probe made meanwhile
  rm "$MNT/fill" "$MNT/fill2"
  again() { grep -q "$MNT/iobench.prom written again" "$TMP/err"; }
  wait_for 100 again
  [ "$(metric "$MNT/iobench.prom" iobench_op_latency_seconds_count read4k)" -gt \
    "$(metric "$TMP/kept.prom" iobench_op_latency_seconds_count read4k)" ]
  kill -TERM "$WPID"
  rc=0
  wait "$WPID" || rc=$?
  WPID=
  [ "$rc" -eq 130 ]
  [ "$(metric "$MNT/iobench.prom" iobench_op_latency_seconds_count read4k)" -eq \
    "$(json_sum "$TMP/w.jsonl" read4k .total.count)" ]
}

@test "--prom takes only a NAME.prom file in a directory it can write, and only for watch" {
  run --separate-stderr "$IOBENCH" watch --prom "$TMP/textfile/iobench.txt" "$TMP/f"
  [ "$status" -eq 2 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ "$stderr" == "iobench: bad --prom '$TMP/textfile/iobench.txt'; node_exporter's textfile collector reads only NAME.prom files"* ]]
  run --separate-stderr "$IOBENCH" watch -q --json "$TMP/w.jsonl" --prom "$TMP/nodir/iobench.prom" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$(tail -n 1 <<<"$stderr")" = "iobench: --prom $TMP/nodir/iobench.prom: cannot write it: No such file or directory; give a file in a directory this user can write (node_exporter's --collector.textfile.directory)" ]
  [[ "$stderr" != *"probing goes on"* ]]
  [ ! -e "$TMP/w.jsonl" ]
  run --separate-stderr "$IOBENCH" -d 1 --prom "$PROM" "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: --prom belongs to 'iobench watch'"* ]]
}

@test "the systemd unit's ExecStart with --prom in OPTS keeps the page, as its header shows" {
  unit=$BATS_TEST_DIRNAME/../scripts/iobench-watch@.service
  grep -q '^#.*OPTS=.*--prom /var/lib/prometheus/node-exporter/iobench-' "$unit"
  exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
  exec_start=${exec_start//\/usr\/local\/bin\/iobench/$IOBENCH}
  exec_start=${exec_start//\/var\/lib\/iobench/$TMP}
  exec_start=${exec_start//%i/t}
  # systemd splits $OPTS on whitespace and passes ${TARGET} as one word; so does this
  OPTS="--interval 0.05 --period 0.3 --count 1 --prom $TMP/textfile/iobench-t.prom" TARGET=$TMP/f \
    bash -c "$exec_start"
  [ "$(metric "$TMP/textfile/iobench-t.prom" iobench_op_latency_seconds_count read4k)" -eq \
    "$(json_sum "$TMP/watch-t.jsonl" read4k .total.count)" ]
}

# plant_page FILE N: the page watch wrote to $TMP/probe.prom (its marker line first) with
# every read4k count set to N.
plant_page() {
  sed -E '/op="read4k"/ { /_sum\{/! s/\} [0-9]+$/} '"$2"'/ }' "$TMP/probe.prom" >"$1"
}

# consistent FILE: the read4k histogram's buckets never go down and +Inf equals _count
consistent() {
  awk -v op='op="read4k"' 'index($1, "iobench_op_latency_seconds_bucket{") == 1 && index($1, op) {
      if ($2 + 0 < prev) bad = 1; prev = $2 + 0; inf = $2 }
    index($1, "iobench_op_latency_seconds_count{") == 1 && index($1, op) { count = $2 }
    END { exit !(bad == 0 && inf == count && count > 0) }' "$1"
}

@test "a planted page is not taken up: another user's, one without the marker, one with counts near 2^64" {
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json /dev/null --prom "$TMP/probe.prom" "$TMP/f"
  plant_page "$TMP/planted" 7
  [ "$(grep -c 'op="read4k".*} 7$' "$TMP/planted")" -eq 26 ]
  # near 2^64 (and past 2^53): the old watch wrapped +Inf to 2 under buckets of 18446744073709551612
  plant_page "$PROM" 18446744073709551612
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json /dev/null --prom "$PROM" "$TMP/f"
  consistent "$PROM"
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -lt 1000000 ]
  # another user's page with plausible counts
  plant_page "$PROM" 5000000
  chown nobody "$PROM"
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json /dev/null --prom "$PROM" "$TMP/f"
  consistent "$PROM"
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -lt 1000000 ]
  [ "$(stat -c %U "$PROM")" = root ]
  # this user's page without the marker line
  plant_page "$PROM" 5000000
  sed -i 1d "$PROM"
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json /dev/null --prom "$PROM" "$TMP/f"
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -lt 1000000 ]
  # and its own page is continued
  shown=$(metric "$PROM" iobench_op_latency_seconds_count read4k)
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json /dev/null --prom "$PROM" "$TMP/f"
  [ "$(metric "$PROM" iobench_op_latency_seconds_count read4k)" -gt "$shown" ]
  consistent "$PROM"
}

@test "counters that would pass 2^53 are refused, not wrapped: JSON lines that add up past it" {
  "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json "$TMP/w.jsonl" "$TMP/f"
  jq -c '.operations[0].total.count += 4503599627370496 | .operations[0].total.buckets[0] += 4503599627370496' \
    "$TMP/w.jsonl" >"$TMP/big.jsonl"
  cat "$TMP/big.jsonl" >>"$TMP/w.jsonl"
  cat "$TMP/big.jsonl" >>"$TMP/w.jsonl"
  run "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json "$TMP/w.jsonl" --prom "$PROM" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ ${lines[-1]} == "iobench: --prom: the watch lines of $TMP/w.jsonl add up past 2^53 (more than a watch counts); give another --json file" ]]
}

# syscalls GROUP: the system calls of a systemd filter group, nested groups expanded.
syscalls() {
  systemd-analyze syscall-filter "$1" | sed -n '2,$p' | grep -v '^ *#' | awk '{ print $1 }' |
    while read -r s; do if [[ $s == @* ]]; then syscalls "$s"; else echo "$s"; fi; done
}

@test "the systemd unit is sandboxed (systemd-analyze security well below 9.6) and its filter lets a --prom probe through" {
  command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
  command -v strace >/dev/null || skip "strace not installed"
  unit=$BATS_TEST_DIRNAME/../scripts/iobench-watch@.service
  mkdir -p "$TMP/units"
  cp "$unit" "$TMP/units/iobench-watch@t.service"
  run systemd-analyze security --offline=true "$TMP/units/iobench-watch@t.service"
  [ "$status" -eq 0 ]
  score=$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p' <<<"$output")
  echo "exposure $score"
  awk -v s="$score" 'BEGIN { exit !(s != "" && s < 3.0) }'
  grep -qx 'CapabilityBoundingSet=CAP_DAC_OVERRIDE' "$unit"
  grep -qx 'DeviceAllow=block-\* rw' "$unit"
  # every call a watch with --prom makes is allowed, none denied
  syscalls @system-service | sort -u >"$TMP/allowed"
  sed -n 's/^SystemCallFilter=~//p' "$unit" | tr ' ' '\n' | while read -r g; do syscalls "$g"; done | sort -u >"$TMP/denied"
  [ -s "$TMP/denied" ]
  # LeakSanitizer cannot run under ptrace (the asan build's run of this suite)
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -o "$TMP/tr" "$IOBENCH" watch -q --interval 0.05 --period 0.2 --count 1 --json "$TMP/w.jsonl" \
    --prom "$PROM" "$TMP/f"
  sed -E 's/^[0-9]+ +//; s/\(.*//' "$TMP/tr" | grep -E '^[a-z_0-9]+$' | sort -u >"$TMP/used"
  [ -s "$TMP/used" ]
  [ -z "$(comm -23 "$TMP/used" "$TMP/allowed")" ]
  [ -z "$(comm -12 "$TMP/used" "$TMP/denied")" ]
}
