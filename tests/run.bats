#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# iobench run: the study's operations, JSON format, sweeps, seeds, spans, signals.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  make_file "$TMP/f" 64M
}

each_teardown() {
  # A memory cgroup a test made (empty again once its process is gone).
  if [[ -f "$TMP/cgroup" ]]; then rmdir "$(cat "$TMP/cgroup")" 2>/dev/null || true; fi
  # A test's tmpfs goes before its folder does.
  ! mountpoint -q "$TMP/mem" 2>/dev/null || umount "$TMP/mem"
}

@test "every study op runs and its JSON line has the study's fields" {
  run "$IOBENCH" -q -o read4k -o read4m -o write4k -o write4m -o write4k/64 --together -t 2 -d 2 -b 1 \
    --json "$TMP/out.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$TMP/out.jsonl")" -eq 1 ]
  line=$(cat "$TMP/out.jsonl")
  [ "$(jq -r '[.operations[].signature] | join(" ")' <<<"$line")" = \
    "read,4K,4K read,4M,4M writeFlush,4K,4K writeFlush,4M,4M write64,4K,4K" ]
  [ "$(jq -r '[.operations[].name] | join(" ")' <<<"$line")" = "read4k read4m write4k write4m write4k/64" ]
  [ "$(jq '[.operations[] | select(.threadCount == 2)] | length' <<<"$line")" -eq 5 ]
  [ "$(jq '[.operations[] | select(.total.count > 0)] | length' <<<"$line")" -eq 5 ]
  # fields of the study's format, with its constants
  [ "$(jq '.fileSize' <<<"$line")" -eq 67108864 ]
  [ "$(jq '.runtime' <<<"$line")" -eq 2 ]
  [ "$(jq '.bucketDuration' <<<"$line")" -eq 1 ]
  now=$(date +%s)
  [ "$(jq '.launchTime' <<<"$line")" -gt $((now - 120)) ]
  [ "$(jq '[.operations[].total | select(.bucketRatio == 1.1 and .pinMinimum == 1000 and .pinMaximum == 10000000000)] | length' <<<"$line")" -eq 5 ]
}

