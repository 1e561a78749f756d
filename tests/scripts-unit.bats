#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# scripts-unit.bats - functions of the scripts and their libraries, called
# directly: a script sourced runs nothing (its main runs only when it is
# run), so a test sources it and calls one of its functions with the values
# it wants. No iobench, host or network: jq only.
#
# Sourcing a script gives the test its set -euo pipefail (bats runs a test
# under set -e already) and its top-level variables: SCRIPT_DIR, ROOT (of
# campaign), RESULTS, ... A test sources the script it needs in its own
# body, after it has what it needs of its own.

bats_require_minimum_version 1.5.0
load lib/core

SCRIPTS_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

each_setup() {
  command -v jq >/dev/null || skip "jq not installed"
}

# libs: common.sh and manifest.sh, as fleet-run sources them; messages say
# fleet-run, and a manifest's times are fixed.
libs() {
  source "$SCRIPTS_ROOT/scripts/lib/common.sh"
  source "$SCRIPTS_ROOT/scripts/lib/manifest.sh"
  COMMON_PROG=fleet-run
  common_now_utc() { echo 2026-01-02T03:04:05Z; }
}

# new_manifest FILE: a run r1 of two hosts, db-1 (with a provision file)
# and db-2, 3 runs each.
new_manifest() {
  local file=$1 plan ssh hosts
  mkdir -p "${file%/*}"
  echo '{"instanceType":"m5.large","volumeCount":2}' >"$TMP/prov.json"
  plan=$(manifest_plan_json '["read4k","write4k"]' 1..2 '{"read4k":"1..4"}' '' 10 5 data.bin 1G 42 3 \
    '["config=a"]' '["--no-direct"]' iobench '/tmp/x/{host}' static)
  ssh=$(manifest_ssh_json /k '')
  hosts=$({
    manifest_host_json db-1 admin@10.0.0.5 10.0.0.5 "$TMP/prov.json" 3 admin@10.0.0.5:/tmp/x/db-1 db-1/iobench.jsonl
    manifest_host_json db-2 10.0.0.6 10.0.0.6 '' 3 10.0.0.6:/tmp/x/db-2 db-2/iobench.jsonl
  } | jq -cs .)
  manifest_create "$file" r1 "$plan" "$ssh" "$hosts"
}

# refuses FUNC ARG...: FUNC fails on each ARG alone.
refuses() {
  local func=$1 arg
  shift
  for arg; do
    run "$func" "$arg"
    [ "$status" -ne 0 ] || { echo "$func '$arg' was taken: $output"; return 1; }
  done
}

# host FILE NAME: host NAME's entry, compact.
host() {
  jq -c --arg n "$2" '.hosts[] | select(.name == $n)' "$1"
}

@test "every script sourced runs nothing: no output, no trap, status 0; run, it still runs main" {
  local s
  for s in scripts/bonnie scripts/campaign scripts/durability-check scripts/ec2-provision scripts/ec2-teardown \
    scripts/fleet-job scripts/fleet-run scripts/sweep-filesize scripts/sweep-threads raid/raid-create raid/raid-destroy; do
    # (trap -p also lists what was ignored on entry, as under nohup: only a
    # change counts)
    run bash -c 'set -e; before=$(trap -p); source "$1" --help; echo "sourced: $?"
      [[ "$(trap -p)" == "$before" ]] || trap -p' _ "$SCRIPTS_ROOT/$s"
    [ "$status" -eq 0 ] || { echo "$s: exit $status: $output"; return 1; }
    [ "$output" = "sourced: 0" ] || { echo "$s sourced printed: $output"; return 1; }
    # Run, main parses the arguments: a usage error is exit 2.
    run "$SCRIPTS_ROOT/$s" --no-such-option
    [ "$status" -eq 2 ] || { echo "$s --no-such-option: exit $status: $output"; return 1; }
  done
}

