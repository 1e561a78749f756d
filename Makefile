# Makefile - build, test and install iobench. Run ./configure first.
# SPDX-License-Identifier: Apache-2.0
# Every target but these needs ./configure's config.mk.
NOCONFIG_GOALS = configure-check clean distclean
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(wildcard config.mk),)
$(error config.mk is missing: run ./configure first)
endif
endif
-include config.mk

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes $(WARN_EXTRA)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DIOBENCH_VERSION='"$(VERSION)"' -Isrc -Ibuild/gen \
	$(CPPFLAGS) $(JANSSON_CFLAGS) $(URING_CFLAGS) $(BLKID_CFLAGS) $(WARN) $(CFLAGS) $(SAN_FLAGS) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)
ALL_LIBS = $(JANSSON_LIBS) $(URING_LIBS) $(AIO_LIBS) $(BLKID_LIBS) $(LIBS)

# The source is a folder per layer, lowest first (docs/architecture.md). A
# layer calls only the layers its LOWER_ line names: each is an archive, and
# linking one whole with only those below it is part of the build, so a call
# upwards (or sideways) fails the build (build/layers/LAYER.ok).
LAYERS = lib host engines results measure durability report cli
LOWER_lib =
LOWER_host = lib
LOWER_engines = lib
LOWER_results = engines host lib
LOWER_measure = results engines host lib
LOWER_durability = lib
LOWER_report = host lib
LOWER_cli = measure durability report results engines host lib
# report/ is layered inside the same way, a sub-folder each (lowest first),
# each checked as a layer of its own: what it may call in report/, and the
# layers outside that it, or what it calls, needs.
REPORT_LAYERS = report/base report/store report/read report/render report/sections report/charts
LOWER_report/base = lib
LOWER_report/store = report/base host lib
LOWER_report/read = report/store report/base host lib
LOWER_report/render = report/base lib
LOWER_report/sections = report/render report/store report/base host lib
LOWER_report/charts = report/sections report/render report/store report/base host lib

