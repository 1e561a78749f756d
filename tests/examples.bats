#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=net,cloud,root,slow
# examples.bats - every example command of README.md, docs/*.md and results/README.md,
# taken from the files themselves and run: the scripts' against real sshd's
# in network namespaces (tests/lib/netns.bash) and moto's EC2
# (tests/lib/moto.bash), iobench's on small files. Values are made to fit a
# test machine (sizes, durations, the test's key and hosts, moto's AMI);
# every flag stays as written, and each example must print what a reader
# expects (an example that prints nothing is a bug).

bats_require_minimum_version 1.5.0
load lib/cloudfleet

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

setup() {
  suite_skip
  IOBENCH=${IOBENCH:-$ROOT/iobench}
  cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
  if [[ -n "${LOOPDEV:-}" ]]; then losetup -d "$LOOPDEV" 2>/dev/null || true; fi
  cloudfleet_hosts_down
}

# examples: the example commands of both READMEs and docs/, one a line: the
# lines of their indented blocks that start with a command, after a prompt
# ("$ ", "box$ ") or none (not a usage synopsis, not sample output such as
# "iobench durability verify: run ..."), continuation lines, quoted newlines
# and a for loop's lines (to its "done") joined.
examples() {
  awk '
    function done_() { if (cmd != "") print cmd; cmd = ""; on = 0 }
    on { l = $0; sub(/^ +/, "", l); cmd = cmd " " l }
    !on && /^    ([a-z]*\$ )?(scripts\/|raid\/|iobench |sudo iobench |\.\/iobench|jq |\.ci\/|for |cat |mkdir |cp |systemctl |prometheus-node-exporter )/ && !/\[(--|[A-Z]|run\])/ && !/^    iobench [0-9]/ && !/^    iobench [a-z]+( [a-z]+)?: / {
      on = 1; l = $0; sub(/^    ([a-z]*\$ )?/, "", l); cmd = l
    }
    # a loop is one example, to its done
    on && cmd ~ /^for / && cmd !~ /(^|[ ;])done$/ { next }
    on { if (cmd ~ /\\$/) { sub(/ *\\$/, "", cmd); next }
         if (cmd ~ /\| *$/) next
         q = cmd; if (gsub(/\047/, "", q) % 2) next
         done_() }' "$ROOT/README.md" "$ROOT"/docs/*.md "$ROOT/results/README.md"
}

# example PATTERN: the one example that matches the extended regex PATTERN.
example() {
  local found
  found=$(examples | grep -E -- "$1")
  [ "$(wc -l <<<"$found")" -eq 1 ] || { echo "examples matching '$1': $found" >&2; return 1; }
  printf '%s\n' "$found"
}

# keeps_flags EXAMPLE COMMAND: every --flag and -f of EXAMPLE is in COMMAND.
keeps_flags() {
  local flag
  for flag in $(grep -oE -- '(^| )--?[a-z][a-z0-9-]*' <<<"$1"); do
    [[ " $2 " == *" $flag "* ]] || { echo "lost $flag" >&2; return 1; }
  done
}

# as_args COMMAND: COMMAND's words into ARGS (as the shell would split them).
as_args() {
  eval "ARGS=($1)"
}

# fleet_up N [SIZE]: N namespace hosts for this test, each with a volume of
# SIZE if given (cloudfleet_hosts_up), and a hosts file in the README's
# format naming them db-1 ... db-N.
fleet_up() {
  cloudfleet_hosts_up "$@"
  awk '{printf "root@%s name=db-%d\n", $1, NR}' "$NET/hosts" >hosts.txt
}

