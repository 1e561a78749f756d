# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# manifest.sh - a fleet run's record, results/RUN-ID/manifest.json: its
# schema (what the run, its plan and each host's entry hold; how a host's
# status follows from its counts) in this one file, and every way
# fleet-run writes, changes and reads it back. Source it after common.sh;
# do not run it. Sourcing defines functions and variables only: no trap, no
# output, no command run. results/README.md describes the file.
#
# Every function takes the manifest FILE first (a path with its folder:
# the run's folder is the one it is in).
#
# New:        manifest_plan_json, manifest_ssh_json, manifest_host_json
#             (the parts of a new manifest), manifest_create (a new run's)
# Changes:    manifest_update (any change, then each host's status again:
#             atomic, locked; nothing with --dry-run; MANIFEST_ON_ERROR when
#             it fails), manifest_host_update (one host's entry)
# The run:    manifest_add_host, manifest_mark_running (again, on
#             --resume), manifest_close (its end), manifest_interrupt (its
#             end after Ctrl-C or a failure here)
# A host:     manifest_host_running, manifest_host_failed (the pre-flight
#             check), manifest_host_finished (runs done there),
#             manifest_host_fetched (runs back here), manifest_host_done (its
#             attempts over), manifest_host_not_fetched,
#             manifest_host_refetched (--fetch brought them back),
#             manifest_host_refused (what it sent over a bound): each an
#             event (manifest_host_event), written at once, or queued in
#             MANIFEST_QUEUE and written in a batch by manifest_apply (one
#             writer, one rewrite for many changes)
# Reading:    manifest_sane (the shape fleet-run writes, nothing planted),
#             manifest_state, manifest_plan_get, manifest_plan_list,
#             manifest_plan_joined, manifest_plan_op_threads, manifest_ssh,
#             manifest_hosts (name and login), manifest_host_names,
#             manifest_has_host, manifest_hosts_left_behind and
#             manifest_any_left_behind (hosts whose results may still be
#             there), manifest_not_ok_count, manifest_report (the closing
#             lines), manifest_summary (summary.tsv)

# MANIFEST_ON_ERROR: a command run, with the FILE, when a change to it
# fails (fleet-run's records the failure and exits); the change then fails
# (status 1). None by default.
MANIFEST_ON_ERROR=''

# The status of a host, from its counts (see results/README.md); "running"
# stays until the host's attempts are over.
_MANIFEST_JQ_DEFS='def restatus: if .status == "running" then .
  else .status = (if .fetched >= .planned then "ok"
    elif .finished > .fetched then "not-fetched"
    elif .attempts == 0 and .failure == null then "not-started"
    elif .fetched > 0 then "partial" else "failed" end) end;'

# A host that is not ok but ran or finished something: its results may
# still be on it (--fetch asks it again).
_MANIFEST_LEFT_BEHIND='.status != "ok" and (.attempts > 0 or .finished > 0)'

# ---- a new manifest ----

# manifest_plan_json OPS THREADS OP_THREADS SIZES DURATION BUCKET TARGET
# FILE_SIZE SEED RUNS LABELS EXTRA NAME REMOTE_DIR BINARY [PLAN_LINES]: the
# plan as the manifest records it (and --resume reads back). OPS, LABELS
# and EXTRA are JSON arrays of strings, OP_THREADS a JSON object (op ->
# thread list), DURATION, BUCKET, SEED and RUNS (runs per host) numbers;
# SIZES empty for none; BINARY static or dynamic; PLAN_LINES, with --plan
# FILE, the file's lines as a JSON array of strings (planLines; none
# without).
manifest_plan_json() {
  jq -cn --argjson ops "$1" --arg threads "$2" --argjson opThreads "$3" --arg sizes "$4" \
    --argjson duration "$5" --argjson bucket "$6" --arg target "$7" --arg fileSize "$8" \
    --argjson seed "$9" --argjson runs "${10}" --argjson labels "${11}" --argjson extra "${12}" \
    --arg name "${13}" --arg remoteDir "${14}" --arg binary "${15}" --argjson planLines "${16:-null}" \
    '{ops: $ops, threads: $threads, opThreads: $opThreads, sizes: (if $sizes == "" then null else $sizes end),
      duration: $duration, bucket: $bucket, target: $target, fileSize: $fileSize, seed: $seed,
      runsPerHost: $runs, labels: $labels, iobenchArgs: $extra, name: $name,
      remoteDir: $remoteDir, binary: $binary}
     + (if $planLines == null then {} else {planLines: $planLines} end)'
}

