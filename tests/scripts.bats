#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# scripts.bats - what every script shares (scripts/lib/common.sh): one
# option parser (--opt value and --opt=value, one-line usage errors, --help
# from the usage block) and how a script finds its libraries, the iobench
# binary and share/ when run from the source tree, through a symlink, or
# from an installed copy that has a paths.sh.

bats_require_minimum_version 1.5.0

ROOT=$BATS_TEST_DIRNAME/..
# Every script that sources scripts/lib/common.sh (fleet-job too: fleet-run
# ships the library with it).
SCRIPTS=(scripts/bonnie scripts/campaign scripts/durability-check scripts/ec2-provision scripts/ec2-teardown
  scripts/fleet-job scripts/fleet-run scripts/sweep-filesize scripts/sweep-threads
  raid/raid-create raid/raid-destroy tests/vm/build-vm tests/vm/run-vm bench/report-scale)

setup() {
  ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
  IOBENCH=${IOBENCH:-$ROOT/iobench}
  [[ -x "$IOBENCH" ]] || skip "iobench not built (make)"
  command -v jq >/dev/null || skip "jq not installed"
  cd "$BATS_TEST_TMPDIR" || return 1
}

# no_stage TEXT: TEXT without the random names of temporary folders.
no_stage() {
  sed -E 's/(fleet-run|campaign-hosts)\.[A-Za-z0-9]+/\1.X/g' <<<"$1"
}

# need_aws: skip unless the aws CLI is here.
need_aws() {
  command -v aws >/dev/null || skip "aws CLI not installed (.ci/pip-cloud.txt)"
}

# ec2_dry SCRIPT ARGS...: SCRIPT --dry-run ARGS, every aws call (there should
# be none) aimed at a closed port on 127.0.0.1, no user configuration read.
ec2_dry() {
  env -u AWS_PROFILE -u AWS_ENDPOINT_URL AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
    "$@" --dry-run --region us-east-1 --endpoint-url http://127.0.0.1:9 --results-dir "$BATS_TEST_TMPDIR/res"
}

