#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=security,root
# Issue 22, local files and results: what another local user, a planted file
# or a hostile results tree can make iobench do to files, pages and reports
# (docs/security.md, "Local files and results"). Each test names the defect
# class it guards.

load lib/core
bats_require_minimum_version 1.5.0

each_setup() {
  make_file "$TMP/f" 8M
  FAULT_SO=${IOBENCH_ROOT:-$BATS_TEST_DIRNAME/..}/build/tests/faultinj.so
}

each_teardown() {
  local pid
  for pid in "${WPID:-}" "${BPID:-}"; do
    [[ -n $pid ]] || continue
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
}

# bounded SECS CMD...: run CMD, SIGKILLed after SECS (a hang ends as 137).
bounded() {
  local secs=$1
  shift
  timeout -s KILL "$secs" "$@"
}

# watch_once ARGS...: one short watch period of TARGET $TMP/f, quiet.
watch_once() {
  "$IOBENCH" watch --interval 0.1 --period 0.5 --count 1 -q "$@"
}

@test "--prom: a link planted at the old temporary name is not followed, its target not touched" {
  mkdir "$TMP/tf"
  printf 'secret\n' >"$TMP/secret"
  chmod 600 "$TMP/secret"
  ln -s "$TMP/secret" "$TMP/tf/.iobench.prom.tmp"
  run --separate-stderr watch_once --prom "$TMP/tf/iobench.prom" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(cat "$TMP/secret")" = secret ]
  [ "$(stat -c %a "$TMP/secret")" = 600 ]
  [ "$(readlink "$TMP/tf/.iobench.prom.tmp")" = "$TMP/secret" ]
  grep -q '^iobench_watch_up 0$' "$TMP/tf/iobench.prom"
  # no temporary file is left behind
  [ "$(find "$TMP/tf" -name '.iobench.prom.??????' | wc -l)" -eq 0 ]
}

@test "--prom over a character device, a FIFO or a link is refused, and it stays as it was" {
  mkdir "$TMP/tf"
  mknod "$TMP/tf/null.prom" c 1 3
  mkfifo "$TMP/tf/fifo.prom"
  printf 'mine\n' >"$TMP/other"
  ln -s "$TMP/other" "$TMP/tf/link.prom"
  for page in null fifo link; do
    run --separate-stderr bounded 20 "$IOBENCH" watch --interval 0.1 --period 0.5 --count 1 -q \
      --json "$TMP/w.jsonl" --prom "$TMP/tf/$page.prom" "$TMP/f"
    [ "$status" -eq 1 ]
    # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
    [ "$(tail -n 1 <<<"$stderr")" = "iobench: --prom $TMP/tf/$page.prom: exists and is not a regular file; give the NAME.prom path of a regular file (or of none yet)" ]
  done
  [ -c "$TMP/tf/null.prom" ]
  [ -p "$TMP/tf/fifo.prom" ]
  [ -L "$TMP/tf/link.prom" ]
  [ "$(cat "$TMP/other")" = mine ]
  [ ! -e "$TMP/w.jsonl" ]
}

@test "--prom: a second watch on one page is refused with the first one's pid" {
  mkdir "$TMP/tf"
  "$IOBENCH" watch --interval 0.1 --period 30 -q --prom "$TMP/tf/iobench.prom" "$TMP/f" >/dev/null 2>&1 &
  WPID=$!
  local n=100
  while ((n-- > 0)) && [[ ! -s $TMP/tf/iobench.prom ]]; do sleep 0.1; done
  [ -s "$TMP/tf/iobench.prom" ]
  run --separate-stderr watch_once --prom "$TMP/tf/iobench.prom" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$(tail -n 1 <<<"$stderr")" = "iobench: --prom $TMP/tf/iobench.prom: another iobench watch (pid $WPID) writes this page; stop it, or give each watch its own NAME.prom" ]
  kill "$WPID"
  wait "$WPID" || true
  WPID=
  # once the first has stopped, the page is free again
  run --separate-stderr watch_once --prom "$TMP/tf/iobench.prom" "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "--prom: a target name that is not UTF-8 still makes a page promtool accepts" {
  command -v promtool >/dev/null || skip "promtool not installed (.ci/apt-watch.txt)"
  mkdir "$TMP/tf"
  local target=$TMP/$'f\xff\xfe'
  cp "$TMP/f" "$target"
  run --separate-stderr watch_once --prom "$TMP/tf/iobench.prom" "$target"
  [ "$status" -eq 0 ]
  run promtool check metrics <"$TMP/tf/iobench.prom"
  [ "$status" -eq 0 ]
  # each stray byte became U+FFFD
  grep -q "target=\"$TMP/f"$'\xef\xbf\xbd\xef\xbf\xbd'"\",op=\"read4k\"" "$TMP/tf/iobench.prom"
  # and a restart carries the counters on (the page is read back with the same label)
  local before after
  before=$(awk '/^iobench_op_operations_total.*read4k/ { print $2 }' "$TMP/tf/iobench.prom")
  run --separate-stderr watch_once --prom "$TMP/tf/iobench.prom" "$target"
  after=$(awk '/^iobench_op_operations_total.*read4k/ { print $2 }' "$TMP/tf/iobench.prom")
  [ "$before" -gt 0 ]
  [ "$after" -gt "$before" ]
}

