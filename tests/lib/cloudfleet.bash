# shellcheck shell=bash
# cloudfleet.bash - the shared setup of the suites that run against moto's
# EC2 (lib/moto.bash) and ssh hosts in network namespaces (lib/netns.bash):
# loading it loads both and gives the suite its setup_file and teardown_file.
#
#   load lib/cloudfleet
#   setup() { suite_skip; netns_fleet_setup 3; }   # each test
#
# setup_file starts moto once for the file, or records why this machine
# cannot run the suite (no root, a missing program); suite_skip then skips
# every test with that reason (a failure under CI: .ci/ installs them).

load lib/moto
load lib/netns

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