@test "every example command of README.md, docs/ and results/README.md is one this file (or another suite) runs" {
  # PATTERN -> where it runs. A new example needs a line here and a test.
  local covered='
^\.ci/install --core && ./configure && make && ./iobench 	readme.bats
^\.ci/install && ./configure && make check-all$	readme.bats
^jq -c .\.operations\[\] \| \{name, threadCount, 	here: iobench run --json, then jq
^jq -c .\.operations\[\] \| \{name, steady: 	here: sustained, not the first minute (the jq line of docs/json-format.md)
^sudo iobench precondition /dev/nvme1n1$	here: sustained, not the first minute
^sudo iobench -q -o write4k -t 8 --steady 	here: sustained, not the first minute
^iobench report --section summary,steady steady\.jsonl$	here: sustained, not the first minute
^iobench -q -o read4k -t 4 -d 30 -b 1 --json before\.jsonl 	here: before and after, a verdict
^iobench -q -o read4k -t 4 -d 30 -b 1 --json after\.jsonl 	here: before and after, a verdict
^iobench report --baseline before\.jsonl --junit report\.xml after\.jsonl$	here: before and after, a verdict
^iobench -q -o read4k -t 1 -d 6 -b 1 --rate (2000 --json base|1000 --json slow)\.jsonl data$	report-baseline.bats: a run held to half its speed (the same commands)
^jq -c .\.devices\[\] 	here: iobench run --json, then jq (the devices)
^iobench --host db1 --provision-fact 	fleet-hosts.bats: the run with --host, --provision-fact and --note
^iobench report r1\.jsonl 	fleet-hosts.bats: then its report
^iobench watch --json /var/lib/iobench/watch\.jsonl --prom 	here: watch --prom
^scripts/durability-check --host 	here: durability-check (dry run; durability-check.bats cuts for real)
^iobench report --merge-hosts --section instances,badApples results/r1/$	here: the fleet example
^scripts/ec2-provision --ami 	here: EC2 on moto
^scripts/ec2-teardown --run-id gp3-raid0$	here: EC2 on moto
^scripts/fleet-run --hosts hosts.txt .* --run-id r1 	here: the fleet example
^scripts/fleet-run --hosts hosts.txt .* --run-id p1 --plan plan\.txt$	fleet-plan.bats: --plan FILE, every host runs the runs of the file
^scripts/fleet-run --fetch r1$	here: the fleet example
^scripts/fleet-run --run-id r1 --resume$	here: the fleet example
^iobench report results/r1/$	here: the fleet example
^scripts/campaign --ami [^ ]* -n 4 -m 1 --volume-type 	fleet-wholepath.bats
^scripts/campaign --ami .*--study-plan --rounds 2 	here: the two rounds of the study
^scripts/campaign --ami [^ ]* -n 10 .*--raid 0 	here: the RAID campaign (dry run)
^scripts/sweep-filesize --create 	here: the sweeps
^scripts/sweep-threads --size 	here: the sweeps
^iobench report --json --section threads results/round1/ \| jq 	here: the sweeps (the optimum for scripts)
^scripts/bonnie -x 3 	here: bonnie
^iobench report results/$	here: a study, start to finish (docs/report.md: the summary)
^iobench --size 1G -o read4k -o write4k/64 -t 4 -d 20 data\.bin$	readme.bats: the first README command, the same run
^iobench -o read4k -o write4k/64 --together -t 4 -d 20 data\.bin$	run-flow.bats: --together, one run with both ops
^iobench run --plan nightly\.plan 	run-flow.bats: --plan lines run in order, recorded in notes
^\.ci/install --core && \./configure && make && make static && sudo make install$	build.bats: installed, the scripts find iobench
^iobench report --prices share/prices-sample\.json tests/data/study/$	here: the shipped study, as the README prints it
^iobench price --prices share/prices-sample\.json --fact instanceType=m5\.large 	answers-cost.bats: iobench price, the io2 example, compared with docs/report.md
^iobench -q --host db-7 	here: validating a fresh box
^iobench report --expect box\.expect db-7\.jsonl$	here: validating a fresh box
^iobench report --section summary,devices tests/data/devices/raid0-slow-member\.jsonl$	report-devices.bats: the VM RAID 0, compared with docs/report.md
^iobench report --section threads,compare --only op=read4k results/$	here: a study, start to finish
^iobench report --expect box\.expect --only config=sync results/$	here: a study, start to finish
^iobench report --expect box\.expect results/$	here: a study, start to finish
^jq -r .\[\.host, \.operations\[0\]\.name	here: the fleet example
^jq -r .\.hosts\[\] \| \[\.name, \.status	here: the fleet example
^iobench create iobench\.dat 1G$	here: a study, start to finish (the file the loop runs on)
^mkdir -p results$	here: a study, start to finish (the folder the loop writes to)
^for h in box-a box-b box-c; do 	here: a study, start to finish (the loop, as written)
^cat box\.expect$	here: the file the --expect examples read (README and docs/report.md)
^iobench durability serve --dir 	needs two machines and a power cut: durability.bats runs serve, write and verify on one box, durability-vm.bats cuts a VM
^sudo iobench durability write --server ctl:7340 	needs two machines and a power cut (as above)
^sudo iobench durability verify --server ctl:7340 	needs two machines and a power cut (as above)
^prometheus-node-exporter 	needs node_exporter running: not run; prom.bats checks the page it reads
^cp /etc/iobench/watch\.env\.example /etc/iobench/watch-data\.env 	package.bats: the unit setup, followed in a fresh Debian 12 root
^systemctl enable --now iobench-watch@data$	package.bats: (no systemd in the root) what the unit then runs, with its EnvironmentFile'
  local ex n pat
  [ "$(examples | wc -l)" -ge 18 ]
  while IFS= read -r ex; do
    n=0
    while IFS=$'\t' read -r pat _; do
      [[ -n "$pat" ]] || continue
      ! grep -qE -- "$pat" <<<"$ex" || n=$((n + 1))
    done <<<"$covered"
    [ "$n" -eq 1 ] || { echo "example run by $n tests (want 1): $ex"; return 1; }
  done < <(examples)
  # fleet-wholepath.bats takes the README's first campaign example from the README.
  grep -q '^readme_campaign()' "$ROOT/tests/fleet-wholepath.bats"
}

@test "README: iobench run --json, then the jq line that lists each operation's iops and p99" {
  "$IOBENCH" create -q data.bin 16M
  "$IOBENCH" run -q -o read4k -o write4k -t 2 -d 1 -b 1 --json results.jsonl data.bin
  local ex
  ex=$(example '^jq -c .\.operations\[\] \| \{name, threadCount, ')
  run bash -c "$ex"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [ "$(jq -r '[.name, .threadCount, (.iops > 0), (.p99 > 0)] | @tsv' <<<"$output" | paste -sd,)" == \
    "$(printf 'read4k\t2\ttrue\ttrue,write4k\t2\ttrue\ttrue')" ]
  # docs/json-format.md's line for the devices under the target: the target's device first
  ex=$(example '^jq -c .\.devices\[\] ')
  run bash -c "$ex"
  [ "$status" -eq 0 ]
  [ "$(jq -r .role <<<"${lines[0]}")" == target ]
  jq -e 'has("name") and has("await") and has("util")' <<<"${lines[0]}"
}

@test "README: iobench watch --json ... --prom FILE writes the JSON lines and the node_exporter page" {
  local ex cmd
  ex=$(example '^iobench watch --json /var/lib/iobench/watch')
  "$IOBENCH" create -q iobench.dat 16M
  mkdir node-exporter
  # Files here instead of /var/lib and /data; one short round instead of forever.
  cmd=$(sed -e "s|^iobench |$IOBENCH |" -e "s|/var/lib/iobench/|$PWD/|" \
    -e "s|/var/lib/prometheus/node-exporter/|$PWD/node-exporter/|" -e "s|/data/|$PWD/|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  run "${ARGS[@]}" --count 1 --interval 0.1 --period 0.5
  [ "$status" -eq 0 ]
  [ "$(wc -l <watch.jsonl)" -eq 1 ]
  jq -e '.operations | length > 0' watch.jsonl
  # One histogram count per op of the JSON line, as node_exporter would serve it.
  local op want got
  for op in $(jq -r '.operations[].name' watch.jsonl); do
    want=$(jq -r --arg op "$op" '.operations[] | select(.name == $op) | .total.count' watch.jsonl)
    got=$(grep -E "^iobench_op_latency_seconds_count\{.*op=\"$op\"" node-exporter/iobench.prom | awk '{print $NF}')
    [ "$got" = "$want" ] || { echo "$op: page $got, JSON $want"; return 1; }
  done
  [ ! -e node-exporter/.iobench.prom.tmp ]
}

@test "README: durability-check's examples, as dry runs (they cut a real box's power), print the writer, cut, boot and verify steps" {
  # A dry run with every flag as written: durability-check.bats and
  # durability-vm.bats run the same steps for real on namespace and qemu boxes.
  local ex cut boot target host n=0
  while IFS= read -r ex; do
    n=$((n + 1))
    as_args "$ex"
    ARGS[0]=$ROOT/${ARGS[0]}
    run --separate-stderr "${ARGS[@]}" --dry-run
    [ "$status" -eq 0 ]
    host=$(grep -oE -- '--host [^ ]+' <<<"$ex" | cut -d' ' -f2)
    target=$(grep -oE -- '--target [^ ]+' <<<"$ex" | cut -d' ' -f2)
    cut=$(sed -E "s/.*--cut '([^']*)'.*/\1/" <<<"$ex")
    boot=$(sed -E "s/.*--boot '([^']*)'.*/\1/" <<<"$ex")
    [[ $output == *"$host '"*"durability write --server SERVER_ADDR:7340 "*" --force $target "* ]]
    [[ $output == *"# cut the power:"$'\n'"bash -c $(printf '%q' "$cut")"$'\n'* ]]
    [[ $output == *"# power on:"$'\n'"bash -c $(printf '%q' "$boot")"$'\n'* ]]
    [[ $output == *"durability verify --server SERVER_ADDR:7340 --token-file token --run RUN "*" $target'"* ]]
    # the run's own token: the server demands it, the box gets it
    [[ $output == *"durability serve --listen 0.0.0.0:7340 --dir "*" --token-file "*"/token"* ]]
  done < <(examples | grep '^scripts/durability-check ')
  [ "$n" -eq 2 ]
}

@test "README: ec2-provision's example launches on EC2 (moto) as asked; ec2-teardown's removes it all" {
  local ex cmd vpc sg a b
  ex=$(example '^scripts/ec2-provision --ami ')
  # The example's key pair, security group and subnets, made in moto.
  taws ec2 create-key-pair --key-name mykey >/dev/null
  vpc=$(taws ec2 create-vpc --cidr-block 10.9.0.0/16 | jq -r .Vpc.VpcId)
  sg=$(taws ec2 create-security-group --group-name bench --description bench --vpc-id "$vpc" | jq -r .GroupId)
  a=$(taws ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.9.1.0/24 --availability-zone us-east-1a | jq -r .Subnet.SubnetId)
  b=$(taws ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.9.2.0/24 --availability-zone us-east-1b | jq -r .Subnet.SubnetId)
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e "s|ami-0123456789abcdef0|$MOTO_AMI|" -e "s|sg-0abc|$sg|" \
    -e "s|subnet-0a,subnet-0b|$a,$b|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  run --separate-stderr "${ARGS[@]}" --results-dir "$PWD/results"
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ "$output" == gp3-raid0 ]
  [[ "$stderr" == *"estimated cost: \$"*"3 x m5.large spot"* ]]
  local st=results/gp3-raid0/state.json
  [ "$(jq '.instances | length' "$st")" -eq 3 ]
  [ "$(jq '.volumes | length' "$st")" -eq 12 ]
  [ "$(jq -r '[.volumes[] | [.type, .sizeGiB, .iops, .throughput] | @tsv] | unique[]' "$st")" == \
    "$(printf 'gp3\t200\t6000\t250')" ]
  [ "$(jq -r '[.instances[].subnet] | sort | unique | join(",")' "$st")" == "$(printf '%s\n' "$a" "$b" | sort | paste -sd,)" ]
  [ "$(jq -r '[.instances[].market] | unique | join(",")' "$st")" == spot ]
  [ "$(wc -l <results/gp3-raid0/hosts)" -eq 3 ]
  ex=$(example '^scripts/ec2-teardown ')
  as_args "$(sed "s|^scripts/|$ROOT/scripts/|" <<<"$ex")"
  run "${ARGS[@]}" --results-dir "$PWD/results"
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"run gp3-raid0 torn down: no instance or volume tagged iobench-run=gp3-raid0 is left"* ]]
  [ "$(taws ec2 describe-volumes --filters Name=tag:iobench-run,Values=gp3-raid0 | jq '.Volumes | length')" -eq 0 ]
  [ "$(jq -r .status "$st")" == torn-down ]
}

@test "README: the fleet example on 4 hosts, then --fetch, --resume, iobench report and the results/README jq lines" {
  fleet_up 4
  local ex cmd
  ex=$(example '^scripts/fleet-run --hosts hosts.txt .* --run-id r1 ')
  # The test's key and hosts; 1-second runs on a 32M file.
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e "s|~/.ssh/bench.pem|$NET/id_fleet|" \
    -e 's|-d 60|-d 1|' -e 's|--file-size 80G|--file-size 32M|' <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  export IOBENCH_RESULTS=$PWD/results
  run "${ARGS[@]}" --ssh-opts "$(netns_fleet_ssh_opts)" --remote-dir "$REMOTE/{host}" -b 1
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"run r1 complete: 4 of 4 hosts ok, 0 not; 36 of 36 runs back"* ]]
  local i
  for i in 1 2 3 4; do
    [ "$(wc -l <"results/r1/db-$i/iobench.jsonl")" -eq 9 ]
  done
  [ "$(grep -c $'\tok\t' results/r1/summary.tsv)" -eq 4 ]

  # --fetch: nothing is missing; it says so for the run.
  as_args "$(sed "s|^scripts/|$ROOT/scripts/|" <<<"$(example '^scripts/fleet-run --fetch ')")"
  run "${ARGS[@]}" --ssh-opts "$(netns_fleet_ssh_opts)"
  [ "$status" -eq 0 ]
  [[ "$output" == *"run r1 complete: 4 of 4 hosts ok, 0 not; 36 of 36 runs back"* ]]
  # --resume: nothing left to run either.
  as_args "$(sed "s|^scripts/|$ROOT/scripts/|" <<<"$(example '^scripts/fleet-run --run-id r1 --resume')")"
  run "${ARGS[@]}" --ssh-opts "$(netns_fleet_ssh_opts)"
  [ "$status" -eq 0 ]
  [[ "$output" == *"run r1 complete: 4 of 4 hosts ok"* ]]
  [ "$(cat results/r1/db-1/iobench.jsonl | wc -l)" -eq 9 ]

  # The reports: the fleet's groups, and the instances table of the four hosts.
  as_args "$(sed "s|^iobench |$IOBENCH |" <<<"$(example '^iobench report results/r1/')")"
  run --separate-stderr "${ARGS[@]}"
  [ "$status" -eq 0 ]
  [[ "$output" == *"read4k "* && "$output" == *"write4k/64 "* && "$output" == *"db-3"* ]]
  [[ "$output" != *"read,4K,4K"* && "$output" != *"write64,4K,4K"* ]]
  as_args "$(sed "s|^iobench |$IOBENCH |" <<<"$(example '^iobench report --merge-hosts')")"
  run --separate-stderr "${ARGS[@]}"
  [ "$status" -eq 0 ]
  [ "$(grep -cE '^(read4k|write4k|write4k/64) +(1|4|16) ' <<<"$output")" -ge 9 ]

  # results/README: iops per host and op; each host's status.
  local jq1 jq2
  jq1=$(example '^jq -r .\[\.host, \.operations\[0\]\.name')
  run bash -c "${jq1//<run-id>/r1}"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 36 ]
  [ "$(cut -f1 <<<"$output" | sort -u | paste -sd,)" == db-1,db-2,db-3,db-4 ]
  jq2=$(example '^jq -r .\.hosts\[\] \| \[\.name, \.status')
  run bash -c "${jq2//<run-id>/r1}"
  [ "$status" -eq 0 ]
  [ "$output" == "$(printf 'db-%d\tok\t9\t9\t-\n' 1 2 3 4)" ]
}