@test "a failed JSON append never cuts off a line another appender wrote meanwhile" {
  [ -f "$FAULT_SO" ] || skip "faultinj.so not built (make unit-tests)"
  printf '{"first":1}\n' >"$TMP/r.jsonl"
  # A: its line lands, then its fsync waits for $TMP/go and fails
  IOB_FAULT_PATH=$TMP/r.jsonl IOB_FAULT=fsync:eio:1 IOB_FAULT_WAIT=$TMP/go LD_PRELOAD=$FAULT_SO \
    "$IOBENCH" -q -d 0.2 -o read4k --json "$TMP/r.jsonl" "$TMP/f" >/dev/null 2>"$TMP/a.err" &
  WPID=$!
  local n=200
  while ((n-- > 0)) && [ "$(wc -l <"$TMP/r.jsonl")" -lt 2 ]; do sleep 0.1; done
  [ "$(wc -l <"$TMP/r.jsonl")" -eq 2 ]
  # B: another run appends to the same file while A waits
  "$IOBENCH" -q -d 0.2 -o write4k --json "$TMP/r.jsonl" "$TMP/f" >/dev/null 2>"$TMP/b.err" &
  BPID=$!
  sleep 3
  touch "$TMP/go"
  local arc=0 brc=0
  wait "$WPID" || arc=$?
  wait "$BPID" || brc=$?
  WPID='' BPID=''
  [ "$arc" -eq 1 ]
  grep -q 'Input/output error' "$TMP/a.err"
  [ "$brc" -eq 0 ]
  # the first line and B's stay, A's failed line is gone, every line whole
  [ "$(json_lines "$TMP/r.jsonl")" -eq 2 ]
  [ "$(sed -n 1p "$TMP/r.jsonl")" = '{"first":1}' ]
  [ "$(sed -n 2p "$TMP/r.jsonl" | jq -r '.operations[0].name')" = write4k ]
}

@test "an unwritable --json is refused before the first measurement, for run, sweep and watch" {
  local bad=$TMP/nodir/r.jsonl
  # each would measure for 30 s (a period an hour) before its first line
  run --separate-stderr bounded 10 "$IOBENCH" -q -d 30 -t 1,2 --json "$bad" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$(tail -n 1 <<<"$stderr")" = "iobench: --json $bad: cannot write results: No such file or directory; give a file this user can write, or '-' for stdout" ]
  [ -z "$output" ]
  run --separate-stderr bounded 10 "$IOBENCH" watch -q --json "$bad" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$(tail -n 1 <<<"$stderr")" = "iobench: --json $bad: cannot write results: No such file or directory; give a file this user can write, or '-' for stdout" ]
  # a read-only filesystem is found as early, and the check leaves no file behind
  mkdir "$TMP/ro"
  mount -t tmpfs -o size=1m,ro tmpfs "$TMP/ro" || skip "env: cannot mount a tmpfs"
  MNT=$TMP/ro
  run --separate-stderr bounded 10 "$IOBENCH" -q -d 30 --json "$TMP/ro/r.jsonl" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$(tail -n 1 <<<"$stderr")" == *"cannot write results: Read-only file system;"* ]]
  run --separate-stderr "$IOBENCH" -q -d 0.2 --json "$TMP/ok.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(json_lines "$TMP/ok.jsonl")" -eq 1 ]
}

# results_tree: $TMP/rr/r1 holding one run of read4k, $TMP/rr/r1.jsonl its line.
results_tree() {
  mkdir -p "$TMP/rr/r1"
  "$IOBENCH" -q -d 0.2 -o read4k --json "$TMP/rr/r1/a.jsonl" "$TMP/f"
}