SRC = $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c src/$(l)/*/*.c))
OBJ = $(patsubst src/%.c,build/%.o,$(SRC))
MAIN_OBJ = build/cli/main.o
# A layer's sources, those of its sub-folders with them.
layer_src = $(wildcard src/$(1)/*.c src/$(1)/*/*.c)
layer_objs = $(filter-out $(MAIN_OBJ),$(patsubst src/%.c,build/%.o,$(call layer_src,$(1))))
# Every layer but cli, highest first: what a unit test links.
ARCHIVES = $(foreach l,cli measure durability report results engines host lib,build/$(l).a)
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
TEST_HELPERS_SRC = $(wildcard tests/helpers/*.c)
TEST_HELPERS = $(patsubst tests/helpers/%.c,build/tests/%.so,$(TEST_HELPERS_SRC))

.PHONY: all static check check-quick check-unit check-all check-sanitizers fuzz fuzz-long unit-tests install uninstall \
	deb dist distcheck clean distclean configure-check

all: iobench

LAYER_CHECKS = $(patsubst %,build/layers/%.ok,$(filter-out cli,$(LAYERS)) $(REPORT_LAYERS))

iobench: $(OBJ) $(LAYER_CHECKS)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ) $(ALL_LIBS)

# One binary that runs on any x86-64 Linux of the last decade, whatever its C
# library: scripts/fleet-run ships it to the hosts by default.
# It links no name service (glibc's getaddrinfo would need the linking
# glibc's shared NSS modules at run time): the one object that resolves host
# names is built a second time with -DIOBENCH_STATIC, and takes addresses only.
# Stripped (-s): it is what travels, is hashed and is copied on every host
# (3.9 MB with its symbols, 1.9 MB without); the dynamic build keeps them.
STATIC_ONLY = durability/net
STATIC_OBJ = $(filter-out $(patsubst %,build/%.o,$(STATIC_ONLY)),$(OBJ)) $(patsubst %,build/static/%.o,$(STATIC_ONLY))
static: iobench-static
iobench-static: $(STATIC_OBJ) $(LAYER_CHECKS)
	$(CC) $(ALL_LDFLAGS) -static -s -o $@ $(STATIC_OBJ) $(ALL_LIBS) -lpthread

build/static/%.o: src/%.c config.mk
	@$(MKDIR_P) $(@D)
	$(CC) $(ALL_CFLAGS) -DIOBENCH_STATIC -c -o $@ $<

build/%.o: src/%.c config.mk
	@$(MKDIR_P) $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The commit the binary is built from: in a git checkout of this tree, HEAD
# (with -dirty when tracked files changed); in a `make dist` tarball, the
# commit it was made from; else none. Rewritten only when it changes.
build/lib/version.o: build/gen/commit.h
build/gen/commit.h: FORCE
	@$(MKDIR_P) build/gen; \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
		c=$$(git rev-parse --short HEAD 2>/dev/null); \
		[ -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || c="$$c-dirty"; \
	elif [ -f .dist-commit ]; then c="$$(cat .dist-commit), release tarball"; else c=; fi; \
	printf '#define IOBENCH_COMMIT "%s"\n' "$$c" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# A layer's archive: its objects (cli's without main); report's sub-layers
# have one each too, for their checks.
.SECONDEXPANSION:
$(ARCHIVES) $(REPORT_LAYERS:%=build/%.a): build/%.a: $$(call layer_objs,$$*)
	rm -f $@ && ar rcs $@ $^

# The layer rule, checked: LAYER's archive linked whole with only the archives
# below it (and the system's libraries). An undefined symbol is a call to a
# layer LAYER may not use. Its includes too: a header of a layer above or
# beside (a type the link cannot see) names the file and the folder.
build/layers/%.ok: build/%.a $$(addprefix build/,$$(addsuffix .a,$$(LOWER_$$*))) build/layers/stub.o \
		$$(wildcard src/$$*/*.h src/$$*/*/*.h)
	@$(MKDIR_P) $(@D)
	@bad=$$(grep -Ho '^#include "[a-z_/]*/' $(wildcard src/$*/*.[ch] src/$*/*/*.[ch]) | \
		sed 's|^\([^:]*\):#include "\(.*\)/$$|\1 \2|' | \
		while read -r f d; do ok=; for l in $* $(LOWER_$*); do case $$d in "$$l"|"$$l"/*) ok=1;; esac; done; \
			[ -n "$$ok" ] || echo "  $$f includes $$d/"; done); \
	if [ -n "$$bad" ]; then \
		echo "$$bad" >&2; \
		echo "make: src/$*/ includes headers outside the layers below it ($(or $(LOWER_$*),none)); see docs/architecture.md" >&2; \
		exit 1; \
	fi
	@if ! $(CC) $(ALL_LDFLAGS) -o build/layers/$*.out build/layers/stub.o -Wl,--whole-archive build/$*.a \
		-Wl,--no-whole-archive $(patsubst %,build/%.a,$(LOWER_$*)) $(ALL_LIBS) -lpthread 2>build/layers/$*.err; then \
		grep -o "undefined reference to \`[^']*'" build/layers/$*.err | sort -u | sed 's/^/  /' >&2; \
		echo "make: src/$*/ calls code outside the layers below it ($(or $(LOWER_$*),none)); see docs/architecture.md" >&2; \
		exit 1; \
	fi
	@rm -f build/layers/$*.out && touch $@
build/layers/stub.o:
	@$(MKDIR_P) $(@D)
	printf 'int main(void) { return 0; }\n' | $(CC) -x c -c -o $@ -

build/tests/%: tests/unit/%.c tests/unit/check.h $(ARCHIVES) | build/tests
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(ARCHIVES) $(ALL_LDFLAGS) $(ALL_LIBS)

# LD_PRELOAD helpers for fault-injection tests; never linked into iobench.
build/tests/%.so: tests/helpers/%.c | build/tests
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -O2 -fPIC -shared -o $@ $< -ldl

build/tests:
	$(MKDIR_P) $@

unit-tests: $(UNIT_BIN) $(TEST_HELPERS)

# The one test command: C unit tests, then every bats suite (the fleet
# suites ship the static build to their hosts).
check: iobench iobench-static unit-tests
	tests/run-tests

# A few minutes: the C unit tests and the tests tagged quick (they need
# nothing but the build).
check-quick: iobench unit-tests
	tests/run-tests --unit --tags quick

# The C unit tests alone (what `make distcheck` runs from the tarball).
check-unit: unit-tests
	tests/run-tests --unit-only

# Everything CI runs (the README's test command, after .ci/install):
# configure is current, no stray files, the fuzz targets build, all tests
# and the sanitizer builds' suites in one queue (tests/run-tests
# --sanitizers: the short sanitizer suites fill the CPUs the long fleet
# suites leave idle), fuzzing within its budget and the release tarball
# at idle priority beside the suites that run alone (they measure the
# machine and leave most of it idle), so that no CPU waits.
# The builds use every CPU (BUILD_JOBS); the suites schedule their own.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check-all: configure-check
	$(MAKE) -j$(BUILD_JOBS) iobench iobench-static unit-tests
	$(MAKE) -j$(BUILD_JOBS) fuzz
	tests/sanitize --build-only asan tsan
	tests/run-tests --sanitizers asan,tsan \
		--beside-alone 'tests/fuzz/run $(FUZZ_SECS) && $(MAKE) -s distcheck'

# The same tests under ASan+UBSan and TSan (clang, a copy of the tree each),
# the two side by side.
check-sanitizers:
	tests/sanitize asan tsan

# libFuzzer targets (clang): build/fuzz/fuzz_*; run them with tests/fuzz/run.
# The sources are compiled once (instrumented, into build/fuzz/libfuzz.a) and
# every target links that archive.
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN = $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))
FUZZ_LIB_SRC = $(filter-out src/cli/main.c,$(SRC))
FUZZ_LIB_OBJ = $(patsubst src/%.c,build/fuzz/obj/%.o,$(FUZZ_LIB_SRC))
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DIOBENCH_VERSION='"$(VERSION)"' -Isrc -Ibuild/gen \
	$(JANSSON_CFLAGS) $(URING_CFLAGS) $(BLKID_CFLAGS) -g -O1 -MMD -MP