# manifest_ssh_json KEY OPTS: the ssh key and options a run was made with.
manifest_ssh_json() {
  jq -cn --arg key "$1" --arg opts "$2" '{key: $key, opts: $opts}'
}

# manifest_host_json NAME LOGIN ADDRESS PROVISION PLANNED REMOTE RESULTS: a
# host's first entry: PROVISION its provision file (none when empty),
# PLANNED its runs, REMOTE LOGIN:DIR where its results are made, RESULTS
# its results file (NAME/NAME.jsonl) in the run's folder.
# Made here, not by jq, as jq -c would (a process per host made a
# thousand hosts' start take a minute); jq reads the provision file only.
manifest_host_json() {
  local prov='' n l a r f
  [[ -z "$4" ]] || prov=,\"provision\":$(jq -c . "$4") || return 1
  manifest_json_text_to n "$1"
  manifest_json_text_to l "$2"
  manifest_json_text_to a "$3"
  manifest_json_text_to r "$6"
  manifest_json_text_to f "$7"
  printf '{"name":%s,"login":%s,"address":%s%s,"planned":%d,"finished":0,"fetched":0,"attempts":0,"status":"not-started","failure":null,"remotePath":%s,"results":%s}\n' \
    "$n" "$l" "$a" "$prov" "$5" "$r" "$f"
}

# manifest_create FILE RUN_ID PLAN SSH HOSTS: a new run's manifest (PLAN,
# SSH and HOSTS from the functions above, HOSTS an array; "-": the hosts
# on stdin, one object a line, for more than a command line holds),
# running since now (temp file and rename).
manifest_create() {
  local file=$1 hosts=$5
  [[ "$hosts" != - ]] || hosts=$(jq -cs .) || return 1
  jq -n --arg run "$2" --arg now "$(common_now_utc)" --argjson plan "$3" \
    --argjson ssh "$4" --slurpfile hosts <(printf '%s\n' "$hosts") \
    '{tool: "iobench-fleet", version: 1, runId: $run, started: $now, ended: null,
      state: "running", plan: $plan, ssh: $ssh, hosts: $hosts[0]}' >"$file.tmp"
  mv "$file.tmp" "$file"
}

# ---- changes ----

# manifest_update FILE FILTER [JQ-ARGS...]: apply FILTER to the manifest,
# then recompute every host's status (atomic, locked: common_json_update).
# Nothing with --dry-run. When the update fails, MANIFEST_ON_ERROR FILE
# runs (if set), and this fails.
manifest_update() {
  local file=$1 filter=$2
  shift 2
  [[ "$COMMON_DRY_RUN" != 1 ]] || return 0
  common_json_update "$file" "$_MANIFEST_JQ_DEFS ($filter) | .hosts |= map(restatus)" "$@" || {
    [[ -z "$MANIFEST_ON_ERROR" ]] || "$MANIFEST_ON_ERROR" "$file"
    return 1
  }
}

# manifest_host_update FILE NAME FILTER [JQ-ARGS...]: FILTER on host NAME's
# entry of the manifest (manifest_update).
# shellcheck disable=SC2016 # $name_ is a jq variable
manifest_host_update() {
  local file=$1 name=$2 filter=$3
  shift 3
  manifest_update "$file" "(.hosts[] | select(.name == \$name_)) |= ($filter)" --arg name_ "$name" "$@"
}

