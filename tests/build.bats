#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root,slow
# Building from a clean copy: configure's checks, make install with prefix/DESTDIR.

bats_require_minimum_version 1.5.0
load lib/core

each_setup() {
  ROOT=$BATS_TEST_DIRNAME/..
  mkdir -p "$TMP/src"
  (cd "$ROOT" && tar cf - configure configure.ac config.mk.in Makefile src man tests/unit scripts raid share tools completion) |
    tar xf - -C "$TMP/src"
}

each_teardown() {
  # A server a test started and did not stop (it failed half-way).
  if [[ -f "$TMP/serve.pid" ]]; then kill -TERM "$(cat "$TMP/serve.pid")" 2>/dev/null || true; fi
}

@test "configure names the missing package when jansson is absent" {
  cd "$TMP/src"
  run env PKG_CONFIG_LIBDIR="$TMP/empty" PKG_CONFIG_PATH= ./configure
  [ "$status" -ne 0 ]
  [[ "$output" == *"jansson not found: install libjansson-dev"* ]]
  [ ! -e config.mk ]
}

@test "make without configure says to run configure" {
  cd "$TMP/src"
  run make
  [ "$status" -ne 0 ]
  [[ "$output" == *"config.mk is missing: run ./configure first"* ]]
}

@test "configure, make and make install honour --prefix and DESTDIR" {
  cd "$TMP/src"
  ./configure -q --prefix=/opt/iob
  make -s -j2
  make -s install DESTDIR="$TMP/stage"
  [ -x "$TMP/stage/opt/iob/bin/iobench" ]
  [ -f "$TMP/stage/opt/iob/share/man/man1/iobench.1" ]
  run "$TMP/stage/opt/iob/bin/iobench" --version
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench "* ]]
}

@test "CPPFLAGS given to configure reach every compile" {
  cd "$TMP/src"
  ./configure -q CPPFLAGS=-DIOBENCH_CPPFLAGS_SEEN
  # a compile of one object as make would run it, not run
  run make -n -B build/lib/units.o
  [ "$status" -eq 0 ]
  [[ "$output" == *"-DIOBENCH_CPPFLAGS_SEEN"* ]]
  run make -n -B build/report/read/read.o
  [[ "$output" == *"-DIOBENCH_CPPFLAGS_SEEN"* ]]
}

@test "a call from a layer to one above it, or beside it, fails the build and names both" {
  cd "$TMP/src"
  ./configure -q
  # The copy as it is: lib, report and measure keep the rule.
  make -s -j2 build/layers/lib.ok build/layers/report.ok build/layers/measure.ok
  # run_execute exists, in measure/: only cli may call it.
  nm build/measure.a | grep -q ' T run_execute$'
  cp src/lib/units.c "$TMP/units.c"
  cp src/report/base/price.c "$TMP/price.c"
  # (declared by hand: an include of measure/ would fail the include check first)
  printf '%s\n' 'struct run_config; struct run_result;' 'int run_execute(const struct run_config *, struct run_result *, char *, unsigned long);' 'int units_upward(void);' \
    'int units_upward(void) { return run_execute(NULL, NULL, NULL, 0); }' >>src/lib/units.c
  run make -s build/layers/lib.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"undefined reference to \`run_execute'"* ]]
  [[ "$output" == *"make: src/lib/ calls code outside the layers below it (none); see docs/architecture.md"* ]]
  # Sideways: the report may not call the measuring code either.
  cp "$TMP/units.c" src/lib/units.c
  printf '%s\n' 'struct run_config; struct run_result;' 'int run_execute(const struct run_config *, struct run_result *, char *, unsigned long);' 'int rep_sideways(void);' \
    'int rep_sideways(void) { return run_execute(NULL, NULL, NULL, 0); }' >>src/report/base/price.c
  run make -s build/layers/report.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"make: src/report/ calls code outside the layers below it (host lib)"* ]]
  # The same call from the command layer, which may make it, links.
  cp "$TMP/price.c" src/report/base/price.c
  printf '%s\n' 'int cli_down(void);' 'int cli_down(void) { return run_execute(NULL, NULL, NULL, 0); }' >>src/cli/run.c
  make -s -j2 iobench
  nm iobench | grep -q ' T cli_down$'
}