# Seconds of fuzzing per target: a budget in CI, longer by `make fuzz-long`.
FUZZ_SECS = 20
FUZZ_LONG_SECS = 600
fuzz: $(FUZZ_BIN)
fuzz-long: fuzz
	tests/fuzz/run $(FUZZ_LONG_SECS)
build/fuzz/obj/%.o: src/%.c build/gen/commit.h config.mk
	@$(MKDIR_P) $(@D)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<
build/fuzz/libfuzz.a: $(FUZZ_LIB_OBJ)
	rm -f $@ && ar rcs $@ $(FUZZ_LIB_OBJ)
build/fuzz/%: tests/fuzz/%.c build/fuzz/libfuzz.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< build/fuzz/libfuzz.a $(ALL_LIBS)

# Installed layout (one prefix, default /usr/local):
#   bin/iobench, share/man/man1/iobench.1 and iobench-NAME.1 (one per script)
#   libexec/iobench/scripts/..., libexec/iobench/raid/...   the scripts as in the tree,
#       with scripts/lib/paths.sh saying where the binary and share/ went
#   bin/iobench-NAME -> libexec/iobench/{scripts,raid}/NAME  every user-facing script
#   libexec/iobench/iobench-static    when built (make static): what fleet-run ships
#   share/iobench/prices-sample.json
#   share/bash-completion/completions/iobench
#   lib/systemd/system/iobench-watch@.service, its configurations in
#       SYSCONFDIR/iobench (watch.env.example; /etc for the .deb)
# Every directory and file gets its mode from here (install -d -m 755,
# install -m 644/755, chmod for what is written by the shell), not from the
# installing user's umask: under umask 077 a root install would otherwise
# leave folders and paths.sh that no other user can read.
pkglibexecdir = $(libexecdir)/iobench
pkgdatadir = $(datadir)/iobench
pkgsysconfdir = $(sysconfdir)/iobench
systemdunitdir = $(prefix)/lib/systemd/system
bashcompdir = $(datadir)/bash-completion/completions
USER_SCRIPTS = $(filter-out scripts/fleet-job,$(shell find scripts raid -maxdepth 1 -type f -perm -u+x | sort))
SHIPPED_SCRIPTS = scripts/fleet-job
SCRIPT_LIBS = $(wildcard scripts/lib/*.sh)
DATA = $(wildcard share/*.json)
# iobench.1 and a page per user-facing script (OPTIONS from its --help: tools/man-from-help)
MAN_PAGES = $(wildcard man/*.1)

install: iobench
	$(INSTALL) -d -m 755 $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(pkgdatadir) \
		$(DESTDIR)$(pkglibexecdir)/scripts/lib $(DESTDIR)$(pkglibexecdir)/raid $(DESTDIR)$(systemdunitdir) \
		$(DESTDIR)$(bashcompdir) $(DESTDIR)$(pkgsysconfdir)
	$(INSTALL) -m 755 iobench $(DESTDIR)$(bindir)/iobench
	for f in $(MAN_PAGES); do $(INSTALL) -m 644 $$f $(DESTDIR)$(mandir)/man1/ || exit 1; done
	for f in $(USER_SCRIPTS) $(SHIPPED_SCRIPTS); do $(INSTALL) -m 755 $$f $(DESTDIR)$(pkglibexecdir)/$$f || exit 1; done
	for f in $(SCRIPT_LIBS); do $(INSTALL) -m 644 $$f $(DESTDIR)$(pkglibexecdir)/$$f || exit 1; done
	if [ -f iobench-static ]; then $(INSTALL) -m 755 iobench-static $(DESTDIR)$(pkglibexecdir)/iobench-static; fi
	printf '# paths.sh - where make install put iobench (read by scripts/lib/common.sh)\nIOBENCH_BIN=%s\nIOBENCH_STATIC_BIN=%s\nIOBENCH_DATADIR=%s\n' \
		'$(bindir)/iobench' '$(pkglibexecdir)/iobench-static' '$(pkgdatadir)' > $(DESTDIR)$(pkglibexecdir)/scripts/lib/paths.sh
	chmod 644 $(DESTDIR)$(pkglibexecdir)/scripts/lib/paths.sh
	for f in $(DATA); do $(INSTALL) -m 644 $$f $(DESTDIR)$(pkgdatadir)/ || exit 1; done
	for f in $(USER_SCRIPTS); do ln -sfn $(pkglibexecdir)/$$f $(DESTDIR)$(bindir)/iobench-$${f##*/} || exit 1; done
	sed -e 's|/usr/local/bin/iobench|$(bindir)/iobench|' -e 's|/etc/iobench/|$(pkgsysconfdir)/|g' \
		scripts/iobench-watch@.service > $(DESTDIR)$(systemdunitdir)/iobench-watch@.service
	chmod 644 $(DESTDIR)$(systemdunitdir)/iobench-watch@.service
	$(INSTALL) -m 644 share/watch.env.example $(DESTDIR)$(pkgsysconfdir)/watch.env.example
	$(INSTALL) -m 644 completion/iobench $(DESTDIR)$(bashcompdir)/iobench