@test "common_expand_sizes: FROM..TO:STEP in bytes, decimal; a step of 0 or a size of 0 is refused" {
  source "$SCRIPTS_ROOT/scripts/lib/common.sh"
  [ "$(common_expand_sizes 1..4:1 | paste -sd,)" = 1,2,3,4 ]
  [ "$(common_expand_sizes 010M | paste -sd,)" = 10485760 ]
  [ "$(common_expand_sizes 1k..3k:1k,010k | paste -sd,)" = 1024,2048,3072,10240 ]
  # The last step need not land on TO.
  [ "$(common_expand_sizes 1M..4M:2M | paste -sd,)" = 1048576,3145728 ]
  refuses common_expand_sizes 1..4:0 0..4:1 0 1..0:1 1..4:1.5 1..4:-1 4G..1G:1G 1..4:1:2 1..4 ''
  # (a trailing comma is no item: read -a drops it)
  [ "$(common_expand_sizes 1..2:1, | paste -sd,)" = 1,2 ]
}

@test "common_expand_threads: 8 | 1,2,4 | 1..4,8, decimal, 1 to 4096 only" {
  source "$SCRIPTS_ROOT/scripts/lib/common.sh"
  [ "$(common_expand_threads 1..4,8 | paste -sd,)" = 1,2,3,4,8 ]
  [ "$(common_expand_threads 010,09 | paste -sd,)" = 10,9 ]
  [ "$(common_expand_threads 4096)" = 4096 ]
  refuses common_expand_threads 0 4097 4..1 1..4097 '' 1,,2 -1 1.5 1..2..3
}

@test "common_human_size: the largest binary unit that divides, the inverse of common_to_bytes" {
  source "$SCRIPTS_ROOT/scripts/lib/common.sh"
  [ "$(common_human_size 268435456)" = 256M ]
  [ "$(common_human_size 1610612736)" = 1536M ]
  [ "$(common_human_size 4294967296)" = 4G ]
  [ "$(common_human_size 3072)" = 3K ]
  [ "$(common_human_size 1099511627776)" = 1T ]
  [ "$(common_human_size 1000)" = 1000 ]
  [ "$(common_human_size 1025)" = 1025 ]
  [ "$(common_human_size 0)" = 0 ]
  local s
  for s in 4K 10M 1536M 3G 7T; do
    [ "$(common_human_size "$(common_to_bytes "$s")")" = "$s" ]
  done
}

@test "bonnie's mib: a bare number is MiB, other sizes whole MiB, 010 is ten" {
  source "$SCRIPTS_ROOT/scripts/bonnie"
  [ "$(mib 512)" = 512 ]
  [ "$(mib 010)" = 10 ]
  [ "$(mib 1G)" = 1024 ]
  [ "$(mib 4096K)" = 4 ]
  [ "$(mib 2097152k)" = 2048 ]
  refuses mib 1536K 1000000b 0.5G 1X ''
}

@test "campaign's chunk_bytes: a bare number is KiB (as mdadm takes it), else the size rule" {
  source "$SCRIPTS_ROOT/scripts/campaign"
  [ "$(chunk_bytes 512)" = 524288 ]
  [ "$(chunk_bytes 064)" = 65536 ]
  [ "$(chunk_bytes 64K)" = 65536 ]
  [ "$(chunk_bytes 1M)" = 1048576 ]
  [ "$(chunk_bytes 4096b)" = 4096 ]
  refuses chunk_bytes 1.5M 64X -1 ''
}

@test "bonnie's fact types a provision fact as iobench does: known keys by their type, others by their look" {
  source "$SCRIPTS_ROOT/scripts/bonnie"
  [ "$(fact '{}' raidChunk=64K)" = '{"raidChunk":65536}' ]
  [ "$(fact '{"a":1}' volumeSize=100)" = '{"a":1,"volumeSize":100}' ]
  [ "$(fact '{}' instanceType=123)" = '{"instanceType":"123"}' ]
  [ "$(fact '{}' ebsOptimized=true)" = '{"ebsOptimized":true}' ]
  [ "$(fact '{}' rack=1.5e3)" = '{"rack":1500}' ]
  [ "$(fact '{}' zone=false)" = '{"zone":false}' ]
  [ "$(fact '{}' note=a=b)" = '{"note":"a=b"}' ]
  fact_of_none() { fact '{}' "$1"; }
  refuses fact_of_none volumeSize=abc ebsOptimized=yes raidChunk=1.5K =x noequals
}

