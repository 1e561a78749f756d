#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root
# sweeps.bats - scripts/sweep-filesize and scripts/sweep-threads with the real
# iobench on small files and 1-second runs.

bats_require_minimum_version 1.5.0

SWEEP_SIZE=$BATS_TEST_DIRNAME/../scripts/sweep-filesize
SWEEP_THREADS=$BATS_TEST_DIRNAME/../scripts/sweep-threads

setup() {
  command -v jq >/dev/null || skip "jq not installed"
  [[ -x "${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}" ]] || skip "iobench not built (make)"
  cd "$BATS_TEST_TMPDIR" || return 1
}

@test "sweep-filesize --help and a bad range (exit 2)" {
  run "$SWEEP_SIZE" --help
  [ "$status" -eq 0 ]
  [[ "$output" == *"usage: sweep-filesize [OPTIONS] TARGET"* ]]
  run "$SWEEP_SIZE" --sizes 4G..1G:256M data.bin
  [ "$status" -eq 2 ]
  [[ "$output" == *"--sizes"* ]]
  run "$SWEEP_SIZE" --sizes 1M..2M:0 data.bin
  [ "$status" -eq 2 ]
}

@test "sweep-filesize --dry-run expands 256M..1G:256M plus a list into one span per size" {
  run "$SWEEP_SIZE" --dry-run -q --sizes 256M..1G:256M,1536M data.bin
  [ "$status" -eq 0 ]
  [ "$(grep -c -- ' run .*--span ' <<<"$output")" -eq 5 ]
  [ "$(grep -o -- '--span [0-9]*' <<<"$output" | awk '{print $2}' | paste -sd,)" == \
    268435456,536870912,805306368,1073741824,1610612736 ]
  [[ "$output" == *"--note spanHuman=768M"* && "$output" == *"--note spanHuman=1536M"* ]]
  [[ "$output" != *"--label"* ]]
  [ ! -e data.bin ]
}

@test "sweep-filesize writes one read4k line per size, its span noted for people, no label" {
  run "$SWEEP_SIZE" -q --create --sizes 1M..4M:1M,6M -d 1 -b 1 --json sizes.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(wc -l <sizes.jsonl)" -eq 5 ]
  # The file is as large as the largest size.
  [ "$(stat -c %s data.bin)" -eq $((6 * 1024 * 1024)) ]
  # iobench's own span, op, threads and direct I/O on every line; one
  # configuration (no label), the size for people in a note.
  [ "$(jq -r '.target.span' sizes.jsonl | paste -sd,)" == 1048576,2097152,3145728,4194304,6291456 ]
  [ "$(jq -s '[.[] | select(.labels == {}
                     and .operations[0].name == "read4k"
                     and .operations[0].threadCount == 1
                     and .operations[0].direct == true
                     and .operations[0].total.count > 0)] | length' sizes.jsonl)" -eq 5 ]
  [ "$(jq -r '.notes.spanHuman' sizes.jsonl | paste -sd,)" == 1M,2M,3M,4M,6M ]
  # What the user reads next: iobench report sees one sweep over five sizes.
  run --separate-stderr "$IOBENCH" report --json --section groups sizes.jsonl
  [ "$status" -eq 0 ]
  [ "$(jq '[.groups[] | .size] | unique | length' <<<"$output")" -eq 5 ]
}

@test "sweep-filesize refuses a missing file without --create" {
  run "$SWEEP_SIZE" -q --sizes 1M -d 1 missing.bin
  [ "$status" -eq 1 ]
  [[ "$output" == *"missing.bin does not exist"* ]]
}

