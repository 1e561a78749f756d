# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# common.sh - what every iobench script shares. Source it; do not run it.
#
#   source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/common.sh"        (scripts/)
#   source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../scripts/lib/common.sh" (raid/)
#
# (readlink -f: a script run through a symlink, e.g. from a bin directory,
# still finds its libraries.) Sourcing defines functions and variables only:
# no trap, no output, no command run.
#
# Messages:   common_log, common_progress (live progress, on a terminal
#             only; common_eta, common_eta_text, common_seconds), common_status
#             and common_status_end (a status line: in place on a terminal,
#             a line each elsewhere), common_warn, common_die (exit 1), common_die_usage
#             (exit 2), common_need_cmd
# ssh:        common_ssh_hostkey_opts, common_ssh_keeps_keys (a run's own
#             known_hosts: new host keys accepted, changed ones refused)
# Options:    common_parse_args (one parser for every script, driven by the
#             script's usage block), common_usage (--help)
# Side effects: common_run (run, or print with --dry-run), common_trap_exit
#             and common_on_exit (a cleanup stack run by the EXIT trap)
# Files:      common_json_update (a JSON file rewritten atomically, locked),
#             common_json_array (strings to a JSON array), common_valid_id
#             (run ids and host names: safe folder names), common_valid_login
#             (ssh logins), common_plain_text (no control characters)
# Sizes:      common_to_bytes (4k, 256M, 1G in bytes), common_expand_sizes
#             (256M,1G or FROM..TO:STEP), common_human_size (bytes as 256M)
# The study: COMMON_STUDY_* (its first round's ops and thread counts),
#             common_shuffle (a seeded order), common_thread_optimum (the
#             report's optimal thread count per op and config)
# Locations:  common_iobench (the iobench binary), common_iobench_static (its
#             static build, for other hosts), common_data_file (files of
#             share/), common_results_dir
#
# Installed copies find the binary and share/ through paths.sh, a file beside
# this one written at install time (none in the source tree), which may set
#   IOBENCH_BIN=/usr/local/bin/iobench
#   IOBENCH_STATIC_BIN=/usr/local/libexec/iobench/iobench-static
#   IOBENCH_DATADIR=/usr/local/share/iobench

