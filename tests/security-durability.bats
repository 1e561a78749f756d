#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=security,root
# The durability server and client against hostile peers (issue 22, items
# 1-7): the server listens on the network, so every peer may lie, stall or
# flood; a verifier may be talking to a fake server. The peers are
# tests/helpers/hostile-durability.py; docs/security.md has the threat model.

load lib/core
bats_require_minimum_version 1.5.0

HOSTILE=$BATS_TEST_DIRNAME/helpers/hostile-durability.py

each_setup() {
  LOGS=$TMP/logs
  SERVER_PID=
  PIDS=()
  MNT=
}

each_teardown() {
  local p
  for p in "${PIDS[@]}"; do
    kill -KILL "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  if [[ -n ${SERVER_PID:-} ]]; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n ${MNT:-} ]]; then umount "$MNT" 2>/dev/null || true; fi
}

# start_server [OPTIONS...]: a server on a free port of ADDR (default
# 127.0.0.1; LISTEN=0.0.0.0 for every address) logging into $LOGS; sets PORT.
start_server() {
  local addr=${LISTEN:-127.0.0.1}
  : >"$TMP/serve.err"
  "$IOBENCH" durability serve --listen "$addr:0" --dir "$LOGS" "$@" 2>>"$TMP/serve.err" &
  SERVER_PID=$!
  wait_for 120 grep -q "listening on $addr:" "$TMP/serve.err"
  PORT=$(sed -n "s/.*listening on ${addr//./\\.}:\([0-9]*\),.*/\1/p" "$TMP/serve.err")
  [[ -n $PORT ]]
}

# hostile OUT ARGS...: the hostile peer in the background, its output in $TMP/OUT.
hostile() {
  local out=$1
  shift
  python3 "$HOSTILE" "$@" >"$TMP/$out" 2>&1 &
  PIDS+=("$!")
}

# a log the server serves: RUN, HELLO and N records (megabytes of reply for GET)
fake_log() {
  local run=$1 n=$2
  mkdir -p "$LOGS"
  {
    echo "RUN run=$run created=1.000001"
    echo "HELLO iobench-durability 1 run=$run writer=0 writers=1 blocksize=4096 blocks=16 op=write4k host=big target=/dev/null start=1"
    awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) print "I 0 " i % 16 " " i }'
  } >"$LOGS/$run.log"
}

