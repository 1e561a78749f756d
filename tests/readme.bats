#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=slow
# The README's first two commands, taken from the README itself: a reader
# copies them, so they must work as written on a fresh Debian 12.

load lib/core

ROOT=$BATS_TEST_DIRNAME/..

# readme_command N: the Nth indented command line of the README's opening
# (before its first "## " section).
readme_command() {
  sed -n '1,/^## /p' "$ROOT/README.md" | grep -E '^    \S' | sed -n "${1}p" | sed 's/^    //'
}

# A clean copy of what git tracks (the README's commands start in a checkout).
checkout_copy() {
  (cd "$ROOT" && git ls-files -z | xargs -0 tar cf -) | tar xf - -C "$1"
}

@test "README's first command sets up, builds and benchmarks a local file as written" {
  cmd=$(readme_command 1)
  [[ $cmd == ".ci/install --core && ./configure && make && ./iobench "* ]]
  mkdir "$TMP/src"
  checkout_copy "$TMP/src"
  # Its install step: every package it names is installed (CI installed them;
  # running apt-get again here would only repeat that).
  mapfile -t pkgs < <(sed 's/#.*//' "$ROOT/.ci/apt-build.txt" | tr -s ' \t' '\n' | sed '/^$/d')
  [ "${#pkgs[@]}" -ge 5 ]
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" | grep -q 'install ok installed'
  done
  run "$TMP/src/.ci/install" --help
  [ "$status" -eq 0 ]
  [[ $output == *"--core"* ]]
  # The rest exactly as written, but for where the data file goes.
  rest=${cmd#.ci/install --core && }
  [[ $rest == *" /var/tmp/iobench.dat" ]]
  rest=${rest% /var/tmp/iobench.dat}" $TMP/iobench.dat"
  cd "$TMP/src"
  run bash -c "$rest"
  [ "$status" -eq 0 ]
  # What the user reads: the summary with both ops and their rates.
  grep -E '^read4k +4 +[0-9]+ +0 +[0-9.]+' <<<"$output"
  grep -E '^write4k/64 +4 +[0-9]+ +0 +[0-9.]+' <<<"$output"
  [ "$(stat -c %s "$TMP/iobench.dat")" -eq $((1 << 30)) ]
}

@test "README's test command is what CI runs" {
  cmd=$(readme_command 2)
  [ "$cmd" = ".ci/install && ./configure && make check-all" ]
  grep -qxF "$cmd" "$ROOT/.ci/run"
  run "$ROOT/.ci/install" --bogus
  [ "$status" -eq 2 ]
  [[ $output == "install: unknown option '--bogus'; use --core or --all" ]]
}

@test "the README is the front door: under 250 lines, and every page of docs/ is on its map" {
  [ "$(wc -l <"$ROOT/README.md")" -le 250 ]
  local page
  for page in "$ROOT"/docs/*.md; do
    grep -qF "](docs/${page##*/})" "$ROOT/README.md" || { echo "docs/${page##*/} is not on the README's map"; return 1; }
  done
  # and every link of the map leads somewhere
  for page in $(grep -o '](docs/[a-z-]*\.md)' "$ROOT/README.md" | sed 's/](\(.*\))/\1/' | sort -u); do
    [ -s "$ROOT/$page" ] || { echo "$page: no such page"; return 1; }
  done
  # each page starts with what a reader comes for: a title, then a paragraph
  for page in "$ROOT"/docs/*.md; do
    [[ "$(sed -n 1p "$page")" == "# "* ]] && [ -n "$(sed -n 3p "$page")" ]
  done
}

@test "the README's timed run is as long as its heading says" {
  local heading secs cmd
  heading=$(grep -E '^## .*[0-9]+-second run$' "$ROOT/README.md")
  secs=$(grep -oE '[0-9]+' <<<"$heading")
  cmd=$(sed -n "/^$heading\$/,/^## /p" "$ROOT/README.md" | grep -m1 -E '^    \$ iobench ')
  [[ $cmd == *" -d $secs "* ]] || { echo "'$heading' but: $cmd" >&2; return 1; }
  # and the output shown under it ran that long
  sed -n "/^$heading\$/,/^## /p" "$ROOT/README.md" | grep -qE "threads, $secs\.0 s$"
}

@test "the licence: LICENSE is Apache-2.0, the README says so, every source has the SPDX line (tools/spdx)" {
  head -4 "$ROOT/LICENSE" | grep -qx ' *Apache License'
  grep -qx ' *Version 2.0, January 2004' "$ROOT/LICENSE"
  grep -q 'END OF TERMS AND CONDITIONS' "$ROOT/LICENSE"
  sed -n '/^## Licence$/,/^## /p' "$ROOT/README.md" | grep -qF 'Apache License 2.0 ([LICENSE](LICENSE))'
  # Every source of the tree carries the SPDX line.
  if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    run "$ROOT/tools/spdx" --check
    [ "$status" -eq 0 ] || { echo "without the SPDX line: $output" >&2; return 1; }
  fi
  # It notices a file without the line, and adds it after the first comment line.
  local repo=$TMP/repo
  mkdir -p "$repo/tools" && cp "$ROOT/tools/spdx" "$repo/tools/"
  printf '/* a.c - one */\nint a;\n' >"$repo/a.c"
  printf '#!/bin/sh\n# b - two\n' >"$repo/b" && chmod +x "$repo/b"
  git -C "$repo" init -q && git -C "$repo" add -A
  run "$repo/tools/spdx" --check
  [ "$status" -eq 1 ]
  [ "$output" = "$(printf 'a.c\nb')" ]
  (cd "$repo" && tools/spdx)
  [ "$(cat "$repo/a.c")" = "$(printf '/* a.c - one */\n/* SPDX-License-Identifier: Apache-2.0 */\nint a;')" ]
  [ "$(sed -n 2p "$repo/b")" = "# SPDX-License-Identifier: Apache-2.0" ] && [ -x "$repo/b" ]
}