@test "fleet-run's home_relative and short_rate (short_rate_to)" {
  source "$SCRIPTS_ROOT/scripts/fleet-run"
  [ "$(home_relative '~')" = . ]
  [ "$(home_relative '~/')" = . ]
  [ "$(home_relative '~/runs/{host}')" = 'runs/{host}' ]
  [ "$(home_relative /tmp/x)" = /tmp/x ]
  [ "$(home_relative '~x/y')" = '~x/y' ]
  local v r a
  for v in 81234.5:81k 1234567:1.2M 1234:1.2k 812.3:812 0:0; do
    short_rate_to r "${v%%:*}"
    [ "$r" = "${v#*:}" ] || { echo "$v: $r"; return 1; }
  done
  # With no process, as awk's formula said off the ties; a tie rounds up
  # (1050 IOPS is 1.1k), an exponent goes to awk. What a hostile host may
  # put after "iops=" (fleet-run takes [0-9.e+-] only): a number too long
  # for bash's integers (it wrapped once), signs, stray points.
  for v in 0 0.4 0.6 7 812.3 999.49 999.51 1000 1049.99 1234 9999.4 9999.96 10000 81234.5 81499.9 999499.9 \
    1000000 1234567 0012.4 99999999999 1e6 2.5e+07 \
    123456789012345678901234567890 0000000000000000000000000001.5 -1 .. + 1.2.3 e; do
    short_rate_to r "$v"
    a=$(awk -v v="$v" 'BEGIN { if (v >= 1e6) printf "%.1fM", v / 1e6; else if (v >= 1e4) printf "%.0fk", v / 1e3;
                               else if (v >= 1e3) printf "%.1fk", v / 1e3; else printf "%.0f", v }')
    [ "$r" = "$a" ] || { echo "$v: $r, awk $a"; return 1; }
  done
  for v in 0.5:1 2.5:3 999.5:1000 1050:1.1k 1150:1.2k 9999.5:10.0k 81500:82k 999500:1000k 1050000:1.1M; do
    short_rate_to r "${v%%:*}"
    [ "$r" = "${v#*:}" ] || { echo "$v: $r"; return 1; }
  done
}

@test "fleet-run's plan_json and host_json: the plan and a host's first entry as the manifest records them" {
  source "$SCRIPTS_ROOT/scripts/fleet-run"
  OPS=read4k,write4k/64 THREADS=1..2 SIZES=256M..1G:256M DURATION=010 BUCKET=5 TARGET=data.bin
  FILE_SIZE=1G SEED=007 NAME=iobench REMOTE_DIR='~/fleet/{host}' LABELS=(config=a 'k=v w') EXTRA=(--no-direct)
  DYNAMIC=1 OP_THREADS[read4k]=1..4
  PLAN=("read4k 1 -" "read4k 2 -" "write4k/64 1 -")
  [ "$(plan_json)" = '{"ops":["read4k","write4k/64"],"threads":"1..2","opThreads":{"read4k":"1..4"},"sizes":"256M..1G:256M","duration":10,"bucket":5,"target":"data.bin","fileSize":"1G","seed":7,"runsPerHost":3,"labels":["config=a","k=v w"],"iobenchArgs":["--no-direct"],"name":"iobench","remoteDir":"~/fleet/{host}","binary":"dynamic"}' ]
  SIZES='' DYNAMIC=0 LABELS=() EXTRA=() OP_THREADS=()
  [ "$(plan_json | jq -c '[.sizes, .binary, .labels, .iobenchArgs, .opThreads]')" = '[null,"static",[],[],{}]' ]
  echo '{"instanceType":"i3.large"}' >"$TMP/p.json"
  LOGINS=(admin@10.0.0.5 10.0.0.6) NAMES=(db-1 10.0.0.6) ADDRS=(10.0.0.5 10.0.0.6) PROVS=("$TMP/p.json" '')
  [ "$(host_json 0)" = '{"name":"db-1","login":"admin@10.0.0.5","address":"10.0.0.5","provision":{"instanceType":"i3.large"},"planned":3,"finished":0,"fetched":0,"attempts":0,"status":"not-started","failure":null,"remotePath":"admin@10.0.0.5:fleet/db-1","results":"db-1/iobench.jsonl"}' ]
  [ "$(host_json 1 | jq -c '[has("provision"), .remotePath]')" = '[false,"10.0.0.6:fleet/10.0.0.6"]' ]
}

