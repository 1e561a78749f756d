#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root,security
# Hostile inputs and moments that once hung the program, wrote
# where it must not, or lost or misreported results. Each test names the
# defect class it guards.

load lib/core
bats_require_minimum_version 1.5.0

each_setup() {
  # A pids cgroup of the test's own: cgroup v1's pids hierarchy, or v2's
  # unified one where the pids controller is on for its children.
  local base=/sys/fs/cgroup/pids
  if [[ ! -f $base/cgroup.clone_children ]] && grep -qw pids /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    base=/sys/fs/cgroup
  fi
  CG=$base/iobench-reliability-$BATS_TEST_NUMBER-$$
  make_file "$TMP/f" 8M
}

each_teardown() {
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
  if [[ -n "${CG:-}" ]]; then rmdir "$CG" 2>/dev/null || true; fi
}

# bounded SECS CMD...: run CMD, SIGKILLed after SECS (a hang ends as 137).
bounded() {
  local secs=$1
  shift
  timeout -s KILL "$secs" "$@"
}

# need_pids_cgroup: skip unless CG's parent is a pids cgroup (a chroot
# with a bare /sys has none: a limit there would limit nothing).
need_pids_cgroup() {
  [[ -f "${CG%/*}/cgroup.procs" ]] || skip "env: no pids cgroup mounted at ${CG%/*}"
}

# in_pids_cgroup MAX CMD...: run CMD in a pids cgroup of its own allowing MAX tasks.
in_pids_cgroup() {
  local max=$1 rc=0
  shift
  mkdir -p "$CG"
  echo "$max" > "$CG/pids.max"
  bash -c 'echo $$ > "$0/cgroup.procs"; exec "$@"' "$CG" "$@" || rc=$?
  return "$rc"
}

@test "a thread that cannot start ends the run with its message and exit 1, not a hang" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for a pids cgroup"
  need_pids_cgroup
  # 40 tasks: the 1000 threads cannot all start.
  run in_pids_cgroup 40 timeout -s KILL 60 "$IOBENCH" -q -t 1000 -n 1 -d 5 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: cannot start thread "*" of 1000: "*"; use fewer threads" ]]
  # The same with several ops, and in a sweep whose second count fails: the first run's line stays.
  run in_pids_cgroup 40 timeout -s KILL 60 "$IOBENCH" -q -o read4k -o write4k/0 --together -t 1,600 -n 1 -d 5 \
    --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == *"iobench: cannot start thread "* ]]
  [ "$(json_lines "$TMP/o.jsonl")" -eq 1 ]
}

@test "absurd fractional thread counts are refused; a fractional thread's pause ends with the run and on a signal" {
  for t in 1e-9 1e-300 0.000001 0.009; do
    run bounded 20 "$IOBENCH" -q -o "read,$t,4K,4K" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
    [[ "$output" == "iobench: thread count in 'read,$t,4K,4K' out of range; use 0.01 to 4096"* ]]
  done
  for t in 0x2 inf nan 1e 1,5; do
    run bounded 20 "$IOBENCH" -q -o "read,$t,4K,4K" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
  done
  # The smallest accepted fraction: 1 thread idle 99% of the time, stopped by SIGINT.
  rc=$(stop_after 1 INT timeout -s KILL 20 "$IOBENCH" -q -o read,0.01,4K,4K -d 100 --no-direct --json "$TMP/o.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted and .operations[0].threadCount == 0.01 and .operations[0].total.count > 0' "$TMP/o.jsonl"
}

@test "--rate never overflows its interval: a rate too slow is refused, a slow one runs throttled and stops on a signal" {
  run bounded 20 "$IOBENCH" -q --rate 1e-9 -t 64 -d 1 "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: bad --rate '1e-9'; use operations per second, 0.001 to 1e9"* ]]
  for r in 0x10 inf nan -5 1e-400; do
    run bounded 20 "$IOBENCH" -q --rate "$r" -d 1 "$TMP/f"
    [ "$status" -eq 2 ]
  done
  # 0.001 IOPS over 64 threads: one op (thread 0's, due at the start) in a 1 s run.
  bounded 20 "$IOBENCH" -q --rate 0.001 -t 64 -d 1 --json "$TMP/r.jsonl" "$TMP/f"
  jq -e '.operations[0].total.count == 1' "$TMP/r.jsonl"
  # A thread waiting for its next due time leaves at once on SIGINT.
  rc=$(stop_after 1 INT timeout -s KILL 20 "$IOBENCH" -q --rate 0.01 -d 100 --json "$TMP/s.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  jq -e '.interrupted and .operations[0].total.count == 1' "$TMP/s.jsonl"
}