@test "every script prints its usage block for -h and --help, and it lists both" {
  local s name
  for s in "${SCRIPTS[@]}"; do
    name=${s##*/}
    run "$ROOT/$s" --help
    [ "$status" -eq 0 ] || { echo "$s --help: exit $status: $output"; return 1; }
    [[ "${lines[0]}" == "$name - "* ]] || { echo "$s: first line '${lines[0]}'"; return 1; }
    [[ "$output" == *"usage: "* && "$output" == *"-h, --help"* ]]
    [[ "$output" != *"set -euo"* ]]
    [ "$(run "$ROOT/$s" -h; echo "$output")" == "$output" ]
  done
}

@test "an unknown option is one line 'script: unknown option ...' and exit 2, for every script" {
  local s name
  for s in "${SCRIPTS[@]}"; do
    name=${s##*/}
    run --separate-stderr "$ROOT/$s" --frobnicate
    [ "$status" -eq 2 ] || { echo "$s: exit $status"; return 1; }
    # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
    [ "$stderr" == "$name: unknown option '--frobnicate' (see $name --help)" ] ||
      { echo "$s said: $stderr"; return 1; }
    [ -z "$output" ]
    # The same with a value attached.
    run --separate-stderr "$ROOT/$s" --frobnicate=1
    [ "$stderr" == "$name: unknown option '--frobnicate' (see $name --help)" ]
  done
}

@test "a missing value, and a value given to a flag, are usage errors (exit 2)" {
  run --separate-stderr "$ROOT/scripts/sweep-filesize" --dry-run data.bin --json
  [ "$status" -eq 2 ]
  [ "$stderr" == "sweep-filesize: --json needs a value (see sweep-filesize --help)" ]
  run --separate-stderr "$ROOT/scripts/fleet-run" --hosts
  [ "$status" -eq 2 ]
  [ "$stderr" == "fleet-run: --hosts needs a value (see fleet-run --help)" ]
  # The short form is named as given.
  run --separate-stderr "$ROOT/scripts/bonnie" -x
  [ "$status" -eq 2 ]
  [ "$stderr" == "bonnie: -x needs a value (see bonnie --help)" ]
  run --separate-stderr "$ROOT/scripts/sweep-threads" --dry-run=yes data.bin
  [ "$status" -eq 2 ]
  [ "$stderr" == "sweep-threads: --dry-run takes no value (see sweep-threads --help)" ]
  run --separate-stderr "$ROOT/raid/raid-create" --force=1 --level 0
  [ "$status" -eq 2 ]
  [ "$stderr" == "raid-create: --force takes no value (see raid-create --help)" ]
}

@test "sweep-filesize: --opt=value, --opt value and -o value run the same commands" {
  local a b c
  run --separate-stderr "$ROOT/scripts/sweep-filesize" --dry-run --sizes 1M,3M --op read4m \
    --threads 2 --duration 5 --bucket 1 --label k=v data.bin
  [ "$status" -eq 0 ]
  a=$output
  [ "$(grep -c ' run ' <<<"$a")" -eq 2 ]
  [[ "$a" == *" -o read4m -t 2 -d 5 -b 1 --span 3145728 "*"--label k=v "* ]]
  run --separate-stderr "$ROOT/scripts/sweep-filesize" --dry-run --sizes=1M,3M --op=read4m \
    --threads=2 --duration=5 --bucket=1 --label=k=v data.bin
  [ "$status" -eq 0 ]
  b=$output
  # Short forms, and options after the target.
  run --separate-stderr "$ROOT/scripts/sweep-filesize" data.bin --dry-run --sizes 1M,3M -o read4m \
    -t 2 -d 5 -b 1 --label k=v
  [ "$status" -eq 0 ]
  c=$output
  [ "$a" == "$b" ]
  [ "$a" == "$c" ]
}

@test "-- ends the options: a target named like an option is a target" {
  run --separate-stderr "$ROOT/scripts/sweep-filesize" --dry-run --sizes 1M -- --odd-name
  [ "$status" -eq 0 ]
  [[ "$output" == *"--json - --odd-name" ]]
}

@test "sweep-threads and fleet-run: --opt=value runs exactly what --opt value runs" {
  local a
  run --separate-stderr "$ROOT/scripts/sweep-threads" --dry-run --id t --json t.jsonl \
    --ops read4k,write4k --threads 1,2 --seed 7 data.bin
  [ "$status" -eq 0 ]
  a=$output
  [ "$(grep -c -- '--note sweep=t' <<<"$a")" -eq 4 ]
  run --separate-stderr "$ROOT/scripts/sweep-threads" --dry-run --id=t --json=t.jsonl \
    --ops=read4k,write4k --threads=1,2 --seed=7 data.bin
  [ "$status" -eq 0 ]
  [ "$output" == "$a" ]

  command -v parallel >/dev/null || skip "GNU parallel not installed (.ci/apt-fleet.txt)"
  printf '10.0.0.1\nadmin@10.0.0.2\n' >hosts
  run --separate-stderr "$ROOT/scripts/fleet-run" --dry-run --hosts hosts --run-id r1 --seed 3 \
    --ops read4k,write4k --threads 1,2 --file-size 32M --results-dir res --remote-dir '/tmp/x/{host}'
  [ "$status" -eq 0 ]
  a=$(no_stage "$output")
  [ "$(grep -c ' plan: ' <<<"$a")" -eq 2 ]
  [[ "$a" == *"--file-size\ 32M"* ]]
  run --separate-stderr "$ROOT/scripts/fleet-run" --dry-run --hosts=hosts --run-id=r1 --seed=3 \
    --ops=read4k,write4k --threads=1,2 --file-size=32M --results-dir=res --remote-dir='/tmp/x/{host}'
  [ "$status" -eq 0 ]
  [ "$(no_stage "$output")" == "$a" ]
  [ ! -e res ]
}

@test "bonnie --from-csv: --label=K=V keeps the = inside the value" {
  run --separate-stderr "$ROOT/scripts/bonnie" --from-csv="$ROOT/tests/data/bonnie-2.00a.csv" \
    --host=h1 --label=layout=raid0 --label rack=a=b
  [ "$status" -eq 0 ]
  [ "$(wc -l <<<"$output")" -eq 2 ]
  [ "$(jq -s -c '[.[] | [.host, .labels.layout, .labels.rack]] | unique' <<<"$output")" == '[["h1","raid0","a=b"]]' ]
}

@test "ec2-provision and raid-destroy: --opt=value as --opt value" {
  local a
  need_aws
  ec2_run() { run --separate-stderr ec2_dry "$ROOT/scripts/ec2-provision" "$@"; }
  ec2_run --ami ami-12345678 --run-id r1 --count 2 --volumes 3 --volume-type gp3
  [ "$status" -eq 0 ]
  a=$output
  [ "$(grep -c 'ec2 create-volume ' <<<"$a")" -eq 6 ]
  ec2_run --ami=ami-12345678 --run-id=r1 --count=2 --volumes=3 --volume-type=gp3
  [ "$status" -eq 0 ]
  [ "$output" == "$a" ]
  ec2_run --ami ami-12345678 --run-id r1 -n 2 -m 3
  [ "$output" == "$a" ]

  run "$ROOT/raid/raid-destroy" --dry-run --name=ib-absent
  [ "$status" -eq 0 ]
  [[ "$output" == *"/dev/md/ib-absent does not exist; nothing to stop"* ]]
}

# install_copy DIR: the scripts as an installation might lay them out:
# DIR/lib/iobench/{scripts,raid} with no iobench binary and no share/
# beside them, and DIR/bin holding symlinks to them.
install_copy() {
  local dir=$1 s
  mkdir -p "$dir/lib/iobench" "$dir/bin"
  cp -r "$ROOT/scripts" "$ROOT/raid" "$dir/lib/iobench/"
  rm -f "$dir/lib/iobench/scripts/lib/paths.sh"
  for s in sweep-filesize ec2-provision; do
    ln -s "../lib/iobench/scripts/$s" "$dir/bin/$s"
  done
  ln -s ../lib/iobench/raid/raid-destroy "$dir/bin/raid-destroy"
}

# path_without_iobench: a PATH on which no iobench is found.
path_without_iobench() {
  local d out=''
  local -a dirs
  IFS=: read -r -a dirs <<<"$PATH"
  for d in "${dirs[@]}"; do
    [[ -x "$d/iobench" ]] || out+=${out:+:}$d
  done
  printf '%s' "$out"
}

@test "a script run through a symlink in another folder finds its libraries and the tree's iobench" {
  mkdir -p bin elsewhere
  ln -s "$ROOT/scripts/sweep-filesize" bin/sweep-filesize
  ln -s "$ROOT/raid/raid-destroy" bin/raid-destroy
  cd elsewhere
  run --separate-stderr env -u IOBENCH ../bin/sweep-filesize --dry-run --sizes 1M data.bin
  [ "$status" -eq 0 ]
  # The source tree's build, beside scripts/ (the link's folder has none).
  [ "$(awk '/ run / {print $1}' <<<"$output")" == "$ROOT/iobench" ]
  run ../bin/sweep-filesize --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: sweep-filesize [OPTIONS] TARGET"* ]]
  run ../bin/raid-destroy --dry-run --name ib-absent
  [ "$status" -eq 0 ]
  [[ "$output" == *"/dev/md/ib-absent does not exist"* ]]
  # $IOBENCH still comes first.
  run --separate-stderr env IOBENCH=/opt/other/iobench ../bin/sweep-filesize --dry-run --sizes 1M data.bin
  [ "$(awk '/ run / {print $1}' <<<"$output")" == /opt/other/iobench ]
}

@test "an installed copy finds iobench and share/ through its paths.sh, and says when iobench is nowhere" {
  local inst=$BATS_TEST_TMPDIR/inst
  install_copy "$inst"
  local path
  path=$(path_without_iobench)
  # No build beside the copy, no paths.sh, nothing on PATH: a clear error.
  run --separate-stderr env -u IOBENCH PATH="$path" "$inst/bin/sweep-filesize" --dry-run --sizes 1M data.bin
  [ "$status" -eq 1 ]
  [ "$stderr" == "sweep-filesize: no iobench binary; build it (make), install it, or set IOBENCH" ]
  # iobench on PATH is found.
  mkdir -p pathbin
  ln -s "$IOBENCH" pathbin/iobench
  run --separate-stderr env -u IOBENCH PATH="$PWD/pathbin:$path" "$inst/bin/sweep-filesize" --dry-run --sizes 1M data.bin
  [ "$status" -eq 0 ]
  [ "$(awk '/ run / {print $1}' <<<"$output")" == "$PWD/pathbin/iobench" ]
  # paths.sh (written at install time) comes before PATH.
  mkdir -p "$inst/share/iobench"
  jq '.instances["m5.large"] = 1.25' "$ROOT/share/prices-sample.json" >"$inst/share/iobench/prices-sample.json"
  printf 'IOBENCH_BIN=%q\nIOBENCH_DATADIR=%q\n' "$IOBENCH" "$inst/share/iobench" \
    >"$inst/lib/iobench/scripts/lib/paths.sh"
  run --separate-stderr env -u IOBENCH PATH="$PWD/pathbin:$path" "$inst/bin/sweep-filesize" --dry-run --sizes 1M data.bin
  [ "$status" -eq 0 ]
  [ "$(awk '/ run / {print $1}' <<<"$output")" == "$IOBENCH" ]
  # The raid scripts find the libraries under scripts/ beside them.
  run "$inst/bin/raid-destroy" --dry-run --name ib-absent
  [ "$status" -eq 0 ]
  # share/ comes from IOBENCH_DATADIR: the estimate uses that price list.
  need_aws
  run --separate-stderr ec2_dry "$inst/bin/ec2-provision" --ami ami-12345678 --run-id r1 -t m5.large -m 0
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"estimated cost: \$1.2500/hour for 1 x m5.large on-demand (\$1.25/h each)"* ]]
  [[ "$stderr" == *"from $inst/share/iobench/prices-sample.json"* ]]
}

