#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=slow
# Valgrind memcheck on short runs of every command: no invalid access, no
# definite or indirect leak.

load lib/core

each_setup() {
  command -v valgrind >/dev/null || skip "valgrind not installed"
  make_file "$TMP/f" 16M
}

vg() {
  valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite,indirect -q "$@"
}

@test "a run with threads, several ops, --raw and --json is memcheck-clean" {
  run vg "$IOBENCH" -q -o read4k -o write4k/64 -o rw16k:50 -o seqread64k --together -t 2 -d 1 \
    --raw "$TMP/raw" --json "$TMP/o.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  [ "$(jq '.operations | length' "$TMP/o.jsonl")" -eq 4 ]
}

@test "the async engines and --rate are memcheck-clean" {
  run vg "$IOBENCH" -q -e libaio --iodepth 4 -o read4k -d 1 "$TMP/f"
  [ "$status" -eq 0 ]
  run vg "$IOBENCH" -q -e io_uring --iodepth 4 --rate 500 -o read4k -d 1 "$TMP/f"
  [ "$status" -eq 0 ]
}

@test "create, watch and report are memcheck-clean" {
  run vg "$IOBENCH" create -q "$TMP/g" 8M
  [ "$status" -eq 0 ]
  run vg "$IOBENCH" watch -q --interval 0.2 --period 1 --count 1 --json "$TMP/w.jsonl" "$TMP/f"
  [ "$status" -eq 0 ]
  "$IOBENCH" -q -o read4k -d 1 --json "$TMP/o.jsonl" "$TMP/f"
  run vg "$IOBENCH" report "$TMP/w.jsonl" "$TMP/o.jsonl"
  [ "$status" -eq 0 ]
}
