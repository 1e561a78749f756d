#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# iobench durability on this machine, without the VM: a server on a loopback
# port, writers and verifiers on plain files (and a loop device). Losses are
# made by hand here (an older version or half of one copied back over a
# block); tests/durability-vm.bats makes a real kernel storage stack lie.

load lib/core
bats_require_minimum_version 1.5.0

each_setup() {
  LOGS=$TMP/logs
  SERVER_PID=
}

each_teardown() {
  if [[ -n ${SERVER_PID:-} ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n ${LOOP:-} ]]; then losetup -d "$LOOP" 2>/dev/null || true; fi
}

# start_server: a server on a free loopback port logging into $LOGS; sets PORT and SERVER_PID.
start_server() {
  : >"$TMP/serve.err"
  "$IOBENCH" durability serve --listen 127.0.0.1:0 --dir "$LOGS" 2>>"$TMP/serve.err" &
  SERVER_PID=$!
  PORT=
  wait_for 30 grep -q 'listening on 127.0.0.1:' "$TMP/serve.err"
  PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err")
  [[ -n $PORT ]]
}

stop_server() {
  local rc=0
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" || rc=$?
  SERVER_PID=
  return "$rc"
}

# the only run log in $LOGS
log_file() {
  local f
  f=$(ls "$LOGS"/*.log)
  [[ $(wc -l <<<"$f") == 1 ]] || { echo "want one log, got: $f" >&2; return 1; }
  printf '%s\n' "$f"
}

# acked_lines N: the log holds at least N acknowledgements.
acked_lines() { [[ $(grep -c '^A ' "$LOGS"/*.log 2>/dev/null || echo 0) -ge $1 ]]; }

# distinct blocks with an acknowledgement in LOG
acked_blocks() { grep '^A ' "$1" | awk '{print $3}' | sort -u | wc -l; }

# seq_at FILE BLOCK: the sequence stamped in all 8 sectors of BLOCK ("" when
# a sector has no stamp or they differ: a copy taken mid-write).
seq_at() {
  local s seq='' one
  for ((s = 0; s < 8; s++)); do
    [[ $(dd if="$1" bs=512 skip=$(($2 * 8 + s)) count=1 status=none | head -c 8) == IOBDUR01 ]] || return 0
    one=$(od -An -tu8 -j $(($2 * 4096 + s * 512 + 24)) -N 8 "$1" | tr -d ' ')
    [[ -z $seq || $one == "$seq" ]] || return 0
    seq=$one
  done
  printf '%s\n' "$seq"
}

# write_with_snapshot: one writer over 16 blocks of $TMP/f; $TMP/snap is a copy
# taken mid-run, so it holds older versions of the same run's blocks.
write_with_snapshot() {
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 64K -d 60 "$TMP/f" 2>"$TMP/w.err" &
  local wpid=$!
  wait_for 30 acked_lines 200
  cp "$TMP/f" "$TMP/snap"
  local n
  n=$(grep -c '^A ' "$LOGS"/*.log)
  wait_for 30 acked_lines $((n + 400))
  kill -TERM "$wpid"
  local rc=0
  wait "$wpid" || rc=$?
  [[ $rc == 130 ]] || { cat "$TMP/w.err"; return 1; }
  # a block whose snapshot holds an older version than the file
  local b s0 s1
  for ((b = 0; b < 16; b++)); do
    s0=$(seq_at "$TMP/snap" "$b")
    s1=$(seq_at "$TMP/f" "$b")
    if [[ -n $s0 && -n $s1 ]] && ((s0 < s1)); then
      BLOCK=$b OLD=$s0 NEW=$s1
      return 0
    fi
  done
  echo "no block changed after the snapshot" >&2
  return 1
}

@test "serve, write, verify as the README shows: every acknowledged block is intact, exit 0, one JSON line" {
  start_server
  run --separate-stderr "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 16M -t 4 -d 2 "$TMP/f"
  [ "$status" -eq 0 ]
  [[ $stderr == *"durability run "*": write4k over 16.00 MiB of $TMP/f from 4 writers"* ]]
  run_id=$(sed -n 's/.*durability run \([0-9a-f]\{16\}\): write4k.*/\1/p' <<<"$stderr")
  log=$(log_file)
  [ "$log" = "$LOGS/$run_id.log" ]
  run --separate-stderr "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" \
    --label box=test "$TMP/f"
  [ "$status" -eq 0 ]
  [[ $output == *"verdict: ok: every one of "*" acknowledged blocks holds its acknowledged version"* ]]
  [ "$(json_lines "$TMP/v.jsonl")" -eq 1 ]
  want=$(acked_blocks "$log")
  [ "$want" -gt 100 ]
  jq -e --arg run "$run_id" --argjson want "$want" '
    .mode == "durability" and .tool == "iobench" and .labels.box == "test"
    and .target.type == "file" and .target.size == 16777216
    and .durability.run == $run and .durability.op == "write4k" and .durability.writers == 4
    and .durability.blockSize == 4096 and .durability.blocks == 4096
    and .durability.writersSeen == 4 and .durability.writersEnded == 4
    and .durability.acknowledged == $want and .durability.intact == $want
    and .durability.lost == 0 and .durability.torn == 0 and .durability.verdict == "ok"
    and .durability.direct == true' "$TMP/v.jsonl"
  # the text says the same numbers
  [ "$(awk '/^  acknowledged blocks/ {print $3}' <<<"$output")" = "$want" ]
  [ "$(awk '/^    intact/ {print $2}' <<<"$output")" = "$want" ]
  # the server's lines, said by the command: each one line with its prefix once
  grep -q "^iobench: durability serve: new run $run_id: write4k" "$TMP/serve.err"
  [ "$(grep -cv '^iobench: durability serve: [^:]' "$TMP/serve.err")" -eq 0 ]
}

# strace_writer OUT CMD...: the calls of CMD's writer thread (the one that
# sends acknowledgements), full strings, in order, as lines "W OFFSET RESULT", "S RESULT"
# (fdatasync) and "A BLOCK SEQ" (each acknowledgement sent); openat calls of
# every thread go to OUT.open.
strace_writer() {
  local out=$1 f
  shift
  rm -f "$out".tr.*
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -ff -qq -s 1000000 -e trace=openat,pwrite64,sendto,fdatasync -o "$out.tr" "$@"
  cat "$out".tr.* | grep '^openat(' >"$out.open" || true
  f=$(grep -l '^sendto(.*"A ' "$out".tr.* | head -n 1)
  awk '
    /^pwrite64\(/ { s = $0; sub(/\) += /, " ", s); n = split(s, w, /[ ,]+/); print "W", w[n - 1], w[n] }
    /^fdatasync\(/ { print "S", $NF }
    /^sendto\(.*"A / { s = $0; sub(/^[^"]*"/, "", s); sub(/", .*$/, "", s)
      n = split(s, recs, /\\n/); for (i = 1; i <= n; i++) if (recs[i] != "") print recs[i] }' "$f" >"$out"
  rm -f "$out".tr.*
}

