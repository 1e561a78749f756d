#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# Sequential and mixed operations, the per-operation log (--raw), and the
# long-running probe (iobench watch).

load lib/core

each_setup() {
  make_file "$TMP/f" 32M
}

each_teardown() {
  if [[ -n "${WPID:-}" ]]; then kill -9 "$WPID" 2>/dev/null || true; fi
}

# raw_offsets LOG: offsets of the op lines, in order.
raw_offsets() {
  awk '$1 == "op:" { print $3 }' "$1"
}

@test "sequential reads: each thread streams its own region from an evenly spaced start" {
  "$IOBENCH" -q -o seqread64k -t 2 -n 8 -d 10 --span 1M --raw "$TMP/raw" --json "$TMP/o.jsonl" "$TMP/f"
  # 16 slots of 64 KiB; thread 1 starts at slot 0, thread 2 at slot 8: together each slot once
  [ "$(raw_offsets "$TMP/raw" | sort -n | uniq | wc -l)" -eq 16 ]
  [ "$(raw_offsets "$TMP/raw" | wc -l)" -eq 16 ]
  [ "$(raw_offsets "$TMP/raw" | awk '$1 % 65536 != 0' | wc -l)" -eq 0 ]
  [ "$(jq -r '.operations[0] | "\(.signature) \(.sequential) \(.total.count)"' "$TMP/o.jsonl")" = "seqRead,64K,64K true 16" ]
}

@test "sequential writes wrap around at the end of the span, in order" {
  command -v strace >/dev/null || skip "strace not installed"
  trace "$TMP/st" pwrite64 "$IOBENCH" -q -o seqwrite64k -n 10 -d 10 --span 256K "$TMP/f"
  offs=$(grep -E ', 65536, [0-9]+\) = 65536' "$TMP/st" | offsets_of /dev/stdin pwrite64 | tail -n 10 | paste -sd, -)
  [ "$offs" = "0,65536,131072,196608,0,65536,131072,196608,0,65536" ]
}

@test "sequential ops report MB/s prominently" {
  run "$IOBENCH" -o seqread1m -d 1 "$TMP/f"
  [ "$status" -eq 0 ]
  [[ "$output" == *"seqread1m: "*" MB/s sequential"* ]]
}

@test "a mixed op honours its read share and keeps reads and writes apart" {
  "$IOBENCH" -q -o rw4k:70 -n 6000 -d 60 --no-direct --json "$TMP/o.jsonl" "$TMP/f" 2>/dev/null
  jq -e '.operations[0] as $o
    | $o.signature == "rw70,4K,4K" and $o.readShare == 70
    and $o.total.count == 6000
    and ($o.reads.total.count + $o.writes.total.count) == 6000
    and (($o.reads.total.count / 6000) - 0.70 | fabs) < 0.03
    and ([$o.reads.timeBuckets[].count] | add) == $o.reads.total.count
    and ([$o.writes.timeBuckets[].count] | add) == $o.writes.total.count
    and $o.reads.total.buckets != $o.writes.total.buckets' "$TMP/o.jsonl"
}

@test "a mixed op's writes are flushed (O_RDWR|O_DIRECT|O_SYNC)" {
  command -v strace >/dev/null || skip "strace not installed"
  trace "$TMP/st" openat "$IOBENCH" -q -o rw4k:50 -n 10 -d 10 "$TMP/f"
  grep -F "\"$TMP/f\"" "$TMP/st" | grep -q 'O_RDWR|O_DIRECT|O_SYNC\|O_RDWR|O_SYNC|O_DIRECT'
}

@test "--raw logs one line per operation in the 2012 tool's format" {
  "$IOBENCH" -q -o read4k -o rw16k:50 --together -t 2 -d 1 --raw "$TMP/raw" --json "$TMP/o.jsonl" "$TMP/f"
  [ "$(grep -c '^op: read ' "$TMP/raw")" -eq "$(jq '.operations[0].total.count' "$TMP/o.jsonl")" ]
  [ "$(grep -c '^op: rw50/' "$TMP/raw")" -eq "$(jq '.operations[1].total.count' "$TMP/o.jsonl")" ]
  [ "$(grep -c '^op: rw50/write ' "$TMP/raw")" -eq "$(jq '.operations[1].writes.total.count' "$TMP/o.jsonl")" ]
  grep -q '^# arguments: iobench -q -o read4k' "$TMP/raw"
  grep -q '^# filesize: 33554432$' "$TMP/raw"
  # fields: op offset length duration_us end_us, numbers, lengths right
  [ "$(awk '$1 == "op:" && $2 == "read" && ($4 != 4096 || $5 !~ /^[0-9]+$/ || $6 !~ /^[0-9]+$/)' "$TMP/raw" | wc -l)" -eq 0 ]
  [ "$(awk '$1 == "op:" && $6 > 1500000' "$TMP/raw" | wc -l)" -eq 0 ]
  [ "$(jq '.rawDropped' "$TMP/o.jsonl")" -eq 0 ]
}