@test "time buckets sum exactly to the total, and buckets sum to count" {
  "$IOBENCH" -q -o read4k -o write4k/64 --together -t 2 -d 3 -b 1 --json "$TMP/out.jsonl" "$TMP/f"
  line=$(cat "$TMP/out.jsonl")
  for i in 0 1; do
    total=$(jq ".operations[$i].total.count" <<<"$line")
    [ "$total" -gt 0 ]
    [ "$(jq "[.operations[$i].timeBuckets[].count] | add" <<<"$line")" -eq "$total" ]
    [ "$(jq ".operations[$i].total.buckets | add" <<<"$line")" -eq "$total" ]
    [ "$(jq "[.operations[$i].timeBuckets[] | (.buckets | add // 0) == .count] | all" <<<"$line")" = true ]
    nb=$(jq ".operations[$i].timeBuckets | length" <<<"$line")
    [ "$nb" -ge 3 ] && [ "$nb" -le 4 ]
    # totalValue is the sum over the time buckets too
    [ "$(jq ".operations[$i].total.totalValue == ([.operations[$i].timeBuckets[].totalValue] | add)" <<<"$line")" = true ]
  done
}

@test "firstBucketStart matches the first non-empty bucket (1000 * 1.1^k)" {
  "$IOBENCH" -q -o read4k -d 1 --json "$TMP/out.jsonl" "$TMP/f"
  jq -e '.operations[0].total as $h
         | ($h.firstBucketStart / 1000 | log / (1.1 | log)) as $k
         | ($k - ($k | round) | fabs) < 1e-6
           and $h.minValue >= $h.firstBucketStart' "$TMP/out.jsonl"
}

@test "iobench's own keys are recorded" {
  "$IOBENCH" -q -o read4k -n 50 -d 5 --seed 42 --label config=test --label host=a \
    --json "$TMP/out.jsonl" "$TMP/f"
  line=$(cat "$TMP/out.jsonl")
  [ "$(jq -r .tool <<<"$line")" = iobench ]
  [ "$(jq -r .version <<<"$line")" = "$("$IOBENCH" --version | cut -d' ' -f2)" ]
  [ "$(jq -r .seed <<<"$line")" = 42 ]
  [ "$(jq -r .labels.config <<<"$line")" = test ]
  [ "$(jq -r .labels.host <<<"$line")" = a ]
  [ "$(jq -r .engine <<<"$line")" = sync ]
  [ "$(jq -r .target.type <<<"$line")" = file ]
  [ "$(jq -r .target.size <<<"$line")" = 67108864 ]
  [ "$(jq -r .target.path <<<"$line")" = "$TMP/f" ]
  [ "$(jq -r .host <<<"$line")" = "$(hostname)" ]
  [ "$(jq -r .kernel <<<"$line")" = "$(uname -r)" ]
  [[ "$(jq -r .commandLine <<<"$line")" == "iobench -q -o read4k -n 50 "* ]]
  [ "$(jq -r .interrupted <<<"$line")" = false ]
  [ "$(jq -r '.operations[0].direct' <<<"$line")" = true ]
  [ "$(jq -r '.operations[0].total.count' <<<"$line")" = 50 ]
  [ "$(jq -r '.operations[0].percentiles | keys | join(",")' <<<"$line")" = "p10,p50,p90,p99,p99.9,p99.99" ]
  jq -e '.operations[0] | .percentiles.p50 >= .total.minValue and .percentiles.p50 <= .total.maxValue' <<<"$line"
  jq -e '.operations[0] | .iops > 0 and .bytes == 50 * 4096' <<<"$line"
  # The devices under the file (none on tmpfs, and then a note says so); tests/devices.bats has more.
  jq -e '(.devices | type) == "array" and
         if .devices == [] then (.devicesNote | length) > 0
         else .devices[0].role == "target" and (.devices[0].total.seconds > 0) end' <<<"$line"
}

@test "a thread sweep writes one line per count, in order" {
  "$IOBENCH" -q -o read4k -t 1..3,5 -d 1 -b 1 --json "$TMP/out.jsonl" "$TMP/f"
  [ "$(wc -l < "$TMP/out.jsonl")" -eq 4 ]
  [ "$(jq -r '.operations[0].threadCount' "$TMP/out.jsonl" | paste -sd, -)" = "1,2,3,5" ]
  [ "$(jq -r '.threads' "$TMP/out.jsonl" | paste -sd, -)" = "1,2,3,5" ]
}

@test "--shuffle runs every count once, in a seeded random order" {
  "$IOBENCH" -q -o read4k -t 1..6 -n 5 -d 5 --shuffle --seed 7 --json "$TMP/a.jsonl" "$TMP/f"
  "$IOBENCH" -q -o read4k -t 1..6 -n 5 -d 5 --shuffle --seed 7 --json "$TMP/b.jsonl" "$TMP/f"
  order=$(jq -r '.threads' "$TMP/a.jsonl" | paste -sd, -)
  [ "$(jq -r '.threads' "$TMP/a.jsonl" | sort -n | paste -sd, -)" = "1,2,3,4,5,6" ]
  [ "$order" != "1,2,3,4,5,6" ]
  [ "$(jq -r '.threads' "$TMP/b.jsonl" | paste -sd, -)" = "$order" ]
}

@test "the header says the threads that ran; the JSON line the --threads count only where it applied" {
  run "$IOBENCH" -o read,4,4K,4K -d 1 --no-direct --json "$TMP/a.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  grep -q ', 4 threads, ' <<<"$output"
  [ "$(jq '.threads' "$TMP/a.jsonl")" -eq 4 ]
  # together: the total of the ops' threads (each op's row has its own)
  run "$IOBENCH" -o 'read,3,1K,1K.write,1,4K,4K' -t 2 -d 1 --no-direct --json "$TMP/b.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  grep -q ', 4 threads, ' <<<"$output"
  [ "$(jq '.threads' "$TMP/b.jsonl")" -eq 4 ]
  [ "$(awk '$1 == "read1k" { print $2 }' <<<"$output")" -eq 3 ]
  # ops on the --threads count: the header says all that ran, the JSON the count (a sweep's step)
  run "$IOBENCH" -o read4k -o read1k --together -t 2 -d 1 --no-direct --json "$TMP/c.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  grep -q ', 4 threads, ' <<<"$output"
  [ "$(jq '.threads' "$TMP/c.jsonl")" -eq 2 ]
}

@test "the long form with '.'-joined phases runs them together with their own thread counts" {
  "$IOBENCH" -q -o 'read,3,1K,1K.write,1,4K,4K' -o 'writeFlush,i,4K,4K' -t 2 -d 1 \
    --no-direct --json "$TMP/out.jsonl" "$TMP/f"
  # the joined phases are one run; the next -o is a run of its own, after it
  [ "$(json_lines "$TMP/out.jsonl")" -eq 2 ]
  line=$(sed -n 1p "$TMP/out.jsonl")
  [ "$(jq -r '[.operations[] | "\(.signature)=\(.threadCount)"] | join(" ")' <<<"$line")" = \
    "read,1K,1K=3 write,4K,4K=1" ]
  [ "$(jq '[.operations[].total.count > 0] | all' <<<"$line")" = true ]
  [ "$(jq '.operations[1].fdatasyncs' <<<"$line")" -eq 0 ]
  [ "$(sed -n 2p "$TMP/out.jsonl" | jq -r '[.operations[] | "\(.signature)=\(.threadCount)"] | join(" ")')" = \
    "writeFlush,4K,4K=2" ]
}

@test "--seed gives the same offsets; another seed gives others" {
  command -v strace >/dev/null || skip "strace not installed"
  for s in 1 1 2; do
    trace "$TMP/st.$s.$RANDOM" pread64 "$IOBENCH" -q -o read4k -n 200 -d 10 --seed "$s" "$TMP/f"
  done
  mapfile -t logs < <(ls "$TMP"/st.1.* "$TMP"/st.2.*)
  a=$(offsets_of "${logs[0]}" pread64 | tail -n 200 | md5sum)
  b=$(offsets_of "${logs[1]}" pread64 | tail -n 200 | md5sum)
  c=$(offsets_of "${logs[2]}" pread64 | tail -n 200 | md5sum)
  [ "$(offsets_of "${logs[0]}" pread64 | tail -n 200 | sort -u | wc -l)" -gt 150 ]
  [ "$a" = "$b" ]
  [ "$a" != "$c" ]
}

@test "offsets are aligned, inside the span, and reach the last aligned block" {
  command -v strace >/dev/null || skip "strace not installed"
  "$IOBENCH" create -q "$TMP/small" 16K
  trace "$TMP/st" pread64 "$IOBENCH" -q -o read4k -n 400 -d 10 --seed 3 "$TMP/small"
  offs=$(offsets_of "$TMP/st" pread64 | tail -n 400 | sort -n | uniq | paste -sd, -)
  [ "$offs" = "0,4096,8192,12288" ]
  trace "$TMP/st2" pread64 "$IOBENCH" -q -o read4k -n 500 -d 10 --span 1M "$TMP/f"
  max=$(offsets_of "$TMP/st2" pread64 | tail -n 500 | sort -n | tail -1)
  [ "$max" -le $((1048576 - 4096)) ]
  [ "$max" -ge $((1048576 - 4096 * 40)) ]
  [ "$(offsets_of "$TMP/st2" pread64 | tail -n 500 | awk '$1 % 4096 != 0' | wc -l)" -eq 0 ]
  jq -n '1' >/dev/null
}

@test "--span is recorded and refused when larger than the target" {
  "$IOBENCH" -q -o read4k -n 10 -d 5 --span 1M --json "$TMP/out.jsonl" "$TMP/f"
  [ "$(jq .target.span "$TMP/out.jsonl")" -eq 1048576 ]
  run "$IOBENCH" -q -o read4k -d 1 --span 1G "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: --span is larger than"* ]]
}

@test "--size creates a missing target and refuses an existing smaller one" {
  run "$IOBENCH" -q -o read4k -n 5 -d 5 --size 8M "$TMP/new"
  [ "$status" -eq 0 ]
  [ "$(stat -c %s "$TMP/new")" -eq 8388608 ]
  run "$IOBENCH" -q -o read4k -n 5 -d 5 --size 16M "$TMP/new"
  [ "$status" -eq 1 ]
  [[ "$output" == *"smaller than --size"* ]]
  [ "$(stat -c %s "$TMP/new")" -eq 8388608 ]
}

@test "a read benchmark never changes a byte of its target" {
  before=$(md5sum < "$TMP/f")
  "$IOBENCH" -q -o read4k -o read4m -o 'read,2,512,512' -t 2 -d 1 --no-direct "$TMP/f"
  "$IOBENCH" -q -o read4k -t 2 -d 1 "$TMP/f"
  [ "$(md5sum < "$TMP/f")" = "$before" ]
}

@test "SIGINT mid-run writes a partial line marked interrupted and exits 130" {
  rc=$(stop_after 2.5 INT "$IOBENCH" -q -o read4k -o write4k/64 -t 2 -d 60 -b 1 --json "$TMP/out.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  [ "$(wc -l < "$TMP/out.jsonl")" -eq 1 ]
  jq -e '.interrupted == true and .elapsed < 30 and (.operations[0].total.count > 0)
         and ([.operations[0].timeBuckets[].count] | add) == .operations[0].total.count
         and (.operations[0].timeBuckets | length) <= 5' "$TMP/out.jsonl"
}

@test "SIGTERM during a sweep keeps finished runs and the interrupted one" {
  rc=$(stop_after 3 TERM "$IOBENCH" -q -o read4k -t 1,2,3 -d 2 -b 1 --json "$TMP/out.jsonl" "$TMP/f")
  [ "$rc" -eq 130 ]
  [ "$(wc -l < "$TMP/out.jsonl")" -eq 2 ]
  [ "$(jq -r .interrupted "$TMP/out.jsonl" | paste -sd, -)" = "false,true" ]
}

@test "--json - writes the line on stdout and the summary on stderr" {
  run --separate-stderr "$IOBENCH" -o read4k -n 20 -d 5 --json - "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq -r '.operations[0].total.count' <<<"$output")" -eq 20 ]
  [[ "$stderr" == *"read4k"*"IOPS"* ]] || [[ "$stderr" == *"IOPS"* ]]
}

@test "the summary shows every statistic for each op" {
  run "$IOBENCH" -o read4k -o write4k/64 -n 100 -d 5 "$TMP/f"
  [ "$status" -eq 0 ]
  header=$(grep -E '^op ' <<<"$output")
  for col in threads ops errors IOPS MB/s mean p10 p50 p90 p99 p99.9 p99.99 min max cpu/op; do
    [[ " $header " == *" $col "* ]]
  done
  [ "$(grep -cE '^(read4k|write4k/64) +1 +100 +0 ' <<<"$output")" -eq 2 ]
}

@test "buffered runs on a file smaller than twice the RAM warn that they measure cache" {
  run "$IOBENCH" -q -o read4k -n 10 -d 5 --no-direct "$TMP/f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"warning: read4k runs through the page cache"* ]]
  run "$IOBENCH" -q -o read4k -n 10 -d 5 "$TMP/f"
  [[ "$output" != *"warning"* ]]
}

@test "a sweep warns about the page cache once, before its first run" {
  run --separate-stderr "$IOBENCH" -o write4k/64 -t 1,2,3 -n 20 -d 5 "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'runs through the page cache' <<<"$stderr")" -eq 1 ]
  # the warning's line comes before the first run's
  [ "$(grep -n 'page cache' <<<"$stderr" | cut -d: -f1)" -lt "$(grep -n 'run 1 of 3' <<<"$stderr" | cut -d: -f1)" ]
  [ "$(grep -c 'run [123] of 3' <<<"$stderr")" -eq 3 ]
}