@test "an include from a layer above or beside fails the build and names the file and the folder" {
  cd "$TMP/src"
  ./configure -q
  make -s -j2 build/layers/durability.ok build/layers/results.ok
  # Sideways: durability/ stands on lib/ alone, not host/ (a type the link check cannot see).
  cp src/durability/stamp.h "$TMP/stamp.h"
  printf '#include "host/target.h"\n' >>src/durability/stamp.h
  run make -s build/layers/durability.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"  src/durability/stamp.h includes host/"* ]]
  [[ "$output" == *"make: src/durability/ includes headers outside the layers below it (lib); see docs/architecture.md"* ]]
  cp "$TMP/stamp.h" src/durability/stamp.h
  # Upwards, from a source file: results/ may not see measure/.
  printf '#include "measure/run.h"\n' >>src/results/prom.c
  run make -s build/layers/results.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"  src/results/prom.c includes measure/"* ]]
  # An include of a layer below is fine.
  sed -i '$d' src/results/prom.c
  printf '#include "engines/engine.h"\n' >>src/results/prom.c
  make -s -j2 build/layers/results.ok
}

@test "in report/, a call or an include from a sub-layer to one above it fails the build and names both" {
  cd "$TMP/src"
  ./configure -q
  make -s -j2 build/layers/report/store.ok build/layers/report/render.ok build/layers/report/sections.ok
  # rep_cell_ops exists, in report/sections/: the store below may not call it.
  nm build/report/sections.a | grep -q ' T rep_cell_ops$'
  cp src/report/store/opname.c "$TMP/opname.c"
  printf '%s\n' 'struct rep_cell;' 'double rep_cell_ops(const struct rep_cell *);' 'double rep_upward(const struct rep_cell *);' \
    'double rep_upward(const struct rep_cell *c) { return rep_cell_ops(c); }' >>src/report/store/opname.c
  run make -s build/layers/report/store.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"undefined reference to \`rep_cell_ops'"* ]]
  [[ "$output" == *"make: src/report/store/ calls code outside the layers below it (report/base host lib); see docs/architecture.md"* ]]
  # The whole of report/ still links alone: the rule is the sub-layer's, not the layer's.
  make -s -j2 build/layers/report.ok
  cp "$TMP/opname.c" src/report/store/opname.c
  # An include upwards: the renderers may not see the store (a type the link cannot see).
  cp src/report/render/term.c "$TMP/term.c"
  printf '#include "report/store/db.h"\n' >>src/report/render/term.c
  run make -s build/layers/report/render.ok
  [ "$status" -ne 0 ]
  [[ "$output" == *"  src/report/render/term.c includes report/store/"* ]]
  [[ "$output" == *"make: src/report/render/ includes headers outside the layers below it (report/base lib); see docs/architecture.md"* ]]
  cp "$TMP/term.c" src/report/render/term.c
  # The same include from the sections, above the store, is fine.
  printf '#include "report/store/db.h"\n' >>src/report/sections/fleet.c
  make -s -j2 build/layers/report/sections.ok
}

@test "no layer below cli/ speaks as iobench: itself; it hands its words to the command" {
  # a string that starts a message with the prefix, in any C file below the command layer
  run grep -rlE --include='*.c' --exclude-dir=cli '"iobench: ' "$ROOT/src"
  [ "$status" -eq 1 ]
  [ -z "$output" ]
  # and the check sees one when there is one
  mkdir -p "$TMP/s/results"
  printf 'fputs("iobench: warning: x", f);\n' >"$TMP/s/results/x.c"
  run grep -rlE --include='*.c' --exclude-dir=cli '"iobench: ' "$TMP/s"
  [ "$status" -eq 0 ]
}

@test "no two files of the program call each other, directly or round a loop" {
  [[ -n "$(find "$ROOT/build/lib" -name '*.o' 2>/dev/null | head -1)" ]] || skip "env: the tree is not built (make)"
  command -v nm >/dev/null || skip "nm not installed"
  run "$ROOT/tools/calls" --cycles "$ROOT/build"
  [ "$status" -eq 0 ]
  [ -z "$output" ]
  # The tool sees a loop when there is one: two objects that call each other.
  mkdir -p "$TMP/b/x"
  printf 'int b(void); int a(void) { return b(); }\n' | cc -x c -c -o "$TMP/b/x/a.o" -
  printf 'int a(void); int b(void) { return a(); }\n' | cc -x c -c -o "$TMP/b/x/b.o" -
  run "$ROOT/tools/calls" --cycles "$TMP/b"
  [ "$status" -eq 1 ]
  [ "$output" = "cycle: x/a x/b" ]
}