@test "write4k opens O_DIRECT|O_SYNC and acknowledges each block only after its pwrite returned" {
  command -v strace >/dev/null || skip "strace not installed"
  start_server
  strace_writer "$TMP/tr" "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  grep -q "\"$TMP/f\", O_WRONLY|O_SYNC|O_DIRECT|O_CLOEXEC)" "$TMP/tr.open"
  # every "A B Q" comes right after a pwrite of 4096 bytes at block B's offset
  awk '
    $1 == "W" { last = $2; ok = ($3 == 4096); writes++ }
    $1 == "A" { acks++; if (!ok || last != $2 * 4096) bad++; ok = 0 }
    END { print writes, acks, bad + 0; exit !(acks >= 10 && acks == writes && bad == 0) }' "$TMP/tr"
}

@test "write4k/8 writes through the page cache and acknowledges a batch only after fdatasync returned" {
  command -v strace >/dev/null || skip "strace not installed"
  start_server
  strace_writer "$TMP/tr" "$IOBENCH" durability write -q -o write4k/8 --server "127.0.0.1:$PORT" \
    --size 1M -d 1 "$TMP/f"
  grep -q "\"$TMP/f\", O_WRONLY|O_CLOEXEC)" "$TMP/tr.open"
  # a block written since the last successful fdatasync is never acknowledged
  awk '
    $1 == "W" { dirty[$2 / 4096] = 1; writes++ }
    $1 == "S" && $2 == 0 { for (b in dirty) delete dirty[b]; syncs++ }
    $1 == "A" { acks++; if ($2 in dirty) bad++ }
    END { print writes, syncs, acks, bad + 0; exit !(acks == writes && syncs >= 2 && syncs < writes && bad == 0) }' "$TMP/tr"
}