@test "the page-cache warning names the span the offsets cover, and the file's size when it differs" {
  run --separate-stderr "$IOBENCH" -q -o write4k/64 -n 10 -d 5 "$TMP/f"
  [[ "$stderr" == *"write4k/64 runs through the page cache and $TMP/f (64.00 MiB) is smaller than twice the "* ]]
  [[ "$stderr" == *"; use a file over "*", or O_DIRECT"* ]]
  run --separate-stderr "$IOBENCH" -q -o write4k/64 --span 16M -n 10 -d 5 "$TMP/f"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"write4k/64 runs through the page cache and its span (16.00 MiB of $TMP/f's 64.00 MiB) is smaller than twice the "* ]]
  [[ "$stderr" == *"; use a span over "*", or O_DIRECT"* ]]
}

@test "under a memory cgroup the page-cache warning measures against the cgroup's limit, not the RAM" {
  local cg
  if [[ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ]]; then
    cg=/sys/fs/cgroup/memory/iobench-test-$$-$BATS_TEST_NUMBER
    mkdir "$cg"
    echo $((48 << 20)) >"$cg/memory.limit_in_bytes"
  elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    cg=/sys/fs/cgroup/iobench-test-$$-$BATS_TEST_NUMBER
    mkdir "$cg"
    echo $((48 << 20)) >"$cg/memory.max"
  else
    skip "env: no memory cgroup controller mounted (v1 memory, or v2 with memory in the root's subtree_control)"
  fi
  echo "$cg" >"$TMP/cgroup"
  run --separate-stderr sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cg" \
    "$IOBENCH" -q -o write4k/64 -n 10 -d 5 "$TMP/f"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"write4k/64 runs through the page cache and $TMP/f (64.00 MiB) is smaller than twice the memory limit of this cgroup (48.00 MiB): the numbers include cache hits; use a file over 96.00 MiB, or O_DIRECT"* ]]
}

