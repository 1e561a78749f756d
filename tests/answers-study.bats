#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,root,slow,alone
# answers-study.bats - the study's question answered right, on a fleet whose
# truth is known in advance. Two configurations of four ssh hosts each
# (network namespaces, tests/lib/netns.bash), every host with a "volume" of
# its own: a loop device formatted ext4 and mounted in the host's mount
# namespace, its IOPS capped by a blkio cgroup (shared notes:
# throttling-under-test) as a provisioned volume is:
#   gp3: m5.large, gp3 1 GiB at 3000 IOPS   (host g2 throttled to 300)
#   io2: m5.large, io2 1 GiB at 8000 IOPS   (host i2 throttled to 800)
# Run as a user runs it: fleet-run per config, then `iobench report --prices`
# on the results folder. The truth: io2 is faster (~2.7x on read4k), gp3
# gives more reads per dollar (io2's provisioned IOPS are billed), g2 and i2
# are bad apples, a direct sweep on a capped volume is one tier, and a
# buffered sweep under a 48 MiB memory limit has one cliff: two tiers.


bats_require_minimum_version 1.5.0
load lib/netns
# The hosts' IOPS caps are what this file measures: no CPU cap beside them.
NETNS_CPU=0

ROOT=$BATS_TEST_DIRNAME/..
FLEET=$ROOT/scripts/fleet-run
PRICES=$ROOT/share/prices-sample.json
VOL=/mnt/iobench-test-vol

setup_file() {
  local why
  why=$(netns_can_run) || { suite_skip_all "$why"; return 0; }
  [[ -d /sys/fs/cgroup/blkio && -d /sys/fs/cgroup/memory ]] ||
    { suite_skip_all "env: no cgroup v1 blkio and memory controllers to cap a host with"; return 0; }
  why=$(static_missing)
  [[ -z $why ]] || { suite_skip_all "$why"; return 0; }
  command -v mkfs.ext4 >/dev/null || { suite_skip_all "mkfs.ext4 not installed (.ci/apt-core.txt)"; return 0; }
  # One fleet of 8 hosts and one run of both campaigns for every test of
  # the file: the tests below read its results.
  NET=$BATS_FILE_TMPDIR/net RESULTS=$BATS_FILE_TMPDIR/results
  netns_fleet_up 8 "$NET"
  export STUDY_NET=$NET STUDY_RESULTS=$RESULTS
  study_volumes
  study_run >"$BATS_FILE_TMPDIR/fleet.out" 2>&1 || { cat "$BATS_FILE_TMPDIR/fleet.out" >&2; return 1; }
  # STUDY_KEEP=DIR keeps the results (how tests/data/study was made).
  [[ -z ${STUDY_KEEP:-} ]] || cp -r "$RESULTS/." "$STUDY_KEEP/"
}