@test "a block overwritten by hand with an older version of the run is reported LOST, with its numbers" {
  write_with_snapshot
  dd if="$TMP/snap" of="$TMP/f" bs=4096 skip="$BLOCK" seek="$BLOCK" count=1 conv=notrunc status=none
  run --separate-stderr "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 3 ]
  [[ $output == *"verdict: LOST: 1 of 16 acknowledged blocks do not hold what was acknowledged"* ]]
  [[ $output == *"lost block $BLOCK: acknowledged version $NEW, found versions $OLD..$OLD in 8 of 8 sectors"* ]]
  jq -e --argjson b "$BLOCK" --argjson old "$OLD" --argjson new "$NEW" '.durability |
    .verdict == "lost" and .lost == 1 and .lostOlder == 1 and .intact == 15 and .acknowledged == 16
    and .lostBlocks == [{block: $b, acknowledged: $new, found: "older", seqMin: $old, seqMax: $old,
                         validSectors: 8, sectors: 8}]' "$TMP/v.jsonl"
}

@test "a torn block (half its sectors from an older version) is reported LOST as torn" {
  write_with_snapshot
  dd if="$TMP/snap" of="$TMP/f" bs=512 skip=$((BLOCK * 8)) seek=$((BLOCK * 8)) count=4 conv=notrunc status=none
  run --separate-stderr "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 3 ]
  [[ $output == *"torn with older sectors 1"* ]]
  jq -e --argjson b "$BLOCK" --argjson old "$OLD" --argjson new "$NEW" '.durability |
    .lost == 1 and .lostTorn == 1 and .lostOlder == 0 and .intact == 15
    and .lostBlocks[0].block == $b and .lostBlocks[0].found == "tornOlder"
    and .lostBlocks[0].seqMin == $old and .lostBlocks[0].seqMax == $new' "$TMP/v.jsonl"
}

@test "verify opens the target read-only and leaves it byte for byte unchanged, even when it finds losses" {
  write_with_snapshot
  dd if="$TMP/snap" of="$TMP/f" bs=4096 skip="$BLOCK" seek="$BLOCK" count=1 conv=notrunc status=none
  before=$(md5sum <"$TMP/f")
  mtime=$(stat -c %Y.%y "$TMP/f")
  if command -v strace >/dev/null; then
    trace "$TMP/tr" openat,pwrite64,write "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f" || true
    grep "\"$TMP/f\"" "$TMP/tr" | grep -q 'O_RDONLY|O_DIRECT'
    ! grep "\"$TMP/f\"" "$TMP/tr" | grep -qE 'O_WRONLY|O_RDWR'
    ! grep -q 'pwrite64(' "$TMP/tr"
  fi
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 3 ]
  [ "$(md5sum <"$TMP/f")" = "$before" ]
  [ "$(stat -c %Y.%y "$TMP/f")" = "$mtime" ]
}

@test "a server killed with SIGKILL mid-run keeps its log: restarted on the same --dir, verify finds nothing lost" {
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 4M -t 2 -d 60 "$TMP/f" 2>"$TMP/w.err" &
  wpid=$!
  wait_for 30 acked_lines 500
  kill -KILL "$SERVER_PID"
  wait "$SERVER_PID" || true
  SERVER_PID=
  rc=0
  wait "$wpid" || rc=$?
  # the writer notices and stops: an acknowledgement nobody hears proves nothing
  [ "$rc" -eq 1 ]
  grep -q "^iobench: lost the durability server at 127.0.0.1:$PORT" "$TMP/w.err"
  log=$(log_file)
  want=$(acked_blocks "$log")
  sum=$(md5sum <"$log")
  start_server
  run --separate-stderr "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e --argjson want "$want" '.durability | .acknowledged == $want and .lost == 0
    and .intact + .newer + .torn == $want and .writersEnded == 0' "$TMP/v.jsonl"
  # reading it changed nothing
  [ "$(md5sum <"$log")" = "$sum" ]
}