@test "write4k/64 keeps its writes and its fdatasyncs apart: writeOnly and sync beside total, which keeps both" {
  [[ $(stat -f -c %T "$TMP") != tmpfs ]] || skip "env: $TMP is on tmpfs, where fdatasync costs nothing"
  # alone: O_DIRECT writes beside it would make its buffered writes wait for the page locks
  run --separate-stderr "$IOBENCH" -o write4k/64 -n 1500 -d 30 --seed 3 --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  # the same histogram format as total; every op timed to its write's end, each fdatasync by itself
  jq -e '.operations[0] | (.writeOnly | keys) == (.total | keys) and (.sync | keys) == (.total | keys)
         and .fdatasyncs > 5 and .writeOnly.count == .total.count and .sync.count == .fdatasyncs
         and .writeOnly.errorCount == 0 and .sync.errorCount == 0
         and .writeOnly.bucketRatio == 1.1 and .sync.pinMinimum == 1000' "$TMP/o.jsonl"
  # an op's time is its write's plus its fdatasync's, to the nanosecond
  jq -e '.operations[0] | .writeOnly.totalValue + .sync.totalValue == .total.totalValue' "$TMP/o.jsonl"
  # on a disk an fdatasync takes far longer than a write to the page cache (p50 from the buckets)
  jq -e 'def p50: . as $h | ($h.count / 2) as $half
           | reduce range(0; $h.buckets | length) as $i ({n: 0, at: null};
               if .at == null and .n + $h.buckets[$i] >= $half then .at = $i else . end | .n += $h.buckets[$i])
           | $h.firstBucketStart * pow(1.1; .at);
         .operations[0] | (.sync | p50) > 5 * (.writeOnly | p50)' "$TMP/o.jsonl"
  # ops that do not fdatasync have neither (a flushed write syncs inside its pwrite; /0 never syncs)
  "$IOBENCH" -q -o read4k -o write4k -o write4k/0 --together -n 20 -d 30 --json "$TMP/n.jsonl" "$TMP/f" 2>/dev/null
  jq -e '[.operations[] | has("writeOnly") or has("sync")] == [false, false, false]' "$TMP/n.jsonl"
  # the summary says it under the op's line, with the writes' own p50 and p99
  [ "$(grep -A1 -E '^write4k/64 ' <<<"$output" | tail -n 1 | \
       grep -cE '^  write4k/64: latency includes the fdatasync of 1 in 64 writes; the writes alone: p50 [0-9.]+[num]?s, p99 [0-9.]+[num]?s \(as fio reports them\)$')" -eq 1 ]
  [ "$(grep -c 'latency includes the fdatasync' <<<"$output")" -eq 1 ]
}