@test "manifest_create: a new run's manifest, running, each host not started" {
  libs
  new_manifest "$TMP/run/manifest.json"
  local m=$TMP/run/manifest.json
  [ "$(jq -c '[.tool, .version, .runId, .started, .ended, .state, (.hosts | length)]' "$m")" = \
    '["iobench-fleet",1,"r1","2026-01-02T03:04:05Z",null,"running",2]' ]
  [ "$(host "$m" db-1)" = '{"name":"db-1","login":"admin@10.0.0.5","address":"10.0.0.5","provision":{"instanceType":"m5.large","volumeCount":2},"planned":3,"finished":0,"fetched":0,"attempts":0,"status":"not-started","failure":null,"remotePath":"admin@10.0.0.5:/tmp/x/db-1","results":"db-1/iobench.jsonl"}' ]
  [ "$(jq -c .ssh "$m")" = '{"key":"/k","opts":""}' ]
  # Pretty-printed, as before the library: a line per key.
  [ "$(sed -n 2p "$m")" = '  "tool": "iobench-fleet",' ]
  [ ! -e "$m.tmp" ]
}

@test "manifest_host_*: each change to a host, and its status from its counts" {
  libs
  local m=$TMP/run/manifest.json
  new_manifest "$m"
  manifest_host_running "$m" db-1
  manifest_host_running "$m" db-2
  [ "$(jq -r '[.hosts[].status] | join(",")' "$m")" = running,running ]
  # Counts never go down; running stays running whatever they say.
  manifest_host_finished "$m" db-1 2
  manifest_host_finished "$m" db-1 1
  [ "$(host "$m" db-1 | jq .finished)" -eq 2 ]
  manifest_host_fetched "$m" db-1 1 3
  [ "$(host "$m" db-1 | jq -c '[.status, .finished, .fetched]')" = '["running",3,1]' ]
  # Attempts over: 3 finished, 1 fetched is not-fetched; then fetched, ok.
  manifest_host_done "$m" db-1 1 '' '' 0
  [ "$(host "$m" db-1 | jq -c '[.status, .attempts, .failure]')" = '["not-fetched",1,null]' ]
  manifest_host_not_fetched "$m" db-1
  [ "$(host "$m" db-1 | jq -c .failure)" = '{"kind":"not-fetched","exit":null,"detail":"finished, results not fetched (still at admin@10.0.0.5:/tmp/x/db-1/db-1/runs)"}' ]
  manifest_host_fetched "$m" db-1 3 3
  manifest_host_refetched "$m" db-1
  [ "$(host "$m" db-1 | jq -c '[.status, .failure]')" = '["ok",null]' ]
  # A failed host: partial with some runs back, failed with none.
  manifest_host_fetched "$m" db-2 1 1
  manifest_host_done "$m" db-2 2 exited 'fleet-job exited 3' 3
  [ "$(host "$m" db-2 | jq -c '[.status, .attempts, .failure]')" = '["partial",2,{"kind":"exited","detail":"fleet-job exited 3","exit":3}]' ]
  # not_fetched leaves another failure as it is.
  manifest_host_not_fetched "$m" db-2
  [ "$(host "$m" db-2 | jq -c .failure.kind)" = '"exited"' ]
  # Finished there, not here: not-fetched, whatever the failure.
  manifest_host_fetched "$m" db-2 0 0
  [ "$(host "$m" db-2 | jq -c '[.status, .finished, .fetched]')" = '["not-fetched",1,0]' ]
  # The pre-flight check's failure (exit a number): failed, nothing run.
  manifest_add_host "$m" "$(manifest_host_json db-3 db-3 db-3 '' 3 db-3:/x db-3/iobench.jsonl)"
  manifest_host_failed "$m" db-3 auth 'Permission denied' 255
  [ "$(host "$m" db-3 | jq -c '[.status, .failure]')" = '["failed",{"kind":"auth","detail":"Permission denied","exit":255}]' ]
  # The other host is never touched by a change to one.
  [ "$(host "$m" db-1 | jq -c '[.status, .attempts, .fetched]')" = '["ok",1,3]' ]
}