# The script's name, for messages.
COMMON_PROG=${0##*/}
# 1 after --dry-run: common_run prints commands instead of running them.
COMMON_DRY_RUN=0
# 1 after -q/--quiet: common_log stays silent.
COMMON_QUIET=0
# The positional arguments common_parse_args found (options removed).
COMMON_ARGS=()
# _common_real_to VAR PATH: PATH made absolute, its . and .. resolved and
# every link on the way followed, into VAR: what readlink -f says, without
# a process when no folder or file on the way is a link (each fleet host
# starts fleet-job twice a run, where a process costs).
# shellcheck disable=SC2034 # r_ is a nameref: the caller's variable
_common_real_to() {
  local -n r_=$1
  local p=$2 out='' c
  local -a parts
  [[ $p == /* ]] || p=$PWD/$p
  if [[ $p != *$'\n'* ]]; then
    IFS=/ read -r -a parts <<<"$p"
    for c in "${parts[@]}"; do
      case $c in
        '' | .) ;;
        ..) out=${out%/*} ;;
        *)
          out+=/$c
          [[ ! -L $out ]] || break
          continue ;;
      esac
    done
    [[ ! -L $out ]] && { r_=${out:-/}; return 0; }
  fi
  r_=$(readlink -f -- "$2")
}

# This library's directory, and the top of the tree it sits in (the source
# tree when run from a checkout).
_common_real_to COMMON_LIB_DIR "${BASH_SOURCE[0]}"
COMMON_LIB_DIR=${COMMON_LIB_DIR%/*}
COMMON_ROOT=${COMMON_LIB_DIR%/*}
COMMON_ROOT=${COMMON_ROOT%/*}
COMMON_ROOT=${COMMON_ROOT:-/}

# ---- messages ----

# common_log MESSAGE...: progress on stderr (silent after -q).
common_log() {
  _common_status_clear
  [[ "$COMMON_QUIET" == 1 ]] || printf '%s: %s\n' "$COMMON_PROG" "$*" >&2
}

# common_progress MESSAGE...: where a long step is ("pre-flight: 3 of 4
# hosts checked"), on stderr when it is a terminal and not after -q: a log
# file or a pipe gets none of these (messages that matter afterwards use
# common_log or common_status).
common_progress() {
  _common_status_clear
  [[ "$COMMON_QUIET" == 1 || ! -t 2 ]] || printf '%s: %s\n' "$COMMON_PROG" "$*" >&2
}

# common_status MESSAGE...: a status line of a long step ("12/48 runs done,
# ..., ETA 5 min"), not after -q. On a terminal it is one line, rewritten in
# place by each call (cut to the terminal's width: a wrapped line would not
# be); elsewhere (a log file, CI, nohup) a line of its own each call, so the
# caller calls it every so many seconds, not at every event. Any other
# message first clears the line in place; common_status_end keeps it.
_COMMON_STATUS_SHOWN=0 _COMMON_COLS=''
common_status() {
  [[ "$COMMON_QUIET" != 1 ]] || return 0
  local line="$COMMON_PROG: $*"
  if [[ -t 2 ]]; then
    if [[ -z $_COMMON_COLS ]]; then
      _COMMON_COLS=$(stty size <&2 2>/dev/null | awk '{print $2 + 0}') || true
      [[ $_COMMON_COLS =~ ^[0-9]+$ ]] || _COMMON_COLS=0
    fi
    ((_COMMON_COLS < 2)) || line=${line:0:_COMMON_COLS-1}
    printf '\r%s\033[K' "$line" >&2
    _COMMON_STATUS_SHOWN=1
  else
    printf '%s\n' "$line" >&2
  fi
}

# common_status_end: the status line in place, if any, stays and is ended:
# what follows starts on a line of its own.
common_status_end() {
  ((_COMMON_STATUS_SHOWN == 0)) || printf '\n' >&2
  _COMMON_STATUS_SHOWN=0
}

# _common_status_clear: the status line in place, if any, goes (before
# another message takes its place).
_common_status_clear() {
  ((_COMMON_STATUS_SHOWN == 0)) || printf '\r\033[K' >&2
  _COMMON_STATUS_SHOWN=0
}

# common_seconds DURATION: whole seconds in an iobench duration (60, 90s,
# 5m, 1h; a fraction counts as its whole part); 60 when it is none of these.
common_seconds() {
  local n=60
  if [[ "$1" =~ ^([0-9]+)(\.[0-9]*)?([smh]?)$ ]]; then
    n=$((10#${BASH_REMATCH[1]}))
    case ${BASH_REMATCH[3]} in
      m) n=$((n * 60)) ;;
      h) n=$((n * 3600)) ;;
    esac
  fi
  echo "$n"
}

# common_check_steady STEADY [OPTION VALUE]...: --steady's options (the
# pairs of --steady-round, --steady-window, --max-rounds, --steady-on) as
# iobench run takes them, checked before anything starts (a usage error
# otherwise); STEADY 1 when --steady was given (its options need it).
common_check_steady() {
  local steady=$1 o v window=5 rounds=25
  shift
  while (($# >= 2)); do
    o=$1 v=$2
    shift 2
    ((steady)) || common_die_usage "$o needs --steady"
    case $o in
      --steady-round)
        [[ "$v" =~ ^[0-9]+(\.[0-9]+)?$ && ! "$v" =~ ^0+(\.0*)?$ ]] ||
          common_die_usage "--steady-round $(common_shown "$v"): seconds, more than 0 (60, 0.5)" ;;
      --steady-window | --max-rounds)
        if [[ ! "$v" =~ ^[0-9]{1,4}$ ]] || ((10#$v < 3 || 10#$v > 1000)); then
          common_die_usage "$o $(common_shown "$v"): a whole number, 3 to 1000"
        fi
        if [[ $o == --steady-window ]]; then window=$((10#$v)); else rounds=$((10#$v)); fi ;;
      --steady-on)
        [[ "$v" == iops || "$v" == lat ]] || common_die_usage "--steady-on $(common_shown "$v"): iops or lat" ;;
    esac
  done
  ((rounds >= window)) ||
    common_die_usage "--max-rounds $rounds is fewer than --steady-window $window: steady state is judged over a whole window"
}

# common_steady_words STEADY DURATION [OPTION VALUE]...: checked by
# common_check_steady, the iobench words of --steady for every run, one a
# line (none without --steady): a round is DURATION long unless
# --steady-round says otherwise.
common_steady_words() {
  local steady=$1 duration=$2
  shift 2
  common_check_steady "$steady" "$@"
  ((steady)) || return 0
  printf '%s\n' --steady
  [[ " $* " == *" --steady-round "* ]] || printf '%s\n' --steady-round "$duration"
  (($# == 0)) || printf '%s\n' "$@"
}

# common_eta I N START EACH: "ETA 4 min" (or "ETA 40 s") before step I of N
# of a loop that began at $SECONDS START: the steps left take as long as
# those so far took on average (EACH seconds each before the first is done).
common_eta() {
  local i=$1 n=$2 start=$3 each=$4
  ((i <= 1)) || each=$(((SECONDS - start) / (i - 1)))
  common_eta_text $(((n - i + 1) * each))
}

# common_eta_text SECONDS: "ETA 4 min", or "ETA 40 s" under two minutes.
common_eta_text() {
  if (($1 >= 120)); then
    echo "ETA $((($1 + 30) / 60)) min"
  else
    echo "ETA $1 s"
  fi
}

# common_warn MESSAGE...: a warning on stderr, always shown.
common_warn() {
  _common_status_clear
  printf '%s: warning: %s\n' "$COMMON_PROG" "$*" >&2
}

# common_die MESSAGE...: one-line runtime error, exit 1.
common_die() {
  _common_status_clear
  printf '%s: %s\n' "$COMMON_PROG" "$*" >&2
  exit 1
}

# common_die_usage MESSAGE...: one-line usage error, exit 2.
common_die_usage() {
  _common_status_clear
  printf '%s: %s (see %s --help)\n' "$COMMON_PROG" "$*" "$COMMON_PROG" >&2
  exit 2
}

# common_need_cmd CMD [PACKAGE]: die unless CMD is on PATH.
common_need_cmd() {
  command -v "$1" >/dev/null 2>&1 ||
    common_die "$1 not found; install ${2:-$1} (Debian: apt-get install ${2:-$1})"
}

# common_ssh_keeps_keys OPTS: succeeds when ssh, given the user's ssh
# options OPTS (--ssh-opts), is to keep the hosts' keys in a file of ours:
# OPTS name no UserKnownHostsFile of their own.
common_ssh_keeps_keys() {
  [[ "${1,,}" != *userknownhostsfile* ]]
}

# common_ssh_hostkey_opts FILE OPTS: the ssh options, one word a line, that
# keep the hosts' keys in FILE (a run's known_hosts, kept with its
# results): a host's key is accepted on first contact and must be the same
# ever after (StrictHostKeyChecking=accept-new), so a fresh cloud instance
# needs no StrictHostKeyChecking=no and a changed key is refused. Unhashed,
# so that a line can be found and deleted. What the user's options OPTS set
# themselves (StrictHostKeyChecking, UserKnownHostsFile) is left out: theirs
# wins (ssh takes the first value of an option).
common_ssh_hostkey_opts() {
  local file=$1
  if common_ssh_keeps_keys "$2"; then
    # ssh expands %-tokens in the name, and a space would make it two files.
    file=${file//%/%%}
    [[ "$file" != *' '* ]] || file="\"$file\""
    printf '%s\n' -o "UserKnownHostsFile=$file" -o HashKnownHosts=no
  fi
  [[ "${2,,}" == *stricthostkeychecking* ]] || printf '%s\n' -o StrictHostKeyChecking=accept-new
}

# common_now_utc: the time as 2026-11-21T23:45:00Z.
common_now_utc() {
  date -u +%Y-%m-%dT%H:%M:%SZ
}

# ---- options ----

# common_usage: print the script's usage block: its leading comment (after
# the shebang) without the "# " prefixes. It is the script's --help, and
# common_parse_args reads the options from it.
common_usage() {
  local src
  _common_usage_block
  src=${_COMMON_SELF##*/}
  # Installed, the script runs as iobench-NAME: its help says that name.
  if [[ $COMMON_PROG != "$src" ]]; then
    printf '%s\n' "${_COMMON_USAGE[@]}" |
      sed -E "s/(^|[ (\`])$src( |\$)/\1$COMMON_PROG\2/g; s/(^|[ (\`])$src( |\$)/\1$COMMON_PROG\2/g"
  else
    printf '%s\n' "${_COMMON_USAGE[@]}"
  fi
}

# _common_usage_block: _COMMON_USAGE, the lines of the script's leading
# comment from its second line (the first is the shebang) to the first
# line that is no comment, without the SPDX line and the "# " prefixes;
# _COMMON_SELF, the script's path, links followed. Read from the file
# itself, no process, no pipe (bash reads a pipe a byte at a time: 4,500
# reads for fleet-job's options, twice on every host of a fleet).
_COMMON_USAGE=() _COMMON_SELF=''
_common_usage_block() {
  [[ -z $_COMMON_SELF ]] || return 0
  local line n=0
  _common_real_to _COMMON_SELF "$0"
  while IFS= read -r line || [[ -n $line ]]; do
    ((++n > 1)) || continue
    [[ $line == '#'* ]] || break
    [[ $line != *SPDX-License-Identifier* ]] || continue
    line=${line#'#'}
    _COMMON_USAGE+=("${line#' '}")
  done <"$_COMMON_SELF"
}

# Option table of the script, read from its usage block once:
# _COMMON_TAKES[NAME] is 1 when option NAME takes a value, else 0 (NAME is
# the long form, or the short one when there is no long form);
# _COMMON_NAME[FORM] maps each form (-d, --duration) to NAME.
declare -A _COMMON_TAKES=() _COMMON_NAME=()
_common_options_load() {
  ((${#_COMMON_NAME[@]} == 0)) || return 0
  # An option line: indented, "-s, --long ARG", "--long ARG", "-s ARG" or
  # without ARG (a flag), then two spaces and its description (or nothing).
  # ARG is one word in capitals (FILE, S, K=V).
  local re='^ +((-[A-Za-z0-9])(, (--[a-z0-9][a-z0-9-]*))?|(--[a-z0-9][a-z0-9-]*))( [A-Z][^ ]*)?(  |$)'
  # An option and its ARG followed by one space only: a typo that would
  # lose the option ("--group SG security group"); said, not skipped.
  local typo='^ +(-[A-Za-z0-9], )?--?[A-Za-z0-9][a-z0-9-]* [A-Z][^ ]* [^ ]'
  local line short long name
  _common_usage_block
  for line in "${_COMMON_USAGE[@]}"; do
    # Both patterns want spaces, then "-": any other line is skipped
    # without a regex (bash compiles one at each match: a script's start).
    [[ $line == ' '* && ${line#"${line%%[! ]*}"} == -* ]] || continue
    if ! [[ "$line" =~ $re ]]; then
      [[ ! "$line" =~ $typo ]] || common_die "internal error: two spaces wanted after the option in: $line"
      continue
    fi
    short=${BASH_REMATCH[2]} long=${BASH_REMATCH[4]}${BASH_REMATCH[5]}
    name=${long:-$short}
    _COMMON_TAKES[$name]=0
    [[ -z "${BASH_REMATCH[6]}" ]] || _COMMON_TAKES[$name]=1
    _COMMON_NAME[$name]=$name
    [[ -z "$short" ]] || _COMMON_NAME[$short]=$name
  done
  ((${#_COMMON_NAME[@]} > 0)) || common_die "internal error: no options in the usage block of $0"
}

# common_parse_args HANDLER ARG...: the one option parser of every script.
# The options are those of the script's usage block (common_usage). Accepts
# "--opt value", "--opt=value" and "-o value"; "--" ends the options.
# Handles -h/--help (prints the usage block, exit 0), --dry-run (sets
# COMMON_DRY_RUN) and -q/--quiet (COMMON_QUIET) itself, when the usage block
# lists them; calls HANDLER NAME VALUE for every other option, in order, with
# NAME its long form (VALUE empty for flags); HANDLER returns non-zero for an
# option it does not know. Positional arguments, wherever they stand, go to
# COMMON_ARGS. Unknown options, a missing value or a value given to a flag
# are usage errors (one line, exit 2). HANDLER runs in a || list, so without
# set -e: it checks what can fail itself (common_die_usage on a bad value).
common_parse_args() {
  local handler=$1 arg name value
  shift
  _common_options_load
  COMMON_ARGS=()
  while (($#)); do
    arg=$1
    shift
    case $arg in
      --) COMMON_ARGS+=("$@"); break ;;
      --*=*) name=${arg%%=*} value=${arg#*=} ;;
      -?*) name=$arg value='' ;;
      *) COMMON_ARGS+=("$arg"); continue ;;
    esac
    [[ -n "${_COMMON_NAME[$name]-}" ]] || common_die_usage "unknown option '$name'"
    if [[ "${_COMMON_TAKES[${_COMMON_NAME[$name]}]}" == 1 ]]; then
      if [[ "$arg" != *=* ]]; then
        (($#)) || common_die_usage "$name needs a value"
        value=$1
        shift
      fi
    elif [[ "$arg" == *=* ]]; then
      common_die_usage "$name takes no value"
    fi
    name=${_COMMON_NAME[$name]}
    case $name in
      --help | -h) common_usage; exit 0 ;;
      --dry-run) COMMON_DRY_RUN=1 ;;
      --quiet) COMMON_QUIET=1 ;;
      *) "$handler" "$name" "$value" ||
        common_die "internal error: option $name is in the usage block but not handled" ;;
    esac
  done
}

# ---- side effects ----

# common_run CMD ARGS...: run a command, or after --dry-run print it
# (shell-quoted) on stdout.
common_run() {
  if [[ "$COMMON_DRY_RUN" == 1 ]]; then
    local out
    printf -v out '%q ' "$@"
    printf '%s\n' "${out% }"
    return 0
  fi
  "$@"
}

# Cleanup stack: common_trap_exit installs the traps (every script calls it
# first thing in main): on exit, whatever the cause, the commands registered
# with common_on_exit run, last registered first; Ctrl-C exits 130 and TERM
# 143 (also after a child that handled the signal itself, such as iobench).
# The commands' own failures are reported, not fatal.
# COMMON_INTERRUPTED is 130 after Ctrl-C, 143 after TERM (else 0), for
# cleanups that say less about an interrupt than about a failure.
_COMMON_ON_EXIT=()
_COMMON_TRAPPED=0
# shellcheck disable=SC2034 # read by the sourcing scripts' cleanups
COMMON_INTERRUPTED=0
common_trap_exit() {
  trap _common_run_on_exit EXIT
  trap 'COMMON_INTERRUPTED=130; exit 130' INT
  trap 'COMMON_INTERRUPTED=143; exit 143' TERM
  _COMMON_TRAPPED=1
}

# common_on_exit CMD ARGS...: run CMD ARGS when the script exits.
common_on_exit() {
  local cmd
  [[ "$_COMMON_TRAPPED" == 1 ]] || common_die "internal error: common_on_exit before common_trap_exit"
  printf -v cmd '%q ' "$@"
  _COMMON_ON_EXIT+=("$cmd")
}

_common_run_on_exit() {
  local rc=$? i
  trap - EXIT
  for ((i = ${#_COMMON_ON_EXIT[@]} - 1; i >= 0; i--)); do
    eval "${_COMMON_ON_EXIT[i]}" || common_warn "cleanup failed: ${_COMMON_ON_EXIT[i]}"
  done
  exit "$rc"
}

# ---- files ----

# common_json_update FILE FILTER [JQ-ARGS...]: apply a jq filter to the JSON
# file FILE in place. Atomic (a reader or a crash sees the old or the new
# file, never half of one: temp file and rename) and locked (background jobs
# may update it at once: flock on the folder, as the file itself is
# replaced). Fails, leaving FILE as it was, when jq does.
common_json_update() {
  local file=$1 filter=$2 dir tmp
  shift 2
  dir=$(dirname "$file")
  tmp=$file.tmp.$BASHPID
  (
    flock 9
    jq "$@" "$filter" "$file" >"$tmp" && mv "$tmp" "$file"
  ) 9<"$dir" || {
    rm -f "$tmp"
    return 1
  }
}

# common_valid_id TEXT: succeeds when TEXT can name a folder of results (a
# run id, a host name): letters, digits, . _ - and not starting with a dot
# or a dash (no "..", no hidden folders, no path, never an option to the
# commands it reaches: tar -C, rm -rf, ssh).
common_valid_id() {
  [[ "$1" =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]]
}

# common_valid_login TEXT: succeeds when TEXT is an ssh login as the hosts
# files take it: ADDRESS or USER@ADDRESS, USER letters, digits, . _ -,
# ADDRESS a name or an IPv4/IPv6 address; neither starts with a dash (ssh
# would take "-oProxyCommand=..." or "-Jx" as an option) and there is no
# space, no "=" and no control character.
common_valid_login() {
  [[ "$1" =~ ^([A-Za-z0-9_][A-Za-z0-9._-]*@)?[A-Za-z0-9_:][A-Za-z0-9._:-]*$ ]]
}

# common_plain_text TEXT: succeeds when TEXT holds no control character (a
# newline in a label or a path would split the lines the scripts and the
# hosts exchange).
common_plain_text() {
  [[ "$1" != *[[:cntrl:]]* ]]
}

# common_shown TEXT: TEXT for a message: as it is, or shell-quoted ($'a\nb')
# when it holds a control character, which would break the line or reach
# the terminal.
common_shown() {
  if common_plain_text "$1"; then printf '%s' "$1"; else printf '%q' "$1"; fi
}

# common_json_array VALUE...: the VALUEs as one JSON array of strings (any
# text, even "--no-direct": jq 1.6 takes what follows --args as its own
# options, so the values go in as --arg).
common_json_array() {
  local -a args=()
  local expr='' i=0 v
  for v; do
    args+=(--arg "v$i" "$v")
    expr+="${expr:+,}\$v$i"
    i=$((i + 1))
  done
  jq -cn "${args[@]}" "[$expr]"
}

# common_to_bytes SIZE: bytes in SIZE: a whole number, decimal (010M is 10
# MiB, never octal), then an optional binary unit k m g t (any case, with
# or without i, b or ib: 4k 4K 4KiB 4kb are 4096); fails on anything else
# (1.5G, -1M, 4X, a value that would overflow 2^63).
common_to_bytes() {
  local s=${1,,} n mult=1
  [[ "$s" =~ ^([0-9]+)([kmgt]?)(ib|i|b)?$ ]] || return 1
  [[ -n "${BASH_REMATCH[2]}" || -z "${BASH_REMATCH[3]}" || "${BASH_REMATCH[3]}" == b ]] || return 1
  n=${BASH_REMATCH[1]}
  n=${n#"${n%%[!0]*}"}
  n=${n:-0}
  # Above 2^63 - 1 bash would wrap around: 19 digits compared in two parts.
  local max=9223372036854775807
  ((${#n} < 19)) || { ((${#n} == 19)) && ((${n:0:18} < ${max:0:18} || (${n:0:18} == ${max:0:18} && ${n:18} <= 7))); } ||
    return 1
  case ${BASH_REMATCH[2]} in
    k) mult=1024 ;;
    m) mult=$((1024 ** 2)) ;;
    g) mult=$((1024 ** 3)) ;;
    t) mult=$((1024 ** 4)) ;;
  esac
  ((n <= max / mult)) || return 1
  echo $((n * mult))
}

# common_expand_sizes LIST: one size in bytes a line from 256M,1G or
# FROM..TO:STEP (sizes as common_to_bytes takes them, each above 0); fails
# on anything else.
common_expand_sizes() {
  local item from to step b
  local -a items
  IFS=, read -r -a items <<<"$1"
  ((${#items[@]} > 0)) || return 1
  for item in "${items[@]}"; do
    if [[ "$item" =~ ^([^.:]+)\.\.([^.:]+):([^.:]+)$ ]]; then
      from=$(common_to_bytes "${BASH_REMATCH[1]}") || return 1
      to=$(common_to_bytes "${BASH_REMATCH[2]}") || return 1
      step=$(common_to_bytes "${BASH_REMATCH[3]}") || return 1
      ((from > 0 && step > 0 && from <= to)) || return 1
      for ((b = from; b <= to; b += step)); do echo "$b"; done
    else
      b=$(common_to_bytes "$item") || return 1
      ((b > 0)) || return 1
      echo "$b"
    fi
  done
}

# common_human_size BYTES: BYTES in the largest binary unit that divides
# them (256M, 1536M, 4G, 3K), as a size option takes it; BYTES as they are
# when no unit does (1000, 0).
common_human_size() {
  local b=$1 u=(T G M K) d=$((1024 ** 4)) i
  for i in 0 1 2 3; do
    if ((b >= d && b % d == 0)); then
      echo "$((b / d))${u[i]}"
      return
    fi
    d=$((d / 1024))
  done
  echo "$b"
}

# ---- locations ----

# _common_installed VAR: VAR as paths.sh (written at install time beside
# this library) sets it; nothing without paths.sh.
_common_installed() {
  [[ -f "$COMMON_LIB_DIR/paths.sh" ]] || return 0
  (
    # shellcheck source=/dev/null # written at install time
    source "$COMMON_LIB_DIR/paths.sh"
    printf '%s' "${!1-}"
  )
}

# common_iobench [--runs]: print the iobench binary to use: $IOBENCH if set;
# else the source tree's build (./iobench beside scripts/); else IOBENCH_BIN
# of paths.sh; else iobench on PATH. Fails with a message when there is none,
# or when $IOBENCH names no program (in a dry run only with --runs: the
# script runs iobench even then, e.g. to check its plan).
# shellcheck disable=SC2120 # the argument is optional
common_iobench() {
  local bin
  if [[ -n "${IOBENCH:-}" ]]; then
    # A typo here would surface hours later as a bare bash error. A dry run
    # only prints the commands (maybe for another box): any name will do.
    if [[ "$COMMON_DRY_RUN" != 1 || "${1:-}" == --runs ]] && ! command -v -- "$IOBENCH" >/dev/null; then
      printf '%s: IOBENCH=%s is not an executable; point it at an iobench binary, or unset it\n' \
        "$COMMON_PROG" "$IOBENCH" >&2
      return 1
    fi
    printf '%s\n' "$IOBENCH"
    return 0
  fi
  if [[ -x "$COMMON_ROOT/iobench" && -f "$COMMON_ROOT/iobench" ]]; then
    printf '%s\n' "$COMMON_ROOT/iobench"
    return 0
  fi
  bin=$(_common_installed IOBENCH_BIN)
  if [[ -n "$bin" ]]; then
    printf '%s\n' "$bin"
    return 0
  fi
  if bin=$(command -v iobench); then
    printf '%s\n' "$bin"
    return 0
  fi
  printf '%s: no iobench binary; build it (make), install it, or set IOBENCH\n' "$COMMON_PROG" >&2
  return 1
}

# common_iobench_static: print the static iobench build (runs on any x86-64
# Linux, whatever its C library: what goes to other hosts): $IOBENCH_STATIC
# if set; else the source tree's ./iobench-static (make static); else
# IOBENCH_STATIC_BIN of paths.sh. Fails with a message when there is none.
common_iobench_static() {
  local bin
  if [[ -n "${IOBENCH_STATIC:-}" ]]; then
    printf '%s\n' "$IOBENCH_STATIC"
    return 0
  fi
  if [[ -x "$COMMON_ROOT/iobench-static" && -f "$COMMON_ROOT/iobench-static" ]]; then
    printf '%s\n' "$COMMON_ROOT/iobench-static"
    return 0
  fi
  bin=$(_common_installed IOBENCH_STATIC_BIN)
  if [[ -n "$bin" && -x "$bin" ]]; then
    printf '%s\n' "$bin"
    return 0
  fi
  printf '%s: no static iobench (iobench-static); build it with make static (and make install), set IOBENCH_STATIC, or ship the dynamic build with --dynamic (the hosts must then run this OS)\n' "$COMMON_PROG" >&2
  return 1
}

# common_data_file NAME: print the path of NAME from share/: the source
# tree's share/, else IOBENCH_DATADIR of paths.sh. Fails with a message when
# there is none.
common_data_file() {
  local dir
  if [[ -f "$COMMON_ROOT/share/$1" ]]; then
    printf '%s\n' "$COMMON_ROOT/share/$1"
    return 0
  fi
  dir=$(_common_installed IOBENCH_DATADIR)
  if [[ -n "$dir" && -f "$dir/$1" ]]; then
    printf '%s\n' "$dir/$1"
    return 0
  fi
  printf '%s: %s not found in %s/share or the installed data directory; reinstall iobench\n' \
    "$COMMON_PROG" "$1" "$COMMON_ROOT" >&2
  return 1
}

# common_results_dir: where runs land unless --results-dir says otherwise:
# $IOBENCH_RESULTS, else the source tree's results/, else ./results.
common_results_dir() {
  if [[ -n "${IOBENCH_RESULTS:-}" ]]; then
    printf '%s\n' "$IOBENCH_RESULTS"
  elif [[ -d "$COMMON_ROOT/results" ]]; then
    printf '%s\n' "$COMMON_ROOT/results"
  else
    printf '%s\n' "$PWD/results"
  fi
}

# ---- the study's plan ----

# The study's first round: every op, read4k at 10 thread counts up to 64,
# the others at 8 up to 16: 42 runs per host, in one random order per host.
# shellcheck disable=SC2034 # for the scripts that source this
COMMON_STUDY_OPS=read4k,read4m,write4k,write4m,write4k/64
# shellcheck disable=SC2034
COMMON_STUDY_READ_THREADS=1,2,4,8,12,16,24,32,48,64
# shellcheck disable=SC2034
COMMON_STUDY_OTHER_THREADS=1,2,3,4,6,8,12,16

# common_expand_threads LIST: one thread count a line from 8 | 1,2,4 | 1..4,8,
# each from 1 to COMMON_MAX_THREADS (iobench's limit); fails on anything
# else (a range such as 1..100000000 would be written out line by line).
COMMON_MAX_THREADS=4096
common_expand_threads() {
  local item a b i
  local -a items
  IFS=, read -r -a items <<<"$1"
  ((${#items[@]} > 0)) || return 1
  for item in "${items[@]}"; do
    if [[ "$item" =~ ^([0-9]{1,6})\.\.([0-9]{1,6})$ ]]; then
      a=$((10#${BASH_REMATCH[1]})) b=$((10#${BASH_REMATCH[2]}))
      ((a >= 1 && a <= b && b <= COMMON_MAX_THREADS)) || return 1
      for ((i = a; i <= b; i++)); do echo "$i"; done
    elif [[ "$item" =~ ^[0-9]{1,6}$ ]] && ((10#$item >= 1 && 10#$item <= COMMON_MAX_THREADS)); then
      echo $((10#$item))
    else
      return 1
    fi
  done
}

# common_shuffle SEED: the lines of stdin in a random order fixed by SEED
# (Fisher-Yates on bash's RANDOM, which a seed makes reproducible).
common_shuffle() {
  local -a lines
  mapfile -t lines
  common_shuffle_array lines "$1"
  ((${#lines[@]} == 0)) || printf '%s\n' "${lines[@]}"
}

# common_shuffle_array NAME SEED: the array NAME shuffled in place, as
# common_shuffle orders lines (no process: for one plan per host of many).
common_shuffle_array() {
  local -n arr_=$1
  local i j tmp
  RANDOM=$2
  for ((i = ${#arr_[@]} - 1; i > 0; i--)); do
    j=$(((RANDOM * 32768 + RANDOM) % (i + 1)))
    tmp=${arr_[i]} arr_[i]=${arr_[j]} arr_[j]=$tmp
  done
}

# Where the thread optimum sits in `iobench report --json --section threads`
# (the report applies the study's rule: the fewest threads within 5% of the
# best). In this one place, to follow the report's JSON when it changes:
# the report's arguments, and a jq filter from its output (with $sigs, op
# name -> signature, and $op) to [chosen row, best row] of the op's curve;
# a row has .threads, .opsPerSec and .config.
# shellcheck disable=SC2054 # threads,groups is one argument
COMMON_OPTIMUM_REPORT_ARGS=(--json -q --within 5 --section threads,groups)
# shellcheck disable=SC2016 # jq variables
COMMON_OPTIMUM_JQ='
  $sigs[$op] as $sig
  | [.threads[]? | select(.signature == $sig)] as $curve
  | [.groups[]? | select(.signature == $sig)] as $one
  | if ($curve | length) > 0 then
      ($curve | group_by(.config)[] | [(.[] | select(.optimal)), max_by(.opsPerSec)])
    else ($one | group_by(.config)[] | select(length == 1) | [.[0], .[0]]) end'

# common_thread_optimum IOBENCH OP... < LINES: per OP and configuration of
# the JSON lines on stdin, the thread count the report finds optimal, one
# tab-separated line each:
#   op  chosenThreads  chosenOpsPerSec  bestThreads  bestOpsPerSec  config
# (an op run at one count only: that count; ops/s as whole numbers, for
# people reading round2-threads.tsv). Fails when the report does.
common_thread_optimum() {
  local bin=$1 lines report sigs op
  shift
  lines=$(cat)
  report=$("$bin" report "${COMMON_OPTIMUM_REPORT_ARGS[@]}" - <<<"$lines") || return 1
  # The report names ops by signature (read,4K,4K): the runs' names to them.
  sigs=$(jq -sc '[.[] | .operations[]? | {(.name): .signature}] | add // {}' <<<"$lines") || return 1
  for op; do
    jq -r --arg op "$op" --argjson sigs "$sigs" "$COMMON_OPTIMUM_JQ"'
      | [$op, .[0].threads, (.[0].opsPerSec | round), .[1].threads, (.[1].opsPerSec | round), .[0].config] | @tsv' \
      <<<"$report" || return 1
  done
}