@test "ec2-provision's estimate comes from share/prices-sample.json, the file iobench report --prices reads" {
  need_aws
  run --separate-stderr ec2_dry "$ROOT/scripts/ec2-provision" --ami ami-12345678 --run-id r1 \
    -n 2 -t i3.large -m 2 --volume-type gp3 --volume-size 100 --volume-iops 4000 --volume-throughput 250
  [ "$status" -eq 0 ]
  local p=$ROOT/share/prices-sample.json inst vol
  inst=$(jq '.instances["i3.large"]' "$p")
  # gp3: GB-months, and IOPS and MiB/s above the free 3000 and 125, per 730 hours.
  vol=$(jq -r '.volumes.gp3 | (100 * .perGBMonth + 1000 * .perIopsMonth + 125 * .perMiBpsMonth) / 730' "$p")
  vol=$(awk -v v="$vol" 'BEGIN { printf "%.4f", v }')
  [[ "$stderr" == *"2 x i3.large on-demand (\$$inst/h each) + 4 x gp3 100 GiB (\$$vol/h each)"* ]]
}

@test "the scripts and their libraries are shellcheck clean" {
  command -v shellcheck >/dev/null || skip "shellcheck not installed"
  cd "$ROOT"
  shellcheck -x scripts/lib/common.sh scripts/lib/aws.sh scripts/lib/manifest.sh scripts/lib/raid.sh "${SCRIPTS[@]}"
}