@test "manifest_add_host, manifest_mark_running, manifest_close and manifest_interrupt" {
  libs
  local m=$TMP/run/manifest.json
  new_manifest "$m"
  manifest_has_host "$m" db-2
  run ! manifest_has_host "$m" db-3
  manifest_add_host "$m" "$(manifest_host_json db-3 db-3 db-3 '' 3 db-3:/x db-3/iobench.jsonl)"
  manifest_has_host "$m" db-3
  [ "$(manifest_host_names "$m" | paste -sd,)" = db-1,db-2,db-3 ]
  manifest_close "$m" complete
  [ "$(jq -c '[.state, .ended]' "$m")" = '["complete","2026-01-02T03:04:05Z"]' ]
  manifest_mark_running "$m" "$(manifest_ssh_json '' '-o Port=2222')"
  [ "$(jq -c '[.state, .ended, .ssh]' "$m")" = '["running",null,{"key":"","opts":"-o Port=2222"}]' ]
  # Interrupted: a running host is done, one attempt more, with the failure.
  manifest_host_running "$m" db-1
  manifest_interrupt "$m" interrupted interrupted 'stopped by Ctrl-C or TERM' ''
  [ "$(host "$m" db-1 | jq -c '[.status, .attempts, .failure]')" = '["failed",1,{"kind":"interrupted","detail":"stopped by Ctrl-C or TERM","exit":null}]' ]
  [ "$(host "$m" db-2 | jq -c '[.status, .attempts, .failure]')" = '["not-started",0,null]' ]
  [ "$(jq -c '[.state, .failure]' "$m")" = '["interrupted",null]' ]
  # Failed here: the run's own failure is recorded too.
  manifest_interrupt "$m" failed stopped 'stopped after a failure here: x' 'no space'
  [ "$(jq -c '[.state, .failure]' "$m")" = '["failed",{"kind":"local","detail":"no space"}]' ]
}

@test "manifest_update: nothing with --dry-run; a failed change runs MANIFEST_ON_ERROR and fails, the file as it was" {
  libs
  local m=$TMP/run/manifest.json before
  new_manifest "$m"
  before=$(cat "$m")
  COMMON_DRY_RUN=1
  manifest_host_running "$m" db-1
  [ "$(cat "$m")" = "$before" ]
  COMMON_DRY_RUN=0
  on_error() { echo "on_error $*" >"$TMP/called"; }
  MANIFEST_ON_ERROR=on_error
  run manifest_update "$m" '.hosts[0].planned += "x"'
  [ "$status" -eq 1 ]
  [ "$(cat "$TMP/called")" = "on_error $m" ]
  [ "$(cat "$m")" = "$before" ]
  [ -z "$(find "$TMP/run" -name '*.tmp*')" ]
  # Without a hook, it just fails.
  MANIFEST_ON_ERROR=''
  rm "$TMP/called"
  run manifest_update "$m" 'error("no")'
  [ "$status" -eq 1 ]
  [ ! -e "$TMP/called" ]
}

@test "manifest_sane refuses a control character in a value, a list of the wrong type and links" {
  libs
  local m=$TMP/run/manifest.json
  new_manifest "$m"
  run manifest_sane "$m"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  local good edit
  good=$(cat "$m")
  for edit in '.plan.labels = ["a\nb"]' '.hosts[0].login = "x\u001b[2J"' '.plan.ops = "read4k"' \
    '.plan.iobenchArgs = [1]' '.hosts = {}' '.hosts[0].name = 3' '.ssh.opts = "-o\tx"' 'del(.plan)'; do
    jq "$edit" <<<"$good" >"$m"
    run manifest_sane "$m"
    [ "$status" -eq 1 ] || { echo "$edit was taken"; return 1; }
    [ "$output" = "fleet-run: $m is not a fleet-run manifest (a list of the wrong type, or a control character in a value); not used (was it edited?)" ]
  done
  echo "$good" >"$m"
  mkdir -p "$TMP/elsewhere"
  ln -s "$TMP/elsewhere" "$TMP/run/logs"
  run manifest_sane "$m"
  [ "$status" -eq 1 ]
  [ "$output" = "fleet-run: $TMP/run/logs is a symbolic link; fleet-run does not follow links in a results tree (remove it)" ]
  rm "$TMP/run/logs"
  mv "$m" "$TMP/elsewhere/m.json"
  ln -s "$TMP/elsewhere/m.json" "$m"
  run manifest_sane "$m"
  [ "$status" -eq 1 ]
  [[ "$output" == "fleet-run: $m is a symbolic link; "* ]]
  rm "$m"
  mkdir "$m"
  run manifest_sane "$m"
  [ "$output" = "fleet-run: $m is not a regular file; not read" ]
}

