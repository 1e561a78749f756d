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
  ! grep -qi 'file handles' <<<"$stderr"
  ! grep -qi 'file handles' "$RESULTS/fd64/logs/fleet.log"
  # No more hosts ran at once than the limit carries (the joblog's starts
  # and ends: at most 8 jobs overlap).
  local most
  most=$(awk -F'\t' 'NR > 1 {printf "%.3f 1\n%.3f -1\n", $3, $3 + $4}' "$RESULTS/fd64/joblog" | sort -k1,1n -k2,2n |
    awk '{n += $2; if (n > m) m = n} END {print m + 0}')
  echo "at most $most jobs at once"
  [ "$most" -ge 1 ] && [ "$most" -le 8 ]
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