@test "a FIFO is refused, never opened and waited on: create, --json, --raw, watch --json, report" {
  mkfifo "$TMP/p"
  run bounded 20 "$IOBENCH" create --force "$TMP/p" 1M
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: $TMP/p: not a regular file; create makes data files (a device needs no create)" ]
  run bounded 20 "$IOBENCH" create --force /dev/null 1M
  [ "$status" -eq 1 ]
  [ -c /dev/null ]
  for opt in --json --raw; do
    run bounded 20 "$IOBENCH" -q -n 1 "$opt" "$TMP/p" "$TMP/f"
    [ "$status" -eq 2 ]
    [[ "$output" == "iobench: $opt $TMP/p: not a regular file (a FIFO, socket or block device); give a file"* ]]
  done
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --json "$TMP/p" "$TMP/f"
  [ "$status" -eq 2 ]
  # A character device is a fine output.
  bounded 20 "$IOBENCH" -q -n 1 --json /dev/null --raw /dev/null "$TMP/f"
}

@test "a file of a kernel interface (sysfs, procfs) is not a target: refused before it is opened" {
  # sysfs files claim 4096 bytes: a write benchmark would store random bytes into kernel settings.
  f=/sys/kernel/uevent_seqnum
  [ -f "$f" ] || skip "env: no sysfs"
  before=$(cat "$f")
  for cmd in "-q --no-direct -n 1" "-q --no-direct -o write4k -n 1" "watch -q --count 1 --no-direct"; do
    # shellcheck disable=SC2086 # words on purpose
    run bounded 20 "$IOBENCH" $cmd "$f"
    [ "$status" -eq 2 ]
    [ "$output" = "iobench: $f: a file of the kernel's sysfs interface, not data (writing it changes the system); give a file on a disk's filesystem, or a block device" ]
  done
  run bounded 20 "$IOBENCH" durability write --server 127.0.0.1:1 "$f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: $f: a file of the kernel's sysfs interface"* ]]
  run bounded 20 "$IOBENCH" -q -n 1 --size 4K /proc/self/mem
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: /proc/self/mem: a file of the kernel's procfs interface"* ]]
  [ "$(cat "$f")" -ge "$before" ]
}

@test "an output that is the target itself (same inode, any name) is refused before anything is written" {
  sum=$(md5sum < "$TMP/f")
  ln "$TMP/f" "$TMP/hardlink"
  for out in "$TMP/f" "$TMP/./f" "$TMP/hardlink"; do
    for opt in --json --raw; do
      run bounded 20 "$IOBENCH" -q -n 1 "$opt" "$out" "$TMP/f"
      [ "$status" -eq 2 ]
      [ "$output" = "iobench: $opt $out is the target itself; write results to another file" ]
    done
  done
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --json "$TMP/hardlink" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$(md5sum < "$TMP/f")" = "$sum" ]
  # watch --prom renames its page into place: over a target named NAME.prom it would replace the data file.
  cp "$TMP/f" "$TMP/t.prom"
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --prom "$TMP/t.prom" "$TMP/t.prom"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: --prom $TMP/t.prom is the target itself; write results to another file" ]
  [ "$(md5sum < "$TMP/t.prom")" = "$sum" ]
}

@test "two outputs are never one file: --json, --raw and --prom each get their own" {
  for args in "--json $TMP/o.jsonl --raw $TMP/o.jsonl" "--json $TMP/o.jsonl --raw $TMP/./o.jsonl"; do
    # shellcheck disable=SC2086 # words on purpose
    run bounded 20 "$IOBENCH" -q -n 1 $args "$TMP/f"
    [ "$status" -eq 2 ]
    [[ "$output" == "iobench: --json and --raw name the same file ($TMP/"*"o.jsonl); give each its own" ]]
    [ ! -e "$TMP/o.jsonl" ]
  done
  "$IOBENCH" -q -n 1 --json "$TMP/o.jsonl" "$TMP/f"
  ln "$TMP/o.jsonl" "$TMP/o.prom"
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --json "$TMP/o.jsonl" --prom "$TMP/o.prom" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: --json and --prom name the same file ($TMP/o.prom); give each its own" ]
  [ "$(json_lines "$TMP/o.jsonl")" -eq 1 ]
  # /dev/null twice is fine.
  bounded 20 "$IOBENCH" -q -n 1 --json /dev/null --raw /dev/null "$TMP/f"
}

