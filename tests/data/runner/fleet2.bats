#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# A fixture of tests/testrunner.bats, run twice at once (RUNNER_ME a and b,
# RUNNER_SYNC a folder both see): each run brings up 2 namespace hosts and
# waits for the other's; a tears its own down, and b's hosts must still
# answer afterwards.

load ../../lib/core
load ../../lib/netns

each_setup() {
  SYNC=${RUNNER_SYNC:?} ME=${RUNNER_ME:?} OTHER=${RUNNER_OTHER:?}
}

each_teardown() {
  netns_fleet_teardown
}

# answers I: host I takes a login and has its own address.
answers() {
  # shellcheck disable=SC2046
  ssh $(netns_ssh_opts) -o ConnectTimeout=5 -i "$NET/id_fleet" "root@$(netns_addr "$1")" \
    ip -o -4 addr show dev eth0 | grep -qF " $(netns_addr "$1")/24 "
}

@test "a fleet that lives beside another run's" {
  netns_fleet_setup 2
  echo "$NETNS_PREFIX $NETNS_SUBNET" >"$SYNC/$ME.up"
  wait_for 300 test -s "$SYNC/$OTHER.up"
  read -r prefix subnet <"$SYNC/$OTHER.up"
  [ "$prefix" != "$NETNS_PREFIX" ]
  [ "$subnet" != "$NETNS_SUBNET" ]
  answers 1
  answers 2
  if [[ $ME == a ]]; then
    netns_fleet_down
    [ -z "$(netns_leftovers)" ]
    # b's hosts are untouched by our cleanup
    ip netns list | grep -q "^${prefix}1\b"
    : >"$SYNC/a.down"
  else
    wait_for 300 test -e "$SYNC/a.down"
    answers 1
    answers 2
  fi
}