@test "a run that ends on its op limit lasts until its last operation, not until the next look" {
  "$IOBENCH" -q -o read4k --no-direct -t 2 -n 300 -d 30 --raw "$TMP/raw.log" --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  # elapsed (s) is the latest end time (us since the start) in the per-op log, to the microsecond
  last=$(awk '/^op:/ { if ($6 > m) m = $6 } END { print m }' "$TMP/raw.log")
  jq -e --argjson last "$last" '(.elapsed * 1e6 - $last) | fabs <= 1' "$TMP/o.jsonl"
  jq -e '.operations[0].total.count == 600 and (.operations[0].iops - 600 / .elapsed | fabs) < 1' "$TMP/o.jsonl"
}

@test "every run records its CPU cost: user and system seconds, ns per operation, per op and for the process" {
  "$IOBENCH" -q -o read4k --no-direct -o write4k/64 --together -t 2 -d 2 --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  # present and plausible: some CPU per operation, no more than the threads (and the main one) could use
  jq -e '.cpuNsPerOp > 0 and .cpuUserSeconds >= 0 and .cpuSystemSeconds >= 0
         and (.cpuUserSeconds + .cpuSystemSeconds) > 0
         and (.cpuUserSeconds + .cpuSystemSeconds) <= .elapsed * (2 * 2 + 1) * 1.1' "$TMP/o.jsonl"
  # ns per op is the CPU time over every operation done
  jq -e '([.operations[] | .total.count + .total.errorCount] | add) as $n
         | ((.cpuUserSeconds + .cpuSystemSeconds) * 1e9 / $n / .cpuNsPerOp - 1 | fabs) < 1e-6' "$TMP/o.jsonl"
  jq -e 'all(.operations[]; .cpuNsPerOp > 0
             and ((.cpuUserSeconds + .cpuSystemSeconds) * 1e9 / (.total.count + .total.errorCount) / .cpuNsPerOp - 1 | fabs) < 1e-6)' "$TMP/o.jsonl"
  # an op's own threads are part of the process (a scheduler tick of slack per thread)
  jq -e '([.operations[] | .cpuUserSeconds + .cpuSystemSeconds] | add) <= (.cpuUserSeconds + .cpuSystemSeconds) + 0.05' "$TMP/o.jsonl"
}

@test "the summary shows CPU per operation for each op and for the whole process" {
  run "$IOBENCH" -o read4k --no-direct -n 2000 -d 5 "$TMP/f"
  [ "$status" -eq 0 ]
  # the last column of the op's row is its CPU time per operation
  grep -E '^read4k +1 +2000 +0 .* [0-9.]+(ns|us|ms)$' <<<"$output"
  grep -E '^cpu: [0-9.]+ s user \+ [0-9.]+ s system = [0-9.]+ CPUs busy; [0-9.]+(ns|us|ms) per operation \(the whole process\)$' <<<"$output"
}

