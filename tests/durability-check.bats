#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root
# scripts/durability-check against a real sshd in a network namespace
# (tests/lib/netns.bash): the server here, the writer on the "box" over ssh,
# a cut, verify on the box, results in the run's folder. The cuts here are a
# killed writer and a storage-level cut (an older copy of the target put
# back); tests/durability-vm.bats cuts a real kernel's storage.

bats_require_minimum_version 1.5.0
load lib/netns

CHECK=$BATS_TEST_DIRNAME/../scripts/durability-check

setup() {
  netns_fleet_setup 1
  BOX=$(netns_addr 1)
  mkdir -p "$REMOTE"
}

teardown() {
  netns_fleet_teardown
}

# check ARGS...: durability-check against the test box, a free port, small and short.
check() {
  "$CHECK" --host "root@$BOX" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_ssh_opts)" \
    --listen 0.0.0.0:0 --results-dir "$RESULTS" --remote-dir "$REMOTE/rd" -t 2 "$@"
}

# acked_blocks LOG: distinct blocks with an acknowledgement in a server log.
acked_blocks() { grep '^A ' "$1" | awk '{print $3}' | sort -u | wc -l; }

# port_of RUN: the server's port from the run's check.log.
port_of() { sed -n 's/.*server listening on port \([0-9]*\),.*/\1/p' "$RESULTS/$1/logs/check.log"; }