@test "docs/fleet.md: the fleet-run example, as a dry run, needs no key file yet: it says so and prints the plan" {
  local ex home=$BATS_TEST_TMPDIR/home
  ex=$(example '^scripts/fleet-run --hosts hosts.txt .* --run-id r1 ')
  mkdir -p "$home"
  printf 'admin@10.0.0.5 name=db-1\nadmin@10.0.0.6 name=db-2\n' >hosts.txt
  # As written (its ~/.ssh/bench.pem missing: a HOME without it), plus --dry-run.
  run --separate-stderr env HOME="$home" IOBENCH_RESULTS="$PWD/results" bash -c "cd '$PWD' && ${ex/#scripts\//$ROOT/scripts/} --dry-run"
  [ "$status" -eq 0 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ "$stderr" == *"fleet-run: warning: --ssh-key '$home/.ssh/bench.pem': no such readable file (the run itself will need it)"* ]]
  [ "$(grep -cE '^# db-[12] plan: ' <<<"$output")" -eq 2 ]
  # The real run still refuses it, before touching any host.
  run --separate-stderr env HOME="$home" bash -c "cd '$PWD' && ${ex/#scripts\//$ROOT/scripts/}"
  [ "$status" -eq 2 ]
  [[ "$stderr" == *"--ssh-key '$home/.ssh/bench.pem': no such readable file"* ]]
}

