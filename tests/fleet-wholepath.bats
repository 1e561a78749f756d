#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,cloud,root,slow,alone
# fleet-wholepath.bats - the path a user takes, whole: the README's
# campaign example against moto's EC2 (tests/lib/moto.bash) and four ssh
# hosts in network namespaces (tests/lib/netns.bash), with a file-size sweep
# and a thread sweep; one host throttled by a blkio cgroup (a bad apple with
# a known cause), one killed mid-run. Then `iobench report` on the results
# folder, with no hand editing, must answer: groups named from what was
# provisioned, the instances table with 3 of 4 hosts, the throttled host
# among the bad apples, the killed host named as failed, the thread optimum
# per op, the tiers over the sizes, and charts of each naming the hosts.
# Each host's attached "volume" is a loop device (tests/lib/volumes.bash):
# every run must have measured it, not the root disk.

bats_require_minimum_version 1.5.0
load lib/cloudfleet

ROOT=$BATS_TEST_DIRNAME/..
CAMPAIGN=$ROOT/scripts/campaign

setup() {
  suite_skip
  [[ -d /sys/fs/cgroup/blkio ]] || skip "env: no cgroup v1 blkio controller to throttle a host with"
  skip_unless_cmd gnuplot .ci/apt-report.txt
  skip_unless_static
  CGROUP=
  # Each host's "EBS volume": 100 GiB, ec2-provision's default size.
  cloudfleet_hosts_up 4 100G
}

teardown() {
  cloudfleet_hosts_down
  # The throttled host's processes are gone with its namespace: its cgroup
  # can go (it must be empty first).
  if [[ -n "${CGROUP:-}" && -d "$CGROUP" ]]; then
    local i
    for ((i = 0; i < 50; i++)); do rmdir "$CGROUP" 2>/dev/null && break; sleep 0.1; done
  fi
}

# throttle_host I READ_IOPS WRITE_IOPS: host I's sshd, and so every session
# and benchmark it starts, goes into a blkio cgroup that caps its O_DIRECT
# I/O on its volume (see shared notes: throttling-under-test).
throttle_host() {
  local majmin
  majmin=$(lsblk -dno MAJ:MIN "${VOLUMES[$1 - 1]}" | tr -d ' ')
  CGROUP=/sys/fs/cgroup/blkio/iobench-wholepath-$NETNS_PREFIX-$$
  mkdir "$CGROUP"
  echo "$majmin $2" >"$CGROUP/blkio.throttle.read_iops_device"
  echo "$majmin $3" >"$CGROUP/blkio.throttle.write_iops_device"
  cat "$NETNS_DIR/sshd$1.pid" >"$CGROUP/cgroup.procs"
}

# readme_campaign: the README's first campaign example, its lines joined.
readme_campaign() {
  awk '/^    scripts\/campaign / {on = 1} on {sub(/^    /, ""); line = line $0; if ($0 !~ /\\$/) {print line; exit}; sub(/\\$/, "", line)}' \
    "$ROOT/README.md"
}