teardown_file() {
  [[ -z "$(suite_skip_reason)" ]] || return 0
  NETNS_DIR=$STUDY_NET
  netns_fleet_down
  local f cg i
  while read -r f; do
    losetup -d "$f" 2>/dev/null || true
  done < <(cat "$BATS_FILE_TMPDIR"/loops 2>/dev/null)
  for cg in "$BATS_FILE_TMPDIR"/cgroups/*; do
    [[ -e $cg ]] || continue
    cg=$(cat "$cg")
    for ((i = 0; i < 50; i++)); do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
  done
}

setup() {
  suite_skip
  NET=$STUDY_NET RESULTS=$STUDY_RESULTS NETNS_DIR=$STUDY_NET
}

# host_cgroup I CONTROLLER: the cgroup host I's sshd (and all it starts) is in.
host_cgroup() {
  local cg=/sys/fs/cgroup/$2/iobench-study-$NETNS_PREFIX-$1
  if [[ ! -d $cg ]]; then
    mkdir -p "$BATS_FILE_TMPDIR/cgroups"
    mkdir "$cg"
    echo "$cg" >"$BATS_FILE_TMPDIR/cgroups/$2-$1"
    cat "$NETNS_DIR/sshd$1.pid" >"$cg/cgroup.procs"
  fi
  printf '%s' "$cg"
}

# study_volumes: each host's volume (1 GiB, ext4, mounted at $VOL in its
# own mount namespace) capped at its config's IOPS; provision facts per config.
study_volumes() {
  local i loop cap mm
  mkdir -p "$VOL"
  for ((i = 1; i <= 8; i++)); do
    truncate -s 1G "$BATS_FILE_TMPDIR/vol$i.img"
    loop=$(losetup -f --show "$BATS_FILE_TMPDIR/vol$i.img")
    echo "$loop" >>"$BATS_FILE_TMPDIR/loops"
    # Written now, as the campaign does: ext4's lazy init would write from a
    # kernel thread during the runs, against the same throttle.
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$loop"
    netns_exec_mnt "$i" mount "$loop" "$VOL"
    case $i in
      2) cap=300 ;; 1 | 3 | 4) cap=3000 ;; 6) cap=800 ;; *) cap=8000 ;;
    esac
    mm=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
    echo "$mm $cap" >"$(host_cgroup "$i" blkio)/blkio.throttle.read_iops_device"
    echo "$mm $cap" >"$(host_cgroup "$i" blkio)/blkio.throttle.write_iops_device"
  done
  cat >"$NET/gp3.json" <<'EOF'
{ "instanceType": "m5.large", "zone": "us-east-1a", "volumeType": "gp3", "volumeSize": 1,
  "volumeIops": 3000, "volumeThroughput": 125, "volumeCount": 1, "raidLevel": "none" }
EOF
  cat >"$NET/io2.json" <<'EOF'
{ "instanceType": "m5.large", "zone": "us-east-1a", "volumeType": "io2", "volumeSize": 1,
  "volumeIops": 8000, "volumeCount": 1, "raidLevel": "none" }
EOF
  : >"$NET/gp3-hosts"
  : >"$NET/io2-hosts"
  for ((i = 1; i <= 4; i++)); do
    echo "root@$(netns_addr "$i") name=g$i provision=gp3.json" >>"$NET/gp3-hosts"
    echo "root@$(netns_addr $((i + 4))) name=i$i provision=io2.json" >>"$NET/io2-hosts"
  done
}

# fleet CONFIG RUN-ID ARGS...: fleet-run on one config's hosts.
fleet() {
  local config=$1 id=$2
  shift 2
  "$FLEET" --hosts "$NET/$config-hosts" --ssh-key "$NET/id_fleet" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$RESULTS" --run-id "$id" --remote-dir "$NET/remote/{host}" \
    --target "$VOL/data.bin" --file-size 256M -d 2 -b 1 --seed 7 "$@" 3>&-
}

# study_run: both configs' thread sweeps; a direct size sweep on io2 (flat:
# the cap holds at every size); a buffered size sweep on gp3 with the page
# cache limited to 48 MiB (a cliff between 8 MiB and 96 MiB).
study_run() {
  local ops=${STUDY_OPS:-read4k} threads=${STUDY_THREADS:-1,4}
  fleet gp3 gp3 --ops "$ops" --threads "$threads" &&
    fleet io2 io2 --ops "$ops" --threads "$threads" &&
    fleet io2 io2-sizes --ops read4k --threads 4 --sizes 16M,32M,64M,128M || return 1
  local i
  for ((i = 1; i <= 4; i++)); do
    echo 48M >"$(host_cgroup "$i" memory)/memory.limit_in_bytes"
  done
  fleet gp3 gp3-cache --ops read4k --threads 4 --sizes 4M,8M,96M,192M --iobench --no-direct
}

@test "every host measured its own capped volume, as provisioned" {
  local f
  for f in "$RESULTS"/gp3/g{1..4}/iobench.jsonl "$RESULTS"/io2/i{1..4}/iobench.jsonl; do
    [ "$(wc -l <"$f")" -eq 2 ]
    jq -e '.target.path == "/mnt/iobench-test-vol/data.bin" and .target.filesystem == "ext4"
      and (.target.device | test("loop"))' "$f" >/dev/null
  done
  # The caps held: g1's reads at 4 threads at or under 3000, i1's under 8000
  # and above gp3's cap (the disk underneath does tens of thousands).
  jq -e -s 'map(select(.operations[0].threadCount == 4) | .operations[0].iops) | .[0] <= 3000 * 1.1 and .[0] > 1500' \
    "$RESULTS/gp3/g1/iobench.jsonl" >/dev/null
  jq -e -s 'map(select(.operations[0].threadCount == 4) | .operations[0].iops) | .[0] <= 8000 * 1.1 and .[0] > 4000' \
    "$RESULTS/io2/i1/iobench.jsonl" >/dev/null
}

@test "the report answers the study: gp3 most reads per dollar, io2 2.7x faster, the throttled hosts named" {
  run --separate-stderr "$IOBENCH" report --json --prices "$PRICES" "$RESULTS"
  [ "$status" -eq 0 ]
  local json=$output
  # Cost at each op's optimum on the whole file: gp3 first per dollar (io2's
  # 8000 provisioned IOPS are billed: $0.81/h against $0.096/h), though io2
  # runs more ops/s.
  [ "$(jq -r '[.cost[] | select(.op == "read4k" and .size == 268435456)] | sort_by(.rank) | map(.volume) | join(" ")' <<<"$json")" == "gp3 io2" ]
  jq -e '[.cost[] | select(.op == "read4k" and .size == 268435456)] | (map(select(.volume == "io2"))[0].opsPerSec) > (map(select(.volume == "gp3"))[0].opsPerSec) * 1.5' <<<"$json" >/dev/null
  jq -e '.cost[] | select(.volume == "gp3" and .size == 268435456) | .dollarsPerHour > 0.095 and .dollarsPerHour < 0.1' <<<"$json" >/dev/null
  jq -e '.cost[] | select(.volume == "io2" and .size == 268435456) | .dollarsPerHour > 0.8 and .dollarsPerHour < 0.82' <<<"$json" >/dev/null
  # The comparison a user makes, found without --compare: one dimension
  # differs, said as a reader would, and the answer is io2 ~2.7x (the caps'
  # ratio is 2.67), its interval clear of 1.
  local row
  row=$(jq -c '[.compare[] | select(.metric == "ops/s" and (.op | startswith("read4k")))] | .[0]' <<<"$json")
  [ "$(jq -r .differs <<<"$row")" == "volume gp3 3000 IOPS → io2 8000 IOPS" ]
  [ "$(jq -r '.a + " | " + .b' <<<"$row")" == "m5.large / gp3 x1 | m5.large / io2 x1" ]
  jq -e '.ratio > 2.2 and .ratio < 3.2 and .low > 1.5 and .high < 4' <<<"$row" >/dev/null
  [[ "$(jq -r .verdict <<<"$row")" == "B is 2."*"x A ("* ]]
  # The throttled host of each fleet is a bad apple in every cell of its
  # config, not excused "at its cap"; the hosts at their cap are counted.
  # (Only these are asserted: on a loaded machine a healthy host can fall
  # 20% short in one 2-second run, and then it is rightly named too.)
  local cfg host
  for cfg in gp3:g2 io2:i2; do
    host=${cfg#*:} cfg="m5.large / ${cfg%:*} x1"
    [ "$(jq --arg c "$cfg" --arg h "$host" '[.badApples[] | select(.config == $c and .host == $h and .size == 268435456)] | length' <<<"$json")" -eq 2 ]
    [ "$(jq --arg c "$cfg" --arg h "$host" '[.badApples[] | select(.config == $c and .host == $h and .size == 268435456) | .rule | test("below the median")] | all' <<<"$json")" == true ]
  done
  jq -e '[.instances[] | select(.config == "m5.large / gp3 x1" and .threads == 4 and .size == 268435456)][0].atCap >= 2' <<<"$json" >/dev/null
  # Every run was on its provisioned volume: nothing to flag.
  [ "$(jq '.targets | length' <<<"$json")" -eq 0 ]
  # And the text a user reads says the same.
  run --separate-stderr "$IOBENCH" report --prices "$PRICES" --section compare,cost "$RESULTS"
  [ "$status" -eq 0 ]
  grep -E '^read4k( @256M)? +ops/s .*volume gp3 3000 IOPS → io2 8000 IOPS .*B is 2\.[0-9]+x A' <<<"$output"
  grep -E '^read4k +256M +m5\.large / gp3 x1 .* 1 +-$' <<<"$output"
}

@test "tiers that exist: a direct sweep on a capped volume is one tier; a page-cache sweep with one cliff is two" {
  run --separate-stderr "$IOBENCH" report --json --section tiers "$RESULTS/io2-sizes"
  [ "$status" -eq 0 ]
  [ "$(jq '[.tiers[]] | length' <<<"$output")" -eq 1 ]
  run --separate-stderr "$IOBENCH" report --json --section tiers "$RESULTS/gp3-cache"
  [ "$status" -eq 0 ]
  echo "$output" | jq -c '.tiers[]'
  [ "$(jq '[.tiers[]] | length' <<<"$output")" -eq 2 ]
  # The cliff is between what the 48 MiB of page cache holds and what it cannot.
  jq -e '.tiers[0].toSize <= 8388608 and .tiers[1].fromSize >= 100663296' <<<"$output" >/dev/null
}
