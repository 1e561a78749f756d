# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# cloudfleet.bash - the shared setup of the suites that run against moto's
# EC2 (lib/moto.bash) and ssh hosts in network namespaces (lib/netns.bash),
# each with a loop device for its EBS volume (lib/volumes.bash): loading it
# loads all three and gives the suite its setup_file and teardown_file.
#
#   load lib/cloudfleet
#   setup()    { suite_skip; cloudfleet_hosts_up 3 100G; }   # each test
#   teardown() { cloudfleet_hosts_down; }
#
# setup_file starts moto once for the file, or records why this machine
# cannot run the suite (no root, a missing program); suite_skip then skips
# every test with that reason (a failure under CI: .ci/ installs them).

load lib/moto
load lib/netns
load lib/volumes

# cloudfleet_setup_file: moto up, or every test to skip with the reason.
cloudfleet_setup_file() {
  local why
  why=$(netns_can_run) || { suite_skip_all "$why"; return 0; }
  moto_suite_up
}

setup_file() {
  cloudfleet_setup_file
}

teardown_file() {
  moto_stop
}

# cloudfleet_hosts_up N [SIZE]: this test's N namespace hosts
# (netns_fleet_setup: NET, RESULTS, REMOTE) and, with SIZE, a loop device of
# SIZE as each one's volume (volumes_make: VOLUMES, $NET/hosts-vol). Skips
# without losetup or mkfs.xfs (the campaign formats the volumes xfs).
cloudfleet_hosts_up() {
  if [[ -n ${2:-} ]]; then
    skip_unless_cmd losetup
    skip_unless_cmd mkfs.xfs xfsprogs
  fi
  # Set first: a fleet that came up half-way is torn down too.
  CLOUDFLEET_HOSTS=1
  netns_fleet_setup "$1"
  if [[ -n ${2:-} ]]; then
    volumes_make "$1" "$2"
  fi
}

# cloudfleet_hosts_down: for teardown: the test's hosts go (failing if
# anything of theirs is left, netns_fleet_teardown), then its volumes.
# Nothing to do for a test that brought none up.
cloudfleet_hosts_down() {
  local rc=0
  if [[ -n ${CLOUDFLEET_HOSTS:-} ]]; then
    netns_fleet_teardown || rc=$?
  fi
  volumes_remove
  CLOUDFLEET_HOSTS=
  return "$rc"
}