@test "the line says where the target is: mount point, device, its size and serial, root disk or not" {
  "$IOBENCH" -q -o read4k -d 1 --json "$TMP/out.jsonl" "$TMP/f"
  local t src dev disk want_serial root_disk
  t=$(jq -c .target "$TMP/out.jsonl")
  [ "$(jq -r .mountPoint <<<"$t")" == "$(findmnt -no TARGET --target "$TMP/f")" ]
  [ "$(jq -r .memory <<<"$t")" == false ]
  src=$(findmnt -no MAJ:MIN --target "$TMP/f" | tr -d " ")
  [[ "$src" != 0:* ]] || skip "env: the test folder is on a filesystem without a block device"
  dev=$(basename "$(readlink -f "/sys/dev/block/$src")")
  [ "$(jq -r .device <<<"$t")" == "$dev" ]
  [ "$(jq -r .deviceSize <<<"$t")" -eq $(($(cat "/sys/dev/block/$src/size") * 512)) ]
  # A partition's serial is its disk's.
  disk=/sys/dev/block/$src
  [[ ! -e $disk/partition ]] || disk=$disk/..
  want_serial=$(cat "$disk/serial" 2>/dev/null || cat "$disk/device/serial" 2>/dev/null || true)
  want_serial=$(xargs <<<"$want_serial")
  [ "$(jq -r '.serial // ""' <<<"$t")" == "$want_serial" ]
  # -v: the device alone, not "/dev/vda[/dir]" where / is a bind mount (a chroot).
  root_disk=$(lsblk -no PKNAME "$(findmnt -nvo SOURCE /)" 2>/dev/null | head -n 1) || true
  [[ -n "$root_disk" ]] || root_disk=$(basename "$(findmnt -nvo SOURCE /)")
  local disk_name
  disk_name=$(basename "$(readlink -f "$disk")")
  [ "$(jq -r .rootDevice <<<"$t")" == "$([[ "$disk_name" == "$root_disk" ]] && echo true || echo false)" ]
}

@test "a target on tmpfs, or on a loop device over tmpfs, warns before the run that it measures memory, and is marked" {
  mkdir "$TMP/mem"
  mount -t tmpfs -o size=64m iobench-test "$TMP/mem" || skip "env: cannot mount a tmpfs"
  run --separate-stderr "$IOBENCH" create -q "$TMP/mem/f" 8M
  [ "$status" -eq 0 ]
  [[ "$stderr" == "iobench: $TMP/mem is tmpfs: a benchmark of $TMP/mem/f measures memory, not a disk;"* ]]
  run --separate-stderr "$IOBENCH" -q -o read4k --no-direct -d 1 --json "$TMP/out.jsonl" "$TMP/mem/f"
  [ "$status" -eq 0 ]
  [[ "$(head -n 1 <<<"$stderr")" == "iobench: $TMP/mem is tmpfs: this measures memory, not a disk; put $TMP/mem/f on a disk's filesystem" ]]
  [ "$(jq -c '.target | [.memory, .filesystem, .mountPoint, .device, .rootDevice]' "$TMP/out.jsonl")" == \
    "[true,\"tmpfs\",\"$TMP/mem\",null,false]" ]
  # watch likewise.
  run --separate-stderr "$IOBENCH" watch -q -o read4k --no-direct --interval 0.1 --period 0.2 --count 1 \
    --json "$TMP/watch.jsonl" "$TMP/mem/f"
  [ "$status" -eq 0 ]
  grep -qF "iobench: $TMP/mem is tmpfs: this measures memory, not a disk" <<<"$stderr"
  [ "$(jq -r .target.memory "$TMP/watch.jsonl")" == true ]
  # The report flags it, with the run and the volume its facts name.
  "$IOBENCH" -q -o read4k --no-direct -d 1 --host h2 --provision-fact volumeType=gp3 \
    --json "$TMP/out.jsonl" "$TMP/mem/f" 2>/dev/null
  run --separate-stderr "$IOBENCH" report --json --section targets "$TMP/out.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq -r '.targets[] | [.host // "-", .runs, .finding] | @tsv' <<<"$output" | sort)" == \
    "$(printf '%s\t1\tmeasured memory (%s on tmpfs), not a disk\nh2\t1\tmeasured memory (%s on tmpfs), not a disk, not the gp3 volume\n' \
      "$(hostname)" "$TMP/mem" "$TMP/mem" | sort)" ]
  # A loop device is as much a disk as the file behind it.
  command -v losetup >/dev/null || skip "losetup not installed"
  local loop
  loop=$(losetup --find --show "$TMP/mem/f") || skip "env: no free loop device"
  run --separate-stderr "$IOBENCH" -q -o read4k -d 1 --json "$TMP/loop.jsonl" "$loop"
  losetup -d "$loop"
  [ "$status" -eq 0 ]
  [[ "$stderr" == "iobench: $loop is a loop device over tmpfs: this measures memory, not a disk;"* ]]
  [ "$(jq -c '.target | [.memory, .device, .deviceSize, .serial, .rootDevice]' "$TMP/loop.jsonl")" == \
    "[true,\"${loop#/dev/}\",8388608,null,false]" ]
}

