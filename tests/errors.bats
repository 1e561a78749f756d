#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=quick
# Bad input: one "iobench: " line saying what is wrong and what to do, the
# right exit code, and the target unchanged.

load lib/core

each_setup() {
  make_file "$TMP/f" 8M
  SUM=$(md5sum < "$TMP/f")
}

each_teardown() {
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
}

# expect STATUS PATTERN -- ARGS...: iobench exits STATUS with one stderr line matching PATTERN.
expect() {
  local want=$1 pattern=$2
  shift 3
  run --separate-stderr "$IOBENCH" "$@"
  if [ "$status" -ne "$want" ] || [ "$(wc -l <<<"$stderr")" -ne 1 ] ||
    [[ "$stderr" != iobench:\ * ]] || [[ "$stderr" != $pattern ]]; then
    echo "args: $*" >&2
    echo "status $status (want $want), stderr: $stderr" >&2
    return 1
  fi
  [ "$(md5sum < "$TMP/f")" = "$SUM" ]
}

@test "unknown operation" {
  expect 2 "*unknown operation 'frob4k'*read<SIZE>*" -- -o frob4k "$TMP/f"
}

@test "bad size in an operation" {
  expect 2 "*bad size '4x'*" -- -o read4x "$TMP/f"
}

@test "long form with a missing field" {
  expect 2 "*expected 4 fields*OP,THREADS,SIZE,ALIGN*" -- -o read,1,4K "$TMP/f"
}

@test "zero threads" {
  expect 2 "*thread count out of range*1 to 4096*" -- -t 0 "$TMP/f"
}

@test "bad thread list" {
  expect 2 "*bad thread list 'a,b'*" -- -t a,b "$TMP/f"
}

@test "bad duration" {
  expect 2 "*bad --duration 'soon'*" -- -d soon "$TMP/f"
  expect 2 "*--duration '0' out of range*" -- -d 0 "$TMP/f"
}

@test "bad bucket, count, seed, label, iodepth" {
  expect 2 "*bad --bucket*" -- -b x "$TMP/f"
  expect 2 "*bad --ops*" -- -n 0 "$TMP/f"
  expect 2 "*bad --seed*" -- --seed -1 "$TMP/f"
  expect 2 "*bad --label 'novalue'*KEY=VALUE*" -- --label novalue "$TMP/f"
  expect 2 "*--iodepth 4 needs an asynchronous engine*" -- --iodepth 4 "$TMP/f"
}

@test "unknown engine and unknown option" {
  expect 2 "*unknown engine 'warp'*available*" -- -e warp "$TMP/f"
  expect 2 "*unknown option '--frobnicate'*--help*" -- --frobnicate "$TMP/f"
  expect 2 "*-d needs a value*" -- "$TMP/f" -d
}

@test "--direct and --no-direct together" {
  expect 2 "*contradict*" -- --direct --no-direct "$TMP/f"
}

@test "no target, two targets" {
  expect 2 "*no TARGET given*--size*" -- -o read4k
  expect 2 "*one TARGET only*" -- "$TMP/f" "$TMP/g"
}

@test "missing target suggests create or --size" {
  expect 1 "*$TMP/nope: does not exist; create it with 'iobench create*or add --size*" -- "$TMP/nope"
}

@test "a directory as watch's target (run takes one: run.bats)" {
  expect 2 "*$TMP: is a directory; give a file or block device*" -- watch "$TMP"
}

@test "a file smaller than one operation" {
  "$IOBENCH" create -q "$TMP/tiny" 4K
  expect 1 "*smaller than one read4m operation*" -- -o read4m "$TMP/tiny"
}

@test "O_DIRECT unsupported by the filesystem suggests --no-direct" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount ramfs"
  # ramfs has no O_DIRECT (tmpfs has it since Linux 6.6)
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t ramfs ramfs "$MNT"
  head -c 1048576 /dev/urandom > "$MNT/f"
  run --separate-stderr "$IOBENCH" -q -o read4k -d 1 "$MNT/f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $MNT/f: O_DIRECT not supported by ramfs; use --no-direct" ]]
  run "$IOBENCH" -q -o read4k -d 1 --no-direct "$MNT/f"
  [ "$status" -eq 0 ]
}

@test "permission denied for an unreadable target" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to switch to nobody"
  chmod 600 "$TMP/f"
  chmod 755 "$TMP"
  run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" -q -o read4k -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/f: cannot open for reading: Permission denied"* ]]
}

@test "a write op on an unwritable target is refused before anything runs" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to switch to nobody"
  chmod 644 "$TMP/f"
  chmod 755 "$TMP"
  run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups "$IOBENCH" -q -o write4k -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/f: not writable"*"write access"* ]]
  [ "$(md5sum < "$TMP/f")" = "$SUM" ]
}

@test "O_DIRECT with a size the device cannot align suggests a fix" {
  run --separate-stderr "$IOBENCH" -q -o read1000 -d 1 "$TMP/f"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/f: read1000 with O_DIRECT needs a size and alignment that are multiples of "*"or --no-direct" ]]
  run "$IOBENCH" -q -o read1000 -d 1 --no-direct "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "--help and --version" {
  run "$IOBENCH" --help
  [ "$status" -eq 0 ]
  for opt in --op --threads --duration --bucket --size --span --direct --no-direct --dsync \
    --seed --label --json --quiet --force --shuffle --engine --iodepth --ops; do
    [[ "$output" == *"$opt"* ]]
  done
  run "$IOBENCH" --version
  [ "$status" -eq 0 ]
  # the commit follows when the build knows it (a git checkout or a release tarball)
  [[ "$output" =~ ^iobench\ [0-9]+\.[0-9]+\.[0-9]+(\ \(commit\ [0-9a-f]+(-dirty)?(,\ release\ tarball)?\))?$ ]]
}

