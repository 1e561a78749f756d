# Makefile - build, test and install iobench. Run ./configure first.
# Every target but these needs ./configure's config.mk.
NOCONFIG_GOALS = configure-check clean distclean
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(wildcard config.mk),)
$(error config.mk is missing: run ./configure first)
endif
endif
-include config.mk

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes $(WARN_EXTRA)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DIOBENCH_VERSION='"$(VERSION)"' -Iinclude \
	$(JANSSON_CFLAGS) $(URING_CFLAGS) $(WARN) $(CFLAGS) $(SAN_FLAGS) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)
ALL_LIBS = $(JANSSON_LIBS) $(URING_LIBS) $(AIO_LIBS) $(LIBS)

SRC = $(wildcard src/*.c)
OBJ = $(patsubst src/%.c,build/%.o,$(SRC))
LIB_OBJ = $(filter-out build/main.o,$(OBJ))
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))
TEST_HELPERS_SRC = $(wildcard tests/helpers/*.c)
TEST_HELPERS = $(patsubst tests/helpers/%.c,build/tests/%.so,$(TEST_HELPERS_SRC))

.PHONY: all check check-sanitizers fuzz unit-tests install uninstall clean distclean configure-check

all: iobench

iobench: $(OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ) $(ALL_LIBS)

build/%.o: src/%.c config.mk | build
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/libiobench.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $(LIB_OBJ)

build/tests/%: tests/unit/%.c tests/unit/check.h build/libiobench.a | build/tests
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< build/libiobench.a $(ALL_LDFLAGS) $(ALL_LIBS)

# LD_PRELOAD helpers for fault-injection tests; never linked into iobench.
build/tests/%.so: tests/helpers/%.c | build/tests
	$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -O2 -fPIC -shared -o $@ $< -ldl

build build/tests:
	$(MKDIR_P) $@

unit-tests: $(UNIT_BIN) $(TEST_HELPERS)

# The one test command: C unit tests, then every bats suite.
check: iobench unit-tests
	tests/run-tests

# The same tests under ASan+UBSan and TSan (clang, a copy of the tree).
check-sanitizers:
	tests/sanitize asan
	tests/sanitize tsan

# libFuzzer targets (clang): build/fuzz/fuzz_*; run them with tests/fuzz/run.
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN = $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))
FUZZ_LIB_SRC = $(filter-out src/main.c,$(SRC))
fuzz: $(FUZZ_BIN)
build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_SRC) | build
	$(MKDIR_P) build/fuzz
	clang -std=gnu11 -D_GNU_SOURCE -DIOBENCH_VERSION='"$(VERSION)"' -Iinclude $(JANSSON_CFLAGS) $(URING_CFLAGS) \
		-g -O1 -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_SRC) $(ALL_LIBS)

install: iobench
	$(MKDIR_P) $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	$(INSTALL) -m 755 iobench $(DESTDIR)$(bindir)/iobench
	$(INSTALL) -m 644 man/iobench.1 $(DESTDIR)$(mandir)/man1/iobench.1

uninstall:
	rm -f $(DESTDIR)$(bindir)/iobench $(DESTDIR)$(mandir)/man1/iobench.1

# Fails when ./configure is older than configure.ac (CI runs this).
configure-check:
	@tmp=$$(mktemp -d) && cp configure.ac "$$tmp"/ && (cd "$$tmp" && autoconf) && \
	if cmp -s "$$tmp/configure" configure; then echo "configure is current"; rm -rf "$$tmp"; \
	else echo "configure is stale: run autoconf and commit it" >&2; rm -rf "$$tmp"; exit 1; fi

clean:
	rm -rf build iobench

distclean: clean
	rm -f config.mk config.log config.status
	rm -rf autom4te.cache

-include $(OBJ:.o=.d)