@test "a loop device over a file on disk is a disk: its size, no serial, not memory, no warning" {
  command -v losetup >/dev/null || skip "losetup not installed"
  [[ "$(stat -f -c %T "$TMP")" != tmpfs ]] || skip "env: the test folder is on tmpfs"
  local loop
  loop=$(losetup --find --show "$TMP/f") || skip "env: no free loop device"
  run --separate-stderr "$IOBENCH" -q -o read4k -d 1 --json "$TMP/loop.jsonl" "$loop"
  losetup -d "$loop"
  [ "$status" -eq 0 ]
  [[ "$stderr" != *"measures memory"* ]]
  [ "$(jq -c '.target | [.type, .memory, .device, .deviceSize, .serial, .rootDevice, .mountPoint]' "$TMP/loop.jsonl")" == \
    "[\"block\",false,\"${loop#/dev/}\",67108864,null,false,null]" ]
}

@test "the line records the device's model: the disk's from sysfs for a file, null for a loop device" {
  "$IOBENCH" -q -o read4k -d 1 --json "$TMP/out.jsonl" "$TMP/f"
  jq -e '.target | has("model")' "$TMP/out.jsonl" >/dev/null
  local src disk want
  src=$(findmnt -no MAJ:MIN --target "$TMP/f" | tr -d " ")
  if [[ "$src" != 0:* ]]; then
    # A partition's model is its disk's; md, dm, virtio and loop have none.
    disk=/sys/dev/block/$src
    [[ ! -e $disk/partition ]] || disk=$disk/..
    want=$(cat "$disk/device/model" 2>/dev/null || true)
    want=$(xargs <<<"$want")
    [ "$(jq -r '.target.model // ""' "$TMP/out.jsonl")" == "$want" ]
  fi
  command -v losetup >/dev/null || skip "losetup not installed"
  local loop
  loop=$(losetup --find --show "$TMP/f") || skip "env: no free loop device"
  run --separate-stderr "$IOBENCH" -q -o read4k -d 1 --json "$TMP/loop.jsonl" "$loop"
  losetup -d "$loop"
  [ "$status" -eq 0 ]
  [ "$(jq -c '.target | [.device, has("model"), .model]' "$TMP/loop.jsonl")" == "[\"${loop#/dev/}\",true,null]" ]
}

@test "the report flags a run on the root disk, or on a device of another size, whose facts name a volume" {
  command -v losetup >/dev/null || skip "losetup not installed"
  local loop big root
  root=$(jq -r .target.rootDevice <<<"$("$IOBENCH" -q -o read4k -d 1 --json - "$TMP/f")")
  "$IOBENCH" -q -o read4k -d 1 --host onroot --provision-fact volumeType=gp3 --provision-fact volumeSize=1 \
    --json "$TMP/r.jsonl" "$TMP/f"
  loop=$(losetup --find --show "$TMP/f") || skip "env: no free loop device"
  "$IOBENCH" -q -o read4k -d 1 --host small --provision-fact volumeType=gp3 --provision-fact volumeSize=1 \
    --json "$TMP/r.jsonl" "$loop" || { losetup -d "$loop"; return 1; }
  losetup -d "$loop"
  # A device of the volume's size is the volume, as far as the line can tell.
  truncate -s 1G "$TMP/big"
  big=$(losetup --find --show "$TMP/big") || skip "env: no free loop device"
  "$IOBENCH" -q -o read4k -d 1 --host right --provision-fact volumeType=gp3 --provision-fact volumeSize=1 \
    --json "$TMP/r.jsonl" "$big" || { losetup -d "$big"; return 1; }
  losetup -d "$big"
  run --separate-stderr "$IOBENCH" report --json --section targets "$TMP/r.jsonl"
  [ "$status" -eq 0 ]
  local want
  want=$(printf 'small\tmeasured %s (0.1 GiB), not the 1 GiB gp3 volume' "$loop")
  if [[ "$root" == true ]]; then
    want=$(printf 'onroot\tmeasured /dev/%s (root), not the gp3 volume\n%s' \
      "$(jq -r .target.device "$TMP/r.jsonl" | head -n 1)" "$want")
  fi
  [ "$(jq -r '.targets[] | [.host, .finding] | @tsv' <<<"$output")" == "$want" ]
}