@test "an empty path, value or operand is one line and exit 2, never 'iobench: : cannot ...'" {
  mkdir -p "$TMP/res"
  "$IOBENCH" -q -o read4k -d 1 --json "$TMP/res/r.jsonl" "$TMP/f"
  expect 2 "iobench: --json is empty; give a FILE" -- --json '' -d 1 "$TMP/f"
  expect 2 "iobench: --raw is empty; give a FILE" -- --raw '' -d 1 "$TMP/f"
  expect 2 "iobench: --json is empty; give a FILE" -- --json= -d 1 "$TMP/f"
  expect 2 "iobench: --plot is empty; give a DIR" -- report --plot '' "$TMP/res"
  expect 2 "iobench: --dir is empty; give a DIR" -- durability serve --dir ''
  expect 2 "iobench: --token-file is empty; give a FILE*" -- durability verify --server 127.0.0.1:1 --token-file '' "$TMP/f"
  expect 2 "iobench: --threads is empty; give a LIST" -- -t '' "$TMP/f"
  expect 2 "iobench: --provision is empty; give a FILE*" -- --provision '' -d 1 "$TMP/f"
  expect 2 "iobench: argument 1 is empty ('') and names nothing; give a path (see 'iobench run --help')" -- -d 1 ''
  expect 2 "iobench: argument 1 is empty*'iobench create --help')" -- create '' 1M
  expect 2 "iobench: argument 2 is empty*'iobench report --help')" -- report "$TMP/res" ''
  expect 2 "iobench: argument 1 is empty*'iobench watch --help')" -- watch ''
  expect 2 "iobench: argument 1 is empty*'iobench durability verify --help')" -- durability verify --server 127.0.0.1:1 ''
  [ ! -e "$TMP/.jsonl" ]
}

@test "a 5,000-character value is cut in the message, never the advice after it" {
  long=$(printf 'x%.0s' $(seq 5000))
  expect 2 "iobench: bad thread list 'xxxx*...*x (5000 bytes)'; use e.g. 8, 1,2,4 or 1..4,8" -- -t "$long" "$TMP/f"
  expect 2 "iobench: operation 'read4kxx*...*x (5006 bytes)' is too long; give one op*" -- -o "read4k$long" "$TMP/f"
  expect 2 "iobench: bad --label 'xx* (5000 bytes)'; use KEY=VALUE" -- --label "$long" "$TMP/f"
  expect 2 "iobench: bad --rate 'xx* (5000 bytes)'; use operations per second*" -- --rate "$long" "$TMP/f"
  expect 2 "iobench: bad --server 'xx*x:1 (5002 bytes)'; use HOST:PORT*" -- durability verify --server "$long:1" "$TMP/f"
  expect 2 "iobench: unknown option '--xx* (5002 bytes)'; see 'iobench run --help'" -- "--$long" "$TMP/f"
  # the shown value is bounded: the whole line stays short
  run --separate-stderr "$IOBENCH" -t "$long" "$TMP/f"
  [ "${#stderr}" -lt 200 ]
}

@test "messages that named no fix now say one: FIFO, unresolvable server, EFBIG, a 4,095-byte target" {
  mkfifo "$TMP/fifo"
  expect 2 "iobench: $TMP/fifo: not a regular file or block device (a FIFO, socket or character device holds no data to measure); give a file on a disk's filesystem or a block device" -- -d 1 "$TMP/fifo"
  expect 1 "iobench: cannot resolve 'no-such-host.invalid': *; check the name, or give the server's address (10.0.0.5:7340)" -- \
    durability verify --server no-such-host.invalid "$TMP/f"
  # EFBIG is no matter of free space
  expect 1 "iobench: $TMP/c.dat: 1.00 PiB is more than this filesystem allows in one file (File too large); choose a smaller size*" -- \
    create "$TMP/c.dat" 1P
  [ ! -e "$TMP/c.dat" ]
  head -c 4095 /dev/zero >"$TMP/h"
  expect 1 "iobench: $TMP/h: 3.99 KiB is smaller than one read4k operation*" -- -d 1 "$TMP/h"
  expect 2 "iobench: --span 3.99 KiB is smaller than one read4k operation; use a span of at least 4.00 KiB" -- \
    -d 1 --span 4095 "$TMP/f"
}

@test "durability --server takes a name, a dotted quad or [IPv6], never inet_aton's shorthands" {
  for bad in 1.5 1.2.3 0x7f.1 2130706433 017.0.0.1 '::1' '[1.2.3.4]' '[::1'; do
    expect 2 "iobench: bad --server '*'; use HOST:PORT, HOST a name, a dotted quad or ?IPv6? (e.g. 10.0.0.5:7340)" -- \
      durability write --server "$bad" -d 1 "$TMP/f"
    expect 2 "iobench: bad --server '*'; use HOST:PORT*" -- durability verify --server "$bad:7" "$TMP/f"
    [[ $stderr == *"'$bad:7'"* ]]
  done
  expect 2 "iobench: bad --listen '1.5:0'*" -- durability serve --listen 1.5:0
  # the forms it takes are tried (nothing listens on port 1)
  for good in 127.0.0.1:1 '[::1]:1' localhost:1; do
    expect 1 "iobench: cannot reach the durability server at *: Connection refused*" -- durability verify --server "$good" "$TMP/f"
  done
}
