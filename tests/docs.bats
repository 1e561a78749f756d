#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# docs.bats - what a reader is told: the man pages agree with the scripts'
# --help and name each other, the bench scripts answer --help, configure
# ends with the README's test command.

bats_require_minimum_version 1.5.0

load lib/skip

ROOT=$BATS_TEST_DIRNAME/..

@test "the bench scripts answer --help with their usage block and refuse unknown options (exit 2)" {
  local b name
  for b in vs-fio device-stats progress-cost; do
    name=bench/$b
    run --separate-stderr "$ROOT/$name" --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"usage: $name "* && "$output" == *"-h, --help"* ]]
    run --separate-stderr "$ROOT/$name" --bogus
    [ "$status" -eq 2 ]
    # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
    [ "$stderr" = "$b: unknown option '--bogus' (see $name --help)" ]
    run --separate-stderr "$ROOT/$name" -Z
    [ "$status" -eq 2 ]
    [ "$stderr" = "$b: unknown option '-Z' (see $name --help)" ]
  done
}

@test "configure's last words: build and install first, then the README's test command" {
  # The README's second command: ".ci/install && ./configure && make check-all".
  local cmd target out
  cmd=$(sed -n '1,/^## /p' "$ROOT/README.md" | grep -E '^    \S' | sed -n 2p)
  target=${cmd##*make }
  [[ "$target" =~ ^[a-z-]+$ ]]
  # What configure prints last, run for real in a copy of the tree.
  mkdir "$BATS_TEST_TMPDIR/src"
  cp "$ROOT/configure" "$ROOT/config.mk.in" "$BATS_TEST_TMPDIR/src/"
  mkdir -p "$BATS_TEST_TMPDIR/src/src/cli" && touch "$BATS_TEST_TMPDIR/src/src/cli/main.c"
  out=$(cd "$BATS_TEST_TMPDIR/src" && ./configure 2>&1 | tail -2)
  [ "$out" = "$(printf '%s\n' "Now run: make && sudo make install" "To test (as root, about 15 minutes): make $target")" ]
}

# user_scripts: the scripts make install puts on PATH as iobench-NAME (the
# Makefile's USER_SCRIPTS: executables of scripts/ and raid/ but fleet-job,
# which only runs on the hosts).
user_scripts() {
  find "$ROOT/scripts" "$ROOT/raid" -maxdepth 1 -type f -perm -u+x ! -name fleet-job | sort
}

# long_options: the --options named in a text (a man page's source: its
# escaped minus signs and font changes undone first), one a line, sorted.
long_options() {
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\%//g' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u || true
}

@test "every installed script has a man page naming exactly the options its --help names" {
  local s name page help man iobench_opts extra
  iobench_opts=$(long_options <"$ROOT/man/iobench.1")
  [ "$(user_scripts | wc -l)" -ge 10 ]
  while read -r s; do
    name=${s##*/}
    page=$ROOT/man/iobench-$name.1
    [ -f "$page" ] || { echo "no man page man/iobench-$name.1 for $s" >&2; return 1; }
    help=$("$s" --help | long_options)
    man=$(long_options <"$page")
    [ "$(wc -l <<<"$help")" -ge 3 ]
    # Every option the help names is in the page...
    extra=$(comm -23 <(echo "$help") <(echo "$man"))
    [ -z "$extra" ] || { echo "$name --help names, man/iobench-$name.1 does not: ${extra//$'\n'/ }" >&2; return 1; }
    # ...and the page names none that is neither the script's nor iobench's.
    extra=$(comm -23 <(echo "$man") <(sort -u <(echo "$help") <(echo "$iobench_opts")))
    [ -z "$extra" ] || { echo "man/iobench-$name.1 names options $name --help does not: ${extra//$'\n'/ }" >&2; return 1; }
  done < <(user_scripts)
}

@test "the man pages' OPTIONS sections are what tools/man-from-help writes from --help" {
  run "$ROOT/tools/man-from-help" --check
  [ "$status" -eq 0 ]
  # It notices a page that drifted: an option line dropped from a copy.
  cp "$ROOT/man/iobench-bonnie.1" "$BATS_TEST_TMPDIR/iobench-bonnie.1"
  sed -i '/^\\fB\\-\\-csv\\fR/d' "$BATS_TEST_TMPDIR/iobench-bonnie.1"
  run "$ROOT/tools/man-from-help" --check "$BATS_TEST_TMPDIR/iobench-bonnie.1"
  [ "$status" -eq 1 ]
  [[ "$output" == *'+\fB\-\-csv\fR \fIFILE\fR'* ]]
}

@test "every man page renders without a warning, with the sections a reader looks for" {
  skip_unless_cmd groff "groff-base, .ci/apt-core.txt"
  local page sec out
  for page in "$ROOT"/man/*.1; do
    out=$(groff -ww -man -z "$page" 2>&1)
    [ -z "$out" ] || { echo "$page: $out" >&2; return 1; }
    if command -v man >/dev/null; then
      out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
      [ -z "$out" ] || { echo "$page: $out" >&2; return 1; }
    fi
    [[ $page == */iobench.1 ]] && continue
    for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
      grep -qx "\.SH \"\?$sec\"\?" "$page" || { echo "$page: no $sec section" >&2; return 1; }
    done
  done
}

