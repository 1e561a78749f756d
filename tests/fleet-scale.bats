#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root,slow
# fleet-scale.bats - scripts/fleet-run's cost at scale, asserted by counts
# (never by time): one ssh login per host for the whole plan, a descriptor
# limit that cannot carry every host at once (all results arrive, the limit
# is said), and a manifest that is, field by field, the document fleet-run
# wrote before its writer was batched (tests/data/fleet/manifest-v1.json).

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run
FIXTURE=$BATS_TEST_DIRNAME/data/fleet/manifest-v1.json

teardown() {
  netns_fleet_teardown
}

# fleet ARGS...: fleet-run against the test hosts, short runs, small files.
fleet() {
  "$FLEET" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 "$@"
}

# normalized MANIFEST: the manifest with what differs from run to run made
# constant: times, the test's scratch folder and the namespace subnet.
normalized() {
  jq -S --arg tmp "$BATS_TEST_TMPDIR" --arg net "$NETNS_SUBNET." '
    .started = "T" | .ended = "T"
    | walk(if type == "string" then (split($tmp) | join("TMP")) | (split($net) | join("NET.")) else . end)' "$1"
}

# sessions I: the sessions host I's sshd started so far (a command each).
sessions() {
  grep -c 'Starting session: command' "$NET/sshd$1.log" || true
}

# logins I: the logins host I's sshd accepted so far.
logins() {
  grep -c 'Accepted publickey' "$NET/sshd$1.log" || true
}

@test "the manifest after a run is the document fleet-run wrote before (fixture), field by field" {
  netns_fleet_setup --static 3
  # Host 1 refuses the login (auth), host 2 carries provision facts, host 3
  # is plain: every kind of entry the fixture holds.
  local h1 h2 h3
  h1=$(netns_addr 1) h2=$(netns_addr 2) h3=$(netns_addr 3)
  printf '{"instanceType": "m5.large", "volumeType": "gp3", "volumeCount": 0}\n' >"$NET/prov2.json"
  printf 'nosuchuser@%s\n%s name=db-2 provision=prov2.json\n%s\n' "$h1" "$h2" "$h3" >"$NET/fixture-hosts"
  run --separate-stderr fleet --hosts "$NET/fixture-hosts" --run-id fixture --threads 1,2 --seed 7 --label config=x
  echo "$stderr"
  [ "$status" -eq 1 ]
  local m=$RESULTS/fixture/manifest.json
  if [[ ${FLEET_WRITE_FIXTURE:-} == 1 ]]; then
    normalized "$m" >"$FIXTURE"
  fi
  diff <(normalized "$FIXTURE") <(normalized "$m")
  # Field by field, so a failure names the field.
  local path
  while IFS= read -r path; do
    [ "$(normalized "$m" | jq -c --argjson p "$path" 'getpath($p)')" == "$(jq -c --argjson p "$path" 'getpath($p)' "$FIXTURE")" ] ||
      { echo "field $path differs"; false; }
  done < <(jq -c 'paths(scalars)' "$FIXTURE")
}

@test "one ssh login per host carries the whole plan: pre-flight, job, a fetch per run and the last fetch" {
  netns_fleet_setup --static 3
  local i before=()
  for i in 1 2 3; do before[i]=$(logins "$i"); done
  run --separate-stderr fleet --hosts "$NET/hosts" --run-id one --threads 1,2,3 --seed 3
  echo "$stderr"
  [ "$status" -eq 0 ]
  for i in 1 2 3; do
    # Three runs, each fetched as it ended, then the last fetch: one login.
    [ "$(jq -r --arg h "$(netns_addr "$i")" '.hosts[] | select(.name == $h) | "\(.fetched) \(.status)"' \
        "$RESULTS/one/manifest.json")" == "3 ok" ]
    echo "host $i: $(($(logins "$i") - before[i])) login(s)"
    [ "$(($(logins "$i") - before[i]))" -eq 1 ]
  done
  # The shared connections end with the run: no session of it is left on
  # the hosts (sshd's end of a connection lives in the host's namespace).
  local deadline=$((SECONDS + 20))
  while [[ -n "$(netns_strays)" ]] && ((SECONDS < deadline)); do sleep 0.5; done
  netns_strays
  [ -z "$(netns_strays)" ]
}

