# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# aws.sh - what ec2-provision and ec2-teardown share: one way to call the
# aws CLI (region, profile, endpoint always explicit), the run-id tags, and
# the run's state file (results/<run-id>/state.json, edited with jq).
# Source it after common.sh; do not run it.

# Every resource of a run carries this tag, with the run id as its value.
AWS_TAG_KEY=iobench-run
# awscli v2 would page long output; v1 ignores this.
export AWS_PAGER=""

# Resolved by aws_setup.
AWS_REGION_USED=""
AWS_PROFILE_USED=""
AWS_ENDPOINT_USED=""
AWS_BASE=()
# File descriptor that --dry-run prints commands on (the script's stdout).
AWS_DRY_FD=1
# The state file; empty until aws_state_init (or set by the script).
AWS_STATE_FILE=""

# aws_setup REGION PROFILE ENDPOINT: resolve each from the option given, else
# the standard AWS environment, and build AWS_BASE. The endpoint is passed
# with --endpoint-url on every call: Debian's awscli ignores AWS_ENDPOINT_URL.
# shellcheck disable=SC2034 # the *_USED values are for the sourcing script
aws_setup() {
  local region=$1 profile=$2 endpoint=$3
  common_need_cmd aws awscli
  common_need_cmd jq
  common_need_cmd flock util-linux
  profile=${profile:-${AWS_PROFILE:-}}
  endpoint=${endpoint:-${AWS_ENDPOINT_URL_EC2:-${AWS_ENDPOINT_URL:-}}}
  region=${region:-${AWS_REGION:-${AWS_DEFAULT_REGION:-}}}
  if [[ -z "$region" ]]; then
    region=$(aws ${profile:+--profile "$profile"} configure get region 2>/dev/null || true)
  fi
  [[ -n "$region" ]] || common_die_usage "no AWS region; pass --region or set AWS_DEFAULT_REGION"
  [[ "$region" =~ ^[a-z0-9-]+$ ]] || common_die_usage "bad region '$region'; expected e.g. us-east-1"
  [[ -z "$endpoint" || "$endpoint" =~ ^https?://[^[:space:]]+$ ]] ||
    common_die_usage "bad endpoint URL '$endpoint'; expected http(s)://HOST[:PORT]"
  [[ "$AWS_JOBS" =~ ^[1-9][0-9]*$ ]] || common_die_usage "IOBENCH_AWS_JOBS='$AWS_JOBS' is not a positive number"
  AWS_REGION_USED=$region
  AWS_PROFILE_USED=$profile
  AWS_ENDPOINT_USED=$endpoint
  AWS_BASE=(aws --region "$region")
  [[ -z "$profile" ]] || AWS_BASE+=(--profile "$profile")
  [[ -z "$endpoint" ]] || AWS_BASE+=(--endpoint-url "$endpoint")
  AWS_BASE+=(--output json)
  # Commands printed by --dry-run go to stdout even from inside $(...).
  exec {AWS_DRY_FD}>&1
  AWS_ERR_DIR=$(mktemp -d "${TMPDIR:-/tmp}/aws-err.XXXXXX")
  common_on_exit rm -rf "$AWS_ERR_DIR"
}

# _aws ARGS...: aws ARGS with its stderr held back, and shown only when the
# call fails for a reason of its own: not when Ctrl-C ended it (the aws CLI
# then prints a Python traceback; the script says one line instead).
AWS_ERR_DIR=''
_aws() {
  local err rc=0
  [[ -n "$AWS_ERR_DIR" ]] || common_die "internal error: aws call before aws_setup"
  err=$AWS_ERR_DIR/$BASHPID.$RANDOM
  "${AWS_BASE[@]}" "$@" 2>"$err" || rc=$?
  if ((rc != 0 && rc != 130)) && ! grep -q '^KeyboardInterrupt' "$err"; then
    cat "$err" >&2
  fi
  rm -f "$err"
  return "$rc"
}

# aws_quote ARG...: print the args as one shell command line, quoting only
# where needed (more readable than printf %q for aws shorthand syntax).
aws_quote() {
  local a out=() q="'"
  for a in "$@"; do
    if [[ "$a" =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
      out+=("$a")
    else
      out+=("'${a//$q/$q\\$q$q}'")
    fi
  done
  printf '%s\n' "${out[*]}"
}

# aws_query ARGS...: a read-only aws call; runs even with --dry-run.
aws_query() {
  _aws "$@"
}

# aws_change PLACEHOLDER ARGS...: an aws call that creates, changes or waits.
# Prints its JSON output; with DRY_RUN=1 prints the command on the script's
# stdout instead and PLACEHOLDER (JSON standing in for the output) on ours.
aws_change() {
  local placeholder=$1
  shift
  if [[ "$COMMON_DRY_RUN" == 1 ]]; then
    aws_quote "${AWS_BASE[@]}" "$@" >&"$AWS_DRY_FD"
    [[ -z "$placeholder" ]] || printf '%s\n' "$placeholder"
    return 0
  fi
  _aws "$@"
}

# aws_wait WAITER IDS...: aws ec2 wait WAITER for the instances or volumes
# IDS (as aws_change: printed with --dry-run). On a terminal it says how
# many are there yet ("2 of 3 instances running") before and every 5 s
# while the waiter waits.
aws_wait() {
  local waiter=$1 opt=--instance-ids watch='' rc=0
  shift
  [[ "$waiter" != volume-* ]] || opt=--volume-ids
  if [[ "$COMMON_DRY_RUN" != 1 && "$COMMON_QUIET" != 1 && -t 2 ]]; then
    _aws_wait_progress "$waiter" "$@"
    while sleep 5; do _aws_wait_progress "$waiter" "$@"; done &
    watch=$!
  fi
  aws_change "" ec2 wait "$waiter" "$opt" "$@" || rc=$?
  # Reaped here: a later "wait -n" (aws_each_parallel) must not see it.
  if [[ -n "$watch" ]]; then
    kill "$watch" 2>/dev/null || true
    wait "$watch" 2>/dev/null || true
  fi
  return "$rc"
}

# _aws_wait_progress WAITER IDS...: one "N of M THINGS STATE" line for
# aws_wait (nothing when EC2 cannot be asked).
_aws_wait_progress() {
  local waiter=$1 n want what
  shift
  case $waiter in
    instance-running) what="instances running" want=running ;;
    instance-terminated) what="instances terminated" want=terminated ;;
    instance-status-ok) what="instances passing their status checks" want=ok ;;
    volume-available) what="volumes available" want=available ;;
    volume-in-use) what="volumes in use" want=in-use ;;
    volume-deleted) what="volumes deleted" want=deleted ;;
    *) return 0 ;;
  esac
  case $waiter in
    instance-status-ok)
      n=$(_aws ec2 describe-instance-status --include-all-instances --instance-ids "$@" 2>/dev/null |
        jq --arg w "$want" '[.InstanceStatuses[] | select(.InstanceStatus.Status == $w)] | length') ;;
    instance-*)
      n=$(_aws ec2 describe-instances --instance-ids "$@" 2>/dev/null |
        jq --arg w "$want" '[.Reservations[].Instances[] | select(.State.Name == $w)] | length') ;;
    volume-deleted)
      n=$(_aws ec2 describe-volumes --filters "Name=volume-id,Values=$(IFS=,; echo "$*")" 2>/dev/null |
        jq --argjson all "$#" '$all - (.Volumes | length)') ;;
    volume-*)
      n=$(_aws ec2 describe-volumes --volume-ids "$@" 2>/dev/null |
        jq --arg w "$want" '[.Volumes[] | select(.State == $w)] | length') ;;
  esac || return 0
  [[ -z "$n" ]] || common_progress "$n of $# $what"
}

