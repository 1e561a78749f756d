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
