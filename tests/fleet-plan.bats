#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root,slow
# fleet-plan.bats - scripts/fleet-run's plan files (--plan FILE, the file of
# iobench run --plan) and its progress off a terminal (a line per host state
# change, a fleet line every --progress seconds), on real sshd's in network
# namespaces (tests/lib/netns.bash).

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run

setup() {
  netns_fleet_setup --static 4
  head -n 3 "$NET/hosts" >"$NET/three"
}

teardown() {
  netns_fleet_teardown
}

# fleet ARGS...: fleet-run against the test hosts, small files.
fleet() {
  "$FLEET" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" --file-size 32M --bucket 1 "$@"
}

# logins: the logins all the test hosts' sshd's accepted so far.
logins() {
  cat "$NET"/sshd*.log | grep -c 'Accepted publickey' || true
}

@test "off a terminal: a line per host state change, and fleet lines with hosts done/running/failed that end at all done" {
  # Three hosts that run, one whose login is refused (failed at once).
  local bad
  bad=$(netns_addr 4)
  { cat "$NET/three"; echo "nosuchuser@$bad"; } >"$NET/four"
  local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err rc=0
  fleet --hosts "$NET/four" --run-id prog --threads 1,2 --duration 2 --progress 1 >"$out" 2>"$err" || rc=$?
  cat "$err"
  [ "$rc" -eq 1 ]
  [ ! -s "$out" ]
  [[ "$(cat "$err")" != *$'\r'* ]]
  local i h
  # Each host that ran: "running" once, then "ok" once, in that order.
  for i in 1 2 3; do
    h=$(netns_addr "$i")
    [ "$(grep -cxF "fleet-run: host $h running" "$err")" -eq 1 ]
    [ "$(grep -cxF "fleet-run: host $h ok; 2 of 2 runs back" "$err")" -eq 1 ]
    [ "$(grep -nxF "fleet-run: host $h running" "$err" | cut -d: -f1)" -lt \
      "$(grep -nxF "fleet-run: host $h ok; 2 of 2 runs back" "$err" | cut -d: -f1)" ]
  done
  [ "$(grep -c "host $bad (nosuchuser@$bad) failed the pre-flight check: auth: " "$err")" -eq 1 ]
  # The fleet lines: every one whole, the hosts adding up to 4, counts
  # never going down, the last at all runs and all hosts done.
  local lines
  lines=$(grep '^fleet-run: progress: ' "$err")
  [ "$(wc -l <<<"$lines")" -ge 3 ]
  [ "$(grep -cvE '^fleet-run: progress: [0-6]/6 runs done; hosts: [0-3] done, [0-3] running(, [1-3] fetching)?(, [1-3] waiting)?, 1 failed; last (none yet|read4k [12] threads? [0-9.]+[kM]? IOPS \([0-9.]+\))(, ETA [0-9]+ (s|min))?$' <<<"$lines")" -eq 0 ]
  grep -o 'hosts: .*' <<<"$lines" |
    awk '{ n = 0; for (k = 1; k <= NF; k++) if ($(k + 1) ~ /^(done|running|fetching|waiting|failed)[,;]?$/ && $k ~ /^[0-9]+$/) n += $k;
           if (n != 4) { print "hosts do not add up to 4: " $0; exit 1 } }'
  [ "$(sed -E 's|^fleet-run: progress: ([0-9]+)/.*|\1|' <<<"$lines" | sort -n -c && echo sorted)" == sorted ]
  [ "$(sed -E 's|^.*hosts: ([0-9]+) done.*|\1|' <<<"$lines" | sort -n -c && echo sorted)" == sorted ]
  [[ "$(tail -n 1 <<<"$lines")" == "fleet-run: progress: 6/6 runs done; hosts: 3 done, 0 running, 1 failed; last read4k "*" IOPS ("*")" ]]
  # The manifest says the same.
  [ "$(jq '[.hosts[] | select(.status == "ok")] | length' "$RESULTS/prog/manifest.json")" -eq 3 ]
  # The same lines in the run's log.
  [ "$(grep -E '^fleet-run: (progress|host [^ ]+ (running|ok))' "$RESULTS/prog/logs/fleet.log")" == \
    "$(grep -E '^fleet-run: (progress|host [^ ]+ (running|ok))' "$err")" ]
}

