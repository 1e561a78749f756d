# shellcheck shell=bash
# cloudfleet.bash - the shared setup of the suites that run against moto's
# EC2 (lib/moto.bash) and ssh hosts in network namespaces (lib/netns.bash):
# loading it loads both and gives the suite its setup_file and teardown_file.
#
#   load lib/cloudfleet
#   setup() { cloudfleet_skip; netns_fleet_setup 3; }   # each test
#
# setup_file starts moto once for the file, or records why this machine
# cannot run the suite (no root, a missing program); cloudfleet_skip then
# skips every test with that reason (a failure under CI: .ci/ installs them).

load lib/moto
load lib/netns

# cloudfleet_setup_file: moto up, or CLOUDFLEET_SKIP exported with the reason.
cloudfleet_setup_file() {
  local why
  why=$(netns_can_run) || { export CLOUDFLEET_SKIP=$why; return 0; }
  why=$(moto_missing)
  if [[ -n "$why" ]]; then
    export CLOUDFLEET_SKIP=$why
    return 0
  fi
  moto_up || return 1
}

# cloudfleet_skip: skip the test when setup_file found the machine lacking.
cloudfleet_skip() {
  [[ -z "${CLOUDFLEET_SKIP:-}" ]] || skip "$CLOUDFLEET_SKIP"
}

setup_file() {
  cloudfleet_setup_file
}

teardown_file() {
  moto_stop
}