@test "SIGKILL during create leaves no file under the final name; a mostly-holes target is warned about" {
  [ "$(df --output=avail -B1 "$TMP" | tail -1)" -gt $((6 * 1024 * 1024 * 1024)) ] || skip "env: needs 6 GiB free"
  "$IOBENCH" create -q "$TMP/big" 4G &
  pid=$!
  wait_for 20 compgen -G "$TMP/big.partial.*"
  kill -KILL "$pid"
  wait "$pid" || true
  [ ! -e "$TMP/big" ]
  # What was being written is named as partial, so nothing takes it for data.
  ls "$TMP"/big.partial.* >/dev/null
  rm -f "$TMP"/big.partial.*
  # A file of holes of the right size (what a killed create used to leave): warned about.
  truncate -s 64M "$TMP/holes"
  run bounded 20 "$IOBENCH" -q -n 1 --size 64M "$TMP/holes"
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench: warning: $TMP/holes has only 0 B of disk allocated for 64.00 MiB"*"recreate it with 'iobench create --force $TMP/holes SIZE'" ]]
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --json "$TMP/w.jsonl" "$TMP/holes"
  [[ "$output" == "iobench: warning: $TMP/holes has only 0 B"* ]]
  # A complete file is not.
  run bounded 20 "$IOBENCH" -q -n 1 "$TMP/f"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # create --force replaces a file only when the new one is complete.
  "$IOBENCH" create -q --force "$TMP/holes" 8M
  [ "$(stat -c %b "$TMP/holes")" -ge $((8 * 2048)) ]
  [ -z "$(find "$TMP" -maxdepth 1 -name "*partial*")" ]
}

@test "a JSON line that does not fit on the disk is not left half-written; the next one is whole" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=64k tmpfs "$MNT"
  # A first line that leaves 200 bytes of its page: the next line fits only in part.
  printf '{"pad":"%s"}\n' "$(head -c 3885 /dev/zero | tr '\0' x)" > "$MNT/o.jsonl"
  size=$(stat -c %s "$MNT/o.jsonl")
  [ "$size" -eq 3896 ]
  dd if=/dev/zero of="$MNT/fill" bs=1k 2>/dev/null || true
  run bounded 20 "$IOBENCH" -q -n 10 -d 1 --json "$MNT/o.jsonl" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: $MNT/o.jsonl: cannot write results: No space left on device" ]
  [ "$(stat -c %s "$MNT/o.jsonl")" -eq "$size" ]
  rm "$MNT/fill"
  bounded 20 "$IOBENCH" -q -n 10 -d 1 --json "$MNT/o.jsonl" "$TMP/f"
  [ "$(json_lines "$MNT/o.jsonl")" -eq 2 ]
  umount "$MNT"
  MNT=
}

@test "a --raw log that hits a full disk ends with its last whole line; the next run's header starts a line" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=64k tmpfs "$MNT"
  dd if=/dev/zero of="$MNT/fill" bs=1k count=56 2>/dev/null
  run bounded 30 "$IOBENCH" -q -n 2000 --raw "$MNT/raw.log" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: $MNT/raw.log: writing the --raw log failed: No space left on device" ]
  [ -s "$MNT/raw.log" ]
  [ "$(tail -c 1 "$MNT/raw.log" | od -An -c | tr -d ' ')" = '\n' ]
  rm "$MNT/fill"
  bounded 30 "$IOBENCH" -q -n 5 --raw "$MNT/raw.log" "$TMP/f"
  # Every line a header or a whole record: nothing glued together.
  [ "$(grep -cEv '^(# [a-zA-Z]+: .*|op: read [0-9]+ 4096 [0-9]+ [0-9]+)$' "$MNT/raw.log" || true)" -eq 0 ]
  [ "$(grep -c '^# date: ' "$MNT/raw.log")" -eq 2 ]
  [ "$(grep -c '^op: ' "$MNT/raw.log" | tail -1)" -gt 5 ]
  umount "$MNT"
  MNT=
}