@test "--plan FILE: every host runs the file's runs, shuffled, each JSON line records its plan line; the manifest counts them" {
  cat >"$NET/plan" <<'EOF'
# a repeatable test: reads at two thread counts, then a write and a read
-o read4k -t 1,2 -d 1 --label phase=a

	-o write4k/64 -o read4k -d 2 --label phase=b --note why=x
-o read4k -o write4k/64 --together -d 1 --label 'phase=c'   # both at once
EOF
  run --separate-stderr fleet --hosts "$NET/three" --run-id pf --plan "$NET/plan" --seed 11
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  echo "$stderr"
  [ "$status" -eq 0 ]
  local m=$RESULTS/pf/manifest.json i h f
  [ "$(jq .plan.runsPerHost "$m")" -eq 5 ]
  [ "$(jq -c .plan.ops "$m")" == '["read4k","write4k/64","read4k+write4k/64"]' ]
  [ "$(jq -c '.plan.planLines | length' "$m")" -eq 5 ]
  [ "$(jq -r '.plan.planLines[1]' "$m")" == "-o read4k -t 1,2 -d 1 --label phase=a" ]
  [ "$(jq '[.hosts[] | select(.status == "ok" and .planned == 5 and .fetched == 5)] | length' "$m")" -eq 3 ]
  local -a orders=()
  for i in 1 2 3; do
    h=$(netns_addr "$i")
    f=$RESULTS/pf/$h/iobench.jsonl
    echo "host $h:"
    cat "$RESULTS/pf/$h/plan.txt"
    [ "$(wc -l <"$f")" -eq 5 ]
    # One line per (plan line, op, threads), each with the line's duration,
    # labels and notes, and the plan step it was; --together: both ops in
    # one run.
    [ "$(jq -r '[.notes.planLineNumber, (.operations | map(.name) | join("+")), .threads, .runtime, .labels.phase, (.notes.why // "-")] | map(tostring) | join(" ")' "$f" | sort)" == \
      "$(printf '%s\n' '2 read4k 1 1 a -' '2 read4k 2 1 a -' '4 read4k 1 2 b x' '4 write4k/64 1 2 b x' '5 read4k+write4k/64 1 1 c -' | sort)" ]
    # The line as written, without its comment, as iobench run --plan records it.
    [ "$(jq -r 'select(.notes.planLineNumber == "5") | .notes.planLine' "$f")" == "-o read4k -o write4k/64 --together -d 1 --label 'phase=c'" ]
    [ "$(jq -r 'select(.notes.planLineNumber == "4") | .notes.planLine' "$f" | sort -u)" == "-o write4k/64 -o read4k -d 2 --label phase=b --note why=x" ]
    [ "$(jq -r .notes.planStep "$f" | sort -n | paste -sd,)" == "1,2,3,4,5" ]
    [ "$(jq -s '[.[] | select(.host == $h and .notes.runId == "pf" and .operations[0].total.count > 0)] | length' --arg h "$h" "$f")" -eq 5 ]
    orders+=("$(cut -d' ' -f2- "$RESULTS/pf/$h/plan.txt" | paste -sd'|')")
  done
  # Each host in an order of its own (the seed plus its place).
  [ "$(printf '%s\n' "${orders[@]}" | sort -u | wc -l)" -gt 1 ]

  # --resume runs the file's lines the manifest kept: a result lost on
  # host 1 is run again, with its plan line, and nothing else is.
  h=$(netns_addr 1)
  local lost before
  lost=$(jq -r 'select(.notes.planLineNumber == "4" and .operations[0].name == "write4k/64") | .notes.planStep' "$RESULTS/pf/$h/iobench.jsonl")
  before=$(jq -r 'select(.notes.planStep != $s) | .launchTime' --arg s "$lost" "$RESULTS/pf/$h/iobench.jsonl")
  rm "$RESULTS/pf/$h/runs/$lost.result"
  run --separate-stderr "$FLEET" --results-dir "$RESULTS" --run-id pf --resume --ssh-opts "$(netns_fleet_ssh_opts)"
  echo "$stderr"
  [ "$status" -eq 0 ]
  f=$RESULTS/pf/$h/iobench.jsonl
  [ "$(wc -l <"$f")" -eq 5 ]
  [ "$(jq -r 'select(.notes.planStep == $s) | [.notes.planLineNumber, .operations[0].name, .runtime, .labels.phase, .notes.why] | map(tostring) | join(" ")' --arg s "$lost" "$f")" == "4 write4k/64 2 b x" ]
  [ "$(jq -r 'select(.notes.planStep != $s) | .launchTime' --arg s "$lost" "$f")" == "$before" ]
  [ "$(jq -c '.plan.planLines | length' "$m")" -eq 5 ]
}

