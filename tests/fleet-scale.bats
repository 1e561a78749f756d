#!/usr/bin/env bats
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