@test "the architecture page's layers are the Makefile's" {
  local page=$ROOT/docs/architecture.md layer lower
  # Every LOWER_ line of the Makefile stands in the page's diagram as written.
  # (report/'s sub-layers too: LOWER_report/store).
  local n=0
  while read -r layer lower; do
    grep -qE "^    ${layer} +-> ${lower:-\(nothing\)}\$" "$page" || { echo "missing in $page: $layer -> ${lower:-(nothing)}"; return 1; }
    n=$((n + 1))
  done < <(sed -n 's/^LOWER_\([a-z/]*\) = *\(.*\)$/\1 \2/p' "$ROOT/Makefile")
  ((n > 8))
  # And the tree has exactly those folders, and report/ those sub-folders.
  [ "$(sed -n 's/^LAYERS = //p' "$ROOT/Makefile" | tr ' ' '\n' | sort)" = "$(find "$ROOT/src" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)" ]
  [ "$(sed -n 's/^REPORT_LAYERS = //p' "$ROOT/Makefile" | tr ' ' '\n' | sort)" = "$(cd "$ROOT/src" && find report -mindepth 1 -maxdepth 1 -type d | sort)" ]
  # No source lies in report/ itself: each file is in the sub-layer it belongs to.
  [ -z "$(find "$ROOT/src/report" -maxdepth 1 -type f)" ]
}

@test "the committed configure is current with configure.ac" {
  command -v autoconf >/dev/null || skip "autoconf not installed"
  cd "$TMP/src"
  ./configure -q
  run make configure-check
  [ "$status" -eq 0 ]
  echo 'AC_MSG_NOTICE([a change])' >> configure.ac
  run make configure-check
  [ "$status" -ne 0 ]
  [[ "$output" == *"configure is stale"* ]]
}

@test "built without liburing, --engine io_uring says why and what to install" {
  cd "$TMP/src"
  ./configure -q --without-liburing
  make -s -j2
  run --separate-stderr ./iobench -e io_uring -d 1 "$TMP/src/configure"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: engine 'io_uring' is not available: this iobench was built without liburing; install liburing-dev"* ]]
  run ./iobench --help
  [[ "$output" == *"libaio"* ]]
}

@test "installed, the scripts find the installed iobench, their libraries and share/; uninstall removes it all" {
  cd "$TMP/src"
  ./configure -q --prefix="$TMP/p"
  make -s -j2
  make -s install
  # No static build, none installed: fleet-run says how to get one.
  echo 10.0.0.1 >"$TMP/hosts"
  run env -i PATH="$TMP/p/bin:/usr/bin:/bin" "$TMP/p/bin/iobench-fleet-run" --dry-run --hosts "$TMP/hosts" \
    --results-dir "$TMP/res" --run-id r1
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench-fleet-run: no static iobench (iobench-static); build it with make static (and make install)"* ]]
  # make static, then install: the installed static build is what goes to the hosts.
  make -s -j2 static
  make -s install
  [ -x "$TMP/p/libexec/iobench/iobench-static" ]
  cmp iobench-static "$TMP/p/libexec/iobench/iobench-static"
  run env -i PATH="$TMP/p/bin:/usr/bin:/bin" "$TMP/p/bin/iobench-fleet-run" --dry-run --hosts "$TMP/hosts" \
    --results-dir "$TMP/res" --run-id r1
  [ "$status" -eq 0 ]
  local sum
  sum=$(sha256sum <"$TMP/p/libexec/iobench/iobench-static" | cut -c 1-64)
  [[ "$output" == *"# ship: $TMP/p/libexec/iobench/iobench-static (static, sha256 $sum; only to a host that does not keep it), fleet-job, lib/common.sh"* ]]
  # Nothing of the source tree on the way: a clean PATH, no IOBENCH.
  env -i PATH="$TMP/p/bin:/usr/bin:/bin" HOME="$TMP" bash -c '
    set -e
    iobench --version | grep -q "^iobench "
    command -v iobench-fleet-run iobench-sweep-filesize iobench-raid-create iobench-ec2-provision >/dev/null
    iobench-sweep-filesize --dry-run --sizes 1M,2M -d 1 /var/tmp/x.dat > dry.txt
    grep -q "^$0/bin/iobench run .*--span 1048576" dry.txt || { cat dry.txt; exit 1; }
    # Installed, a script calls itself by its installed name, never its source name.
    iobench-raid-create --help | grep -q "^usage: iobench-raid-create --level"
    iobench-ec2-provision --help | grep -q "^usage: iobench-ec2-provision "
    iobench-fleet-run --help | grep -q "^iobench-fleet-run - "
    ! iobench-fleet-run --help | grep -qE "(^|[ (])fleet-run( |\$)"
  ' "$TMP/p"
  grep -q "^ExecStart=$TMP/p/bin/iobench watch" "$TMP/p/lib/systemd/system/iobench-watch@.service"
  [ -f "$TMP/p/share/iobench/prices-sample.json" ]
  # Moving the source tree away changes nothing for the installed copy.
  mv "$TMP/src" "$TMP/src.moved"
  run env -i PATH="$TMP/p/bin:/usr/bin:/bin" "$TMP/p/bin/iobench-sweep-filesize" --dry-run --sizes 1M -d 1 /var/tmp/x.dat
  [ "$status" -eq 0 ]
  [[ $output == *"$TMP/p/bin/iobench run"* ]]
  cd "$TMP/src.moved"
  make -s uninstall
  [ -z "$(find "$TMP/p" -type f -o -type l)" ]
}