@test "sweep-filesize shows size i/N and an ETA on a terminal, nothing in a pipe or with -q" {
  local cmd
  printf -v cmd '%q ' "$SWEEP_SIZE" --create --sizes 1M,2M,3M -d 1 -b 1 --json p.jsonl data.bin
  run script -qec "$cmd" /dev/null
  [ "$status" -eq 0 ]
  local out=${output//$'\r'/}
  [ "$(grep -cE '^sweep-filesize: size [123]/3 \([123]M\), ETA [0-9]+ s$' <<<"$out")" -eq 3 ]
  grep -qx 'sweep-filesize: size 1/3 (1M), ETA 3 s' <<<"$out"
  run script -qec "$cmd -q" /dev/null
  [ "$status" -eq 0 ]
  [[ "$output" != *"size 1/3"* ]]
  run "$SWEEP_SIZE" --sizes 1M,2M -d 1 -b 1 --json p.jsonl data.bin
  [ "$status" -eq 0 ]
  [[ "$output" != *"size 1/2"* ]]
  [ "$(wc -l <p.jsonl)" -eq 8 ]
}

@test "sweep-threads --dry-run: the study's 42 (op, count) runs in one order, not op by op, the same for the same --seed" {
  run --separate-stderr "$SWEEP_THREADS" --dry-run --seed 5 --id t --json t.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(wc -l <<<"$output")" -eq 42 ]
  local first=$output pairs want
  # Each command one run: -o OP -t COUNT, the run's place noted, its seed from --seed.
  pairs=$(sed -E 's/.* -o ([^ ]+) -t ([0-9]+) .*/\1 \2/' <<<"$output")
  want=$({ for t in 1 2 4 8 12 16 24 32 48 64; do echo "read4k $t"; done
    for op in read4m write4k write4m write4k/64; do for t in 1 2 3 4 6 8 12 16; do echo "$op $t"; done; done; } | sort)
  [ "$(sort <<<"$pairs")" == "$want" ]
  [ "$(grep -oE -- '--note planStep=[0-9]+' <<<"$output" | cut -d= -f2 | paste -sd,)" == "$(seq -s, 1 42)" ]
  [ "$(grep -oE -- '--seed [0-9]+' <<<"$output" | cut -d' ' -f2 | paste -sd,)" == "$(seq -s, 6 47)" ]
  # One order over all ops: far more than 4 changes of op.
  [ "$(cut -d' ' -f1 <<<"$pairs" | uniq | wc -l)" -gt 15 ]
  # The order is on stderr, with its seed.
  [ "$(grep -F 'order (seed 5): ' <<<"$stderr" | sed 's/.*): //')" == "$(paste -sd, <<<"$pairs" | sed 's/,/, /g')" ]
  run --separate-stderr "$SWEEP_THREADS" --dry-run -q --seed 5 --id t --json t.jsonl data.bin
  [ "$output" == "$first" ]
  [ -z "$stderr" ]
  run --separate-stderr "$SWEEP_THREADS" --dry-run -q --seed 6 --id t --json t.jsonl data.bin
  [ "$(sed -E 's/.* -o ([^ ]+) -t ([0-9]+) .*/\1 \2/' <<<"$output")" != "$pairs" ]
  [ ! -e t.jsonl ]
}

@test "sweep-threads runs in the order it says: by start time, its steps 1..N" {
  run --separate-stderr "$SWEEP_THREADS" --seed 3 --id o --ops read4k,write4k/64 --threads 1,2,3 \
    --size 16M -d 1 -b 1 --json o.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(jq -sr 'sort_by(.launchTime) | .[] | "\(.operations[0].name) \(.operations[0].threadCount)"' o.jsonl | paste -sd, | sed 's/,/, /g')" == \
    "$(grep -F 'order (seed 3): ' <<<"$stderr" | sed 's/.*): //')" ]
  [ "$(jq -sr 'sort_by(.launchTime) | .[].notes.planStep' o.jsonl | paste -sd,)" == "1,2,3,4,5,6" ]
}

@test "sweep-threads runs every op at every count and names the smallest count within 5% of the best" {
  run --separate-stderr "$SWEEP_THREADS" -q --id s1 --ops read4k,write4k/64 --threads 1,2,3 \
    --size 16M -d 1 -b 1 --json s.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(wc -l <s.jsonl)" -eq 6 ]
  local op
  for op in read4k write4k/64; do
    [ "$(jq -s --arg op "$op" '[.[] | .operations[0] | select(.name == $op) | .threadCount] | sort' s.jsonl | jq -c .)" == '[1,2,3]' ]
    # The rule, computed here independently from the same iops fields.
    local want
    want=$(jq -s -r --arg op "$op" '[.[] | .operations[0] | select(.name == $op)] as $r
      | ($r | max_by(.iops) | .iops) as $m
      | [$r[] | select(.iops >= 0.95 * $m) | .threadCount] | min' s.jsonl)
    [ "$(awk -F'\t' -v op="$op" '$1 == op {print $2}' <<<"$output")" -eq "$want" ]
  done
  [ "$(head -n 1 <<<"$output")" == "$(printf 'op\tchosenThreads\tchosenIops\tbestThreads\tbestIops')" ]
  # ops/s as a person reads them: whole numbers, not 69296.9406219561
  [ "$(awk -F'\t' 'NR > 1 && $3 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/' <<<"$output" | wc -l)" -eq 2 ]
}

@test "sweep-threads ignores lines of other sweeps in the same file" {
  run --separate-stderr "$SWEEP_THREADS" -q --id a --ops read4k --threads 1 --size 8M -d 1 -b 1 --json s.jsonl data.bin
  [ "$status" -eq 0 ]
  run --separate-stderr "$SWEEP_THREADS" -q --id b --ops read4k --threads 2 -d 1 -b 1 --json s.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(wc -l <s.jsonl)" -eq 2 ]
  [ "$(awk -F'\t' '$1 == "read4k" {print $2}' <<<"$output")" -eq 2 ]
}

@test "sweep-threads notes its id (no label), and shows run i/N and an ETA on a terminal only" {
  local cmd
  printf -v cmd '%q ' "$SWEEP_THREADS" --id p --ops read4k,write4k/64 --threads 1,2 --size 8M -d 1 -b 1 --json p.jsonl data.bin
  run script -qec "$cmd" /dev/null
  [ "$status" -eq 0 ]
  local out=${output//$'\r'/}
  grep -qxE 'sweep-threads: run 1/4 (read4k|write4k/64) with [12] threads?, ETA 4 s' <<<"$out"
  grep -qE '^sweep-threads: run 4/4 (read4k|write4k/64) with [12] threads?, ETA [0-9]+ s$' <<<"$out"
  [ "$(jq -r '[.notes.sweep, (.labels | length)] | @tsv' p.jsonl | sort -u)" == "$(printf 'p\t0')" ]
  run --separate-stderr "$SWEEP_THREADS" --id q --ops read4k --threads 1 -d 1 -b 1 --json p.jsonl data.bin
  [ "$status" -eq 0 ]
  [[ "$stderr" != *"run 1/1"* ]]
}

@test "sweep-threads with an unwritable target fails (exit 1) and says so" {
  run "$SWEEP_THREADS" -q --id f --ops read4k --threads 1 -d 1 --json f.jsonl "$BATS_TEST_TMPDIR/nope/data.bin"
  [ "$status" -eq 1 ]
  [[ "$output" == *"iobench failed on read4k"* ]]
}

# path_without CMD: a PATH folder holding every command of this one but CMD.
path_without() {
  local dir=$BATS_TEST_TMPDIR/path-without-$1 d f
  mkdir -p "$dir"
  for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    for f in "$d"/*; do
      [[ -x "$f" && "$(basename "$f")" != "$1" && ! -e "$dir/$(basename "$f")" ]] && ln -s "$f" "$dir/"
    done
  done
  echo "$dir"
}

@test "sweep-threads checks its tools and its plan before the first run, --dry-run too" {
  local iob=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  "$iob" create -q data.bin 4M
  run env PATH="$(path_without jq)" IOBENCH="$iob" "$SWEEP_THREADS" -q -d 1 --threads 1 --ops read4k \
    --json out.jsonl data.bin
  [ "$status" -eq 1 ]
  [ "$output" = "sweep-threads: jq not found; install jq (Debian: apt-get install jq)" ]
  [ ! -e out.jsonl ]
  # An IOBENCH that names no program: said first, not as a bash error after the sweep.
  for dry in "" --dry-run; do
    # shellcheck disable=SC2086 # an empty word on purpose
    run env IOBENCH="$BATS_TEST_TMPDIR/no-such-iobench" "$SWEEP_THREADS" $dry -q -d 1 --threads 1 --ops read4k \
      --json out.jsonl data.bin
    [ "$status" -eq 1 ]
    [ "$output" = "sweep-threads: IOBENCH=$BATS_TEST_TMPDIR/no-such-iobench is not an executable; point it at an iobench binary, or unset it" ]
    [ ! -e out.jsonl ]
  done
  for args in "--threads 0" "--threads 1,0" "--threads 5000" "--ops ,," "--ops read4k," "--ops frob4k" "-d 0"; do
    # shellcheck disable=SC2086 # words on purpose
    run "$SWEEP_THREADS" --dry-run $args data.bin
    [ "$status" -eq 2 ]
    [ "$(grep -c . <<<"$output")" -eq 1 ]
    [[ "$output" == "sweep-threads: "*"(see sweep-threads --help)" ]]
  done
}

@test "sweep-threads says the page-cache warning once, not once per run; the runs' lines all land" {
  local d=$BATS_TEST_TMPDIR
  "$IOBENCH" create -q "$d/data" 16M
  run --separate-stderr "$SWEEP_THREADS" --ops write4k/64 --threads 1,2,3 -d 1 -b 1 --seed 5 \
    --json "$d/s.jsonl" "$d/data"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'runs through the page cache' <<<"$stderr")" -eq 1 ]
  [ "$(wc -l <"$d/s.jsonl")" -eq 3 ]
}

@test "sweep-threads --steady --precondition: the file written over once, every run in rounds, every line preconditioned" {
  head -c $((8 * 1024 * 1024)) /dev/zero >data.bin
  run --separate-stderr "$SWEEP_THREADS" -q --ops read4k --threads 1,2 -d 0.5 -b 0.5 --steady --max-rounds 6 \
    --precondition --no-direct --seed 5 --json st.jsonl data.bin
  [ "$status" -eq 0 ]
  # preconditioned: random bytes over the zeros, the size kept
  [ "$(stat -c %s data.bin)" -eq $((8 * 1024 * 1024)) ]
  [ "$(tr -d '\0' <data.bin | head -c 4096 | wc -c)" -eq 4096 ]
  [ "$(wc -l <st.jsonl)" -eq 2 ]
  # every run in rounds of -d, a window of five at least, at most six; the fact on each line
  [ "$(jq -s '[.[] | .operations[0] as $o | select(.provision.preconditioned == true
              and ($o.rounds | length) >= 5 and ($o.rounds | length) <= 6
              and ($o.steadyState | has("attained")))] | length' st.jsonl)" -eq 2 ]
  jq -e '.runtime <= 3.5' st.jsonl >/dev/null
  # only the first run preconditions
  run "$SWEEP_THREADS" --dry-run -q --ops read4k --threads 1,2,4 --steady --precondition data.bin
  [ "$(grep -c -- ' --precondition ' <<<"$output")" -eq 1 ]
  [ "$(grep -c -- ' --steady --steady-round 60 ' <<<"$output")" -eq 3 ]
}

@test "sweep-filesize --steady --initialize; a steady option without --steady is a usage error" {
  run "$SWEEP_SIZE" -q --create --sizes 1M,2M -d 0.5 -b 0.5 --steady --steady-window 3 --max-rounds 4 --initialize \
    --no-direct --json s.jsonl data.bin
  [ "$status" -eq 0 ]
  [ "$(jq -s '[.[] | .operations[0] as $o | select(.provision.initialized == true
              and ($o.rounds | length) >= 3 and ($o.rounds | length) <= 4)] | length' s.jsonl)" -eq 2 ]
  run "$SWEEP_SIZE" --dry-run --sizes 1M --max-rounds 4 data.bin
  [ "$status" -eq 2 ]
  [ "$output" = "sweep-filesize: --max-rounds needs --steady (see sweep-filesize --help)" ]
  run "$SWEEP_THREADS" --dry-run --threads 1 --steady-on lat data.bin
  [ "$status" -eq 2 ]
}