@test "a job that ends sends its results in its own session: the last fetch opens none; an archive past its bound is not read past it, nor used, nor a refused result called a failure" {
  netns_fleet_setup --static 2
  local i h before=()
  for i in 1 2; do before[i]=$(sessions "$i"); done
  run --separate-stderr fleet --hosts "$NET/hosts" --run-id inline --threads 1 --seed 5
  echo "$stderr"
  [ "$status" -eq 0 ]
  for i in 1 2; do
    h=$(netns_addr "$i")
    [ "$(jq -r --arg h "$h" '.hosts[] | select(.name == $h) | "\(.fetched) \(.status)"' "$RESULTS/inline/manifest.json")" == "1 ok" ]
    [ "$(wc -l <"$RESULTS/inline/$h/iobench.jsonl")" -eq 1 ]
    jq -e '.operations[0].iops > 0' "$RESULTS/inline/$h/runs/1.result" >/dev/null
    # The host's whole log, its last line too.
    grep -q '^fleet-job: 1 runs, 0 failed, 0 already done$' "$RESULTS/inline/logs/$h.log"
    run ! grep -q 'results follow' "$RESULTS/inline/logs/$h.log" "$RESULTS/inline/logs/fleet.log"
    # One login, one session: its pre-flight, job and results.
    echo "host $i: $(($(sessions "$i") - before[i])) session(s)"
    [ "$(($(sessions "$i") - before[i]))" -eq 1 ]
  done
  # An archive past the bound of what a host may send (its files' bound
  # and its own: 1 byte each here, and 1 MiB on top for the archive): host
  # 1's log is 2 MiB when its job ends. Not read past the bound, not used,
  # said; the other host's results are refused file by file, as a fetch's.
  h=$(netns_addr 1)
  mkdir -p "$REMOTE/$h/logs"
  head -c 2097152 /dev/zero | tr '\0' x >"$REMOTE/$h/logs/$h.log"
  IOBENCH_FLEET_MAX_HOST=1 IOBENCH_FLEET_MAX_FILE=1 run --separate-stderr fleet --hosts "$NET/hosts" --run-id tight \
    --threads 1 --retries 0
  echo "$stderr"
  [ "$status" -ne 0 ]
  [[ "$stderr" == *"host $h sent more than 1048578 with its results; not used"* ]]
  [[ "$stderr" == *"host $(netns_addr 2) sent $(netns_addr 2)/runs/1.result: "*", over the limit of 1 a file; not used"* ]]
  [ ! -e "$RESULTS/tight/$h/iobench.jsonl" ]
  [ ! -e "$RESULTS/tight/$(netns_addr 2)/iobench.jsonl" ]
  # Both finished their run, which is still there: not fetched, not failed.
  [ "$(jq -r '[.hosts[] | "\(.status) \(.finished) \(.fetched)"] | unique | join(",")' "$RESULTS/tight/manifest.json")" == "not-fetched 1 0" ]
  [[ "$stderr" != *FAILED* ]]
}

@test "a descriptor limit too low for every host at once: one line says so and how to raise it; every result arrives" {
  netns_fleet_setup --static 12
  # ulimit -n 64 (soft and hard): GNU parallel can carry 8 hosts at once.
  run --separate-stderr bash -c 'ulimit -n 64 && "$@"' sh "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" \
    --ssh-opts "$(netns_fleet_ssh_opts)" --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 --run-id fd64
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ "$(jq '[.hosts[] | select(.status == "ok" and .fetched == 1)] | length' "$RESULTS/fd64/manifest.json")" -eq 12 ]
  local i
  for i in $(seq 12); do [ "$(wc -l <"$RESULTS/fd64/$(netns_addr "$i")/iobench.jsonl")" -eq 1 ]; done
  # Said once, before any host was touched, with the number and the way out.
  [ "$(grep -c 'descriptor limit' <<<"$stderr")" -eq 1 ]
  [[ "$(head -n 1 <<<"$stderr")" == "fleet-run: warning: the descriptor limit (ulimit -n 64, hard limit 64) lets 8 of the 12 hosts asked run at once (GNU parallel needs 4 a host): 8 at a time; to run them all at once raise it to 80 (ulimit -n 80 as root, or nofile in /etc/security/limits.conf)" ]]
  # GNU parallel never ran short: no warning of its own, here or in the log.
  run ! grep -qi -e 'file handles' -e 'too many open files' <<<"$stderr"
  run ! grep -qi -e 'file handles' -e 'too many open files' "$RESULTS/fd64/logs/fleet.log"
  # No more hosts ran at once than the limit carries (the joblog's starts
  # and ends, each a host's whole session: at most 8 overlap), and the
  # first batch's 8 all at once.
  local most
  most=$(awk -F'\t' 'NR > 1 {printf "%.6f 1\n%.6f -1\n", $3, $3 + $4}' "$RESULTS/fd64/joblog" | sort -k1,1n -k2,2n |
    awk '{n += $2; if (n > m) m = n} END {print m + 0}')
  echo "at most $most jobs at once"
  [ "$most" -eq 8 ]
}