@test "watch writes one line per period, each a run-format line with its histograms" {
  run "$IOBENCH" watch -q --interval 0.1 --period 1 --count 3 --label host=t1 --json "$TMP/w.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(wc -l < "$TMP/w.jsonl")" -eq 3 ]
  jq -e -s 'all(.[]; .mode == "watch" and .runtime == 1 and .labels.host == "t1"
              and ([.operations[].name] == ["read4k", "write4k/64"])
              and all(.operations[]; .total.count >= 5 and .total.count <= 11
                      and (.timeBuckets | length) == 1 and .timeBuckets[0].count == .total.count))' "$TMP/w.jsonl"
  # write4k/64's writes and fdatasyncs apart, as a run keeps them
  jq -e -s 'all(.[]; .operations[1] | .writeOnly.count == .total.count and .sync.count == .fdatasyncs
                      and .writeOnly.totalValue + .sync.totalValue <= .total.totalValue)' "$TMP/w.jsonl"
  # consecutive periods
  jq -e -s '.[1].launchTime - .[0].launchTime <= 2 and .[2].launchTime >= .[1].launchTime' "$TMP/w.jsonl"
  # what each period cost the box, and each probe
  jq -e -s 'all(.[]; .cpuNsPerOp > 0 and (.cpuUserSeconds + .cpuSystemSeconds) < .elapsed
                    and all(.operations[]; .cpuNsPerOp > 0))' "$TMP/w.jsonl"
}

@test "watch --size creates a missing TARGET with random data, as its --help says" {
  run "$IOBENCH" watch -q --size 4M --interval 0.05 --period 0.2 --count 1 --json "$TMP/w.jsonl" "$TMP/new.dat"
  [ "$status" -eq 0 ]
  [ "$(stat -c %s "$TMP/new.dat")" -eq 4194304 ]
  # random bytes: no compressor shrinks them
  [ "$(gzip -c "$TMP/new.dat" | wc -c)" -gt 4194304 ]
  jq -e '.target.size == 4194304 and .mode == "watch"' "$TMP/w.jsonl"
}

@test "watch survives being killed: a restart appends, never rewrites" {
  "$IOBENCH" watch -q --interval 0.1 --period 1 --json "$TMP/w.jsonl" "$TMP/f" &
  WPID=$!
  wait_for 30 lines_at_least 2 "$TMP/w.jsonl"
  kill -9 "$WPID"
  wait "$WPID" || true
  WPID=
  n=$(wc -l < "$TMP/w.jsonl")
  [ "$n" -ge 2 ]
  first=$(head -1 "$TMP/w.jsonl")
  jq -e . "$TMP/w.jsonl" >/dev/null
  "$IOBENCH" watch -q --interval 0.1 --period 1 --count 2 --json "$TMP/w.jsonl" "$TMP/f"
  [ "$(wc -l < "$TMP/w.jsonl")" -eq $((n + 2)) ]
  [ "$(head -1 "$TMP/w.jsonl")" = "$first" ]
}

@test "SIGTERM makes watch write its partial period and exit 130" {
  "$IOBENCH" watch -q --interval 0.1 --period 60 --json "$TMP/w.jsonl" "$TMP/f" &
  WPID=$!
  sleep 1.5
  kill -TERM "$WPID"
  rc=0
  wait "$WPID" || rc=$?
  WPID=
  [ "$rc" -eq 130 ]
  [ "$(wc -l < "$TMP/w.jsonl")" -eq 1 ]
  jq -e '.interrupted == true and .operations[0].total.count > 3' "$TMP/w.jsonl"
}