@test "a writer that disappears mid-message: its whole lines are kept, the partial one is not, the server goes on" {
  start_server
  exec 7<>"/dev/tcp/127.0.0.1/$PORT"
  printf 'HELLO iobench-durability 1 run=00000000000000aa writer=0 writers=1 blocksize=4096 blocks=16 op=write4k host=%s target=%s start=1\n' \
    "$(hostname)" "$TMP/f" >&7
  read -r -t 10 reply <&7
  [ "$reply" = OK ]
  printf 'I 5 1\nA 5 1\nA 6 ' >&7
  exec 7>&-
  log=$LOGS/00000000000000aa.log
  wait_for 30 grep -q '^GONE 0 2$' "$log"
  grep -qx 'A 0 5 1' "$log"
  [ "$(grep -c '^A 0 6' "$log" || true)" -eq 0 ]
  # still serving: a real run and its verify
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq .durability.acknowledged "$TMP/v.jsonl")" -gt 0 ]
  kill -0 "$SERVER_PID"
}

@test "the server answers a bad first line or a bad record with one ERR line and closes, and keeps serving" {
  start_server
  exec 7<>"/dev/tcp/127.0.0.1/$PORT"
  printf 'HELO\n' >&7
  read -r -t 10 reply <&7
  [[ $reply == "ERR expected HELLO, RUNS or GET" ]]
  exec 7>&-
  exec 7<>"/dev/tcp/127.0.0.1/$PORT"
  printf 'HELLO iobench-durability 1 run=00000000000000bb writer=0 writers=1 blocksize=4096 blocks=16 op=w host=h target=t start=1\nA 99 1\n' >&7
  read -r -t 10 reply <&7
  [ "$reply" = OK ]
  read -r -t 10 reply <&7
  [[ $reply == "ERR block number beyond the run's blocks" ]]
  exec 7>&-
  [ "$(grep -c '^A ' "$LOGS/00000000000000bb.log" || true)" -eq 0 ]
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  kill -0 "$SERVER_PID"
}

@test "a writer killed with SIGKILL mid-run: the server logs it GONE and verify finds every acknowledged block" {
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 4M -t 2 -d 60 "$TMP/f" &
  wpid=$!
  wait_for 30 acked_lines 500
  kill -KILL "$wpid"
  wait "$wpid" || true
  log=$(log_file)
  wait_for 30 grep -q '^GONE 1 ' "$log"
  grep -q '^GONE 0 ' "$log"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e --argjson want "$(acked_blocks "$log")" \
    '.durability | .acknowledged == $want and .lost == 0 and .writersEnded == 0 and .writersSeen == 2' "$TMP/v.jsonl"
}

@test "a half-written last line in a log (the server died writing it) is not taken as a record" {
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 64K -d 1 "$TMP/f"
  stop_server || true
  log=$(log_file)
  # block 3 acknowledged at a version it never had: were it read, block 3 would be LOST
  printf 'A 0 3 99999999' >>"$log"
  start_server
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq .durability.lost "$TMP/v.jsonl")" -eq 0 ]
}