# manifest_add_host FILE HOST: one more host (HOST from manifest_host_json).
# shellcheck disable=SC2016 # jq variables
manifest_add_host() {
  manifest_update "$1" '.hosts += [$h]' --argjson h "$2"
}

# manifest_mark_running FILE SSH: the run goes on (--resume): running, not
# ended, with the ssh key and options of this start (manifest_ssh_json).
# shellcheck disable=SC2016 # jq variables
manifest_mark_running() {
  manifest_update "$1" '.state = "running" | .ended = null | .ssh = $ssh' --argjson ssh "$2"
}

# manifest_close FILE STATE: the run's end: STATE (complete, interrupted,
# failed, or as it was after --fetch), ended now.
# shellcheck disable=SC2016 # jq variables
manifest_close() {
  manifest_update "$1" '.state = $s | .ended = $now' --arg s "$2" --arg now "$(common_now_utc)"
}

# manifest_interrupt FILE STATE KIND DETAIL WHY: the run stopped (STATE
# interrupted or failed): each host still running is done, one attempt
# more, with the failure KIND and DETAIL; a failed run also records WHY
# (the local failure).
# shellcheck disable=SC2016 # jq variables
manifest_interrupt() {
  manifest_update "$1" '.hosts |= map(if .status == "running" then .status = "done" | .attempts += 1
      | .failure = {kind: $k, detail: $d, exit: null} else . end)
    | .state = $s | .ended = $now
    | if $s == "failed" then .failure = {kind: "local", detail: $why} else . end' \
    --arg now "$(common_now_utc)" --arg s "$2" --arg k "$3" --arg d "$4" \
    --arg why "$5"
}

# ---- a host's changes, one at a time or batched ----

