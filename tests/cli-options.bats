#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# cli-options.bats - every command's options, from its one table: what
# --help lists is what man/iobench.1 documents for that command, both ways;
# every command answers --help and --version; defaults show in --help; and
# an option another command owns is refused with the same words as before.

bats_require_minimum_version 1.5.0
load lib/core

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
MAN=$ROOT/man/iobench.1

# The commands that take options, as typed after "iobench".
COMMANDS=(run create watch report price "durability serve" "durability write" "durability verify")

# help_options CMD...: the long options `iobench CMD --help` lists (its rows,
# "  -o, --op OP" or "      --span SIZE"), one a line, sorted.
help_options() {
  "$IOBENCH" "$@" --help | grep -oE -- '^  (-[a-zA-Z], |    )--[a-z0-9-]+' | grep -oE -- '--[a-z0-9-]+' | sort -u
}

# man_options SECTION [SUBSECTION]: the long options in the tags of the .TP
# entries of man/iobench.1's .SH SECTION (and its .SS SUBSECTION), one a
# line, sorted. COMMANDS holds those every command takes.
man_options() {
  awk -v sh="$1" -v ss="${2:-}" '
    /^\.SH / { sec = $0; sub(/^\.SH "?/, "", sec); sub(/"$/, "", sec); sub_ = ""; tag = 0; next }
    /^\.SS / { sub_ = $0; sub(/^\.SS "?/, "", sub_); sub(/"$/, "", sub_); tag = 0; next }
    /^\.TP/ { tag = 1; next }
    tag { tag = 0; if (sec == sh && (ss == "" || sub_ == ss)) print }' "$MAN" |
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u || true
}

# man_options_of CMD...: the options man/iobench.1 documents for the command.
man_options_of() {
  {
    case "$*" in
      run) man_options OPTIONS ;;
      create) man_options CREATE ;;
      watch) man_options WATCH ;;
      report) man_options REPORT ;;
      price) man_options PRICE ;;
      "durability "*) man_options DURABILITY "$2" ;;
      *) echo "no man section for '$*'" >&2; return 1 ;;
    esac
    man_options COMMANDS
  } | sort -u
}

@test "every command's --help lists exactly the options man/iobench.1 documents for it" {
  local cmd help man extra
  [ "$(man_options COMMANDS)" = "$(printf '%s\n' --help --version)" ]
  for cmd in "${COMMANDS[@]}"; do
    # shellcheck disable=SC2086 # "durability serve" is two words
    help=$(help_options $cmd)
    # shellcheck disable=SC2086
    man=$(man_options_of $cmd)
    # at least the command's own and --help, --version (price: --prices, --fact, --json)
    [ "$(wc -l <<<"$help")" -ge 5 ] || { echo "$cmd --help lists: $help" >&2; return 1; }
    extra=$(comm -23 <(echo "$help") <(echo "$man"))
    [ -z "$extra" ] || { echo "iobench $cmd --help lists, man/iobench.1 does not document: ${extra//$'\n'/ }" >&2; return 1; }
    extra=$(comm -13 <(echo "$help") <(echo "$man"))
    [ -z "$extra" ] || { echo "man/iobench.1 documents for $cmd, its --help does not list: ${extra//$'\n'/ }" >&2; return 1; }
  done
}

@test "a man section that lost or gained an option fails the comparison" {
  # The extraction reads option tags, not the text around them.
  [[ $(man_options OPTIONS) == *--raw* && $(man_options OPTIONS) != *--prom* ]]
  [[ $(man_options WATCH) == *--prom* && $(man_options WATCH) == *--no-device-stats* ]]
  [[ $(man_options DURABILITY serve) == *--listen* && $(man_options DURABILITY serve) != *--server* ]]
  [[ $(man_options DURABILITY verify) == *--run* && $(man_options DURABILITY verify) != *--threads* ]]
}

@test "every command answers --help with its usage line, and -h the same" {
  local cmd want
  for cmd in "${COMMANDS[@]}" durability version; do
    want="usage: iobench $cmd"
    [ "$cmd" = run ] && want="usage: iobench [run] [OPTIONS] TARGET"
    # shellcheck disable=SC2086
    run --separate-stderr "$IOBENCH" $cmd --help
    [ "$status" -eq 0 ] || { echo "$cmd --help: exit $status" >&2; return 1; }
    [[ ${lines[0]} == "$want"* ]] || { echo "$cmd --help starts: ${lines[0]}" >&2; return 1; }
    [[ $output == *"-h, --help"* && $output == *"-V, --version"* ]]
    # shellcheck disable=SC2086
    [ "$("$IOBENCH" $cmd -h)" = "$output" ]
  done
}

@test "every command answers --version and -V with what iobench --version prints" {
  local cmd flag want
  want=$("$IOBENCH" --version)
  [[ $want =~ ^iobench\ [0-9]+\.[0-9]+\.[0-9]+ ]]
  for cmd in "${COMMANDS[@]}" durability version; do
    for flag in --version -V; do
      # shellcheck disable=SC2086
      run --separate-stderr "$IOBENCH" $cmd $flag
      [ "$status" -eq 0 ] || { echo "$cmd $flag: exit $status: $stderr" >&2; return 1; }
      [ "$output" = "$want" ] || { echo "$cmd $flag: $output" >&2; return 1; }
    done
  done
}