@test "verify picks this host's newest run; --run and --host pick others; an unknown run is an error naming what the server has" {
  start_server
  "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f" 2>"$TMP/w1.err"
  "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f" 2>"$TMP/w2.err"
  r1=$(sed -n 's/.*durability run \([0-9a-f]*\): write4k.*/\1/p' "$TMP/w1.err")
  r2=$(sed -n 's/.*durability run \([0-9a-f]*\): write4k.*/\1/p' "$TMP/w2.err")
  exec 7<>"/dev/tcp/127.0.0.1/$PORT"
  printf 'HELLO iobench-durability 1 run=00000000000000cc writer=0 writers=1 blocksize=4096 blocks=256 op=write4k host=otherbox target=/dev/sdz start=1\nBYE\n' >&7
  read -r -t 10 reply <&7
  read -r -t 10 reply <&7
  exec 7>&-
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq -r .durability.run "$TMP/v.jsonl")" = "$r2" ]
  # the first run's blocks that the second overwrote hold no version of the first any more
  grep '^A ' "$LOGS/$r1.log" | awk '{print $3}' | sort -u >"$TMP/b1"
  grep '^A ' "$LOGS/$r2.log" | awk '{print $3}' | sort -u >"$TMP/b2"
  both=$(comm -12 "$TMP/b1" "$TMP/b2" | wc -l)
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --run "$r1" --json "$TMP/v1.jsonl" "$TMP/f"
  [ "$status" -eq 3 ]
  jq -e --argjson both "$both" --argjson n "$(wc -l <"$TMP/b1")" '.durability | .acknowledged == $n
    and .lost == $both and .lostMissing == $both and .intact == $n - $both and $both > 0' "$TMP/v1.jsonl"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --host otherbox --json "$TMP/v2.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  # --host names this box as run's --host does: the JSON's host, with hostname beside it
  jq -e --arg h "$(hostname)" '.host == "otherbox" and .hostname == $h and
    (.durability | .run == "00000000000000cc" and .writeHost == "otherbox" and .writeTarget == "/dev/sdz"
    and .acknowledged == 0)' "$TMP/v2.jsonl"
  # --run picks the run, --host still names the box
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --run "$r2" --host db7 --json "$TMP/v3.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e --arg r "$r2" '.host == "db7" and .durability.run == $r' "$TMP/v3.jsonl"
  run --separate-stderr "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --run 00000000000000dd "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $stderr == "iobench: the durability server at 127.0.0.1:$PORT has no run 00000000000000dd; it has "*"00000000000000cc from otherbox"*"; give --run ID" ]]
  [ "$(grep -c . <<<"$stderr")" -eq 1 ]
}

@test "no server to talk to: write and verify say where they tried, exit 1, and write leaves a new file uncreated" {
  run --separate-stderr "$IOBENCH" durability write --server 127.0.0.1:1 --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $stderr == *"iobench: cannot reach the durability server at 127.0.0.1:1: Connection refused; is 'iobench durability serve' running there?" ]]
  make_file "$TMP/g" 1M
  run --separate-stderr "$IOBENCH" durability verify --server 127.0.0.1:1 "$TMP/g"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: cannot reach the durability server at 127.0.0.1:1: Connection refused; is 'iobench durability serve' running there?" ]
}

@test "a block device holding a filesystem is refused unless --force; with it the run and verify work" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  command -v losetup >/dev/null || skip "losetup not installed"
  truncate -s 64M "$TMP/img"
  LOOP=$(losetup --find --show "$TMP/img") || skip "no free loop device"
  mkfs.ext4 -q -F "$LOOP"
  before=$(md5sum <"$TMP/img")
  start_server
  run --separate-stderr "$IOBENCH" durability write --server "127.0.0.1:$PORT" -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [ "$stderr" = "iobench: $LOOP holds a filesystem (blkid: TYPE=ext4); a durability run would destroy it (use --force to write anyway)" ]
  [ "$(md5sum <"$TMP/img")" = "$before" ]
  [ -z "$(ls "$LOGS")" ]
  run "$IOBENCH" durability write -q --force --server "127.0.0.1:$PORT" --span 8M -t 2 -d 1 "$LOOP"
  [ "$status" -eq 0 ]
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$LOOP"
  [ "$status" -eq 0 ]
  jq -e '.target.type == "block" and .durability.blocks == 2048 and .durability.acknowledged > 0
    and .durability.lost == 0' "$TMP/v.jsonl"
}

@test "a SIGTERM'd server exits 130 and a SIGTERM'd writer exits 130 after the server confirmed every record" {
  start_server
  "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -t 3 "$TMP/f" 2>"$TMP/w.err" &
  wpid=$!
  wait_for 30 acked_lines 300
  kill -TERM "$wpid"
  rc=0
  wait "$wpid" || rc=$?
  [ "$rc" -eq 130 ]
  log=$(log_file)
  records=$(grep -cE '^[AI] ' "$log")
  grep -q ", $records records confirmed by the server, .* (stopped by a signal)" "$TMP/w.err"
  [ "$(grep -c '^BYE ' "$log")" -eq 3 ]
  rc=0
  stop_server || rc=$?
  [ "$rc" -eq 130 ]
}