@test "bytes that are not UTF-8 in a path or label never cost the line its metadata" {
  bad="$TMP/f$(printf '\xff')x"
  cp "$TMP/f" "$bad"
  run bounded 20 "$IOBENCH" -q -n 20 --label "k$(printf '\xfe')=a$(printf '\xff')b" --label config=c1 \
    --json "$TMP/o.jsonl" "$bad"
  [ "$status" -eq 0 ]
  jq -e '.tool == "iobench" and .interrupted == false and .elapsed > 0 and (.host | length) > 0
         and .target.path == "'"$TMP"'/f\ufffdx" and .labels["k\ufffd"] == "a\ufffdb"
         and .labels.config == "c1" and (.commandLine | contains("--label config=c1"))' "$TMP/o.jsonl"
  # The report reads it whole: its ops/s come from the measured elapsed time.
  run bounded 20 "$IOBENCH" report --json --section groups "$TMP/o.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.groups | length' <<<"$output")" -eq 1 ]
}

@test "a control character in a label is refused; one in a result file never breaks or runs anything in --plot" {
  run bounded 20 "$IOBENCH" -q -n 1 --label "$(printf 'a=b\nc')" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: bad --label: control character 0x0a in it; use printable text" ]
  run bounded 20 "$IOBENCH" watch -q --count 1 --label "$(printf 'a=\tb')" "$TMP/f"
  [ "$status" -eq 2 ]
  command -v gnuplot >/dev/null || skip "gnuplot not installed"
  "$IOBENCH" -q -n 100 --label cfg=a --json "$TMP/a.jsonl" "$TMP/f"
  # Labels as another tool (or a hostile host) could write them.
  jq -c '.labels.cfg = "two\nlines \"q\" '"'"'s"' "$TMP/a.jsonl" > "$TMP/p.jsonl"
  jq -c '.labels.cfg = "`touch '"$TMP"'/ran`"' "$TMP/a.jsonl" >> "$TMP/p.jsonl"
  # The text report shows them as '?': no escape sequence reaches the terminal, no row is split.
  jq -c '.labels.cfg = "a\u001b[31mred\u0007"' "$TMP/a.jsonl" > "$TMP/e.jsonl"
  run --separate-stderr bounded 20 "$IOBENCH" report --section groups "$TMP/p.jsonl" "$TMP/e.jsonl"
  [ "$status" -eq 0 ]
  [ "$(printf '%s' "$output" | tr -d '\n' | tr -d '[:print:]' | wc -c)" -eq 0 ]
  [[ "$output" == *"cfg=two?lines \"q\" 's"* && "$output" == *"cfg=a?[31mred?"* ]]
  [ "$(grep -c '^read4k ' <<<"$output")" -eq 3 ]
  run bounded 60 "$IOBENCH" report --plot "$TMP/plot" "$TMP/p.jsonl"
  [ "$status" -eq 0 ]
  [ ! -e "$TMP/ran" ]
  [ -s "$TMP/plot/latency-1.png" ]
  grep -q "cfg=two lines \"q\" ''s" "$TMP/plot/latency-1.gp"
}

@test "fractional --duration and --bucket are written with their fractions and the report's rates honour them" {
  bounded 30 "$IOBENCH" -q -d 1.5 -b 0.25 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '.runtime == 1.5 and .bucketDuration == 0.25 and (.operations[0].timeBuckets | length) >= 6' "$TMP/o.jsonl"
  # Whole seconds stay whole numbers, as the study wrote them.
  bounded 30 "$IOBENCH" -q -d 1 -n 10 --json "$TMP/w.jsonl" "$TMP/f"
  [ "$(jq -c '[.runtime, .bucketDuration]' "$TMP/w.jsonl")" = "[1,1]" ]
  # The time section's mean bucket rate agrees with count / elapsed (within the spread of warm-up).
  run bounded 30 "$IOBENCH" report --json --section time "$TMP/o.jsonl"
  mean=$(jq '.time[0].meanOpsPerSec' <<<"$output")
  whole=$(jq '.operations[0].total.count / .elapsed' "$TMP/o.jsonl")
  awk -v m="$mean" -v w="$whole" 'BEGIN { exit !(m > 0.6 * w && m < 1.4 * w) }'
}