@test "report DIR: a link to a folder is followed once, and a file reached twice is said and counted once" {
  results_tree
  ln -s r1 "$TMP/rr/latest"
  ln -s . "$TMP/rr/r1/self"
  ln -s .. "$TMP/rr/r1/up"
  ln -s a.jsonl "$TMP/rr/r1/b.jsonl"
  run --separate-stderr bounded 20 "$IOBENCH" report --json "$TMP/rr"
  [ "$status" -eq 0 ]
  [ "$(jq .inputs.runs <<<"$output")" -eq 1 ]
  [ "$(jq .inputs.files <<<"$output")" -eq 1 ]
  [[ "$stderr" == *"iobench: $TMP/rr/r1: the same folder as $TMP/rr/latest (a link); read once"* ]]
  [[ "$stderr" == *"iobench: $TMP/rr/latest/b.jsonl: the same file as $TMP/rr/latest/a.jsonl (a link, or given twice); read once"* ]]
  # two links to "." no longer multiply the paths
  mkdir "$TMP/loop"
  cp "$TMP/rr/r1/a.jsonl" "$TMP/loop/"
  ln -s . "$TMP/loop/x"
  ln -s . "$TMP/loop/y"
  run --separate-stderr bounded 20 "$IOBENCH" report --json "$TMP/loop"
  [ "$status" -eq 0 ]
  [ "$(jq .inputs.runs <<<"$output")" -eq 1 ]
  # a file given twice on the command line counts once too
  run --separate-stderr "$IOBENCH" report --json "$TMP/rr/r1/a.jsonl" "$TMP/rr/r1/a.jsonl"
  [ "$(jq .inputs.runs <<<"$output")" -eq 1 ]
}

@test "report: procfs files, devices and endless streams are refused as results, --expect and --prices" {
  results_tree
  local p
  for p in /proc/kmsg /proc/self/status; do
    run --separate-stderr bounded 20 "$IOBENCH" report "$p" "$TMP/rr"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"iobench: $p: a file of a kernel interface (procfs, sysfs, ...), not a results file; skipped"* ]]
  done
  # a folder holding a link to /proc/kmsg: refused, not read (as root it would consume the kernel's messages)
  ln -s /proc/kmsg "$TMP/rr/r1/kmsg.jsonl"
  run --separate-stderr bounded 20 "$IOBENCH" report --json "$TMP/rr"
  [ "$status" -eq 0 ]
  [ "$(jq .inputs.runs <<<"$output")" -eq 1 ]
  [[ "$stderr" == *"kmsg.jsonl: a file of a kernel interface"* ]]
  rm "$TMP/rr/r1/kmsg.jsonl"
  for p in /dev/zero /dev/urandom /proc/kmsg; do
    run --separate-stderr bounded 20 "$IOBENCH" report --expect "$p" "$TMP/rr"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "iobench: --expect $p: a "*"; give a text file of expectations" ]]
    run --separate-stderr bounded 20 "$IOBENCH" report --prices "$p" "$TMP/rr"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "iobench: --prices $p: a "*"; give a prices file (share/prices-sample.json)" ]]
  done
  # an endless pipe, or a line without end, is one bounded error, not gigabytes
  # shellcheck disable=SC2016 # expanded by the inner shell
  run --separate-stderr bounded 20 bash -c '"$1" report --expect <(cat /dev/zero) "$2"' _ "$IOBENCH" "$TMP/rr"
  [ "$status" -eq 2 ]
  [[ "$stderr" == *":1: not a line of text (over 4096 bytes, or a NUL byte);"* ]]
  head -c 100000 /dev/zero | tr '\0' a >"$TMP/long"
  run --separate-stderr bounded 20 "$IOBENCH" report --expect "$TMP/long" "$TMP/rr"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: $TMP/long:1: not a line of text (over 4096 bytes, or a NUL byte);"* ]]
}

@test "a label whose value holds ',' or '=' stays one label: its own config, not matched by --only on a part" {
  "$IOBENCH" -q -d 0.2 -o read4k --label 'a=1,b=2' --json "$TMP/l.jsonl" "$TMP/f"
  "$IOBENCH" -q -d 0.2 -o read4k --label a=1 --label b=2 --json "$TMP/l.jsonl" "$TMP/f"
  run --separate-stderr "$IOBENCH" report --json "$TMP/l.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq .inputs.cells <<<"$output")" -eq 2 ]
  [ "$(jq -c '[.groups[].config] | sort' <<<"$output")" = '["a=1,b=2","a=1\\,b\\=2"]' ]
  # --only b=2 keeps the run that has label b, not the one whose label a holds "b=2"
  run --separate-stderr "$IOBENCH" report --json --only b=2 "$TMP/l.jsonl"
  [ "$(jq .inputs.cells <<<"$output")" -eq 1 ]
  [ "$(jq -r '.groups[0].config' <<<"$output")" = "a=1,b=2" ]
  # and the whole value still matches as it was given
  run --separate-stderr "$IOBENCH" report --json --only 'a=1,b=2' "$TMP/l.jsonl"
  [ "$(jq -r '[.groups[].config] | join(" ")' <<<"$output")" = 'a=1\,b\=2' ]
}