@test "iobench report reads verify lines beside run lines: a verdict row each, the runs still grouped" {
  write_with_snapshot
  mkdir -p "$TMP/res/box1"
  "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --label try=before --json "$TMP/res/box1/d.jsonl" "$TMP/f"
  dd if="$TMP/snap" of="$TMP/f" bs=4096 skip="$BLOCK" seek="$BLOCK" count=1 conv=notrunc status=none
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --label try=after --json "$TMP/res/box1/d.jsonl" "$TMP/f"
  [ "$status" -eq 3 ]
  "$IOBENCH" -q -o read4k -n 20 -d 5 --json "$TMP/res/box1/run.jsonl" "$TMP/f"
  run --separate-stderr "$IOBENCH" report --json "$TMP/res"
  [ "$status" -eq 0 ]
  [ -z "$stderr" ]
  run_id=$(jq -r .durability.run <"$TMP/res/box1/d.jsonl" | head -n 1)
  jq -e --arg run "$run_id" --arg host "$(hostname)" --arg f "$TMP/f" '
    [.durabilityVerify[] | {labels, lost, verdict, acknowledged, intact, run, host, target, op, writers}] ==
    [{labels: "try=after", lost: 1, verdict: "LOST", acknowledged: 16, intact: 15, run: $run, host: $host,
      target: $f, op: "write4k", writers: 1},
     {labels: "try=before", lost: 0, verdict: "ok", acknowledged: 16, intact: 16, run: $run, host: $host,
      target: $f, op: "write4k", writers: 1}]
    and ([.groups[].signature] == ["read,4K,4K"])' <<<"$output"
  # the text report has the section; --only filters verdicts like runs
  run "$IOBENCH" report --section durabilityVerify "$TMP/res"
  [[ $output == *"Durability after a power cut (iobench durability verify)"* ]]
  [[ $output == *" LOST  "* ]]
  run --separate-stderr "$IOBENCH" report --only try=after --json --section durabilityVerify "$TMP/res"
  [ "$(jq '.durabilityVerify | length' <<<"$output")" -eq 1 ]
}

@test "write --host NAME: the server records the run under NAME; verify --host NAME finds it, the hostname does not" {
  start_server
  "$IOBENCH" durability write -q --host "db 1" --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  log=$(log_file)
  grep -q '^HELLO iobench-durability 1 .* host=db%201 ' "$log"
  run --separate-stderr "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $stderr == "iobench: the durability server at 127.0.0.1:$PORT has no run from host '$(hostname)'"* ]]
  run "$IOBENCH" durability verify -q --host "db 1" --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  jq -e --arg run "$(basename "$log" .log)" '.host == "db 1" and .durability.writeHost == "db 1"
    and .durability.run == $run and .durability.acknowledged > 0 and .durability.lost == 0' "$TMP/v.jsonl"
  # the report's row is the box's name
  run "$IOBENCH" report --csv --section durabilityVerify "$TMP/v.jsonl"
  [ "$status" -eq 0 ]
  [[ ${lines[1]} == "db 1,"* ]]
}

@test "a report of verify lines alone counts them in its header and JSON inputs" {
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  for i in 1 2; do
    "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --label "try=$i" --json "$TMP/v.jsonl" "$TMP/f"
  done
  run --separate-stderr "$IOBENCH" report "$TMP/v.jsonl"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "iobench report: 1 files, 0 runs, 0 operations in 0 cells, 0 bonnie++ lines, 2 durability verdicts" ]
  [ "$(grep -c ' ok *$' <<<"$output")" -eq 2 ]
  run --separate-stderr "$IOBENCH" report --json "$TMP/v.jsonl"
  jq -e '.inputs.durabilityVerdicts == 2 and .inputs.runs == 0 and (.durabilityVerify | length) == 2' <<<"$output"
}