@test "the time-bucket count never wraps: too many buckets are a usage error" {
  run bounded 20 "$IOBENCH" -q -d 100d -b 0.002011656 "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: --duration / --bucket make 4294968922 time buckets, over 1000000; use a longer --bucket" ]
  run bounded 20 "$IOBENCH" -q -d 1d -b 0.01 "$TMP/f"
  [ "$status" -eq 2 ]
  # A million is fine (and ends with its op limit): 2.7 GB of histograms, too much for a sanitizer's shadow memory.
  sanitized && skip "env: a million time buckets under a sanitizer"
  bounded 60 "$IOBENCH" -q -d 10000 -b 0.01 -n 5 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '.operations[0].total.count == 5' "$TMP/o.jsonl"
}

# sanitized: is the binary under test built with a sanitizer (which needs terabytes of address space)?
sanitized() {
  grep -q -e __asan_init -e __tsan_init "$IOBENCH"
}

@test "report reads with bounded memory: devices are refused, a huge line is reported as FILE:LINE and skipped" {
  "$IOBENCH" -q -n 50 --json "$TMP/good.jsonl" "$TMP/f"
  for dev in /dev/zero /dev/urandom /dev/null; do
    run bounded 20 "$IOBENCH" report "$dev"
    [ "$status" -eq 1 ]
    [[ "$output" == "iobench: $dev: a device or socket, not a results file; skipped"* ]]
  done
  # An endless stream of zeros through a pipe: binary, the rest skipped at once.
  run bounded 20 "$IOBENCH" report <(cat /dev/zero)
  [ "$status" -eq 1 ]
  [[ "$output" == *":1: binary data, not a results file; rest of the file skipped"* ]]
  # A line over the limit (512 MiB), then a good one: the good one is read.
  run bounded 120 bash -c '{ head -c 600M /dev/zero | tr "\0" x; echo; cat "$1"; } | "$0" report --section groups -' \
    "$IOBENCH" "$TMP/good.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *"iobench: -:1: line of 629145601 bytes is over the limit of 512 MiB; skipped"* ]]
  [[ "$output" == *"1 runs"* ]]
  sanitized && skip "env: a sanitizer build cannot run under ulimit -v"
  # A line that does not fit in memory says so, and the rest is read.
  run bounded 120 bash -c '{ head -c 200M /dev/zero | tr "\0" x; echo; cat "$1"; } |
    (ulimit -v 150000; exec "$0" report --section groups -)' "$IOBENCH" "$TMP/good.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *"iobench: -:1: line of 209715201 bytes does not fit in memory; skipped"* ]]
  [[ "$output" == *"1 runs"* ]]
}

@test "binary data is one message, even when it starts with a short clean line" {
  # Random bytes can start with a "line" free of control bytes: the first KiB decides.
  printf '6t\n:Y\001\002x\n\000rest' > "$TMP/bin"
  run bounded 20 "$IOBENCH" report "$TMP/bin"
  [ "$status" -eq 1 ]
  [ "$(grep -c . <<<"$output")" -eq 1 ]
  [ "$output" = "iobench: $TMP/bin:1: binary data, not a results file; rest of the file skipped" ]
  for _ in 1 2 3 4 5 6 7 8; do
    head -c 64K /dev/urandom > "$TMP/rnd"
    run bounded 20 "$IOBENCH" report "$TMP/rnd"
    [ "$output" = "iobench: $TMP/rnd:1: binary data, not a results file; rest of the file skipped" ]
  done
  # Text with tabs and CRLF line ends is still text.
  "$IOBENCH" -q -n 20 --json "$TMP/good.jsonl" "$TMP/f"
  sed 's/$/\r/; s/^{/\t{/' "$TMP/good.jsonl" > "$TMP/crlf.jsonl"
  run bounded 20 "$IOBENCH" report --json --section groups "$TMP/crlf.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 1 ]
}