@test "iobench version prints the version; a file called version is run's with 'run' or a path" {
  run --separate-stderr "$IOBENCH" version
  [ "$status" -eq 0 ]
  [ "$output" = "$("$IOBENCH" --version)" ]
  run --separate-stderr "$IOBENCH" version "$TMP/version"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: version takes no arguments; to benchmark a file named $TMP/version, give 'iobench run $TMP/version'" ]
  make_file "$TMP/version" 1M
  cd "$TMP"
  run --separate-stderr "$IOBENCH" run -q -d 0.1 --json - version
  [ "$status" -eq 0 ]
  [ "$(jq -r .target.path <<<"$output")" = version ]
  run --separate-stderr "$IOBENCH" -q -d 0.1 --json - ./version
  [ "$status" -eq 0 ]
  [ "$(jq -r .target.path <<<"$output")" = ./version ]
}

@test "iobench --help and iobench help list every command, then run's help" {
  local args cmd out
  for args in --help -h help; do
    run --separate-stderr "$IOBENCH" $args
    [ "$status" -eq 0 ] || { echo "$args: exit $status" >&2; return 1; }
    [ "${lines[0]}" = "usage: iobench [COMMAND] [OPTIONS] [ARGS...]" ]
    # each with its summary two spaces or more after it, in one column
    # (precondition, the longest, once ran into its summary)
    for cmd in run create precondition watch report price durability version help; do
      grep -qE "^  $cmd  +[a-z]" <<<"$output" || { echo "$args does not list $cmd" >&2; return 1; }
    done
    [ "$(sed -n '/^Commands:/,/^$/p' <<<"$output" | grep -E '^  [a-z]' | awk '{print index($0, $2)}' | sort -u | wc -l)" -eq 1 ]
    [[ $output == *"'iobench COMMAND --help'"* && $output == *"'iobench run version'"* ]]
    # run is the default command: its whole help follows
    out=$("$IOBENCH" run --help)
    [[ $output == *"$out" ]]
  done
}

@test "a row's default shows in --help as (default X), and is what a run without the option uses" {
  run "$IOBENCH" run --help
  [[ $output == *"-d, --duration SECS   length of each run; 90s, 5m also work (default 60)"* ]]
  [[ $output == *"-o, --op OP           operation; several run one after the other, each a run"* ]]
  [[ $output == *"of its own (--together: at the same time) (default read4k)"* ]]
  run "$IOBENCH" watch --help
  [[ $output == *"-o, --op OP           operation, repeatable (default read4k and write4k/64)"* ]]
  [[ $output == *"--period SECS     one JSON line per period (default 3600)"* ]]
  run "$IOBENCH" create --help
  [[ $output == *"-t, --threads N       writer threads (default 4)"* ]]
  run "$IOBENCH" durability serve --help
  [[ $output == *"(default 0.0.0.0:7340)"* ]]
  run "$IOBENCH" report --help
  [[ $output == *"of the best ops/s (default 5)"* ]]
  # the defaults are the values: one op, read4k, for 60 s unless told otherwise
  make_file "$TMP/f" 1M
  run --separate-stderr "$IOBENCH" -q -d 0.1 --json - "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.operations[].name, .engine, .iodepth, .threads]' <<<"$output")" = '["read4k","sync",1,1]' ]
  # a repeatable option given replaces its default, not adds to it
  run --separate-stderr "$IOBENCH" watch --count 1 --period 0.2 --interval 0.1 -o read4k -q "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq -c '[.operations[].name]' <<<"$output")" = '["read4k"]' ]
}

@test "an option another command owns is refused as before, naming its command" {
  local args want
  make_file "$TMP/f" 1M
  while IFS='|' read -r args want; do
    # shellcheck disable=SC2086 # the case's words
    run --separate-stderr "$IOBENCH" $args "$TMP/f"
    [ "$status" -eq 2 ] || { echo "$args: exit $status" >&2; return 1; }
    [ "$stderr" = "iobench: $want" ] || { echo "$args: $stderr" >&2; return 1; }
  done <<'EOF'
watch --duration 5|--duration belongs to 'iobench run', not 'iobench watch'; see 'iobench run --help'
--interval 5|--interval belongs to 'iobench watch', not 'iobench run'; see 'iobench watch --help'
run --prom x.prom|--prom belongs to 'iobench watch', not 'iobench run'; see 'iobench watch --help'
durability verify --server 127.0.0.1:1 --threads 2|--threads belongs to 'iobench durability write', not 'iobench durability verify'; see 'iobench durability write --help'
durability serve --server 127.0.0.1:1|--server belongs to 'iobench durability write', not 'iobench durability serve'; see 'iobench durability write --help'
EOF
}
