#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root
# fleet-hostkeys.bats - fleet-run on hosts it has never met (a fresh cloud
# instance): their keys are accepted on first contact and kept with the
# run's results, so --fetch and --resume meet the same hosts or say which
# one changed; a login whose shell runs no command is named as such. Real
# sshd's in network namespaces (tests/lib/netns.bash), each with a host key
# no known_hosts of this machine holds.

bats_require_minimum_version 1.5.0
load lib/netns

FLEET=$BATS_TEST_DIRNAME/../scripts/fleet-run
ROOT=$BATS_TEST_DIRNAME/..
NOLOGIN_USER='' NOLOGIN_HOME=''

setup() {
  local why
  why=$(netns_can_run) || skip "$why"
  [[ -x "${IOBENCH_STATIC:-$ROOT/iobench-static}" ]] || skip "iobench-static not built (make static)"
  netns_fleet_setup 2
  head -n 2 "$NET/hosts" >"$NET/two"
}

teardown() {
  [[ -z "$NOLOGIN_USER" ]] || userdel "$NOLOGIN_USER" 2>/dev/null || true
  [[ -z "$NOLOGIN_HOME" ]] || rm -rf "$NOLOGIN_HOME"
  netns_fleet_teardown
}

# fleet ARGS...: fleet-run on the two hosts, short runs, small files, and
# no ssh option at all: nothing about host keys.
fleet() {
  "$FLEET" --hosts "$NET/two" --ssh-key "$NET/id_fleet" --results-dir "$RESULTS" \
    --remote-dir "$REMOTE/{host}" --file-size 32M --duration 1 --bucket 1 "$@"
}

# host_field RUN NAME FIELD: FIELD of host NAME in RUN's manifest.
host_field() {
  jq -r --arg n "$2" ".hosts[] | select(.name == \$n) | .$3" "$RESULTS/$1/manifest.json"
}

# user_known_hosts: this machine's own known_hosts of root, or "none".
user_known_hosts() {
  sha256sum ~/.ssh/known_hosts 2>/dev/null || echo none
}

@test "fresh hosts: their keys are accepted without StrictHostKeyChecking=no and kept in the run's known_hosts (0600)" {
  local before h
  before=$(user_known_hosts)
  run --separate-stderr fleet --run-id fresh --threads 1,2
  echo "$stderr"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"run fresh complete: 2 of 2 hosts ok"* ]]
  [ "$(stat -c %a "$RESULTS/fresh/known_hosts")" == 600 ]
  # A line per host, the host's address first (unhashed, to be found).
  [ "$(wc -l <"$RESULTS/fresh/known_hosts")" -eq 2 ]
  for h in $(cat "$NET/two"); do
    [ "$(grep -c "^$h ssh-ed25519 " "$RESULTS/fresh/known_hosts")" -eq 1 ]
  done
  # The keys are those of the hosts, and no other known_hosts was touched.
  [ "$(awk '{print $3}' "$RESULTS/fresh/known_hosts" | sort)" == "$(awk '{print $2}' "$NET"/hostkey[12].pub | sort)" ]
  [ "$(user_known_hosts)" == "$before" ]
}

@test "a host whose key changed since the run met it fails as hostkey under --resume and --fetch; with its line deleted, --resume completes it" {
  local h1 h2 kh=$RESULTS/r1/known_hosts old
  h1=$(netns_addr 1) h2=$(netns_addr 2)
  # Both hosts cut short by --timeout: runs left for --resume, results for --fetch.
  run --separate-stderr fleet --run-id r1 --threads 1,2,3 --duration 3 --timeout 5 --retries 0
  [ "$status" -eq 1 ]
  [ "$(host_field r1 "$h2" status)" != ok ]
  old=$(cat "$kh")
  [ "$(wc -l <"$kh")" -eq 2 ]

  netns_new_hostkey 2
  run --separate-stderr "$FLEET" --results-dir "$RESULTS" --run-id r1 --resume
  echo "$stderr"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"host $h2 ($h2) failed the pre-flight check: hostkey: $h2's host key changed since this run first met it ($kh); if the host was rebuilt, delete its line there (ssh-keygen -R $h2 -f $kh) and --resume"* ]]
  [ "$(host_field r1 "$h2" failure.kind)" == hostkey ]
  # Host 1's key was checked against the file, and passed.
  [ "$(host_field r1 "$h1" status)" == ok ]
  [ "$(cat "$kh")" == "$old" ]

  run --separate-stderr "$FLEET" --fetch r1 --results-dir "$RESULTS" --retries 0
  echo "$stderr"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"host $h2 ($h2): hostkey: $h2's host key changed since this run first met it ($kh); if the host was rebuilt, delete its line there (ssh-keygen -R $h2 -f $kh) and --fetch again; its results stay there"* ]]
  [ -z "$(find "$RESULTS/r1" -name '.fetch-*')" ]

  # The host was rebuilt on purpose: its line goes, the new key is met.
  ssh-keygen -q -R "$h2" -f "$kh" >/dev/null 2>&1
  run --separate-stderr "$FLEET" --results-dir "$RESULTS" --run-id r1 --resume
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ "$(host_field r1 "$h2" status)" == ok ]
  [ "$(grep -c "^$h2 " "$kh")" -eq 1 ]
  [ "$(awk -v h="$h2" '$1 == h {print $3}' "$kh")" == "$(awk '{print $2}' "$NET/hostkey2.pub")" ]
}

@test "a login whose shell is nologin fails as login with the shell's message; the other host runs" {
  local h1 h2 keys
  h1=$(netns_addr 1) h2=$(netns_addr 2)
  NOLOGIN_USER=ib${NETNS_SLOT:-0}nolog
  userdel "$NOLOGIN_USER" 2>/dev/null || true
  # sshd reads a user's keys as the user: the test's own are behind root's
  # 0700 folders, so this user's are in a home of its own, for host 1.
  NOLOGIN_HOME=$(mktemp -d /tmp/iobench-nolog.XXXXXX)
  chmod 755 "$NOLOGIN_HOME"
  keys=$NOLOGIN_HOME/authorized_keys
  cp "$NET/id_fleet.pub" "$keys"
  chmod 644 "$keys"
  useradd -M -d "$NOLOGIN_HOME" -s /usr/sbin/nologin -p '*' "$NOLOGIN_USER"
  printf 'Match User %s\n  AuthorizedKeysFile %s\n' "$NOLOGIN_USER" "$keys" >>"$NET/sshd1.conf"
  netns_stop_sshd 1
  netns_start_sshd 1
  printf '%s@%s name=nl\n%s\n' "$NOLOGIN_USER" "$h1" "$h2" >"$NET/two"

  run --separate-stderr fleet --run-id nl
  echo "$stderr"
  [ "$status" -eq 1 ]
  [[ "$stderr" == *"host nl ($NOLOGIN_USER@$h1) failed the pre-flight check: login: the login's shell runs no command (exit 1): This account is currently not available."* ]]
  [ "$(host_field nl nl failure.kind)" == login ]
  [ "$(host_field nl "$h2" status)" == ok ]
}