@test "a UTF-8 byte-order mark before the first line is not a reason to skip it" {
  "$IOBENCH" -q -n 50 --json "$TMP/good.jsonl" "$TMP/f"
  { printf '\xef\xbb\xbf'; cat "$TMP/good.jsonl"; } > "$TMP/bom.jsonl"
  run bounded 20 "$IOBENCH" report --json --section groups "$TMP/bom.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.runs, .inputs.skipped' <<<"$output" | tr '\n' ' ')" = "1 0 " ]
}

@test "exit status tells the truth: --raw to a full disk, output to a full disk or a closed pipe, an op that all failed" {
  run bounded 20 "$IOBENCH" -q -n 10 --raw /dev/full --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: /dev/full: writing the --raw log failed: No space left on device" ]
  [ "$(json_lines "$TMP/o.jsonl")" -eq 1 ]
  # The summary, a report, --json - to a full disk.
  "$IOBENCH" -q -n 10 --json "$TMP/r.jsonl" "$TMP/f"
  for cmd in "-n 10 $TMP/f" "-q -n 10 --json - $TMP/f" "report $TMP/r.jsonl" "help"; do
    # shellcheck disable=SC2086 # words on purpose
    run bounded 20 bash -c '"$0" "$@" > /dev/full' "$IOBENCH" $cmd
    [ "$status" -eq 1 ]
    [[ "$output" == *"iobench: writing to standard output failed: No space left on device" ]]
  done
  # A reader that went away, with SIGPIPE ignored (as under many supervisors).
  run bounded 20 bash -c 'trap "" PIPE; { sleep 0.5; exec "$0" report "$1"; } | true; exit "${PIPESTATUS[0]}"' \
    "$IOBENCH" "$TMP/r.jsonl"
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: writing to standard output failed: Broken pipe" ]
  # Every fdatasync fails, so every write4k/1 fails: a run that measured nothing is not a success.
  [ -f "$IOBENCH_ROOT/build/tests/faultinj.so" ] || skip "faultinj.so not built (make unit-tests)"
  sanitized && skip "env: LD_PRELOAD does not mix with a sanitizer build"
  run bounded 20 env IOB_FAULT_PATH="$TMP/f" IOB_FAULT=fdatasync:eio:1 LD_PRELOAD="$IOBENCH_ROOT/build/tests/faultinj.so" \
    "$IOBENCH" -q -o write4k/1 --direct -n 20 --json "$TMP/e.jsonl" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: write4k/1: all 20 operations failed (first: Input/output error at offset "*"); results written"* ]]
  jq -e '.operations[0].total | .count == 0 and .errorCount == 20' "$TMP/e.jsonl"
}

@test "what fails for every operation is found before the run: O_DIRECT misalignment, a read-only device" {
  for op in read4k@3 read1000 write4k@100 rw4k@1:50; do
    run bounded 20 "$IOBENCH" -q -o "$op" -d 5 "$TMP/f"
    [ "$status" -eq 1 ]
    [[ "$output" == "iobench: $TMP/f: $op with O_DIRECT needs a size and alignment that are multiples of "* ]]
  done
  # Buffered, any alignment works.
  bounded 20 "$IOBENCH" -q -o read4k@3 --no-direct -n 10 --json "$TMP/o.jsonl" "$TMP/f"
  jq -e '.operations[0].total.count == 10' "$TMP/o.jsonl"
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  truncate -s 16M "$TMP/img"
  LOOP=$(losetup --find --show --read-only "$TMP/img")
  run bounded 20 "$IOBENCH" -q -o rw4k:50 -n 20 "$LOOP"
  status_rw=$status out_rw=$output
  run bounded 20 "$IOBENCH" watch -q --count 1 --interval 1 --period 1 --json "$TMP/w.jsonl" "$LOOP"
  losetup -d "$LOOP"
  [ "$status_rw" -eq 1 ]
  [[ "$out_rw" == "iobench: $LOOP: rw4k:50 cannot write here: "*"; rw4k:50 needs a writable target" ]]
  [ "$status" -eq 1 ]
  [[ "$output" == *"write4k/64 cannot write here"* ]]
}

@test "--plot on a full disk says which files could not be written, not that gnuplot failed" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
  command -v gnuplot >/dev/null || skip "gnuplot not installed"
  "$IOBENCH" -q -n 50 --json "$TMP/r.jsonl" "$TMP/f"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=128k tmpfs "$MNT"
  dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true
  run bounded 60 "$IOBENCH" report --plot "$MNT/plot" "$TMP/r.jsonl"
  [ "$status" -eq 1 ]
  [[ "$output" == *"iobench: $MNT/plot: cannot write a chart's .dat file: No space left on device"* ]]
  [[ "$output" != *"gnuplot failed"* ]]
}

