#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# iobench create: size, randomness, refusal to overwrite, cleanup on failure.

load lib/core

each_teardown() {
  if [[ -n "${MNT:-}" ]]; then umount "$MNT" 2>/dev/null || true; fi
}

@test "create writes exactly the size asked, including a ragged tail" {
  "$IOBENCH" create -q "$TMP/a" 10M
  [ "$(stat -c %s "$TMP/a")" -eq 10485760 ]
  "$IOBENCH" create -q "$TMP/b" 5000
  [ "$(stat -c %s "$TMP/b")" -eq 5000 ]
  "$IOBENCH" create -q -t 3 "$TMP/c" 13M
  [ "$(stat -c %s "$TMP/c")" -eq 13631488 ]
}

@test "created data is random: gzip saves less than 1%" {
  "$IOBENCH" create -q "$TMP/a" 16M
  gz=$(gzip -c "$TMP/a" | wc -c)
  [ "$gz" -gt $((16777216 * 99 / 100)) ]
  # and no 4 KiB block repeats
  [ "$(od -An -v -tx1 -w4096 "$TMP/a" | sort -u | wc -l)" -eq 4096 ]
}

@test "create refuses to overwrite an existing file unless --force" {
  echo keep > "$TMP/a"
  run "$IOBENCH" create -q "$TMP/a" 1M
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: $TMP/a: already exists; use --force to overwrite it" ]]
  [ "$(cat "$TMP/a")" = keep ]
  run "$IOBENCH" create -q --force "$TMP/a" 1M
  [ "$status" -eq 0 ]
  [ "$(stat -c %s "$TMP/a")" -eq 1048576 ]
}

@test "create with a bad size or missing arguments is a usage error" {
  run "$IOBENCH" create -q "$TMP/a" 12x
  [ "$status" -eq 2 ]
  [[ "$output" == "iobench: bad size '12x'"* ]]
  run "$IOBENCH" create -q "$TMP/a" 0
  [ "$status" -eq 2 ]
  run "$IOBENCH" create -q "$TMP/a"
  [ "$status" -eq 2 ]
  [ ! -e "$TMP/a" ]
}

@test "create into a directory that does not exist says so" {
  run "$IOBENCH" create -q "$TMP/nodir/a" 1M
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: $TMP/nodir/a: cannot create: No such file or directory" ]]
}

@test "ENOSPC during create leaves no partial file and a clear message" {
  [ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
  MNT=$TMP/mnt
  mkdir -p "$MNT"
  mount -t tmpfs -o size=8m tmpfs "$MNT"
  run "$IOBENCH" create -q "$MNT/big" 64M
  [ "$status" -eq 1 ]
  [[ "$output" == "iobench: $MNT/big: not enough space for 64.00 MiB"* ]] ||
    [[ "$output" == "iobench: $MNT/big: no space left"* ]]
  [ ! -e "$MNT/big" ]
}

@test "SIGINT during create removes the partial file and exits 130" {
  [ "$(id -u)" -eq 0 ] || skip "needs root for a slow loop device"
  # A big file on the real disk: interrupt it after a moment.
  rc=$(stop_after 0.3 INT "$IOBENCH" create -q "$TMP/big" 8G)
  if [ "$rc" -eq 0 ]; then skip "env: create finished 8G before the signal"; fi
  [ "$rc" -eq 130 ]
  [ ! -e "$TMP/big" ]
}

@test "create --help lists its options" {
  run "$IOBENCH" create --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"--force"* && "$output" == *"--threads"* ]]
}

@test "create shows a progress bar with rate and ETA on a terminal, nothing otherwise" {
  command -v script >/dev/null || skip "script (util-linux) not installed"
  script -qec "$IOBENCH create $TMP/a 1G" "$TMP/tty.log" >/dev/null
  [ "$(tr '\r' '\n' < "$TMP/tty.log" | grep -cE '^\[[# ]{30}\] +[0-9]+% .* MB/s +ETA [0-9]+s')" -ge 1 ]
  tr '\r' '\n' < "$TMP/tty.log" | grep -q '100% 1.00 GiB / 1.00 GiB'
  rm -f "$TMP/a"
  run "$IOBENCH" create "$TMP/a" 64M
  [ "$status" -eq 0 ]
  [ -z "$output" ]
}