@test "one size rule for every script (common_to_bytes): decimal, binary units, nothing else" {
  # SIZE -> bytes, or "bad".
  local cases='
512 512
0 0
4k 4096
4K 4096
4KiB 4096
4kib 4096
4kb 4096
4ki 4096
4b 4
010M 10485760
0010m 10485760
00000000000000000000001k 1024
256M 268435456
1G 1073741824
8T 8796093022208
8388607T 9223370937343148032
8388608T bad
9223372036854775807 9223372036854775807
9223372036854775808 bad
99999999999999999999 bad
1.5G bad
-1M bad
+1M bad
4X bad
4i bad
4ib bad
M bad
1 M bad
 bad'
  local size want got
  while IFS= read -r line; do
    [[ -n "$line" ]] || continue
    size=${line% *} want=${line##* }
    got=$(bash -c 'source "$1/scripts/lib/common.sh" && common_to_bytes "$2"' _ "$ROOT" "$size") || got=bad
    [ "$got" == "$want" ] || { echo "common_to_bytes '$size': got $got, want $want"; return 1; }
  done <<<"$cases"
  # Lists: a range steps from FROM to TO; 0, a step of 0 or a range backwards is refused.
  run bash -c 'source "$1/scripts/lib/common.sh" && common_expand_sizes 010M..030M:010M,4k | paste -sd,' _ "$ROOT"
  [ "$output" == 10485760,20971520,31457280,4096 ]
  local bad
  for bad in 0 4M..1M:1M 1M..4M:0 1M.. '' 1M,,2M 1M..4M; do
    run bash -c 'source "$1/scripts/lib/common.sh" && common_expand_sizes "$2"' _ "$ROOT" "$bad"
    [ "$status" -ne 0 ] || { echo "common_expand_sizes '$bad' was taken: $output"; return 1; }
  done
}

@test "sweep-filesize, fleet-run and bonnie read 010M as 10 MiB, as iobench does (no octal)" {
  run "$ROOT/scripts/sweep-filesize" --sizes 010M,1M..2M:1M --dry-run --json x.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(grep -o -- '--span [0-9]*' <<<"$output" | paste -sd,)" == "--span 10485760,--span 1048576,--span 2097152" ]
  echo 10.0.0.1 >hosts
  run "$ROOT/scripts/fleet-run" --hosts hosts --sizes 010M --file-size 010M --dry-run --results-dir "$PWD/res" --seed 1
  [ "$status" -eq 0 ]
  [[ "$output" == *"plan: read4k 1 10485760"* ]]
  [[ "$output" == *"--file-size\\ 010M"* ]]
  mkdir bdir
  run "$ROOT/scripts/bonnie" --size 010G --dry-run bdir
  [ "$status" -eq 0 ]
  [[ "$output" == *"bonnie++ -q -f -d bdir -s 10240 "* ]]
}

@test "a thread count beyond iobench's 4096 is refused at once, by fleet-run as read from a manifest too" {
  echo 10.0.0.1 >hosts
  local t
  for t in 4097 1..100000000 99999999999999999999 1..2,0; do
    run --separate-stderr timeout 60 "$ROOT/scripts/fleet-run" --hosts hosts --threads "$t" --dry-run --results-dir "$PWD/res"
    [ "$status" -eq 2 ] || { echo "--threads $t: exit $status"; return 1; }
    [[ "$stderr" == "fleet-run: --threads $t: use 8, 1,2,4 or 1..4,8 (1 to 4096) (see fleet-run --help)" ]]
  done
  run --separate-stderr timeout 60 "$ROOT/scripts/fleet-run" --hosts hosts --threads 4096 --ops read4k --dry-run \
    --results-dir "$PWD/res" --seed 1
  [ "$status" -eq 0 ]
  # A manifest's thread list goes through the same check (--resume).
  mkdir -p res/r
  jq -n '{tool: "iobench-fleet", version: 1, runId: "r", state: "interrupted",
    plan: {ops: ["read4k"], threads: "1..100000000", opThreads: {}, sizes: null, duration: 1, bucket: 1,
           target: "data.bin", fileSize: "32M", seed: 1, labels: [], iobenchArgs: [], name: "iobench",
           remoteDir: "/srv/{host}", binary: "static"},
    ssh: {key: "", opts: ""}, hosts: [{name: "x", login: "10.0.0.9", planned: 1, finished: 0, fetched: 0,
                                        attempts: 1, status: "failed", failure: null}]}' >res/r/manifest.json
  run --separate-stderr timeout 60 "$ROOT/scripts/fleet-run" --run-id r --resume --results-dir "$PWD/res" --dry-run
  [ "$status" -eq 1 ]
  [[ "$stderr" == "fleet-run: $PWD/res/r/manifest.json: --threads 1..100000000: use 8, 1,2,4 or 1..4,8 (1 to 4096); not used (was the manifest edited?)" ]]
}