# aws_tag_spec VAR RESOURCE-TYPE RUN-ID NAME: set VAR to a --tag-specifications value.
aws_tag_spec() {
  printf -v "$1" 'ResourceType=%s,Tags=[{Key=%s,Value=%s},{Key=Name,Value=%s}]' "$2" "$AWS_TAG_KEY" "$3" "$4"
}

# aws_valid_run_id ID: run ids become directory names and tag values.
aws_valid_run_id() {
  [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]]
}

# aws_state_init FILE JSON: create the state file (not with --dry-run).
aws_state_init() {
  AWS_STATE_FILE=$1
  [[ "$COMMON_DRY_RUN" == 1 ]] && return 0
  mkdir -p "$(dirname "$AWS_STATE_FILE")"
  printf '%s\n' "$2" | jq . >"$AWS_STATE_FILE.tmp"
  mv "$AWS_STATE_FILE.tmp" "$AWS_STATE_FILE"
}

# aws_state_update FILTER [JQ-ARGS...]: apply a jq filter to the state file in
# place, also setting .updatedAt. Atomic (a crash leaves the old or the new
# file) and locked (background jobs may update it at once). No-op with
# --dry-run or without a state file.
aws_state_update() {
  local filter=$1 tmp dir
  shift
  [[ "$COMMON_DRY_RUN" == 1 || -z "$AWS_STATE_FILE" || ! -f "$AWS_STATE_FILE" ]] && return 0
  tmp=$AWS_STATE_FILE.tmp.$BASHPID
  dir=$(dirname "$AWS_STATE_FILE")
  # The lock is on the directory: the file itself is replaced by mv.
  (
    flock 9
    jq --arg now_ "$(common_now_utc)" "$@" "($filter) | .updatedAt = \$now_" "$AWS_STATE_FILE" >"$tmp" &&
      mv "$tmp" "$AWS_STATE_FILE"
  ) 9<"$dir"
}

# How many aws calls aws_each_parallel runs at once.
AWS_JOBS=${IOBENCH_AWS_JOBS:-4}

# aws_each_parallel FUNC ITEM...: run FUNC ITEM for every item, up to AWS_JOBS at
# once (one after another with --dry-run, so commands print in order).
# Returns non-zero if any call failed; always waits for all of them.
aws_each_parallel() {
  local fn=$1 item rc=0 running=0
  shift
  if [[ "$COMMON_DRY_RUN" == 1 ]]; then
    for item; do "$fn" "$item" || rc=1; done
    return "$rc"
  fi
  for item; do
    if ((running >= AWS_JOBS)); then
      wait -n || rc=1
      running=$((running - 1))
    fi
    "$fn" "$item" &
    running=$((running + 1))
  done
  while ((running > 0)); do
    wait -n || rc=1
    running=$((running - 1))
  done
  return "$rc"
}

# aws_chunks N ITEM...: print the items comma-joined, N per line (EC2 filters
# take at most 200 values).
aws_chunks() {
  local n=$1 i
  shift
  for ((i = 1; i <= $#; i += n)); do
    local IFS=,
    printf '%s\n' "${*:i:n}"
  done
}