@test "a directory as TARGET: the run goes to a temporary file of --size in it, said in one line, removed afterwards" {
  mkdir "$TMP/d"
  run --separate-stderr "$IOBENCH" -o read4k -n 50 -d 5 --no-direct --size 8M --json "$TMP/out.jsonl" "$TMP/d"
  [ "$status" -eq 0 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [ "$(grep -c "^iobench: $TMP/d is a directory: running on a temporary file of 8.00 MiB in it (--size), removed afterwards$" <<<"$stderr")" -eq 1 ]
  [ "$(jq -r '.target.path' "$TMP/out.jsonl" | xargs dirname)" = "$TMP/d" ]
  [ "$(jq '.fileSize' "$TMP/out.jsonl")" -eq 8388608 ]
  [ "$(jq '.operations[0].total.count' "$TMP/out.jsonl")" -eq 50 ]
  [ -z "$(ls -A "$TMP/d")" ]
  # Without --size: the stated default.
  run --separate-stderr "$IOBENCH" -o read4k -n 5 -d 5 "$TMP/d/"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"is a directory: running on a temporary file of 1.00 GiB in it (the default; --size to change), removed afterwards"* ]]
  [ -z "$(ls -A "$TMP/d")" ]
}

@test "a directory as TARGET: the temporary file goes on SIGINT and SIGTERM too, and when the run fails" {
  mkdir "$TMP/d"
  local sig rc
  for sig in INT TERM; do
    rc=$(stop_after 2 "$sig" "$IOBENCH" -q -o read4k -d 60 --no-direct --size 8M --json "$TMP/out.jsonl" "$TMP/d")
    [ "$rc" -eq 130 ]
    [ "$(jq -r .interrupted "$TMP/out.jsonl" | tail -1)" = true ]
    [ -z "$(ls -A "$TMP/d")" ]
  done
  # Refused after the file was made (smaller than one operation): exit 1, nothing left.
  run "$IOBENCH" -q -o read4m -d 1 --size 1M "$TMP/d"
  [ "$status" -eq 1 ]
  [ -z "$(ls -A "$TMP/d")" ]
}

@test "a run that fails leaves no file it created with --size; one it did not create stays" {
  run "$IOBENCH" -q -o read4k -d 1 --size 1k "$TMP/new.dat"
  [ "$status" -eq 1 ]
  [[ "$output" == *"new.dat: 1.00 KiB is smaller than one read4k operation"* ]]
  [ ! -e "$TMP/new.dat" ]
  head -c 1024 /dev/zero >"$TMP/mine.dat"
  run "$IOBENCH" -q -o read4k -d 1 --size 1k "$TMP/mine.dat"
  [ "$status" -eq 1 ]
  [ "$(stat -c %s "$TMP/mine.dat")" -eq 1024 ]
}

@test "the seed survives jq: a default seed is below 2^53, and --seed from the JSON line reproduces the offsets" {
  command -v strace >/dev/null || skip "strace not installed"
  local i seed
  for i in 1 2 3 4 5; do
    "$IOBENCH" -q -o read4k -n 20 -d 5 --no-direct --json "$TMP/out.jsonl" "$TMP/f"
  done
  # jq reads numbers as doubles: the seed as jq prints it is the seed as written.
  while read -r seed; do
    [ "$(jq -n "$seed")" = "$seed" ]
    ((seed < 9007199254740992))
  done < <(grep -o '"seed": *[0-9]*' "$TMP/out.jsonl" | grep -o '[0-9]*$')
  [ "$(jq -s 'map(.seed) | unique | length' "$TMP/out.jsonl")" -ge 2 ]
  # The largest seed --seed takes makes the round trip; one above is refused.
  trace "$TMP/st.a" pread64 "$IOBENCH" -q -o read4k -n 200 -d 10 --no-direct --seed 9007199254740991 --json "$TMP/max.jsonl" "$TMP/f"
  seed=$(jq .seed "$TMP/max.jsonl")
  [ "$seed" = 9007199254740991 ]
  trace "$TMP/st.b" pread64 "$IOBENCH" -q -o read4k -n 200 -d 10 --no-direct --seed "$seed" "$TMP/f"
  [ "$(offsets_of "$TMP/st.a" pread64 | tail -n 200 | md5sum)" = "$(offsets_of "$TMP/st.b" pread64 | tail -n 200 | md5sum)" ]
  run "$IOBENCH" -q -o read4k -d 1 --seed 9007199254740992 "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: bad --seed '9007199254740992'; use 0 to 9007199254740991" ]
}

@test "a write on a read-only filesystem is told to remount or move, not to use sudo" {
  mkdir "$TMP/mem"
  mount -t tmpfs -o size=32M tmpfs "$TMP/mem"
  head -c 8M /dev/urandom >"$TMP/mem/f"
  mount -o remount,ro "$TMP/mem"
  run --separate-stderr "$IOBENCH" -q -o write4k --no-direct -d 1 "$TMP/mem/f"
  [ "$status" -eq 1 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [ "$(grep -v 'measures memory' <<<"$stderr")" = "iobench: $TMP/mem/f: on a read-only filesystem ($TMP/mem); remount it read-write (mount -o remount,rw) or put the target on a writable one" ]
  # Reads are fine there.
  run "$IOBENCH" -q -o read4k --no-direct -d 1 -n 10 "$TMP/mem/f"
  [ "$status" -eq 0 ]
}