@test "--cut kill: writer on the box over ssh, killed, verify there; every acknowledged block intact, results in the run's folder" {
  run --separate-stderr check --target "$REMOTE/dur.dat" --size 16M --write-time 3 --cut kill --run-id k1 \
    --label box=test
  echo "$stderr"
  [ "$status" -eq 0 ]
  local dir=$RESULTS/k1 log
  log=$(ls "$dir"/server/*.log)
  [ "$(wc -l <<<"$log")" -eq 1 ]
  [ -s "$dir/$BOX/durability.jsonl" ]
  jq -e --arg box "$BOX" --argjson acked "$(acked_blocks "$log")" --arg run "$(basename "$log" .log)" '
    .mode == "durability" and .durability.run == $run
    and .durability.acknowledged == $acked and $acked > 0 and .durability.lost == 0
    and .durability.writersSeen == 2 and .durability.writersEnded == 0
    and .host == $box and .durability.writeHost == $box
    and .labels == {run: "k1", cut: "kill", box: "test"}' "$dir/$BOX/durability.jsonl"
  grep -q '^verdict: ok: every one of ' "$dir/$BOX/verify.txt"
  grep -q "durability run .*: write4k over 16.00 MiB of $REMOTE/dur.dat from 2 writers" "$dir/$BOX/write.log"
  grep -q 'power cut (kill)' "$dir/logs/check.log"
  [[ $stderr == *"verdict: ok"* ]]
  # the server is gone and nothing runs on the box
  port=$(port_of k1)
  # (a bare "! cmd" never fails a bats test)
  if (exec 7<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then false; fi
  [ -z "$(netns_strays)" ]
  # the report reads the folder
  run "$IOBENCH" report --csv --section durabilityVerify "$dir"
  [ "$status" -eq 0 ]
  [[ ${lines[1]} == "$BOX,"*",$REMOTE/dur.dat,write4k,2,2,"*",ok" ]]
}

@test "a storage-level cut that puts back an older copy of the target (--no-reboot): LOST blocks, exit 3" {
  # The "device" loses what was acknowledged in the last 2 s before the cut.
  local cut='cp "$DUR_TARGET" "$DUR_TARGET.snap"; sleep 2; kill -KILL "$DUR_WRITER_PID"; sleep 0.5; cp "$DUR_TARGET.snap" "$DUR_TARGET"'
  run --separate-stderr check --target "$REMOTE/dur.dat" --size 1M --write-time 2 --cut "$cut" --no-reboot \
    --run-id l1
  echo "$stderr"
  [ "$status" -eq 3 ]
  local f=$RESULTS/l1/$BOX/durability.jsonl
  jq -e '.durability.verdict == "lost" and .durability.lost > 0 and .durability.lostOlder > 0
    and .labels.cut == "command"' "$f"
  grep -q "^verdict: LOST: $(jq .durability.lost "$f") of $(jq .durability.acknowledged "$f") acknowledged blocks" \
    "$RESULTS/l1/$BOX/verify.txt"
  [ -z "$(netns_strays)" ]
}

@test "--dry-run prints the server, writer, cut and verify commands and touches nothing" {
  # --opt=value as --opt value (the shared option parser)
  run --separate-stderr check --target=/dev/nvme1n1 --force --cut=sysrq --write-time=30 --run-id d1 --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"durability serve --listen 0.0.0.0:0 --dir $RESULTS/d1/server --token-file $RESULTS/d1/token"* ]]
  [[ $output == *"root@$BOX 'umask 077 && cat > $REMOTE/rd/token'"* ]]
  [[ $output == *"root@$BOX 'cd $REMOTE/rd && { nohup ./iobench durability write --server SERVER_ADDR:0 --token-file token --host $BOX -o write4k -t 2 --force /dev/nvme1n1 >write.log"* ]]
  [[ $output == *"'echo 1 > /proc/sys/kernel/sysrq; echo b > /proc/sysrq-trigger'"* ]]
  [[ $output == *"# wait up to 900 s until root@$BOX answers ssh with a new boot id"* ]]
  [[ $output == *"./iobench durability verify --server SERVER_ADDR:0 --token-file token --run RUN --host $BOX --json durability.jsonl --label run=d1 --label cut=sysrq /dev/nvme1n1'"* ]]
  [ ! -e "$RESULTS" ]
  [ ! -e "$REMOTE/rd" ]
  # --allow reaches the server
  run --separate-stderr check --target=/dev/nvme1n1 --force --cut=sysrq --run-id d2 --allow 10.0.0.0/8 --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"--token-file $RESULTS/d2/token --allow 10.0.0.0/8"* ]]
}

@test "the run's server takes only the box's writer and verify: a peer without the run's token is refused" {
  # The writer writes for 3 s; meanwhile a stranger on the server's port
  # (it listens on every address) sends a HELLO with no token.
  check --target "$REMOTE/dur.dat" --size 4M --write-time 3 --cut kill --run-id t1 >"$BATS_TEST_TMPDIR/out" 2>&1 &
  local pid=$! port='' i reply
  for ((i = 0; i < 300; i++)); do
    port=$(port_of t1 2>/dev/null) && [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]]
  reply=$(exec 7<>"/dev/tcp/127.0.0.1/$port" && printf 'HELLO 00000000000000ee 1 0 1 4096 4096 x write4k /x\n' >&7 &&
    timeout 10 head -n 1 <&7) || true
  wait "$pid"
  [[ $reply == "ERR "*token* ]]
  [[ $reply != OK* ]]
  # the token: the run's own, readable by its owner only, here and on the box
  [ "$(stat -c %a "$RESULTS/t1/token")" = 600 ]
  [ "$(stat -c %a "$REMOTE/rd/token")" = 600 ]
  [ "$(wc -c <"$RESULTS/t1/token")" -eq 64 ]
  cmp -s "$RESULTS/t1/token" "$REMOTE/rd/token"
  # the stranger's run was never logged; the box's was, and was verified
  [ "$(ls "$RESULTS/t1/server" | grep -c '^00000000000000ee')" -eq 0 ]
  grep -q '^verdict: ok' "$RESULTS/t1/$BOX/verify.txt"
}

@test "a writer that cannot start: the script says why from the box's log, exit 1, nothing left running" {
  mkdir -p "$REMOTE/adir"
  run --separate-stderr check --target "$REMOTE/adir" --write-time 1 --cut kill --run-id f1
  [ "$status" -eq 1 ]
  [[ $stderr == *"durability-check: the writer on root@$BOX stopped before the cut: iobench: $REMOTE/adir: is a directory"* ]]
  [ -z "$(netns_strays)" ]
}

@test "usage errors: one line, exit 2" {
  run --separate-stderr "$CHECK" --target /dev/sdb --cut kill
  [ "$status" -eq 2 ]
  [ "$stderr" = "durability-check: --host LOGIN is required (the box under test) (see durability-check --help)" ]
  run --separate-stderr "$CHECK" --host h --target /dev/sdb
  [ "$status" -eq 2 ]
  [[ $stderr == "durability-check: --cut is required"* ]]
  run --separate-stderr "$CHECK" --host h --target /dev/sdb --cut manual </dev/null
  [ "$status" -eq 2 ]
  [[ $stderr == "durability-check: --cut manual needs a terminal"* ]]
  run --separate-stderr "$CHECK" --host h --target /dev/sdb --cut kill --write-time soon
  [ "$status" -eq 2 ]
  [ "$stderr" = "durability-check: 'soon' is not a whole number (see durability-check --help)" ]
  run --separate-stderr "$CHECK" --host h --target /dev/sdb --cut=kill --no-reboot=yes
  [ "$status" -eq 2 ]
  [ "$stderr" = "durability-check: --no-reboot takes no value (see durability-check --help)" ]
  run "$CHECK" --help
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == "durability-check - do a box's acknowledged flushes survive a power cut?" ]]
}

@test "durability-check and the VM's guest scripts are shellcheck clean" {
  command -v shellcheck >/dev/null || skip "shellcheck not installed"
  cd "$BATS_TEST_DIRNAME/.."
  shellcheck -x scripts/durability-check tests/vm/guest-durability tests/vm/run-vm tests/vm/build-vm
  shellcheck -s sh tests/vm/guest-init
}
