#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# completion.bats - bash completion (completion/iobench, installed by make
# install and the .deb): the completion function called as bash calls it,
# with COMP_WORDS and COMP_CWORD, and its COMPREPLY checked.

load lib/core

each_setup() {
  # The function runs the iobench it completes for (words[0]): this build.
  mkdir -p "$TMP/bin" "$TMP/cwd"
  ln -s "$IOBENCH" "$TMP/bin/iobench"
  PATH=$TMP/bin:$PATH
  # shellcheck source=completion/iobench
  source "$BATS_TEST_DIRNAME/../completion/iobench"
  cd "$TMP/cwd" || return 1
  touch data.bin out.jsonl
  mkdir results
}

# complete_words WORD...: COMPREPLY for the command line WORD..., the cursor
# at the end of the last word, one reply a line, sorted.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _iobench iobench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}

@test "completion is registered for iobench" {
  run complete -p iobench
  [ "$status" -eq 0 ]
  [[ $output == *"-F _iobench"* ]]
}

@test "the first word: the commands, and files (run is the default command)" {
  run complete_words iobench ''
  for c in run create watch report price durability version help data.bin results; do
    grep -qx "$c" <<<"$output" || { echo "no $c in: $output" >&2; return 1; }
  done
  [ "$(complete_words iobench re | paste -sd' ')" = "report results" ]
  [ "$(complete_words iobench durability '' | paste -sd' ')" = "serve verify write" ]
}

@test "options: each command's own, read from its --help" {
  local want
  want=$("$IOBENCH" run --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+$' | sort -u)
  [ "$(complete_words iobench -- | grep -c .)" -ge 20 ]
  [ "$(complete_words iobench --)" = "$(sort -u <(echo "$want") <(echo --help))" ]
  [ "$(complete_words iobench --sp)" = "--span" ]
  [ "$(complete_words iobench report --pl)" = "--plot" ]
  [ "$(complete_words iobench price --f)" = "--fact" ]
  [ "$(complete_words iobench watch --pr | paste -sd' ')" = "--prom --provision --provision-fact" ]
  [ "$(complete_words iobench durability serve --li)" = "--listen" ]
  [ "$(complete_words iobench create --fo)" = "--force" ]
  # run named or not, and after other options
  [ "$(complete_words iobench run -q --du)" = "--duration" ]
  [ "$(complete_words iobench -q --du)" = "--duration" ]
}

@test "values: op names after -o and --op, engines, clocks; nothing for a number" {
  [ "$(complete_words iobench -o write4k | paste -sd' ')" = "write4k write4k/64" ]
  [ "$(complete_words iobench watch --op read4 | paste -sd' ')" = "read4k read4m" ]
  [ "$(complete_words iobench --engine '' | paste -sd' ')" = "io_uring libaio sync" ]
  [ "$(complete_words iobench --clock t)" = "tsc" ]
  [ -z "$(complete_words iobench -d '')" ]
  [ -z "$(complete_words iobench --threads 1)" ]
}

@test "files: TARGET, --json FILE, report's RESULTS, --plot DIR (folders only)" {
  [ "$(complete_words iobench -o read4k da)" = "data.bin" ]
  [ "$(complete_words iobench --json o)" = "out.jsonl" ]
  [ "$(complete_words iobench report r)" = "results" ]
  [ "$(complete_words iobench report --plot '')" = "results" ]
  [ "$(complete_words iobench create d)" = "data.bin" ]
}
