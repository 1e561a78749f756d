# shellcheck shell=bash
# lib.sh - helpers shared by every iobench script. Source it; do not run it.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"       (from scripts/)
#   source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"  (from raid/)
#
# Provides: quiet, log, warn, die, die_usage, need_cmd, run (honours DRY_RUN),
# retry, usage_from_header, on_exit (stack of cleanup commands), and
# IOBENCH_BIN (the iobench binary to use).

# The script's own name, for messages.
PROG=${PROG:-$(basename "${0:-iobench-script}")}
# When 1, `run` prints commands instead of running them.
DRY_RUN=${DRY_RUN:-0}
# When 1, `log` stays quiet.
QUIET=${QUIET:-0}

# quiet: silence `log` from here on (what -q/--quiet means in every script).
quiet() {
  QUIET=1
}

# log MESSAGE...: progress on stderr.
log() {
  [[ "$QUIET" == 1 ]] || printf '%s: %s\n' "$PROG" "$*" >&2
}

# warn MESSAGE...: a warning on stderr, always shown.
warn() {
  printf '%s: warning: %s\n' "$PROG" "$*" >&2
}

# die MESSAGE...: one-line runtime error, exit 1.
die() {
  printf '%s: %s\n' "$PROG" "$*" >&2
  exit 1
}

# die_usage MESSAGE...: one-line usage error, exit 2.
die_usage() {
  printf '%s: %s (see %s --help)\n' "$PROG" "$*" "$PROG" >&2
  exit 2
}

# need_cmd CMD [PACKAGE]: die unless CMD is on PATH.
need_cmd() {
  command -v "$1" >/dev/null 2>&1 ||
    die "$1 not found; install ${2:-$1} (Debian: apt-get install ${2:-$1})"
}

# run CMD ARGS...: run a command, or with DRY_RUN=1 print it (shell-quoted) on stdout.
run() {
  if [[ "$DRY_RUN" == 1 ]]; then
    local out
    printf -v out '%q ' "$@"
    printf '%s\n' "${out% }"
    return 0
  fi
  "$@"
}

# retry N DELAY CMD ARGS...: run CMD up to N times, sleeping DELAY seconds between tries.
retry() {
  local tries=$1 delay=$2 i
  shift 2
  for ((i = 1; i <= tries; i++)); do
    "$@" && return 0
    ((i < tries)) && sleep "$delay"
  done
  return 1
}

# usage_from_header FILE: print the leading comment block of FILE (after the
# shebang) without the "# " prefixes: each script keeps its --help there.
usage_from_header() {
  sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' "$1"
}

# Cleanup stack: on_exit CMD ARGS... registers a command (as one string) to
# run when the script exits, last registered first. Commands run even on
# failure or interrupt; their own failures are reported, not fatal.
_ON_EXIT=()
on_exit() {
  local cmd
  printf -v cmd '%q ' "$@"
  _ON_EXIT+=("$cmd")
}
_run_on_exit() {
  local rc=$? i
  trap - EXIT
  for ((i = ${#_ON_EXIT[@]} - 1; i >= 0; i--)); do
    eval "${_ON_EXIT[i]}" || warn "cleanup failed: ${_ON_EXIT[i]}"
  done
  exit "$rc"
}
trap _run_on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# IOBENCH_BIN: $IOBENCH if set, else the repo's build, else iobench on PATH.
_lib_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -n "${IOBENCH:-}" ]]; then
  IOBENCH_BIN=$IOBENCH
elif [[ -x "$_lib_root/iobench" ]]; then
  IOBENCH_BIN=$_lib_root/iobench
else
  IOBENCH_BIN=iobench
fi
export IOBENCH_BIN
