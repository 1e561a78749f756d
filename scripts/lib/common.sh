# shellcheck shell=bash
# common.sh - what every iobench script shares. Source it; do not run it.
#
#   source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/lib/common.sh"        (scripts/)
#   source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../scripts/lib/common.sh" (raid/)
#
# (readlink -f: a script run through a symlink, e.g. from a bin directory,
# still finds its libraries.) Sourcing defines functions and variables only:
# no trap, no output, no command run.
#
# Messages:   common_log, common_warn, common_die (exit 1), common_die_usage
#             (exit 2), common_need_cmd
# Options:    common_parse_args (one parser for every script, driven by the
#             script's usage block), common_usage (--help)
# Side effects: common_run (run, or print with --dry-run), common_trap_exit
#             and common_on_exit (a cleanup stack run by the EXIT trap)
# Locations:  common_iobench (the iobench binary), common_data_file (files of
#             share/), common_results_dir
#
# Installed copies find the binary and share/ through paths.sh, a file beside
# this one written at install time (none in the source tree), which may set
#   IOBENCH_BIN=/usr/local/bin/iobench
#   IOBENCH_DATADIR=/usr/local/share/iobench

# The script's name, for messages.
COMMON_PROG=${0##*/}
# 1 after --dry-run: common_run prints commands instead of running them.
COMMON_DRY_RUN=0
# 1 after -q/--quiet: common_log stays silent.
COMMON_QUIET=0
# The positional arguments common_parse_args found (options removed).
COMMON_ARGS=()
# This library's directory, and the top of the tree it sits in (the source
# tree when run from a checkout).
COMMON_LIB_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
COMMON_ROOT=$(cd "$COMMON_LIB_DIR/../.." && pwd)

# ---- messages ----

# common_log MESSAGE...: progress on stderr (silent after -q).
common_log() {
  [[ "$COMMON_QUIET" == 1 ]] || printf '%s: %s\n' "$COMMON_PROG" "$*" >&2
}

# common_warn MESSAGE...: a warning on stderr, always shown.
common_warn() {
  printf '%s: warning: %s\n' "$COMMON_PROG" "$*" >&2
}

# common_die MESSAGE...: one-line runtime error, exit 1.
common_die() {
  printf '%s: %s\n' "$COMMON_PROG" "$*" >&2
  exit 1
}

# common_die_usage MESSAGE...: one-line usage error, exit 2.
common_die_usage() {
  printf '%s: %s (see %s --help)\n' "$COMMON_PROG" "$*" "$COMMON_PROG" >&2
  exit 2
}

# common_need_cmd CMD [PACKAGE]: die unless CMD is on PATH.
common_need_cmd() {
  command -v "$1" >/dev/null 2>&1 ||
    common_die "$1 not found; install ${2:-$1} (Debian: apt-get install ${2:-$1})"
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
  sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$(readlink -f "$0")"
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
  while IFS= read -r line; do
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
  done < <(common_usage)
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
_COMMON_ON_EXIT=()
_COMMON_TRAPPED=0
common_trap_exit() {
  trap _common_run_on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
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