@test "--jobs bounds the pre-flight check too: no more hosts checked at once than --jobs" {
  netns_fleet_setup --static 6
  # Each host's check (its iobench --version) takes a second and notes when
  # it began and ended, in a file all the hosts share.
  local real=${IOBENCH_STATIC:-$BATS_TEST_DIRNAME/../iobench-static} slow=$BATS_TEST_TMPDIR/slow-iobench
  printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "+1 $(date +%%s.%%N)" >>%q; sleep 1; echo "-1 $(date +%%s.%%N)" >>%q; fi\nexec %q "$@"\n' \
    "$BATS_TEST_TMPDIR/checks" "$BATS_TEST_TMPDIR/checks" "$real" >"$slow"
  chmod +x "$slow"
  run --separate-stderr env IOBENCH_STATIC="$slow" "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" \
    --ssh-opts "$(netns_fleet_ssh_opts)" --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 --run-id j2 --jobs 2
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ "$(jq '[.hosts[] | select(.status == "ok")] | length' "$RESULTS/j2/manifest.json")" -eq 6 ]
  [ "$(grep -c '^+1' "$BATS_TEST_TMPDIR/checks")" -eq 6 ]
  local most
  most=$(awk '{print $2, $1}' "$BATS_TEST_TMPDIR/checks" | sort -n | awk '{n += $2; if (n > m) m = n} END {print m}')
  echo "at most $most checks at once"
  [ "$most" -le 2 ]
}

@test "every host's job starts in its own pre-flight session, all of them after the last host's check ended" {
  netns_fleet_setup --static 4
  # Each check (iobench --version) and each run notes its host, its session
  # (sshd's session for the command: the sid), when it began or ended, and
  # the fleet-job process it runs under (the farthest ancestor of that name:
  # a subshell of it has its name too) with whether that one was started
  # with --check; host 3's check takes 2 s more than the others'.
  local real=${IOBENCH_STATIC:-$BATS_TEST_DIRNAME/../iobench-static} fake=$BATS_TEST_TMPDIR/noting-iobench
  local notes=$BATS_TEST_TMPDIR/notes
  cat >"$fake" <<FAKE
#!/bin/sh
h=\${PWD##*/} sid=\$(ps -o sid= -p \$\$ | tr -d ' ')
q=\$PPID p=- ck=-
while [ "\$q" -gt 1 ]; do
  a=\$(tr '\\0' ' ' </proc/\$q/cmdline)
  case "\$a" in *fleet-job*) p=\$q; case "\$a" in *' --check '*) ck=check ;; *) ck=job ;; esac ;; esac
  q=\$(awk '{print \$4}' /proc/\$q/stat)
done
case "\$1" in
  --version) [ "\$h" != "$(netns_addr 3)" ] || sleep 2; echo "check \$h \$sid \$(date +%s.%N) \$p \$ck" >>$notes ;;
  run) echo "run \$h \$sid \$(date +%s.%N) \$p \$ck" >>$notes ;;
esac
exec $real "\$@"
FAKE
  chmod +x "$fake"
  run --separate-stderr env IOBENCH_STATIC="$fake" "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" \
    --ssh-opts "$(netns_fleet_ssh_opts)" --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 1 --bucket 1 --run-id together --threads 1,2
  echo "$stderr"
  cat "$notes"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^check ' "$notes")" -eq 4 ]
  [ "$(grep -c '^run ' "$notes")" -eq 8 ]
  local i h csid cjob
  for i in 1 2 3 4; do
    h=$(netns_addr "$i")
    csid=$(awk -v h="$h" '$1 == "check" && $2 == h {print $3}' "$notes")
    # Both runs of the host in the session of its check (before, GNU
    # parallel started each job in a session of its own) ...
    [ "$(awk -v h="$h" -v s="$csid" '$1 == "run" && $2 == h && $3 == s' "$notes" | wc -l)" -eq 2 ]
    # ... and in the process of its check: one fleet-job --check a host,
    # its job in it (before, a second fleet-job started after "go").
    cjob=$(awk -v h="$h" '$1 == "check" && $2 == h && $6 == "check" {print $5}' "$notes")
    [[ $cjob =~ ^[0-9]+$ ]]
    [ "$(awk -v h="$h" -v p="$cjob" '$1 == "run" && $2 == h && $5 == p && $6 == "check"' "$notes" | wc -l)" -eq 2 ]
  done
  # No run began before the last check ended: order, not timing.
  awk '$1 == "check" && $4 > last {last = $4} $1 == "run" && (first == "" || $4 < first) {first = $4}
    END {print "last check", last, "first run", first; exit !(first > last)}' "$notes"
}