@test "manifest reading: the plan, ssh, hosts, and the hosts whose results may still be there" {
  libs
  local m=$TMP/run/manifest.json
  new_manifest "$m"
  [ "$(manifest_plan_joined "$m" ops ,)" = read4k,write4k ]
  [ "$(manifest_plan_get "$m" threads)" = 1..2 ]
  [ "$(manifest_plan_get "$m" duration)" = 10 ]
  [ "$(manifest_plan_get "$m" sizes)" = null ]
  [ "$(manifest_plan_get "$m" sizes '')" = '' ]
  [ "$(manifest_plan_list "$m" iobenchArgs)" = --no-direct ]
  [ "$(manifest_plan_op_threads "$m")" = $'read4k\t1..4' ]
  [ "$(manifest_ssh "$m" key)" = /k ]
  [ "$(manifest_ssh "$m" opts)" = '' ]
  [ "$(manifest_hosts "$m")" = $'db-1\tadmin@10.0.0.5\ndb-2\t10.0.0.6' ]
  [ "$(manifest_state "$m")" = running ]
  # Not started: nothing left there.
  [ -z "$(manifest_hosts_left_behind "$m")" ]
  run ! manifest_any_left_behind "$m"
  manifest_host_finished "$m" db-2 1
  [ "$(manifest_hosts_left_behind "$m")" = db-2 ]
  manifest_any_left_behind "$m"
  run ! manifest_any_left_behind "$TMP/none.json"
}

@test "manifest_report and manifest_summary: the closing lines and summary.tsv" {
  libs
  local m=$TMP/run/manifest.json
  new_manifest "$m"
  manifest_host_fetched "$m" db-1 3 3
  manifest_host_done "$m" db-1 1 '' '' 0
  manifest_host_finished "$m" db-2 2
  manifest_host_done "$m" db-2 1 '' '' 0
  manifest_close "$m" complete
  [ "$(manifest_not_ok_count "$m")" -eq 1 ]
  [ "$(manifest_report "$m" r1 results/r1)" = "fleet-run: host db-2 finished 2 of 3 runs, results of 2 not fetched (still at 10.0.0.6:/tmp/x/db-2/db-2/runs); get them with: fleet-run --fetch r1
fleet-run: run r1 complete: 1 of 2 hosts ok, 1 not; 3 of 6 runs back; results in results/r1" ]
  [ "$(manifest_summary "$m")" = "$(printf '%s\t' host status exit attempts jsonLines planned finished)failure
$(printf '%s\t' db-1 ok 0 1 3 3 3)
$(printf '%s\t' db-2 not-fetched 0 1 0 3 2)" ]
  # Failed, partial, interrupted.
  m=$TMP/r2/manifest.json
  new_manifest "$m"
  manifest_host_fetched "$m" db-1 1 1
  manifest_host_done "$m" db-1 2 exited 'fleet-job exited 3; see logs/db-1.log' 3
  manifest_host_failed "$m" db-2 auth 'Permission denied' 255
  [ "$(manifest_report "$m" r2 x | head -n 2)" = "fleet-run: host db-1 FAILED (partial): exited: fleet-job exited 3; see logs/db-1.log; 1 of 3 runs back after 2 attempt(s)
fleet-run: host db-2 FAILED: auth: Permission denied; 0 of 3 runs back after 0 attempt(s)" ]
  [ "$(manifest_summary "$m" | tail -n 2)" = "$(printf '%s\t' db-1 partial 3 2 1 3 1)exited: fleet-job exited 3; see logs/db-1.log
$(printf '%s\t' db-2 failed 255 0 0 3 0)auth: Permission denied" ]
  manifest_host_running "$m" db-1
  manifest_interrupt "$m" interrupted interrupted 'stopped by Ctrl-C or TERM' ''
  [ "$(manifest_report "$m" r2 x | head -n 1)" = "fleet-run: host db-1 interrupted: 1 of 3 runs back" ]
}