# Each change to a host's entry is an event, one JSON object: {"h": NAME,
# "e": WHAT, ...}, applied by _MANIFEST_JQ_EVENT. With MANIFEST_QUEUE set
# (a file), manifest_host_event appends the event to it as one line (an
# append of one short line: background fetches of the run's one writer may
# add theirs at the same time) and manifest_apply writes a batch of them at
# once; unset, each change is written at once (manifest_update). Counts are
# capped by the plan: a host never finished or fetched more than planned,
# whatever it claims.
MANIFEST_QUEUE=''
# shellcheck disable=SC2016 # jq variables
_MANIFEST_JQ_EVENT='def event($e):
  if $e.e == "running" then .status = "running"
  elif $e.e == "failed" then .failure = {kind: $e.k, detail: $e.d, exit: $e.x} | .status = "failed"
  elif $e.e == "finished" then .finished = ([.finished, $e.d] | max)
  elif $e.e == "fetched" then .fetched = $e.f
    | .finished = ([if $e.final == 1 then 0 else .finished end, $e.r, $e.f] | max)
  elif $e.e == "done" then .attempts += $e.n | .status = "done"
    | .failure = (if $e.k == "" then null else {kind: $e.k, detail: $e.d, exit: $e.x} end)
  elif $e.e == "not-fetched" then
    if .finished > .fetched and .failure == null then
      .failure = {kind: "not-fetched", exit: null,
                  detail: "finished, results not fetched (still at \(.remotePath)/\(.name)/runs)"}
    else . end
  elif $e.e == "refetched" then if .failure.kind == "not-fetched" then .failure = null else . end
  elif $e.e == "refused" then .refused = ((.refused // []) + [$e.d] | unique | .[:20])
  else . end
  | .finished = ([.finished, .planned] | min) | .fetched = ([.fetched, .planned] | min);'

# manifest_json_text TEXT: TEXT as a JSON string (quoted, escaped; a
# control character other than tab and newline becomes "?").
manifest_json_text() {
  local t
  manifest_json_text_to t "$1"
  printf '%s' "$t"
}

# manifest_json_text_to VAR TEXT: the same into VAR (no process).
manifest_json_text_to() {
  local -n out_=$1
  local s=$2
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/\\t}
  s=${s//$'\n'/\\n}
  s=${s//[[:cntrl:]]/?}
  # shellcheck disable=SC2034 # a nameref: the caller's variable
  out_="\"$s\""
}

# manifest_host_event FILE NAME EVENT: host NAME's change EVENT, a JSON
# object without "h" ({"e": "fetched", "f": 3, "r": 3}): queued when
# MANIFEST_QUEUE is set, else written now.
# shellcheck disable=SC2016 # jq variables
manifest_host_event() {
  local file=$1 name=$2 ev=$3
  [[ "$COMMON_DRY_RUN" != 1 ]] || return 0
  if [[ -n "$MANIFEST_QUEUE" ]]; then
    local h
    manifest_json_text_to h "$name"
    printf '{"h":%s,%s\n' "$h" "${ev#\{}" >>"$MANIFEST_QUEUE" || {
      [[ -z "$MANIFEST_ON_ERROR" ]] || "$MANIFEST_ON_ERROR" "$file"
      return 1
    }
    return 0
  fi
  manifest_update "$file" "$_MANIFEST_JQ_EVENT (.hosts[] | select(.name == \$name_)) |= event(\$e)" \
    --arg name_ "$name" --argjson e "$ev"
}

# manifest_apply FILE: the events on stdin (one JSON object a line, as
# manifest_host_event queues them), applied in order in one write of the
# manifest (atomic, locked; each host's status recomputed once).
# shellcheck disable=SC2016 # jq variables
manifest_apply() {
  local file=$1 dir tmp
  [[ "$COMMON_DRY_RUN" != 1 ]] || { cat >/dev/null; return 0; }
  dir=$(dirname "$file")
  tmp=$file.tmp.$BASHPID
  (
    flock 9
    jq -n --slurpfile m "$file" "$_MANIFEST_JQ_DEFS $_MANIFEST_JQ_EVENT"'
      $m[0] | (reduce range(0; .hosts | length) as $k ({}; .[$m[0].hosts[$k].name] = $k)) as $ix
      | reduce (inputs | select(type == "object" and ($ix[.h] != null))) as $e (.; .hosts[$ix[$e.h]] |= event($e))
      | .hosts |= map(restatus)' >"$tmp" && mv "$tmp" "$file"
  ) 9<"$dir" || {
    rm -f "$tmp"
    [[ -z "$MANIFEST_ON_ERROR" ]] || "$MANIFEST_ON_ERROR" "$file"
    return 1
  }
}

# manifest_host_running FILE NAME: host NAME's job runs.
manifest_host_running() {
  manifest_host_event "$1" "$2" '{"e":"running"}'
}

# manifest_host_failed FILE NAME KIND DETAIL EXIT: host NAME failed the
# pre-flight check (EXIT a number).
manifest_host_failed() {
  local k d
  manifest_json_text_to k "$3"
  manifest_json_text_to d "$4"
  manifest_host_event "$1" "$2" "{\"e\":\"failed\",\"k\":$k,\"d\":$d,\"x\":$(($5))}"
}

# manifest_host_finished FILE NAME N: host NAME has finished N runs (a count
# never goes down).
manifest_host_finished() {
  manifest_host_event "$1" "$2" "{\"e\":\"finished\",\"d\":$(($3))}"
}

# manifest_host_fetched FILE NAME FETCHED REMOTE [final]: FETCHED of host
# NAME's runs are here, REMOTE were there when fetched (so it finished at
# least as many); "final": the host's job is over, so it finished what it
# has, whatever it said before (a "run done" line is its word only).
manifest_host_fetched() {
  local final=''
  [[ "${5:-}" != final ]] || final=',"final":1'
  manifest_host_event "$1" "$2" "{\"e\":\"fetched\",\"f\":$(($3)),\"r\":$(($4))$final}"
}

# manifest_host_done FILE NAME ATTEMPTS KIND DETAIL EXIT: host NAME's
# attempts are over, ATTEMPTS more of them; KIND empty when the last one
# succeeded, else its failure (EXIT a number or null).
manifest_host_done() {
  local x=null
  [[ "$6" == null ]] || x=$(($6))
  local k d
  manifest_json_text_to k "$4"
  manifest_json_text_to d "$5"
  manifest_host_event "$1" "$2" "{\"e\":\"done\",\"n\":$(($3)),\"k\":$k,\"d\":$d,\"x\":$x}"
}

# manifest_host_not_fetched FILE NAME: host NAME finished runs that are not
# here and has no other failure: the failure says where they are.
manifest_host_not_fetched() {
  manifest_host_event "$1" "$2" '{"e":"not-fetched"}'
}

# manifest_host_refetched FILE NAME: host NAME's runs came back (--fetch):
# a not-fetched failure goes.
manifest_host_refetched() {
  manifest_host_event "$1" "$2" '{"e":"refetched"}'
}

# manifest_host_refused FILE NAME WHAT: what host NAME sent and was not
# kept, over a limit (WHAT says which: "runs/1.result: 1.0G, over the limit
# of 64M a file"): listed in the host's "refused" (the first 20).
manifest_host_refused() {
  local d
  manifest_json_text_to d "$3"
  manifest_host_event "$1" "$2" "{\"e\":\"refused\",\"d\":$d}"
}

# ---- reading ----

# manifest_sane FILE: the run's manifest has the shape fleet-run writes (the
# plan's lists are lists of strings, hosts an array of objects) and no
# control character in any text fleet-run reads back: a newline would
# split a value in two. Neither it nor the run's logs and joblog beside it
# are symbolic links. Dies (common_die) when not.
manifest_sane() {
  local file=$1 dir=. f
  [[ "$file" != */* ]] || dir=${file%/*}
  # Read and appended to as they are: a link (to a FIFO, /proc/kmsg, a file
  # elsewhere) would hang the read or write outside the run.
  for f in "$file" "$dir/logs" "$dir/logs/fleet.log" "$dir/joblog"; do
    [[ ! -L "$f" ]] || common_die "$f is a symbolic link; fleet-run does not follow links in a results tree (remove it)"
  done
  [[ -f "$file" && ! -L "$file" ]] || common_die "$file is not a regular file; not read"
  jq -e '(.plan | type == "object") and (.hosts | type == "array")
      and all(.hosts[]; type == "object" and (.name | type == "string") and (.login | type == "string"))
      and all(.plan.ops, .plan.labels, .plan.iobenchArgs, (.plan.planLines // []); type == "array" and all(.[]; type == "string"))
      and ([(.plan, .hosts[].name, .hosts[].login, .ssh) | .. | strings
            | select(explode | any(. < 32 or . == 127))] | length == 0)' "$file" >/dev/null 2>&1 ||
    common_die "$file is not a fleet-run manifest (a list of the wrong type, or a control character in a value); not used (was it edited?)"
}

# manifest_state FILE: the run's state (running, complete, interrupted,
# failed).
manifest_state() {
  jq -r .state "$1"
}

# manifest_plan_get FILE KEY [DEFAULT]: the plan's KEY as text (null, or
# DEFAULT when given and the value is null or false).
# shellcheck disable=SC2016 # jq variables
manifest_plan_get() {
  if (($# > 2)); then
    jq -r --arg k "$2" --arg d "$3" '.plan[$k] // $d' "$1"
  else
    jq -r --arg k "$2" '.plan[$k]' "$1"
  fi
}

# manifest_plan_list FILE KEY: the plan's list KEY (labels, iobenchArgs,
# ops), an item a line.
# shellcheck disable=SC2016 # jq variables
manifest_plan_list() {
  jq -r --arg k "$2" '.plan[$k][]' "$1"
}

# manifest_plan_joined FILE KEY SEP: the plan's list KEY on one line, its
# items joined by SEP (the ops: read4k,write4k).
# shellcheck disable=SC2016 # jq variables
manifest_plan_joined() {
  jq -r --arg k "$2" --arg sep "$3" '.plan[$k] | join($sep)' "$1"
}

# manifest_plan_op_threads FILE: the plan's own thread lists of ops
# (--op-threads), "OP<TAB>LIST" a line.
manifest_plan_op_threads() {
  jq -r '(.plan.opThreads // {}) | to_entries[] | [.key, .value] | @tsv' "$1"
}

# manifest_ssh FILE key|opts: the ssh key or options the run was made with
# (empty when none).
# shellcheck disable=SC2016 # jq variables
manifest_ssh() {
  jq -r --arg f "$2" '.ssh[$f] // ""' "$1"
}

# manifest_hosts FILE: the run's hosts, "NAME<TAB>LOGIN" a line.
manifest_hosts() {
  jq -r '.hosts[] | [.name, .login] | @tsv' "$1"
}

# manifest_host_names FILE: the run's hosts' names, one a line.
manifest_host_names() {
  jq -r '.hosts[].name' "$1"
}

# manifest_has_host FILE NAME: succeeds when the run has a host NAME.
# shellcheck disable=SC2016 # jq variables
manifest_has_host() {
  jq -e --arg n "$2" 'any(.hosts[]; .name == $n)' "$1" >/dev/null
}

# manifest_hosts_left_behind FILE: the names of the hosts that are not ok
# but ran or finished something: their results may still be there.
manifest_hosts_left_behind() {
  jq -r ".hosts[] | select($_MANIFEST_LEFT_BEHIND) | .name" "$1"
}

# manifest_any_left_behind FILE: succeeds when a host's results may still
# be there (manifest_hosts_left_behind names one); fails also when FILE
# cannot be read.
manifest_any_left_behind() {
  jq -e "any(.hosts[]; $_MANIFEST_LEFT_BEHIND)" "$1" >/dev/null 2>&1
}

# manifest_not_ok_count FILE: how many hosts are not ok.
manifest_not_ok_count() {
  jq -r '.hosts[] | select(.status != "ok") | .name' "$1" | wc -l
}

# manifest_report FILE RUN_ID DIR: the run's closing lines: one per host
# that is not ok (how to --fetch what is left there), then one for the run
# (DIR: where its results are).
manifest_report() {
  jq -r --arg prog "$COMMON_PROG" --arg run "$2" '.hosts[] | select(.status != "ok")
    | if .status == "not-fetched" then
        "\($prog): host \(.name) finished \(.finished) of \(.planned) runs, results of \(.finished - .fetched) not fetched (still at \(.remotePath)/\(.name)/runs); get them with: fleet-run --fetch \($run)"
      elif .failure.kind == "interrupted" then
        "\($prog): host \(.name) interrupted: \(.fetched) of \(.planned) runs back"
      else
        "\($prog): host \(.name) FAILED\(if .status == "partial" then " (partial)" else "" end): \(.failure.kind // "-"): \(.failure.detail // "-"); \(.fetched) of \(.planned) runs back after \(.attempts) attempt(s)"
      end' "$1"
  jq -r --arg prog "$COMMON_PROG" --arg dir "$3" '
    "\($prog): run \(.runId) \(.state): \([.hosts[] | select(.status == "ok")] | length) of \(.hosts | length) hosts ok, \([.hosts[] | select(.status != "ok")] | length) not; \([.hosts[].fetched] | add) of \([.hosts[].planned] | add) runs back; results in \($dir)"' \
    "$1"
}

# manifest_summary FILE: summary.tsv: a header, then one line per host.
manifest_summary() {
  jq -r '["host", "status", "exit", "attempts", "jsonLines", "planned", "finished", "failure"],
    (.hosts[] | [.name, .status, (.failure.exit // 0), .attempts, .fetched, .planned, .finished,
                 (if .failure then "\(.failure.kind): \(.failure.detail)" else "" end)]) | @tsv' "$1"
}