@test "a killed fleet-run (KILL: no trap runs) stops every host's job within seconds, not at the plan's end" {
  netns_fleet_setup --static 3
  local out=$BATS_TEST_TMPDIR/out i h
  # Two runs of 30 s a host: a minute of plan.
  "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 30 --bucket 1 --run-id killed --threads 1,2 >"$out" 2>&1 3>&- &
  local pid=$!
  for i in 1 2 3; do
    h=$(netns_addr "$i")
    for ((n = 0; n < 600; n++)); do grep -q 'run 1:' "$REMOTE/$h/logs/$h.log" 2>/dev/null && break; sleep 0.1; done
  done
  sleep 1
  # Every host's iobench runs (one each, under its job's timeout).
  [ "$(netns_strays | grep -cE '^[^ ]+ [0-9]+ \./iobench run ')" -eq 3 ]
  kill -KILL "$pid"
  wait "$pid" || true
  # Within 20 s (the plan had ~55 s left), no iobench nor fleet-job is left.
  local deadline=$((SECONDS + 20))
  while netns_strays | grep -q -e 'iobench run' -e fleet-job && ((SECONDS < deadline)); do sleep 0.5; done
  netns_strays
  [ -z "$(netns_strays | grep -e 'iobench run' -e fleet-job)" ]
  for i in 1 2 3; do
    h=$(netns_addr "$i")
    grep -q 'fleet-job: stopped' "$REMOTE/$h/logs/$h.log"
    [ -z "$(find "$REMOTE/$h/$h/runs" -name '*.result')" ]
  done
}

@test "a dropped connection stops the host's job: its iobench ends within seconds, the host is named" {
  netns_fleet_setup --static 2
  local out=$BATS_TEST_TMPDIR/out h n
  h=$(netns_addr 1)
  "$FLEET" --hosts "$NET/hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M \
    --duration 20 --bucket 1 --run-id dropped --retries 0 >"$out" 2>&1 3>&- &
  local pid=$!
  for ((n = 0; n < 600; n++)); do grep -q 'run 1:' "$REMOTE/$h/logs/$h.log" 2>/dev/null && break; sleep 0.1; done
  sleep 1
  [ "$(netns_strays | grep -cE "^${NETNS_PREFIX}1 [0-9]+ \\./iobench run ")" -eq 1 ]
  # The host's end of the connection goes (its sshd for it, not the listener).
  local listener p
  listener=$(cat "$NET/sshd1.pid")
  for p in $(ip netns pids "${NETNS_PREFIX}1"); do
    [[ $p != "$listener" && $(cat "/proc/$p/comm" 2>/dev/null) == sshd ]] && kill -KILL "$p"
  done
  # The job stops at once, long before its 20 s run would end.
  local deadline=$((SECONDS + 10))
  while netns_strays | grep "^${NETNS_PREFIX}1 " | grep -q -e 'iobench run' -e fleet-job && ((SECONDS < deadline)); do sleep 0.5; done
  [ -z "$(netns_strays | grep "^${NETNS_PREFIX}1 " | grep -e 'iobench run' -e fleet-job)" ]
  grep -q 'fleet-job: stopped' "$REMOTE/$h/logs/$h.log"
  local rc=0
  wait "$pid" || rc=$?
  cat "$out"
  [ "$rc" -eq 1 ]
  [ "$(jq -r --arg h "$h" '.hosts[] | select(.name == $h) | .failure.kind' "$RESULTS/dropped/manifest.json")" == unreachable ]
  [ "$(jq -r --arg h "$(netns_addr 2)" '.hosts[] | select(.name == $h) | .status' "$RESULTS/dropped/manifest.json")" == ok ]
}

@test "the build is shipped once a host: kept by its hash, a later run takes it from there" {
  netns_fleet_setup --static 2
  local hash i f
  hash=$(sha256sum <"${IOBENCH_STATIC:-$BATS_TEST_DIRNAME/../iobench-static}" | cut -c 1-64)
  run --separate-stderr fleet --hosts "$NET/hosts" --run-id first
  [ "$status" -eq 0 ]
  declare -A inode=()
  for i in 1 2; do
    f=$NET/cache$i/iobench-fleet/$hash
    [ -f "$f" ]
    [ "$(ls "$NET/cache$i/iobench-fleet")" == "$hash" ]
    [ "$(stat -c %a "$NET/cache$i/iobench-fleet")" == 700 ]
    inode[$i]=$(stat -c %i "$f")
  done
  run --separate-stderr fleet --hosts "$NET/hosts" --run-id second
  [ "$status" -eq 0 ]
  for i in 1 2; do
    # Not shipped again: the host stores what it is shipped, as a new file.
    [ "$(stat -c %i "$NET/cache$i/iobench-fleet/$hash")" == "${inode[$i]}" ]
    # What ran is the build.
    [ "$(sha256sum <"$REMOTE/$(netns_addr "$i")/iobench" | cut -c 1-64)" == "$hash" ]
  done
  [ "$(jq '[.hosts[] | select(.status == "ok" and .fetched == 1)] | length' "$RESULTS/second/manifest.json")" -eq 2 ]
}