@test "the whole path: the README's campaign, one host throttled, one killed; the report answers with no hand editing" {
  local example cmd out=$BATS_TEST_TMPDIR/out r=$RESULTS/c1 flag
  example=$(readme_campaign)
  [[ "$example" == "scripts/campaign --ami "*" --sizes "* ]]
  # The example as written, with values for this machine: moto's AMI, the
  # test's key and root login, small sizes and thread counts.
  cmd=$(sed -e "s|ami-0123456789abcdef0|$MOTO_AMI|" -e "s|~/.ssh/bench.pem|$NET/id_fleet|" \
    -e 's|--ssh-user admin|--ssh-user root|' -e 's|--threads 1,8,16|--threads 1,2|' \
    -e 's|--sizes 256M..4G:256M|--sizes 8M..32M:8M|' -e 's|--file-size 4G|--file-size 32M|' \
    -e "s|^scripts/campaign|$CAMPAIGN|" <<<"$example")
  # Every flag of the example is still there.
  for flag in $(grep -o -- ' --\?[a-z][a-z-]*' <<<"$example"); do
    [[ " $cmd " == *" $flag "* ]] || { echo "lost $flag"; return 1; }
  done
  # ... and for the test bed: moto's endpoint, the namespace hosts standing
  # for the instances (with the loop device that stands for each one's
  # volume), their ssh options, 2-second runs.
  local -a args
  eval "args=($cmd)"
  args+=(--endpoint-url "$MOTO_ENDPOINT" --hosts "$NET/hosts-vol" --ssh-opts "$(netns_fleet_ssh_opts)"
    --results-dir "$RESULTS" --remote-dir "$REMOTE/{host}" -d 2 -b 1 --seed 7)

  # Host 2 is a bad apple with a known cause: 1/20 of the disk's IOPS.
  throttle_host 2 150 60
  env --default-signal=INT "${args[@]}" >"$out" 2>&1 3>&- &
  local pid=$! i
  # Host 4 dies once its first run has come back.
  for ((i = 0; i < 1200; i++)); do
    jq -e '.hosts[3].fetched >= 1' "$r/manifest.json" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  jq -e '.hosts[3].fetched >= 1' "$r/manifest.json" >/dev/null || { cat "$out"; return 1; }
  netns_kill_host 4
  local rc=0
  wait "$pid" || rc=$?
  cat "$out"
  # The campaign says a host failed (exit 1), and tore everything down.
  [ "$rc" -eq 1 ]
  [ "$(jq -r .status "$r/state.json")" = torn-down ]
  local id=() k
  for k in 0 1 2 3; do id+=("$(jq -r ".instances[$k].id" "$r/state.json")"); done
  [ "$(jq -r '.hosts[] | "\(.name) \(.status)"' "$r/manifest.json" | paste -sd,)" == \
    "${id[0]} ok,${id[1]} ok,${id[2]} ok,${id[3]} $(jq -r '.hosts[3].status' "$r/manifest.json")" ]
  [[ "$(jq -r '.hosts[3].status' "$r/manifest.json")" == @(partial|not-fetched) ]]
  [ "$(jq -r '.hosts[3].failure.kind' "$r/manifest.json")" == unreachable ]
  # 2 ops x 2 thread counts x 4 sizes on each host that lived; every line
  # names its instance and carries what was provisioned.
  for k in 0 1 2; do
    [ "$(wc -l <"$r/${id[k]}/iobench.jsonl")" -eq 16 ]
    [ "$(jq -r '[.host, .provision.instanceId, .provision.instanceType, .provision.volumeType,
        .provision.volumeCount, .provision.raidLevel, (.labels | length)] | @tsv' "$r/${id[k]}/iobench.jsonl" | sort -u)" == \
      "$(printf '%s\t%s\tm5.large\tgp3\t1\tnone\t0' "${id[k]}" "${id[k]}")" ]
  done
  # Every run measured its host's volume, and nothing else: the device
  # attached, of the volume's size (100 GiB), its filesystem mounted in the
  # host's remote dir; not the root disk, not memory.
  for k in 0 1 2; do
    [ "$(jq -c '.target | [.device, .deviceSize, .filesystem, .mountPoint, .rootDevice, .memory]' "$r/${id[k]}/iobench.jsonl" | sort -u)" == \
      "[\"${VOLUMES[k]#/dev/}\",$(jq -r '.provision.volumeSize * 1073741824' "$r/${id[k]}/iobench.jsonl" | sort -u),\"xfs\",\"$REMOTE/${id[k]}/volume\",false,false]" ]
    grep -qF "${id[k]}: volume $(jq -r --argjson k "$k" '.volumes[$k].serial' "$r/state.json") is ${VOLUMES[k]}" "$out"
  done
  # The throttled host really was throttled: its reads at or under the cap.
  jq -e -s 'map(.operations[0] | select(.name == "read4k") | .iops) | max <= 150 * 1.2' "$r/${id[1]}/iobench.jsonl" >/dev/null

  # What the user reads: the report of the folder, as it is.
  run --separate-stderr "$IOBENCH" report "$r"
  echo "$output"
  [ "$status" -eq 0 ]
  local text=$output
  # No run is flagged as off its volume.
  run ! grep -q '^Targets that were not' <<<"$text"
  # The failed host comes first: in the summary, the answer read before any
  # section (how many lines the ops' answers above it take depends on the
  # run), named with its reason; then in the fleet section, with how it was
  # lost.
  sed -n '/^Summary/,/^$/p' <<<"$text" | grep -E '^hosts +failed or sent nothing: ' | grep -qF "${id[3]} (unreachable)"
  sed -n '/^Failed and missing hosts/,/^$/p' <<<"$text" | grep -F "${id[3]}" | grep -qE ' unreachable .*ssh lost the host \(exit 255\)'
  # Groups named from what was provisioned, not from labels typed by hand.
  grep -qF 'm5.large / gp3 x1' <<<"$text"
  # The instances table: 3 of 4 hosts (its hosts column, "N of M a fleet planned").
  sed -n '/^Across instances/,/^$/p' <<<"$text" | grep -qE ' 3 of 4 +[0-9]'
  run --separate-stderr "$IOBENCH" report --json "$r"
  [ "$status" -eq 0 ]
  local json=$output
  # The throttled host is a bad apple in every cell it ran (16: 2 ops x 2
  # thread counts x 4 sizes); no other host is one in more than a cell
  # (its runs read the page cache, CPU-bound: one 2-second run of a
  # healthy host can fall 20% short on a loaded machine, and is named).
  [ "$(jq --arg h "${id[1]}" '[.badApples[] | select(.host == $h and .badApple)] | length' <<<"$json")" -eq 16 ]
  jq -e --arg h "${id[1]}" '[.badApples[] | select(.host != $h and .badApple) | .host] | group_by(.) | all(length <= 1)' <<<"$json" >/dev/null
  # A thread optimum for each op (at each size).
  [ "$(jq -r '[.threads[] | select(.optimal) | .signature] | unique | join(" ")' <<<"$json")" == \
    "read,4K,4K writeFlush,4K,4K" ]
  # Tiers over the four sizes.
  [ "$(jq '[.tiers[]] | length' <<<"$json")" -ge 1 ]
  jq -e '[.tiers[] | .fromSize, .toSize] | min == 8388608 and max == 33554432' <<<"$json" >/dev/null
  # Charts of each, rendered, naming the hosts.
  local plots=$BATS_TEST_TMPDIR/plots f
  run --separate-stderr "$IOBENCH" report --plot "$plots" "$r"
  [ "$status" -eq 0 ]
  for f in threads instances-1 sizes-1 latency-1 time-1; do
    [ -s "$plots/$f.png" ] && [ -s "$plots/$f.svg" ] || { ls "$plots"; echo "no $f"; return 1; }
  done
  # Each host that ran is named on the chart that compares hosts over time.
  # (The per-instance chart marks hosts by rank on main today; naming them
  # on its axis is issue 12 item 6, the report's side, tested with it.)
  for k in 0 1 2; do
    grep -qF "${id[k]}" "$plots"/time-1.svg
  done
}