@test "--size on a block device smaller than it says a device cannot be grown" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  truncate -s 16M "$TMP/img"
  LOOP=$(losetup --find --show "$TMP/img")
  run bounded 20 "$IOBENCH" -q --size 1T -n 1 "$LOOP"
  losetup -d "$LOOP"
  [ "$status" -eq 1 ]
  [ "$output" = "iobench: $LOOP: is a block device of 16.00 MiB, smaller than --size 1.00 TiB; a device cannot be grown: use a smaller --size, or drop it" ]
}

@test "a thread abandoned stuck in I/O finds its run stopped, not the next run's stack, when the call returns" {
  local so=${IOBENCH_ROOT:-$BATS_TEST_DIRNAME/..}/build/tests/faultinj.so
  [ -f "$so" ] || skip "faultinj.so not built (make unit-tests)"
  # The 200th read hangs until $TMP/go exists: run 1's thread is abandoned
  # after the 30 s grace; it returns only once run 2 is under way, when run 1's
  # frame is gone, and records the read (--raw: its time since the run's start).
  # ASan with detect_stack_use_after_return sees any read of that frame.
  IOB_FAULT_PATH=$TMP/f IOB_FAULT=pread:eio:200 IOB_FAULT_WAIT=$TMP/go LD_PRELOAD=$so \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_stack_use_after_return=1 \
    "$IOBENCH" -t 1,1 -d 1 -o read4k --no-direct --raw "$TMP/raw" --json "$TMP/s.jsonl" "$TMP/f" >"$TMP/out" 2>"$TMP/err" &
  local pid=$! n=900
  while ((n-- > 0)) && ! grep -qs 'run 2 of 2' "$TMP/err"; do sleep 0.1; done
  grep -q 'run 2 of 2' "$TMP/err"
  touch "$TMP/go"
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$TMP/err"; false; }
  ! grep -q Sanitizer "$TMP/err"
  [ "$(json_lines "$TMP/s.jsonl")" -eq 2 ]
  [ "$(sed -n 1p "$TMP/s.jsonl" | jq .stuckThreads)" -eq 1 ]
  [ "$(sed -n 2p "$TMP/s.jsonl" | jq '.stuckThreads // 0')" -eq 0 ]
  [ "$(sed -n 2p "$TMP/s.jsonl" | jq '.operations[0].total.count')" -gt 0 ]
  grep -q "^iobench: warning: 1 thread(s) stuck in I/O were abandoned" "$TMP/err"
}

@test "a run stopped by SIGSTOP mid-run is marked stopped in its JSON line and its summary; others are not" {
  "$IOBENCH" -d 4 -o read4k --no-direct --json "$TMP/s.jsonl" "$TMP/f" >"$TMP/out" 2>"$TMP/err" &
  local pid=$!
  sleep 1
  kill -STOP "$pid"
  sleep 2
  kill -CONT "$pid"
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ]
  [ "$(jq .stopped "$TMP/s.jsonl")" -eq 1 ]
  grep -q '^iobench: warning: the process was stopped 1 time(s) mid-run (SIGSTOP, ^Z)' "$TMP/err"
  "$IOBENCH" -q -d 0.5 -o read4k --no-direct --json "$TMP/s2.jsonl" "$TMP/f"
  [ "$(jq 'has("stopped")' "$TMP/s2.jsonl")" = false ]
}

@test "every top-level field a run line can carry is in the JSON format's field list" {
  local readme=$BATS_TEST_DIRNAME/../docs/json-format.md src=$BATS_TEST_DIRNAME/../src/results/output.c field missing=
  # the optional fields, set one by one in output_json_line()
  for field in $(grep -o 'json_object_set_new(root, "[A-Za-z]*"' "$src" | sed 's/.*"\(.*\)"/\1/' | sort -u); do
    grep -q "\`$field\`" "$readme" || missing+=" $field"
  done
  [ -z "$missing" ] || { echo "not in docs/json-format.md:$missing"; false; }
}