@test "every man page reads in ASCII: under LANG=C no glyph falls back to <mu> or the like" {
  command -v man >/dev/null || skip "man not installed (man-db, .ci/apt-core.txt)"
  local page out
  for page in "$ROOT"/man/*.1; do
    out=$(LANG=C LC_ALL=C MANWIDTH=80 man -l "$page" 2>/dev/null | grep -oE '<[a-zA-Z][a-zA-Z0-9]*>' | sort -u || true)
    [ -z "$out" ] || { echo "$page shows ${out//$'\n'/ } under LANG=C" >&2; return 1; }
  done
}

@test "SEE ALSO: every page names iobench(1), iobench(1) names every page, and no page is named that is not there" {
  local page name named
  see_also() { sed -n '/^\.SH SEE ALSO/,$p' "$1" | sed 's/\\%//g; s/\\-/-/g' | grep -oE 'iobench(-[a-z0-9-]+)? ?\(1\)' | tr -d ' ' | sort -u; }
  named=$(see_also "$ROOT/man/iobench.1")
  for page in "$ROOT"/man/iobench-*.1; do
    name=$(basename "$page" .1)
    grep -qx "$name(1)" <<<"$named" || { echo "iobench.1's SEE ALSO lacks $name(1)" >&2; return 1; }
    see_also "$page" | grep -qx 'iobench(1)' || { echo "$page: SEE ALSO lacks iobench(1)" >&2; return 1; }
    see_also "$page" | grep -vx "$name(1)" >/dev/null
  done
  while read -r name; do
    [ -f "$ROOT/man/$name.1" ] || { echo "a SEE ALSO names $name(1): no such page" >&2; return 1; }
  done < <(cat "$ROOT"/man/*.1 | sed 's/\\%//g; s/\\-/-/g' | grep -oE '^\.BR iobench-[a-z0-9-]+' | cut -c5- | sort -u)
}

@test "make install puts every script and its man page under the prefix; uninstall takes them away" {
  [ -f "$ROOT/config.mk" ] && [ -x "$ROOT/iobench" ] || skip "not built (./configure && make)"
  local stage=$BATS_TEST_TMPDIR/stage prefix s name
  make -s -C "$ROOT" install DESTDIR="$stage"
  prefix=$(sed -n 's/^prefix *= *//p' "$ROOT/config.mk")
  [ -f "$stage$prefix/share/man/man1/iobench.1" ]
  while read -r s; do
    name=${s##*/}
    # a link into libexec/iobench, by its installed (DESTDIR-less) path
    [ -x "$stage$(readlink "$stage$prefix/bin/iobench-$name")" ]
    [ -f "$stage$prefix/share/man/man1/iobench-$name.1" ]
    cmp "$ROOT/man/iobench-$name.1" "$stage$prefix/share/man/man1/iobench-$name.1"
  done < <(user_scripts)
  [ "$(find "$stage$prefix/share/man/man1" -name '*.1' | wc -l)" -eq "$(find "$ROOT/man" -name '*.1' | wc -l)" ]
  cmp "$ROOT/completion/iobench" "$stage$prefix/share/bash-completion/completions/iobench"
  cmp "$ROOT/share/watch.env.example" "$stage$prefix/etc/iobench/watch.env.example"
  make -s -C "$ROOT" uninstall DESTDIR="$stage"
  [ -z "$(find "$stage" -type f -o -type l)" ]
}

@test "make install under umask 077: folders 0755, programs 0755, everything else 0644 (paths.sh and the unit too)" {
  [ -f "$ROOT/config.mk" ] && [ -x "$ROOT/iobench" ] || skip "not built (./configure && make)"
  local stage=$BATS_TEST_TMPDIR/stage bad
  (umask 077 && make -s -C "$ROOT" install DESTDIR="$stage")
  [ "$(find "$stage" -type d | wc -l)" -ge 10 ]
  bad=$(find "$stage" -type d ! -perm 755)
  [ -z "$bad" ] || { echo "folders not 0755: $bad" >&2; return 1; }
  # Programs: the binaries and the scripts (what is executable in the tree).
  bad=$(find "$stage" -type f -perm /111 ! -perm 755)
  [ -z "$bad" ] || { echo "programs not 0755: $bad" >&2; return 1; }
  bad=$(find "$stage" -type f ! -perm /111 ! -perm 644)
  [ -z "$bad" ] || { echo "files not 0644: $bad" >&2; return 1; }
  [ "$(find "$stage" -name paths.sh -perm 644 | wc -l)" -eq 1 ]
  [ "$(find "$stage" -name 'iobench-watch@.service' -perm 644 | wc -l)" -eq 1 ]
  [ "$(find "$stage" -type f -perm 755 | wc -l)" -ge 10 ]
  # A user other than root reads and runs what was installed.
  local prefix
  prefix=$(sed -n 's/^prefix *= *//p' "$ROOT/config.mk")
  run setpriv --reuid=65534 --regid=65534 --clear-groups "$stage$prefix/bin/iobench" --version
  [ "$status" -eq 0 ]
}

@test "commits from the architecture step on: a subject under 72 characters, then the why" {
  git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || skip "env: not a git checkout"
  local base c subject body bad=0
  base=$(git -C "$ROOT" log --format=%H -1 --grep='^src: a folder per layer, headers beside their sources$')
  [[ -n "$base" ]] || skip "env: history without the architecture step (a shallow clone)"
  while read -r c; do
    subject=$(git -C "$ROOT" log -1 --format=%s "$c")
    body=$(git -C "$ROOT" log -1 --format=%b "$c" | sed '/^[[:space:]]*$/d')
    if ((${#subject} >= 72)); then echo "$c: subject of ${#subject} characters: $subject"; bad=1; fi
    if [[ -z "$body" ]]; then echo "$c: no body (the why): $subject"; bad=1; fi
  done < <(git -C "$ROOT" rev-list --no-merges "$base^..HEAD")
  [ "$bad" -eq 0 ]
}

# misnamed FILE...: each file whose first comment line ("NAME - what it is",
# after a #! line, the SPDX line and bare comment openers) names something
# else than the file: its name, its name without the extension, or the end
# of its path ("report/store/db.c"). One "FILE: names NAME" a line.
misnamed() {
  awk '
    FNR == 1 { done = 0 }
    done || FNR > 8 { nextfile }
    FNR == 1 && /^#!/ { next }
    /SPDX-License-Identifier/ || /^[[:space:]]*(\/\*+|\*|#|\/\/)[[:space:]]*$/ { next }
    {
      done = 1
      if (!match($0, /^[[:space:]]*(\/\*+|\*|#|\/\/)[[:space:]]*[A-Za-z0-9_.+\/-]+[[:space:]]+-[[:space:]]/)) next
      line = substr($0, 1, RLENGTH)
      sub(/^[[:space:]]*(\/\*+|\*|#|\/\/)[[:space:]]*/, "", line)
      sub(/[[:space:]]+-[[:space:]]$/, "", line)
      base = FILENAME; sub(/.*\//, "", base)
      stem = base; sub(/\.[^.]*$/, "", stem)
      n = length(line)
      if (line == base || line == stem || line == FILENAME || (length(FILENAME) > n && substr(FILENAME, length(FILENAME) - n) == "/" line))
        next
      print FILENAME ": names " line
    }' "$@"
}

@test "each file's first comment names the file itself, and the paths the docs and scripts name exist" {
  local files
  mapfile -t files < <(cd "$ROOT" && find src tests/unit tests/helpers tests/lib bench tools scripts raid completion \
    -type f \( -name '*.[ch]' -o -name '*.bash' -o -name '*.sh' -o -perm -u+x \) | sort)
  ((${#files[@]} > 100))
  run bash -c "cd '$ROOT' && $(declare -f misnamed) && misnamed ${files[*]}"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # the check sees a stale name
  mkdir -p "$BATS_TEST_TMPDIR/m/src/cli"
  printf '/* cmd_run.c - iobench run. */\n' >"$BATS_TEST_TMPDIR/m/src/cli/run.c"
  printf '/*\n * SPDX-License-Identifier: Apache-2.0\n * report_db.h - the cells.\n */\n' >"$BATS_TEST_TMPDIR/m/src/cli/db.h"
  printf '#!/bin/bash\n# SPDX-License-Identifier: Apache-2.0\n# src/ok - fine.\n' >"$BATS_TEST_TMPDIR/m/src/ok"
  run bash -c "cd '$BATS_TEST_TMPDIR/m' && $(declare -f misnamed) && misnamed src/cli/run.c src/cli/db.h src/ok"
  [ "$output" = "$(printf '%s\n' "src/cli/run.c: names cmd_run.c" "src/cli/db.h: names report_db.h")" ]
  # a source path the docs, man pages or scripts name is there
  local p missing=()
  while read -r p; do
    [[ -e "$ROOT/$p" ]] || missing+=("$p")
  done < <(cd "$ROOT" && grep -rhoE '\b(src|include)/[A-Za-z0-9_./-]+\.[ch]\b' README.md docs man scripts raid bench tools | sort -u)
  [ "${#missing[@]}" -eq 0 ] || { printf 'named but missing: %s\n' "${missing[@]}"; false; }
}