@test "README: the study's campaign runs round one's 42 runs per host, then each op at the report's optimum" {
  # Each instance's volume (the campaign benchmarks it): a loop device.
  fleet_up 4 100G
  local ex cmd r=$PWD/results/study name
  ex=$(example '^scripts/campaign --ami .*--study-plan')
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e "s|ami-0123456789abcdef0|$MOTO_AMI|" \
    -e "s|~/.ssh/bench.pem|$NET/id_fleet|" -e 's|--ssh-user admin|--ssh-user root|' \
    -e 's|--file-size 80G|--file-size 32M|' <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  # moto for EC2, the namespace hosts standing for the instances, short runs.
  run "${ARGS[@]}" --endpoint-url "$MOTO_ENDPOINT" --hosts "$NET/hosts-vol" --ssh-opts "$(netns_fleet_ssh_opts)" \
    --results-dir "$PWD/results" --remote-dir "$PWD/remote/{host}" -d 1 -b 1 --round2-duration 2 --seed 3
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(jq -r .status "$r/state.json")" = torn-down ]
  [ "$(jq -r '[.state, .plan.runsPerHost, ([.hosts[] | select(.status == "ok" and .fetched == 42)] | length)] | @tsv' \
      "$r/round1/manifest.json")" == "$(printf 'complete\t42\t4')" ]
  # What the user reads: round two's plan, from the report.
  grep -qE '^campaign: \[[0-9]+:[0-9]{2}\] round two on 4 host\(s\): --ops read4k,read4m,write4k,write4m,write4k/64 --op-threads read4k=[0-9]+ --op-threads read4m=[0-9]+ .*, 2 s per run$' <<<"$output"
  [ "$(tail -n +2 "$r/round2-threads.tsv" | cut -f1 | paste -sd,)" == read4k,read4m,write4k,write4m,write4k/64 ]
  for name in $(jq -r '.instances[].id' "$r/state.json"); do
    # Round two: each op once, at round2-threads.tsv's count, 2 s.
    [ "$(jq -r '[.operations[0].name, .operations[0].threadCount] | @tsv' "$r/round2/$name/iobench.jsonl" | sort)" == \
      "$(tail -n +2 "$r/round2-threads.tsv" | cut -f1,2 | sort)" ]
    [ "$(jq -r .runtime "$r/round2/$name/iobench.jsonl" | sort -u)" == 2 ]
  done
}