@test "create over a symbolic link, dangling or not, is refused as a link and writes nothing through it" {
  ln -s "$TMP/nowhere/x" "$TMP/dangling"
  run --separate-stderr "$IOBENCH" create "$TMP/dangling" 1M
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: $TMP/dangling: is a symbolic link; give the path it points to, or remove the link" ]
  [ "$(readlink "$TMP/dangling")" = "$TMP/nowhere/x" ]
  ln -s "$TMP/f" "$TMP/link"
  local before
  before=$(sha256sum <"$TMP/f")
  run --separate-stderr "$IOBENCH" create --force "$TMP/link" 1M
  [ "$status" -eq 1 ]
  [ -L "$TMP/link" ]
  [ "$(sha256sum <"$TMP/f")" = "$before" ]
  [ "$(find "$TMP" -name '*.partial.*' | wc -l)" -eq 0 ]
}

@test "report --plot: a label holding ']]>' still makes well-formed standalone SVGs" {
  command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox)"
  command -v python3 >/dev/null || skip "python3 not installed (see .ci/apt-core.txt)"
  "$IOBENCH" -q -d 0.2 -o read4k --label 'cfg=x]]>y<&' --json "$TMP/l.jsonl" "$TMP/f"
  "$IOBENCH" -q -d 0.2 -o read4k -t 2 --label cfg=z --json "$TMP/l.jsonl" "$TMP/f"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/l.jsonl"
  [ "$status" -eq 0 ]
  local svgs
  svgs=$(find "$TMP/plots" -name '*.svg' | wc -l)
  [ "$svgs" -ge 1 ]
  python3 -c 'import sys, xml.dom.minidom
for f in sys.argv[1:]: xml.dom.minidom.parse(f)' "$TMP"/plots/*.svg
  # the text reads as the label was given
  grep -q 'cfg=x]]&gt;y&lt;&amp;' "$TMP"/plots/latency-*.svg
}

@test "report --plot killed: its gnuplot dies with it and writes nothing more" {
  "$IOBENCH" -q -d 0.2 -o read4k --json "$TMP/l.jsonl" "$TMP/f"
  # a gnuplot that takes its time, then leaves a mark
  mkdir "$TMP/bin"
  printf '#!/bin/sh\necho started >>"%s"\nsleep 3\necho finished >>"%s"\n' "$TMP/gp.log" "$TMP/gp.log" >"$TMP/bin/gnuplot"
  chmod +x "$TMP/bin/gnuplot"
  PATH=$TMP/bin:$PATH "$IOBENCH" report --plot "$TMP/plots" "$TMP/l.jsonl" >/dev/null 2>&1 &
  WPID=$!
  local n=100
  while ((n-- > 0)) && ! grep -q started "$TMP/gp.log" 2>/dev/null; do sleep 0.1; done
  grep -q started "$TMP/gp.log"
  kill -KILL "$WPID"
  wait "$WPID" || true
  WPID=
  sleep 4
  [ "$(grep -c finished "$TMP/gp.log")" -eq 0 ]
}

@test "report --plot never writes through a link, nor into a folder other users can write" {
  "$IOBENCH" -q -d 0.2 -o read4k --json "$TMP/l.jsonl" "$TMP/f"
  printf 'secret\n' >"$TMP/secret"
  mkdir "$TMP/plots"
  ln -s "$TMP/secret" "$TMP/plots/latency-1.gp"
  ln -s "$TMP/secret" "$TMP/plots/index.html.tmp"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/plots" "$TMP/l.jsonl"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"iobench: $TMP/plots/latency-1.gp: a symbolic link; not written through"* ]]
  [ "$(cat "$TMP/secret")" = secret ]
  # a folder anyone may write (where gnuplot's own PNG and SVG could be pointed anywhere) is refused
  mkdir -m 1777 "$TMP/shared"
  run --separate-stderr "$IOBENCH" report --plot "$TMP/shared" "$TMP/l.jsonl"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"iobench: --plot $TMP/shared: writable by other users; give a folder of this user's that others cannot write (a new name is created)"* ]]
  [ "$(find "$TMP/shared" -mindepth 1 | wc -l)" -eq 0 ]
}