@test "make static links no name service: no getaddrinfo warning; --server takes an address, refuses a name in one line" {
  cd "$TMP/src"
  ./configure -q
  run make -s -j2 static
  [ "$status" -eq 0 ]
  [[ $output != *getaddrinfo* && $output != *"in statically linked applications"* ]]
  # The static build against a server (the dynamic build: either serves).
  mkdir "$TMP/logs"
  "${IOBENCH:-$ROOT/iobench}" durability serve --listen 127.0.0.1:0 --dir "$TMP/logs" 2>"$TMP/serve.err" &
  local pid=$! port
  echo "$pid" >"$TMP/serve.pid"
  wait_for 30 grep -q 'listening on 127.0.0.1:' "$TMP/serve.err"
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err")
  run --separate-stderr ./iobench-static durability write -q --server "127.0.0.1:$port" --size 1M -d 1 "$TMP/data"
  local wrc=$status
  run --separate-stderr ./iobench-static durability write --server "localhost:$port" --size 1M -d 1 "$TMP/data2"
  kill -TERM "$pid"
  wait "$pid" || true
  rm "$TMP/serve.pid"
  [ "$wrc" -eq 0 ]
  [ "$(grep -c '^A ' "$TMP"/logs/*.log)" -gt 0 ]
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: durability write --server localhost:$port: this static build resolves no host names; give an address (10.0.0.5:$port) or use the dynamic build" ]
  [ ! -e "$TMP/data2" ]
}

@test "make static: iobench-static runs, measures and reports in a root with no C library at all" {
  local static=$ROOT/iobench-static r=$TMP/root
  [[ -x "$static" ]] || skip "iobench-static not built (make static; make check builds it)"
  [[ $(id -u) == 0 ]] || skip "needs root (chroot)"
  command -v busybox >/dev/null || skip "busybox not installed (busybox-static, .ci/apt-fleet.txt)"
  file -L "$(command -v busybox)" | grep -q 'statically linked' || skip "busybox is not the static one (busybox-static)"
  # A root with a static busybox, the static iobench and the dynamic one: no
  # libc, no loader.
  mkdir -p "$r/bin" "$r/tmp"
  cp "$(command -v busybox)" "$r/bin/busybox"
  ln -s busybox "$r/bin/sh"
  cp "$static" "$r/bin/iobench"
  cp "${IOBENCH:-$ROOT/iobench}" "$r/bin/iobench-dynamic"
  [ -z "$(find "$r" -name 'libc.so*' -o -name 'ld-linux*' -o -name 'libjansson*')" ]
  # The dynamic build cannot even start there: that is what the static one is for.
  run chroot "$r" /bin/iobench-dynamic --version
  [ "$status" -eq 127 ]
  run chroot "$r" /bin/iobench --version
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench "* ]]
  chroot "$r" /bin/iobench create -q /tmp/data 8M
  [ "$(stat -c %s "$r/tmp/data")" -eq $((8 << 20)) ]
  chroot "$r" /bin/iobench run -q -d 1 -b 1 -o read4k -o write4k --json /tmp/r.jsonl /tmp/data
  [ "$(jq -s '[.[].operations[] | select(.total.count > 0)] | length' "$r/tmp/r.jsonl")" -eq 2 ]
  run chroot "$r" /bin/iobench report --csv --section groups /tmp/r.jsonl
  [ "$status" -eq 0 ]
  grep -q '^"\?read,4K,4K' <<<"$output"
  grep -q '^"\?writeFlush,4K,4K' <<<"$output"
}

@test "--version names the release and, built in a git checkout, the commit" {
  git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || skip "env: not a git checkout"
  [[ $(readlink -f "$IOBENCH") == "$(readlink -f "$ROOT/iobench")" ]] || skip "env: the binary under test was not built in this checkout"
  head=$(git -C "$ROOT" rev-parse --short HEAD)
  run "$IOBENCH" --version
  [ "$status" -eq 0 ]
  [[ $output == "iobench 0."*" (commit $head"* ]]
  # The JSON of a run records it too.
  "$IOBENCH" create -q "$TMP/f" 1M
  "$IOBENCH" -q -n 10 -d 5 --json "$TMP/o.jsonl" "$TMP/f"
  [[ $(jq -r .commit "$TMP/o.jsonl") == "$head"* ]]
  # A copy without .git knows no commit, and says nothing of one.
  cd "$TMP/src" && ./configure -q && make -s -j2
  run ./iobench --version
  [[ $output =~ ^iobench\ [0-9.]+$ ]]
}