@test "README: the RAID campaign example prints the RAID 0 over four volumes on each instance (dry run: no md here)" {
  fleet_up 1
  local ex cmd
  ex=$(example '^scripts/campaign --ami [^ ]* -n 10 ')
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e "s|ami-0123456789abcdef0|$MOTO_AMI|" \
    -e "s|~/.ssh/bench.pem|$NET/id_fleet|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  # The host kernel has no md (tests/raid-vm.bats runs raid-create for real
  # under qemu): the example as a dry run, which must say all it would do.
  run "${ARGS[@]}" --endpoint-url "$MOTO_ENDPOINT" --results-dir "$PWD/results" --run-id craid --dry-run
  echo "$output"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^aws .* ec2 run-instances ' <<<"$output")" -eq 10 ]
  [ "$(grep -c '^aws .* ec2 create-volume ' <<<"$output")" -eq 40 ]
  grep -q 'raid/raid-create --level 0 .* /dev/nvme1n1 /dev/nvme2n1 /dev/nvme3n1 /dev/nvme4n1$' <<<"$output"
  grep -q 'ssh .* admin@HOST-OF-i-DRYRUN0 ' <<<"$output"
  [[ "$output" == *"--target\\ /mnt/iobench/data.bin"* && "$output" == *"--file-size\\ 80G"* ]]
  [[ "$output" == *"ec2-teardown --run-id craid"* ]]
  [ ! -e results/craid ]
}