# Removes exactly what install put there (and the iobench folders it made).
uninstall:
	rm -f $(DESTDIR)$(bindir)/iobench
	for f in $(MAN_PAGES); do rm -f $(DESTDIR)$(mandir)/man1/$${f##*/}; done
	for f in $(USER_SCRIPTS); do rm -f $(DESTDIR)$(bindir)/iobench-$${f##*/}; done
	for f in $(USER_SCRIPTS) $(SHIPPED_SCRIPTS) $(SCRIPT_LIBS) scripts/lib/paths.sh iobench-static; do \
		rm -f $(DESTDIR)$(pkglibexecdir)/$$f; done
	for f in $(DATA); do rm -f $(DESTDIR)$(pkgdatadir)/$${f##*/}; done
	rm -f $(DESTDIR)$(systemdunitdir)/iobench-watch@.service $(DESTDIR)$(pkgsysconfdir)/watch.env.example \
		$(DESTDIR)$(bashcompdir)/iobench
	-rmdir $(DESTDIR)$(pkglibexecdir)/scripts/lib $(DESTDIR)$(pkglibexecdir)/scripts \
		$(DESTDIR)$(pkglibexecdir)/raid $(DESTDIR)$(pkglibexecdir) $(DESTDIR)$(pkgdatadir) \
		$(DESTDIR)$(pkgsysconfdir) 2>/dev/null

# Debian packages of what make install puts under /usr (and /etc/iobench),
# the static build included: iobench_VERSION_ARCH.deb and, for the fleet and
# EC2 scripts and the static build, iobench-fleet_VERSION_ARCH.deb.
# tools/make-deb splits the tree, writes their control files (Depends from
# dpkg-shlibdeps and what the scripts run), copyright and changelog, and runs
# dpkg-deb. DEB_MAINTAINER sets the Maintainer field; DEB_DIR is where the
# packages go, DEB_STAGE the tree they are made from. tests/package.bats
# installs them in a fresh Debian 12.
DEB_DIR = .
DEB_STAGE = build/deb/root
deb: iobench iobench-static
	rm -rf $(abspath $(DEB_STAGE)) $(abspath $(DEB_STAGE)).fleet
	$(MAKE) -s install prefix=/usr sysconfdir=/etc DESTDIR=$(abspath $(DEB_STAGE))
	tools/make-deb $(DEB_STAGE) $(VERSION) $(DEB_DIR)

# Fails when ./configure is older than configure.ac, or when editor and
# autoconf leftovers lie in the tree (CI runs this).
STRAY = -name '*~' -o -name '*.orig' -o -name '*.rej' -o -name '*.bak' -o -name '*.swp' \
	-o -name '.\#*' -o -name '\#*\#' -o -name autom4te.cache -o -name 'configure.*.old'
configure-check:
	@tmp=$$(mktemp -d) && cp configure.ac "$$tmp"/ && (cd "$$tmp" && autoconf) && \
	if cmp -s "$$tmp/configure" configure; then echo "configure is current"; rm -rf "$$tmp"; \
	else echo "configure is stale: run autoconf and commit it" >&2; rm -rf "$$tmp"; exit 1; fi
	@stray=$$(find . \( -path ./.git -o -path ./build -o -path ./.ci/venv -o -path ./tests/.tmp \) -prune \
		-o \( $(STRAY) \) -print); \
	if [ -n "$$stray" ]; then echo "stray backup files in the tree (delete them):" $$stray >&2; exit 1; fi
	@marks=$$(grep -rlE --exclude-dir=.git --exclude-dir=build --exclude-dir=venv '^(<<<<<<<|>>>>>>>) ' . || true); \
	if [ -n "$$marks" ]; then echo "merge conflict markers left in:" $$marks >&2; exit 1; fi

# A release tarball with configure inside, made from what git tracks.
DIST = iobench-$(VERSION)
dist: $(DIST).tar.gz
$(DIST).tar.gz: FORCE
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
		{ echo "make dist needs a git checkout (it packs what git tracks)" >&2; exit 1; }
	rm -rf build/dist && $(MKDIR_P) build/dist/$(DIST)
	git ls-files -z | xargs -0 cp --parents -t build/dist/$(DIST)
	git rev-parse --short HEAD > build/dist/$(DIST)/.dist-commit
	tar -C build/dist -czf $@ --owner=0 --group=0 --sort=name $(DIST)
	rm -rf build/dist
	@echo "wrote $@"

# The tarball alone builds, passes the quick tests, installs and uninstalls.
distcheck: dist
	rm -rf build/distcheck && $(MKDIR_P) build/distcheck
	tar -C build/distcheck -xzf $(DIST).tar.gz
	cd build/distcheck/$(DIST) && ./configure -q && $(MAKE) -s -j$(BUILD_JOBS) && $(MAKE) -s -j$(BUILD_JOBS) check-unit
	build/distcheck/$(DIST)/iobench --version | grep -qF "(commit $$(cat build/distcheck/$(DIST)/.dist-commit), release tarball)"
	cd build/distcheck/$(DIST) && $(MAKE) -s install DESTDIR=$(CURDIR)/build/distcheck/stage && \
		$(MAKE) -s uninstall DESTDIR=$(CURDIR)/build/distcheck/stage
	@left=$$(find build/distcheck/stage -type f -o -type l); \
	if [ -n "$$left" ]; then echo "uninstall left files behind:" $$left >&2; exit 1; fi
	rm -rf build/distcheck
	@echo "$(DIST).tar.gz is ready for release"

FORCE:

clean:
	rm -rf build iobench iobench-static iobench_*.deb iobench-fleet_*.deb

distclean: clean
	rm -f config.mk config.log config.status
	rm -rf autom4te.cache

-include $(OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(patsubst %,build/static/%.d,$(STATIC_ONLY))