@test "--plan FILE: a line fleet-run cannot run is refused before anything starts (exit 2, one line)" {
  local before
  before=$(logins)
  printf -- '-o read4k -d 1\n\n-o read4k --json out.jsonl\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad"
  echo "$output"
  [ "$status" -eq 2 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$output" == "fleet-run: $NET/bad line 3: --json is the whole command's, not a plan line's (fleet-run gives results, host, provision, target); drop it from the plan (see fleet-run --help)" ]
  # A target in the file, a thread count out of range, a quoted value.
  printf -- '-o read4k data.bin\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad"
  [ "$status" -eq 2 ] && [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "fleet-run: $NET/bad line 1: 'data.bin': no TARGET in a plan file"* ]]
  printf -- '# two\n-t 0\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad"
  [ "$status" -eq 2 ] && [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == "fleet-run: $NET/bad line 2: -t '0': "* ]]
  printf -- '-o read4k --label "a b"\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad"
  [ "$status" -eq 2 ] && [ "${#lines[@]}" -eq 1 ]
  [[ "$output" == *"line 1: 'a b': fleet-run passes a line's words to its hosts as they are"* ]]
  printf -- '-o read4k --label "a=b\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad"
  [ "$status" -eq 2 ] && [ "$output" == "fleet-run: $NET/bad line 1: an unclosed quote (see fleet-run --help)" ]
  # --plan and --ops name the runs twice.
  printf -- '-o read4k\n' >"$NET/bad"
  run fleet --hosts "$NET/three" --run-id bad --plan "$NET/bad" --ops write4k
  [ "$status" -eq 2 ] && [ "${#lines[@]}" -eq 1 ]
  # Nothing started: no results, no login on any host.
  [ ! -e "$RESULTS/bad" ]
  [ "$(logins)" -eq "$before" ]
}

@test "--steady and --precondition: every host's runs in rounds, its target written over once, the facts on every line; bad steady options refused" {
  local rc=0
  fleet --hosts "$NET/three" --run-id st --ops read4k --threads 1,2 --duration 1 --iobench --rate --iobench 500 \
    --steady --steady-window 3 --max-rounds 4 --precondition -q || rc=$?
  [ "$rc" -eq 0 ]
  local m=$RESULTS/st/manifest.json h
  [ "$(jq -r '[.state, (.plan.iobenchArgs | join(" "))] | @tsv' "$m")" == \
    "$(printf 'complete\t--rate 500 --provision-fact preconditioned=true --steady --steady-round 1 --steady-window 3 --max-rounds 4')" ]
  for h in $(jq -r '.hosts[].name' "$m"); do
    local j=$RESULTS/st/$h/iobench.jsonl
    [ "$(wc -l <"$j")" -eq 2 ]
    # each run in rounds of 1 s, 3 to 4 of them, the fact recorded
    [ "$(jq -s '[.[] | .operations[0] as $o | select(.provision.preconditioned == true
                and ($o.rounds | length) >= 3 and ($o.rounds | length) <= 4 and $o.steadyState.window == 3)] | length' "$j")" -eq 2 ]
    # preconditioned once, before the plan, by the host's job
    [ "$(grep -c ': preconditioned: 2 passes over 32.00 MiB' "$RESULTS/st/logs/$h.log")" -eq 1 ]
  done
  # the default limit of a host's attempt counts each run at its most rounds
  run "$FLEET" --hosts "$NET/three" --dry-run --ops read4k --threads 1,2 --duration 10 --steady --max-rounds 30
  [ "$status" -eq 0 ]
  [[ $output == *"--timeout\\ $((2 * (30 * 11 + 30) + 900))\\ "* ]]
  # bad steady options: one line, exit 2, before anything starts
  run "$FLEET" --hosts "$NET/three" --run-id bad --max-rounds 4
  [ "$status" -eq 2 ]
  [ "$output" = "fleet-run: --max-rounds needs --steady (see fleet-run --help)" ]
  run "$FLEET" --hosts "$NET/three" --run-id bad --steady --steady-window 6 --max-rounds 5
  [ "$status" -eq 2 ]
  [[ $output == "fleet-run: --max-rounds 5 is fewer than --steady-window 6"* ]]
  [ ! -e "$RESULTS/bad" ]
}