@test "README: the sweep examples write the lines the report's tiers and threads sections read" {
  local ex cmd
  mkdir -p ebs
  ex=$(example '^scripts/sweep-filesize ')
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e 's|256M..4G:256M|1M..4M:1M|' -e "s|/mnt/ebs/|$PWD/ebs/|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  run "${ARGS[@]}" -d 1 -b 1
  [ "$status" -eq 0 ]
  [ "$(jq -r .target.span fs.jsonl | paste -sd,)" == 1048576,2097152,3145728,4194304 ]
  run --separate-stderr "$IOBENCH" report --section tiers fs.jsonl
  [ "$status" -eq 0 ]
  grep -qE '^read4k ' <<<"$output"
  ex=$(example '^scripts/sweep-threads ')
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e 's|--size 80G|--size 16M|' -e "s|/mnt/ebs/|$PWD/ebs/|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  rm -f ebs/data.bin
  # Two ops over three counts, 1-second runs (the example's defaults: five
  # ops over the study's ten and eight counts, a minute each).
  run --separate-stderr "${ARGS[@]}" --ops read4k,write4k --threads 1,2,4 -d 1 -b 1
  [ "$status" -eq 0 ]
  [ "${lines[0]}" == "$(printf 'op\tchosenThreads\tchosenIops\tbestThreads\tbestIops')" ]
  [ "$(cut -f1 <<<"$output" | tail -n +2 | paste -sd,)" == read4k,write4k ]
  [ "$(wc -l <threads.jsonl)" -eq 6 ]
  # The optimum for scripts, as written, over that sweep as round one.
  mkdir -p results/round1
  cp threads.jsonl results/round1/
  ex=$(example '^iobench report --json --section threads ')
  run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "set -o pipefail; $ex"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 2 ]
  [[ "${lines[0]}" =~ ^read4k\ .+\ [124]$ ]]
  [[ "${lines[1]}" =~ ^write4k\ .+\ [124]$ ]]
}

# readme_block FIRST LAST [FILE]: FILE's (docs/report.md's) indented lines from the one that starts
# with FIRST to the next that starts with LAST, unindented.
readme_block() {
  awk -v first="    $1" -v last="    $2" '
    index($0, first) == 1 { on = 1; next }
    on && index($0, last) == 1 { exit }
    on { sub(/^    /, ""); print }' "${3:-$ROOT/docs/report.md}"
}