# some log holds an acknowledgement (the glob is taken anew each time)
any_acked() { grep -qs '^A ' "$LOGS"/*.log; }

logged_at_least() { [ "$(wc -l <"$1")" -ge "$2" ]; }

rss_peak_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

@test "1000 idle peers and one that never reads its GET reply: a real writer is still answered and its run confirmed" {
  fake_log 00000000000000cc 1500000
  start_server
  hostile idle.out idle 127.0.0.1 "$PORT" 1000
  wait_for 120 grep -q '^ready 1000' "$TMP/idle.out"
  hostile stall.out stall 127.0.0.1 "$PORT" "GET 00000000000000cc"
  wait_for 120 grep -q '^sent' "$TMP/stall.out"
  sleep 1 # the server is now sending the stalled peer its 18 MB reply
  # The old server blocked 30 s on the stalled peer: the writer's HELLO went unanswered.
  run timeout 10 "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 0 ]
  [[ $output == *"records confirmed by the server"* ]]
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq .durability.acknowledged "$TMP/v.jsonl")" -gt 0 ]
  kill -0 "$SERVER_PID"
}

@test "a flood of records: the server reads no faster than it logs, its memory stays bounded, others go on" {
  start_server
  # 3M records (36 MB) at most: past the 16 MB memory bound, and few enough
  # that a loaded machine logs them all within the wait (an 8-s flood sent
  # 257M records here, a 3 GB log to catch up with)
  hostile flood.out flood 127.0.0.1 "$PORT" 00000000000000dd 8 3000000
  wait_for 120 grep -q '^sent' "$TMP/flood.out"
  # the old server read as fast as the peer sent, logging nothing meanwhile: 90 MB in 6 s here
  peak=$(rss_peak_kb "$SERVER_PID")
  [ "$peak" -lt 16384 ]
  sent=$(sed -n 's/^sent //p' "$TMP/flood.out")
  # and what it took, it logged
  wait_for 120 logged_at_least "$LOGS/00000000000000dd.log" "$sent"
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "a flood of records stops at --max-records with an ERR to its writer; the log holds no more" {
  start_server --max-records 200000
  hostile flood.out flood 127.0.0.1 "$PORT" 00000000000000dd 8
  wait_for 120 grep -q '^sent' "$TMP/flood.out"
  wait_for 120 grep -q 'ERR\|closed' "$TMP/flood.out"
  grep -q "ERR the run reached the server's limit of 200000 records" "$TMP/flood.out"
  nlog=$(wc -l <"$LOGS/00000000000000dd.log")
  [ "$nlog" -le 200002 ]
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "a full log disk: that run's writer gets ERR, never OK N; the server lives and serves the next run" {
  MNT=$TMP/small
  mkdir -p "$MNT"
  mount -t tmpfs -o size=256k tmpfs "$MNT" || skip "env: cannot mount a tmpfs here"
  LOGS=$MNT/logs
  start_server
  python3 - "$PORT" >"$TMP/peer.out" 2>&1 <<'EOF' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
f = s.makefile("rb")
s.sendall(b"HELLO iobench-durability 1 run=00000000000000fa writer=0 writers=1 blocksize=4096 blocks=16 "
          b"op=write4k host=h target=t start=1\n")
print(f.readline().decode().strip(), flush=True)
time.sleep(3)  # the test fills the disk meanwhile
s.sendall(b"".join(b"I %d %d\n" % (i % 16, i + 1) for i in range(2000)) + b"BYE\n")
for line in f:
    print(line.decode().strip(), flush=True)
EOF
  PIDS+=("$!")
  wait_for 120 grep -qx OK "$TMP/peer.out"
  # and a real writer, as the README runs it
  "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 60 "$TMP/g" 2>"$TMP/w.err" &
  wpid=$!
  PIDS+=("$wpid")
  wait_for 120 any_acked
  dd if=/dev/zero of="$MNT/fill" bs=4k status=none 2>/dev/null || true
  rc=0
  wait "$wpid" || rc=$?
  [ "$rc" -eq 1 ]
  grep -q "^iobench: lost the durability server at 127.0.0.1:$PORT: it says: the server cannot append to the run's log: No space left on device; the run is stopped" "$TMP/w.err"
  wait_for 120 grep -q '^ERR' "$TMP/peer.out"
  grep -q "^ERR the server cannot append to the run's log: No space left on device" "$TMP/peer.out"
  run ! grep -q '^OK [0-9]' "$TMP/peer.out"
  kill -0 "$SERVER_PID"
  grep -q "cannot append to its log: No space left on device" "$TMP/serve.err"
  # what the log holds is whole lines only
  [ "$(tail -c 1 "$LOGS/00000000000000fa.log" | od -An -c | tr -d ' ')" = '\n' ]
  rm "$MNT/fill"
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "more runs than ulimit -n allows open files: every run is logged and confirmed (logs closed when idle)" {
  mkdir -p "$LOGS"
  : >"$TMP/serve.err"
  (ulimit -n 32 && exec "$IOBENCH" durability serve --listen 127.0.0.1:0 --dir "$LOGS") 2>>"$TMP/serve.err" &
  SERVER_PID=$!
  wait_for 120 grep -q 'listening on 127.0.0.1:' "$TMP/serve.err"
  PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err")
  python3 - "$PORT" >"$TMP/runs.out" <<'EOF'
import socket, sys
for i in range(60):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"HELLO iobench-durability 1 run=%016x writer=0 writers=1 blocksize=4096 blocks=16 "
              b"op=write4k host=h target=t start=1\nI 1 1\nA 1 1\nBYE\n" % (0x100 + i))
    print(" ".join(l.decode().strip() for l in s.makefile("rb")), flush=True)
    s.close()
EOF
  [ "$(grep -cx 'OK OK 2' "$TMP/runs.out")" -eq 60 ]
  [ "$(ls "$LOGS" | wc -l)" -eq 60 ]
  # and verify's listing sees them (the old server: "it has no runs at all")
  head -c 64K /dev/zero >"$TMP/f"
  run "$IOBENCH" durability verify --server "127.0.0.1:$PORT" --host nobody "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"has no run from host 'nobody'; it has 0000000000000"* ]]
}

@test "a full descriptor table: the server says so and pauses accepting (no spin), then serves again" {
  mkdir -p "$LOGS"
  : >"$TMP/serve.err"
  (ulimit -n 24 && exec "$IOBENCH" durability serve --listen 127.0.0.1:0 --dir "$LOGS") 2>>"$TMP/serve.err" &
  SERVER_PID=$!
  wait_for 120 grep -q 'listening on 127.0.0.1:' "$TMP/serve.err"
  PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err")
  hostile idle.out idle 127.0.0.1 "$PORT" 40
  wait_for 120 grep -q '^ready 40' "$TMP/idle.out"
  wait_for 120 grep -q 'cannot accept a connection: Too many open files; pausing for 1000 ms at a time' "$TMP/serve.err"
  kill -KILL "${PIDS[0]}"
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "HELLO fields with newline, ESC, BEL or NUL are refused; nothing raw reaches the server's stderr or RUNS" {
  start_server
  host=$(hostname)
  hello="HELLO iobench-durability 1 run=00000000000000a1 writer=0 writers=1 blocksize=4096 blocks=16 op=write4k"
  for bad in "host=x%0Aiobench:%20durability%20serve:%20forged target=t" \
    "host=x target=/a%1B[2J%07" "host=x%00y target=t" "host=x target=/a$(printf '\x1b')[31m"; do
    run python3 "$HOSTILE" raw 127.0.0.1 "$PORT" "$(printf '%s %s start=1\n' "$hello" "$bad" | od -An -tx1 | tr -d ' \n')"
    [[ $output == "b'ERR bad HELLO line"* ]]
  done
  # a raw NUL after a valid HELLO used to hide the run from RUNS
  run python3 "$HOSTILE" raw 127.0.0.1 "$PORT" "$(printf '%s host=%s target=t start=1' "$hello" "$host" | od -An -tx1 | tr -d ' \n')0041424344450a"
  [[ $output == "b'ERR a NUL byte in a line"* ]]
  # bytes above ASCII are a name's (UTF-8): kept, but escaped in the server's stderr
  run python3 "$HOSTILE" raw 127.0.0.1 "$PORT" "$(printf '%s host=%s target=/caf\xc3\xa9\x9b start=1\nBYE\n' "$hello" "$host" | od -An -tx1 | tr -d ' \n')"
  [[ $output == *"b'OK 0"* ]]
  grep -q 'new run 00000000000000a1: write4k, 1 writer(s), /caf\\xc3\\xa9\\x9b on ' "$TMP/serve.err"
  run ! grep -q "forged" "$TMP/serve.err"
  run ! grep -qP '[\x00-\x08\x0b-\x1f\x7f-\xff]' "$TMP/serve.err"
  [ "$(ls "$LOGS")" = 00000000000000a1.log ]
}

@test "verify against a fake server: ESC, BEL and a forged verdict line never reach the terminal; the real verdict is LOST" {
  hostile fake.out fake-server forge "$TMP/port"
  wait_for 120 test -s "$TMP/port"
  head -c 64K /dev/zero >"$TMP/f"
  run "$IOBENCH" durability verify --no-direct --server "127.0.0.1:$(cat "$TMP/port")" "$TMP/f"
  [ "$status" -eq 3 ]
  [[ ${lines[-1]} == "verdict: LOST: 1 of 1 acknowledged blocks"* ]]
  [ "$(grep -c '^verdict' <<<"$output")" -eq 1 ]
  [[ $output == *'/y\x9b2J\xc2\x9b'* ]]
  run ! grep -qP '[\x00-\x08\x0b-\x1f\x7f-\xff]' <<<"$output"
}

@test "verify against a fake server: an ERR line with ESC and CR is printed escaped" {
  hostile fake.out fake-server errline "$TMP/port"
  wait_for 120 test -s "$TMP/port"
  head -c 64K /dev/zero >"$TMP/f"
  run "$IOBENCH" durability verify --server "127.0.0.1:$(cat "$TMP/port")" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *'says: no\x1b[2J\x07 such run\x0dverdict: ok: forged'* ]]
  run ! grep -qP '[\x00-\x08\x0b-\x1f\x7f-\xff]' <<<"$output"
}

@test "verify against a fake server with an endless RUNS listing stops at a bound, in bounded memory" {
  hostile fake.out fake-server endless "$TMP/port"
  wait_for 120 test -s "$TMP/port"
  head -c 64K /dev/zero >"$TMP/f"
  run bash -c 'ulimit -v 400000 && exec "$@"' _ "$IOBENCH" durability verify --server "127.0.0.1:$(cat "$TMP/port")" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"lists more than 1000000 runs; is it a durability server?"* ]]
}

@test "--allow CIDR: a peer outside it is closed before a byte is read; one inside writes and verifies" {
  LISTEN=0.0.0.0 start_server --allow 127.0.0.1/32
  run env HOSTILE_FROM=127.0.0.2 python3 "$HOSTILE" raw 127.0.0.1 "$PORT" "$(printf 'RUNS\n' | od -An -tx1 | tr -d ' \n')"
  [ -z "$output" ]
  wait_for 120 grep -q 'refused 127.0.0.2:[0-9]*: not in --allow' "$TMP/serve.err"
  run env HOSTILE_FROM=127.0.0.1 python3 "$HOSTILE" raw 127.0.0.1 "$PORT" "$(printf 'RUNS\n' | od -An -tx1 | tr -d ' \n')"
  [ "$output" = "b'END 0\\n'" ]
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
  run "$IOBENCH" durability serve --allow 10.0.0.5/8
  [ "$status" -eq 2 ]
  [[ $output == "iobench: bad --allow '10.0.0.5/8'; use"* ]]
}

@test "--token-file: writers and verifiers without the token, or with a wrong one, are refused; with it they work" {
  echo s3cret-token >"$TMP/token"
  echo wrong-token >"$TMP/wrong"
  start_server --token-file "$TMP/token"
  run "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"refused the run: this server wants a token; give --token-file"* ]]
  run "$IOBENCH" durability write --token-file "$TMP/wrong" --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"refused the run: wrong token"* ]]
  [ "$(ls "$LOGS" | wc -l)" -eq 0 ]
  "$IOBENCH" durability write -q --token-file "$TMP/token" --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  run "$IOBENCH" durability verify --token s3cret-tokenX --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"says: wrong token"* ]]
  run "$IOBENCH" durability verify -q --token-file "$TMP/token" --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq .durability.acknowledged "$TMP/v.jsonl")" -gt 0 ]
}

@test "idle writers and stalled readers from many addresses cannot lock a server without a token: per-address limit, a verifier's reserve, eviction" {
  start_server --max-connections 32 --max-per-address 8
  "$IOBENCH" durability write -q --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  # one address: 8 writers, then refused (the old server took all 20)
  hostile one.out hellos 127.0.0.1 "$PORT" 20 127.0.0.3
  wait_for 120 grep -q '^ok' "$TMP/one.out"
  [ "$(cat "$TMP/one.out")" = "ok 8 busy 0 perad 12 other 0" ]
  grep -q "refused 127.0.0.3:[0-9]*: its address has --max-per-address connections already" "$TMP/serve.err"
  # eight more addresses: every writer slot (32 less a reserve of 2) is taken, then "busy"
  hostile many.out hellos 127.0.0.1 "$PORT" 40 127.0.0.4 127.0.0.5 127.0.0.6 127.0.0.7 127.0.0.8 127.0.0.9 127.0.0.10 127.0.0.11
  wait_for 120 grep -q '^ok' "$TMP/many.out"
  [ "$(cat "$TMP/many.out")" = "ok 22 busy 18 perad 0 other 0" ]
  t0=$SECONDS
  # the reserve: a verifier gets in while every writer slot is held
  run timeout 60 "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
  # a writer: refused while the flood is fresh (and told why), let in once a flooder has been silent 10 s
  if ((SECONDS - t0 < 8)); then
    run timeout 60 "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/g"
    [ "$status" -eq 1 ]
    [[ $output == *"refused the run: server busy: every writer slot is taken; try again later"* ]]
    [[ $output != *"cut the power any time"* ]]
  fi
  # two readers that never read fill the reserve: stalled 10 s, they make room
  fake_log 00000000000000cc 1500000
  for i in 1 2; do
    HOSTILE_FROM=127.0.0.12 hostile "stall$i.out" stall 127.0.0.1 "$PORT" "GET 00000000000000cc"
    wait_for 120 grep -q '^sent' "$TMP/stall$i.out"
  done
  sleep 11
  run timeout 60 "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/g"
  [ "$status" -eq 0 ]
  [[ $output == *"cut the power any time"* ]]
  grep -q "writer 0 at 127.0.0.[0-9]*:[0-9]* evicted (silent 1[0-9] s, every writer slot taken)" "$TMP/serve.err"
  grep -q "dropped 127.0.0.12:[0-9]*: took no reply byte for 1[0-9] s while every slot was taken" "$TMP/serve.err"
  [ "$(grep -l '^GONE 0 0$' "$LOGS"/*.log | wc -l)" -eq 1 ]
  run timeout 60 "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" "$TMP/g"
  [ "$status" -eq 0 ]
  [ "$(jq .durability.acknowledged "$TMP/v.jsonl")" -gt 0 ]
  kill -0 "$SERVER_PID"
}

@test "a client token against a server without one is refused, and write shows no go-ahead before the server took it" {
  start_server
  echo s3cret-token >"$TMP/token"
  run "$IOBENCH" durability write --token-file "$TMP/token" --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"refused the run: this server has no token, so it would not protect the run; give the server --token-file, or drop the client's"* ]]
  [[ $output != *"cut the power any time"* ]]
  [ -z "$(ls "$LOGS")" ]
  run env IOBENCH_TOKEN=s3cret-token "$IOBENCH" durability verify --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"this server has no token"* ]]
  grep -q "refused 127.0.0.1:[0-9]*: it gave a token, this server has none" "$TMP/serve.err"
}

@test "the token leaks nowhere: not into verify's JSON or output, not into a writer's /proc cmdline; IOBENCH_TOKEN works" {
  tok=Zq7tokenZq7
  start_server --token "$tok"
  run ! grep -q "$tok" "/proc/$SERVER_PID/cmdline"
  "$IOBENCH" durability write --token "$tok" --server "127.0.0.1:$PORT" --size 1M -d 4 "$TMP/f" >"$TMP/w.out" 2>&1 &
  wpid=$!
  PIDS+=("$wpid")
  wait_for 120 grep -q "cut the power any time" "$TMP/w.out"
  run ! grep -q "$tok" "/proc/$wpid/cmdline"
  wait "$wpid"
  run "$IOBENCH" durability verify --token "$tok" --server "127.0.0.1:$PORT" --json "$TMP/v.jsonl" --label k=v "$TMP/f"
  [ "$status" -eq 0 ]
  [[ $output != *"$tok"* ]]
  jq -e '.commandLine | test("--token <redacted> --server")' "$TMP/v.jsonl"
  run "$IOBENCH" durability verify --token="$tok" --server "127.0.0.1:$PORT" --json - "$TMP/f"
  [ "$status" -eq 0 ]
  [[ $output == *'verify --token=<redacted> --server'* ]]
  run ! grep -rq "$tok" "$TMP/v.jsonl" "$TMP/w.out" "$TMP/serve.err" "$LOGS"
  # from the environment (another user cannot read it), and an option still wins
  IOBENCH_TOKEN=$tok "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  run env IOBENCH_TOKEN=wrong "$IOBENCH" durability verify -q --token "$tok" --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 0 ]
  run env IOBENCH_TOKEN='has space' "$IOBENCH" durability verify -q --server "127.0.0.1:$PORT" "$TMP/f"
  [ "$status" -eq 2 ]
  [ "$output" = "iobench: IOBENCH_TOKEN is not a token; set it to 1 to 256 printable characters without spaces" ]
}

@test "an --allow refusal: the server says whom it refused (and that NAT shows a VM as 127.0.0.1), the client says to look there" {
  start_server --allow 127.0.0.2/32
  run "$IOBENCH" durability write --server "127.0.0.1:$PORT" --size 1M -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ $output == *"did not answer HELLO: "*"(is this box's address in its --allow? its stderr says whom it refused)" ]]
  [[ $output != *"cut the power any time"* ]]
  grep -q "refused 127.0.0.1:[0-9]*: not in --allow (a VM behind user-mode NAT connects as 127.0.0.1)" "$TMP/serve.err"
}