@test "durability --help lists every command's options from the one table; each command's --help only its own" {
  run "$IOBENCH" durability --help
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == "usage: iobench durability serve "* ]]
  # serve's synopsis names its token and limits, in the group's help and its own
  [ "${lines[1]}" = "                                [--token-file FILE | --token TOKEN] [--max-records N]" ]
  [ "${lines[2]}" = "                                [--max-connections N] [--max-per-address N] [-q]" ]
  [ "$("$IOBENCH" durability serve --help | sed -n 2,3p)" = "$(printf '%s\n' "${lines[1]}" "${lines[2]}")" ]
  [[ $output == *"3 when some was (verdict LOST), 1 when the check could not run"* ]]
  # each option under its command, in the table's order
  want=$(printf '%s\n' serve: --listen --dir --allow --max-connections --max-per-address --max-records --token --token-file \
    write: --server --op --threads --size --span --duration --dsync --no-direct --seed --force --host \
    --token --token-file verify: --server --run --host --json --label --no-direct --token --token-file)
  got=$(grep -oE '^(serve:|write:|verify:|  (-., )?    --[a-z-]+|  -., --[a-z-]+)' <<<"$output" |
    grep -vE -- '--(quiet|help|version)$' | sed -E 's/^ *(-., )? *//')
  [ "$got" = "$want" ]
  run "$IOBENCH" durability write --help
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "usage: iobench durability write --server HOST:PORT [OPTIONS] TARGET" ]
  [[ $output == *"--threads N"* && $output == *"--host NAME"* && $output == *"-h, --help"* ]]
  [[ $output != *"--listen"* && $output != *"--json"* ]]
  run "$IOBENCH" durability verify --help
  [[ $output == *"--run ID"* && $output != *"--threads"* && $output != *"--dir"* ]]
  run "$IOBENCH" durability serve --help
  [[ $output == *"--listen ADDR:PORT"* && $output != *"--server"* ]]
  # --opt=value works as for every command
  start_server
  run "$IOBENCH" durability write -q --server="127.0.0.1:$PORT" --size=1M --duration=1 --threads=2 "$TMP/f"
  [ "$status" -eq 0 ]
  grep -q ' writers=2 ' "$(log_file)"
}

@test "verify never writes into its target, a FIFO or a folder, and a stray byte costs its line nothing (issue 17 siblings)" {
  # Refused before the server is asked: nothing was verified, nothing written.
  make_file "$TMP/t" 1M
  sum=$(md5sum <"$TMP/t")
  mkfifo "$TMP/p"
  for out in "$TMP/t" "$TMP/p" "$TMP"; do
    run timeout -s KILL 20 "$IOBENCH" durability verify --server 127.0.0.1:1 --json "$out" "$TMP/t"
    [ "$status" -eq 2 ]
    [[ $output == "iobench: --json $out"* ]]
  done
  [ "$(md5sum <"$TMP/t")" = "$sum" ]
  run "$IOBENCH" durability verify --server 127.0.0.1:1 --label "$(printf 'a=b\nc')" "$TMP/t"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: bad --label: control character 0x0a in it; use printable text" ]
  # A target path and a label that are not UTF-8: the line keeps every block.
  start_server
  bad="$TMP/d$(printf '\xff')"
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$bad"
  run --separate-stderr "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" \
    --label "k$(printf '\xfe')=v$(printf '\xff')" --json "$TMP/v.jsonl" "$bad"
  [ "$status" -eq 0 ]
  jq -e '.mode == "durability" and .target.path == "'"$TMP"'/d\ufffd" and .labels["k\ufffd"] == "v\ufffd"
         and .durability.verdict == "ok" and .durability.writeTarget == "'"$TMP"'/d\ufffd"' "$TMP/v.jsonl"
}