@test "docs/report.md: a study, start to finish: the loop over three hosts, the thread curves and comparison, the box's verdict" {
  # The block as written, from its data file to the loop's done, in an empty
  # folder: a 64M file instead of 1G, 1-second runs instead of 2 (every flag kept).
  local loop
  loop=$(awk '/^    iobench create iobench\.dat 1G$/ { on = 1 }
              on { sub(/^    /, ""); print }
              on && /^done$/ { exit }' "$ROOT/docs/report.md")
  [[ "$loop" == *"mkdir -p results"* && "$loop" == *"--label config=uring-qd4"* ]]
  [ -z "$(ls -A)" ]
  loop=${loop//-d 2/-d 1}
  run env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "set -e; ${loop/iobench.dat 1G/iobench.dat 64M}"
  [ "$status" -eq 0 ]
  [ "$(cat results/box-*.jsonl | wc -l)" -eq 18 ]
  local ex
  # The report as a user first runs it: the summary opens it and answers.
  ex=$(example '^iobench report results/$')
  COLUMNS=100 run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$status" -eq 0 ]
  [ "${lines[1]}" == "Summary (the section with the evidence in [brackets]; --section NAME shows it)" ]
  # (the io_uring runs' engine and depth are settings: their config's name says them)
  # (the median of the hosts that are not bad apples: "of 3", or "of 2 of 3, box-b left out" on a noisy box)
  grep -qE '^read4k +most ops/s: config=(sync|uring-qd4)( / io_uring qd4)?, [0-9,]+ \(median host of [23]' <<<"$output"
  grep -qE '^ +config=uring-qd4 / io_uring qd4 (is [0-9.]+x|vs) config=sync' <<<"$output"
  grep -qE '^threads +optimal threads +read4k +write4k/64 +\[threads\]$' <<<"$output"
  grep -qE '^ +config=sync +[0-9]+ +[0-9]+$' <<<"$output"
  ! grep -qE '^Groups ' <<<"$output"
  [ "$(sed -n '/^Summary/,/^$/p' <<<"$output" | wc -l)" -le 40 ]
  ex=$(example '^iobench report --section threads,compare ')
  run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$status" -eq 0 ]
  [[ "$output" == *"3 files, 18 runs, 36 operations in 18 cells"* ]]
  # Six read4k rows, three hosts each, one optimum per config; no write4k/64.
  # (three hosts, or two when a loaded machine makes one a bad apple: the hosts column counts those used)
  [ "$(grep -cE '^read4k +config=(sync|uring-qd4 / io_uring qd4) .* [23] ' <<<"$output")" -eq 6 ]
  [ "$(grep -E '^read4k ' <<<"$output" | grep -cE '\*$')" -eq 2 ]
  [[ "$output" != *"write4k"* && "$output" != *"4K,4K"* ]]
  grep -qE '^read4k +ops/s +config=sync +config=uring-qd4 / io_uring qd4 ' <<<"$output"
  [[ "$output" == *"takes 29 hosts"* ]]
  # The box's expectations, as the README writes them, checked per host.
  readme_block '$ cat box.expect' '$ ' >box.expect
  [ "$(grep -c '^read4k >= 1500 iops at 4 threads$' box.expect)" -eq 1 ]
  ex=$(example '^iobench report --expect box\.expect --only ')
  run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
  [ "$(grep -cE '^(PASS|FAIL) +[23] .* box-[abc] +config=sync ' <<<"$output")" -eq 6 ]
  local passed
  passed=$(grep -cE '^PASS ' <<<"$output" || true)
  [ "${lines[-1]}" == "$( ((passed == 6)) && echo PASS || echo FAIL): $passed of 6 checks passed" ]
  [ "$status" -eq $((passed == 6 ? 0 : 1)) ]
  # Without --only, both configs of each host are judged.
  ex=$(example '^iobench report --expect box\.expect results/$')
  run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$(grep -cE '^(PASS|FAIL) +[23] .* box-[abc] +config=(sync|uring-qd4) ' <<<"$output")" -eq 12 ]
  [[ "${lines[-1]}" =~ ^(PASS|FAIL):\ [0-9]+\ of\ 12\ checks\ passed$ ]]
}

@test "README: the bonnie example writes bonnie++ lines beside a run's results" {
  command -v bonnie++ >/dev/null || skip "bonnie++ not installed (.ci/apt-fleet.txt)"
  local ex cmd
  mkdir -p ebs
  ex=$(example '^scripts/bonnie ')
  cmd=$(sed -e "s|^scripts/|$ROOT/scripts/|" -e 's|-x 3|-x 1|' -e "s|/mnt/ebs|$PWD/ebs|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  # A 64 MiB file for a 32 MiB "RAM" (the example's default: twice the RAM).
  run bash -c "$cmd -s 64M -r 32 -q"
  [ "$status" -eq 0 ]
  local f=results/r1/$(hostname)/bonnie.jsonl
  # (A file this small is written faster than bonnie++ measures: its figures
  # may be null, "+++++"; the line is there, whole.)
  [ "$(jq -r '[.tool, .host, .bonnie.fileSize, (.bonnie | has("seqOutBlockKBps"))] | @tsv' "$f")" == \
    "$(printf 'bonnie++\t%s\t64M\ttrue' "$(hostname)")" ]
  [ -s "results/r1/$(hostname)/bonnie.csv" ]
}

@test "README: the shipped study's report prints the summary the README shows, line for line" {
  local ex block
  ex=$(example '^iobench report --prices share/prices-sample\.json tests/data/study/$')
  # the README's block: from the command to the end of its indented text
  block=$(awk -v first="    \$ $ex" 'index($0, first) == 1 { on = 1; next } on && /^[^ ]/ && NF { exit } on { sub(/^    /, ""); print }' "$ROOT/README.md")
  cd "$ROOT"
  COLUMNS=100 run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$status" -eq 0 ]
  # the README shows the opening lines and the summary, as printed (the sections that follow left out)
  local shown
  shown=$(sed -n '1,/^Summary/p' <<<"$output"; sed -n '/^Summary/,/^$/p' <<<"$output" | sed 1d)
  diff <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' <<<"$block") <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' <<<"$shown")
}

@test "README: validating a fresh box: the runs, then --expect's verdict per expectation" {
  "$IOBENCH" create -q iobench.dat 64M
  readme_block '$ cat box.expect' '$ ' "$ROOT/README.md" >box.expect
  [ "$(grep -c '^read4k >= 1000 iops at 4 threads$' box.expect)" -eq 1 ]
  local ex cmd
  ex=$(example '^iobench -q --host db-7 ')
  # as written, but 1-second runs on a small file here
  cmd=$(sed -e 's|-d 20|-d 1|' -e "s|/var/tmp/iobench.dat|$PWD/iobench.dat|" <<<"$ex")
  keeps_flags "$ex" "$cmd"
  run env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$cmd"
  [ "$status" -eq 0 ]
  # each op on its own, at each count
  [ "$(wc -l <db-7.jsonl)" -eq 4 ]
  ex=$(example '^iobench report --expect box\.expect db-7\.jsonl$')
  run --separate-stderr env PATH="$(dirname "$IOBENCH"):$PATH" bash -c "$ex"
  [ "$status" -eq 0 ] || [ "$status" -eq 1 ]
  [ "$(grep -cE '^(PASS|FAIL) +[23] .* db-7 ' <<<"$output")" -eq 2 ]
  [[ "${lines[-1]}" =~ ^(PASS|FAIL):\ [0-9]\ of\ 2\ checks\ passed$ ]]
  [ "$status" -eq "$([[ ${lines[-1]} == PASS:* ]] && echo 0 || echo 1)" ]
}

@test "README: sustained, not the first minute: precondition a device, --steady rounds, the steady section; and the json-format jq line" {
  command -v losetup >/dev/null || skip "losetup not installed (.ci/apt-core.txt)"
  truncate -s 16M img
  local dev ex cmd
  dev=$(losetup --find --show img) || skip "env: no free loop device"
  LOOPDEV=$dev
  ex=$(example '^sudo iobench precondition ')
  cmd=$(sed -e "s|^sudo iobench|$IOBENCH|" -e "s|/dev/nvme1n1|$dev|" <<<"$ex")
  as_args "$cmd"
  run --separate-stderr "${ARGS[@]}"
  [ "$status" -eq 0 ]
  ex=$(example '^sudo iobench -q -o write4k -t 8 --steady ')
  # rounds of a second, a few of them, held to a rate this loaded machine keeps
  cmd=$(sed -e "s|^sudo iobench|$IOBENCH|" -e "s|/dev/nvme1n1|$dev|" -e 's|--steady-round 60|--steady-round 1|' \
    -e 's|--max-rounds 25|--max-rounds 7 --rate 800|' <<<"$ex")
  keeps_flags "$ex" "$cmd"
  as_args "$cmd"
  run --separate-stderr "${ARGS[@]}"
  [ "$status" -eq 0 ]
  local attained rounds
  attained=$(jq -r '.operations[0].steadyState.attained' steady.jsonl)
  rounds=$(jq -r '.operations[0].rounds | length' steady.jsonl)
  ((rounds >= 5 && rounds <= 7))
  if [ "$attained" = true ]; then
    [ "$(jq -r '.operations[0].steadyState.round' steady.jsonl)" -eq "$rounds" ]
    # held to 800 ops/s, the steady figure is the rate
    jq -e '.operations[0].steadyState.iops > 700 and .operations[0].steadyState.iops < 900' steady.jsonl
  else
    [ "$rounds" -eq 7 ]
    [[ $stderr == *"steady state not attained in 7 rounds"* ]]
  fi
  ex=$(example '^iobench report --section summary,steady ')
  as_args "${ex/#iobench/$IOBENCH}"
  run --separate-stderr "${ARGS[@]}"
  [ "$status" -eq 0 ]
  echo "$output"
  # what the reader reads: the steady section's row for the op, with its round
  [[ $output == *write4k* ]]
  if [ "$attained" = true ]; then
    grep -qE "write4k .*steady at round $rounds of $rounds|write4k .* $rounds +$rounds " <<<"$output"
  else
    grep -qi "not attained\|never settled\|not steady" <<<"$output"
  fi
  # docs/json-format.md's jq line on these results
  ex=$(example '^jq -c .\.operations\[\] \| \{name, steady: ')
  cp steady.jsonl results.jsonl
  run bash -c "$ex"
  [ "$status" -eq 0 ]
  jq -e --argjson r "$rounds" '.name == "write4k" and .first > 0 and (if .at then .at == $r else true end)' <<<"$output"
}

@test "README: before and after: the same run twice is no regression, JUnit with a testcase per cell" {
  "$IOBENCH" create -q iobench.dat 16M
  local ex cmd
  for side in before after; do
    ex=$(example "^iobench -q -o read4k -t 4 -d 30 -b 1 --json $side\\.jsonl ")
    # a cached file held to a rate, so that the two runs do the same; 6 s
    cmd=$(sed -e "s|^iobench|$IOBENCH|" -e "s|/var/tmp/iobench.dat|$PWD/iobench.dat|" -e 's|-d 30|-d 6 --rate 2000 --no-direct|' <<<"$ex")
    keeps_flags "$ex" "$cmd"
    as_args "$cmd"
    "${ARGS[@]}"
  done
  ex=$(example '^iobench report --baseline before\.jsonl ')
  as_args "${ex/#iobench/$IOBENCH}"
  run --separate-stderr "${ARGS[@]}"
  echo "$output"
  # held to one rate, the cells are judged on p99: exit 0 unless that regressed, 4 if it did
  [[ $status -eq 0 || $status -eq 4 ]]
  grep -qE '^read4k +4 .* paired ' <<<"$output"
  [[ $output == *"1 paired cell"* || $output == *"of 1 paired cells"* ]]
  python3 -c '
import sys, xml.etree.ElementTree as E
r = E.parse("report.xml").getroot()
cases = r.findall(".//testsuite[@name=\"baseline\"]/testcase")
fails = r.findall(".//testsuite[@name=\"baseline\"]/testcase/failure")
assert len(cases) == 1, len(cases)
sys.exit(0 if (len(fails) == 1) == (int(sys.argv[1]) == 4) else 1)' "$status"
}