@test "watch refuses run-only options and the run refuses watch options" {
  run "$IOBENCH" watch -t 4 "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: --threads belongs to 'iobench run', not 'iobench watch'"* ]]
  run "$IOBENCH" --period 5 "$TMP/f"
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: --period belongs to 'iobench watch'"* ]]
  run "$IOBENCH" watch --interval 10 --period 5 "$TMP/f"
  [ "$status" -eq 2 ]
}

@test "the systemd unit runs iobench watch and passes systemd-analyze" {
  unit=$BATS_TEST_DIRNAME/../scripts/iobench-watch@.service
  grep -q '^ExecStart=/usr/local/bin/iobench watch ' "$unit"
  grep -q '^SuccessExitStatus=130' "$unit"
  command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
  mkdir -p "$TMP/units"
  sed -e "s#/usr/local/bin/iobench#$IOBENCH#" -e '/^Documentation=/d' -e "s#/etc/iobench/#$TMP/#" \
    "$unit" > "$TMP/units/iobench-watch@t.service"
  echo "TARGET=$TMP/f" > "$TMP/watch-t.env"
  run systemd-analyze verify "$TMP/units/iobench-watch@t.service"
  [ "$status" -eq 0 ]
}

@test "report reads watch lines as a latency series per host and op" {
  "$IOBENCH" watch -q --interval 0.1 --period 1 --count 3 --label host=p1 --json "$TMP/w.jsonl" "$TMP/f"
  run "$IOBENCH" report --json --section watch "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.watch | length == 2 and all(.[]; .periods == 3 and .medianP99Ns >= .medianP50Ns)' <<<"$output"
  # a probe's throughput is its schedule: it is not a throughput-over-time series
  run "$IOBENCH" report --json --section time "$TMP/w.jsonl"
  jq -e '.time | length == 0' <<<"$output"
}

@test "report marks a lasting jump in the probes' p99 with its start" {
  "$IOBENCH" watch -q --interval 0.1 --period 1 --count 1 -o read4k --json "$TMP/one.jsonl" "$TMP/f"
  line=$(head -1 "$TMP/one.jsonl")
  # twelve hourly periods; from the seventh on, every latency 1.1^10 (2.6x) longer
  for i in $(seq 0 11); do
    f=1
    [ "$i" -ge 6 ] && f=2.5937424601
    jq -c --argjson i "$i" --argjson f "$f" '.launchTime = 1795300000 + $i * 3600 | .runtime = 3600
      | .operations |= map(.total |= (.firstBucketStart *= $f | .minValue = (.minValue * $f | floor)
          | .maxValue = (.maxValue * $f | floor) | .totalValue = (.totalValue * $f | floor))
        | .timeBuckets = [.total])' <<<"$line" >> "$TMP/w.jsonl"
  done
  run "$IOBENCH" report --json --section watch,watchRegimes "$TMP/w.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.watchRegimes | length == 1 and .[0].direction == "up"
         and .[0].startUtc == "2026-11-22T04:26:40Z" and (.[0].change - 1.594 | fabs) < 0.01' <<<"$output"
  jq -e '.watch[0].periods == 12 and .watch[0].regimeChanges == 1' <<<"$output"
}

@test "sequential and mixed ops work with every engine and with --rate" {
  for e in sync libaio io_uring; do
    depth=1
    [ "$e" = sync ] || depth=4
    "$IOBENCH" -q -e "$e" --iodepth "$depth" -o seqread64k -o rw4k:50 --together -d 1 --json "$TMP/$e.jsonl" "$TMP/f"
    jq -e '.operations[0].total.count > 0 and .operations[0].total.errorCount == 0
           and .operations[1].reads.total.count > 0 and .operations[1].writes.total.count > 0
           and .operations[1].total.errorCount == 0' "$TMP/$e.jsonl"
  done
  "$IOBENCH" -q --rate 1000 -o rw4k:50 -o seqread4k --together -d 2 --no-direct --json "$TMP/rate.jsonl" "$TMP/f" 2>/dev/null
  # on schedule: never above the rate; below it only when a loaded machine made starts late
  jq -e '[.operations[] | .iops <= 1000 * 1.02 and (.iops > 1000 * 0.9 or .rate.lateStarts > 0)] | all' "$TMP/rate.jsonl"
}