@test "verify continues a short read: a block read in parts is judged whole, not LOST" {
  [ -f "$IOBENCH_ROOT/build/tests/faultinj.so" ] || skip "faultinj.so not built (make unit-tests)"
  start_server
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 256K -d 1 "$TMP/f"
  run env IOB_FAULT_PATH="$TMP/f" IOB_FAULT=pread:short:1 IOB_FAULT_LOG="$TMP/faults" \
    LD_PRELOAD="$IOBENCH_ROOT/build/tests/faultinj.so" \
    "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(wc -l <"$TMP/faults")" -gt 0 ]
  jq -e '.durability | .acknowledged > 0 and .lost == 0 and .unreadable == 0
    and .intact + .newer + .torn == .acknowledged' "$TMP/v.jsonl"
}

@test "the server continues short reads of a log: GET serves it whole, RUNS lists it" {
  [ -f "$IOBENCH_ROOT/build/tests/faultinj.so" ] || skip "faultinj.so not built (make unit-tests)"
  start_server
  # (3 s: a log of several reads' worth even under TSan on a loaded box, where 1 s made 8 KiB or less)
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 256K -d 3 "$TMP/f"
  local log
  log=$(log_file)
  [ "$(stat -c %s "$log")" -gt 8192 ]
  stop_server || true
  # Every pread of the log now returns half of what it asks for.
  IOB_FAULT_PATH=$log IOB_FAULT=pread:short:1 IOB_FAULT_LOG="$TMP/faults" \
    LD_PRELOAD="$IOBENCH_ROOT/build/tests/faultinj.so" start_server
  run --separate-stderr "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(wc -l <"$TMP/faults")" -gt 0 ]
  jq -e '.durability | .verdict == "ok" and .acknowledged > 0 and .lost == 0
    and .intact + .newer + .torn == .acknowledged' "$TMP/v.jsonl"
}

@test "write refuses a target path the protocol cannot carry whole, before the server hears of a run" {
  start_server
  long=$TMP/$(printf 'd%.0s' {1..200})/$(printf 'e%.0s' {1..200})/$(printf 'f%.0s' {1..200})
  mkdir -p "$(dirname "$long")"
  run --separate-stderr "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$long"
  [ "$status" -eq 2 ]
  [[ $stderr == "iobench: $long: the path is ${#long} bytes, the durability protocol carries at most 511; use a shorter path (a symlink to it)" ]]
  [ -z "$(ls "$LOGS")" ]
  [ ! -e "$long" ]
}

@test "write on a read-only device fails before the server hears of a run" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for loop devices"
  command -v losetup >/dev/null || skip "losetup not installed"
  truncate -s 16M "$TMP/img"
  LOOP=$(losetup --read-only --find --show "$TMP/img") || skip "no free loop device"
  start_server
  run --separate-stderr "$IOBENCH" durability write --server "127.0.0.1:$PORT" -d 1 "$LOOP"
  [ "$status" -eq 1 ]
  [ -z "$(ls "$LOGS")" ]
  [ "$stderr" = "iobench: $LOOP: the device is read-only (blockdev --setro, losetup -r); use a writable device" ]
}

@test "report names the file and line of a durability line it skips" {
  printf '%s\n' '{"tool":"iobench","mode":"durability","host":"h","durability":{"run":"x"}}' >"$TMP/d.jsonl"
  run --separate-stderr "$IOBENCH" report "$TMP/d.jsonl"
  [[ $stderr == *"iobench: $TMP/d.jsonl:1: durability line without \"durability\" counts; skipped"* ]]
}

@test "verify takes a run's log of 3 million records whole (a reply bigger than the server's queue keeps flowing)" {
  mkdir -p "$LOGS"
  {
    echo "RUN run=00000000000000cb created=1.000001"
    echo "HELLO iobench-durability 1 run=00000000000000cb writer=0 writers=1 blocksize=4096 blocks=16 op=write4k host=$(hostname) target=/x start=1"
    awk 'BEGIN { for (i = 1; i <= 1500000; i++) { print "I 0 " i % 16 " " i; print "A 0 " i % 16 " " i } }'
  } >"$LOGS/00000000000000cb.log"
  start_server
  head -c 64K /dev/zero >"$TMP/f"
  run timeout 120 "$IOBENCH" durability verify -q --no-direct --run 00000000000000cb --server "127.0.0.1:$PORT" \
    --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 3 ]
  jq -e '.durability | .records == 3000000 and .acknowledged == 16 and .lost == 16' "$TMP/v.jsonl"
}
