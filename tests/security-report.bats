#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
# bats file_tags=security
# Issue 34, the report's side: what a hostile results tree, manifest or
# --expect/--prices file can make `iobench report` print, compute or spend
# (docs/security.md, "A results tree"). Each test names the defect class it
# guards.

load lib/core
bats_require_minimum_version 1.5.0

STUDY=$BATS_TEST_DIRNAME/data/study
DEVICES=$BATS_TEST_DIRNAME/data/devices

# What a host can put in a string: a title-setting OSC, a carriage return and a forged line.
HOSTILE_HOST='g2\u001b]0;PWN\u0007\rFORGED: all ok\nFAKE'
ALL_SECTIONS=fleet,targets,groups,instances,badApples,threads,compare,time,regimes,series,modes,devices,tiers,durability,bonnie,bonnieRuns,watch,watchRegimes,periodic,notes,durabilityVerify

# hostile_tree: $TMP/gp3, the gp3 study with g2's host, labels and provision
# facts and the manifest's run id, state, host names and failure hostile.
hostile_tree() {
  cp -r "$STUDY/gp3" "$TMP/gp3"
  rm -r "$TMP/gp3/g4"
  jq -c --argjson h "\"$HOSTILE_HOST\"" 'if .host == "g2" then .host = $h
      | .labels = {"k\u001b[31m": "v\u001b[2J\r\nFAKE"}
      | .provision.instanceType = "m5\u001b]0;X\u0007" | .provision.volumeType = "gp3\u009b2J" else . end' \
    "$STUDY/gp3/g2/iobench.jsonl" >"$TMP/gp3/g2/iobench.jsonl"
  jq '.runId = "gp3\u001b[2J" | .state = "complete\u001b[2J"
      | (.hosts[] | select(.name == "g4")) |= (.name = "g4\u001b[2J\nFAKE" | .status = "failed"
      | .failure = {kind: "auth\u001b]0;T\u0007", detail: "d\r\nFORGED"})' \
    "$STUDY/gp3/manifest.json" >"$TMP/gp3/manifest.json"
}

# clean_bytes FILE...: none holds ESC, BEL, CR, a C1 control or a line that data started.
clean_bytes() {
  local f
  for f in "$@"; do
    if LC_ALL=C grep -naP '[\x1b\x07\r]|\xc2[\x80-\x9f]|^(FAKE|FORGED)' "$f" >"$TMP/bad"; then
      echo "$f holds control bytes or an injected line:" >&2
      od -c "$TMP/bad" | head -20 >&2
      return 1
    fi
  done
}

@test "report sections: hosts, labels, facts and a manifest's names reach the terminal without control bytes" {
  hostile_tree
  "$IOBENCH" report --detail --section "$ALL_SECTIONS" "$TMP/gp3" >"$TMP/out" 2>"$TMP/err"
  # the data is there, shown: the host's rows, the run id with its ESC as '?'
  grep -q 'g2?\]0;PWN??FORGED: all ok?FAKE' "$TMP/out"
  grep -q '^fleet run gp3?\[2J (complete?\[2J): 2 of 4 hosts sent results$' "$TMP/out"
  grep -q 'g4?\[2J?FAKE' "$TMP/out"
  clean_bytes "$TMP/out" "$TMP/err"
  # CSV lands on terminals too
  "$IOBENCH" report --csv --section groups,fleet,instances "$TMP/gp3" >"$TMP/out" 2>"$TMP/err"
  clean_bytes "$TMP/out" "$TMP/err"
  # JSON keeps the bytes, escaped
  "$IOBENCH" report --json --section fleet "$TMP/gp3" >"$TMP/out"
  [ "$(jq -r '.fleet[] | select(.status == "failed") | .kind' "$TMP/out")" = $'auth\e]0;T\a' ]
}

@test "the summary and the fleet header say hostile names without their control bytes" {
  hostile_tree
  "$IOBENCH" report "$TMP/gp3" >"$TMP/out" 2>"$TMP/err"
  grep -q '^Summary' "$TMP/out"
  grep -q 'failed or sent nothing: g2 (no-results), g4?\[2J?FAKE (auth?\]0;T?)  \[fleet\]$' "$TMP/out"
  grep -q '^threads .*optimal threads' "$TMP/out"
  grep -q '^  *m5?\]0;X? / gp3?2J x1 / k?\[31m=v?\[2J??FAKE  ' "$TMP/out"
  clean_bytes "$TMP/out" "$TMP/err"
}

@test "report: device names and serials from a line are shown without control bytes" {
  jq -c '(.devices[] | select(.name == "vde")) |= (.name = "vde\u009b2J" | .serial = "vol\u001b]0;S\u0007\nFAKE")
         | (.devices[] | select(.role == "target")) |= (.below = [.below[] | if . == "vde" then "vde\u009b2J" else . end])' \
    "$DEVICES/raid0-slow-member.jsonl" >"$TMP/d.jsonl"
  "$IOBENCH" report --section devices "$TMP/d.jsonl" >"$TMP/out" 2>"$TMP/err"
  grep -q 'vde?2J' "$TMP/out"
  clean_bytes "$TMP/out" "$TMP/err"
}

@test "report warnings and an --expect parse error quote data without control bytes, one line each" {
  mkdir "$TMP/rr"
  head -1 "$STUDY/gp3/g1/iobench.jsonl" >"$TMP/rr/good.jsonl"
  printf '{"broken\033]0;T\a\r\n' >"$TMP/rr/x"$'\e[2J'".jsonl"
  printf '%s\n' '{"not": "a result'$'\e''[2J"}' >>"$TMP/rr/good.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$TMP/rr"
  [ "$status" -eq 0 ]
  printf '%s\n' "$stderr" >"$TMP/err"
  clean_bytes "$TMP/err"
  [ "$(grep -c '^iobench: ' "$TMP/err")" -eq "$(wc -l <"$TMP/err")" ]
  printf 'read4k >= 1\033[2J\302\233 iops\n' >"$TMP/e.txt"
  run --separate-stderr "$IOBENCH" report --expect "$TMP/e.txt" "$TMP/rr"
  [ "$status" -eq 2 ]
  printf '%s\n' "$stderr" >"$TMP/err"
  clean_bytes "$TMP/err"
  [ "$(wc -l <"$TMP/err")" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/e.txt:1: "* ]]
}

@test "a run line whose elapsed is a denormal is skipped, said, never inf ops/s" {
  head -1 "$STUDY/gp3/g1/iobench.jsonl" | jq -c '.elapsed = 5e-324' >"$TMP/e.jsonl"
  head -1 "$STUDY/gp3/g2/iobench.jsonl" >>"$TMP/e.jsonl"
  run --separate-stderr "$IOBENCH" report --detail "$TMP/e.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" != *inf* ]]
  [[ "$stderr" == "iobench: $TMP/e.jsonl:1: result line's duration (\"elapsed\" or \"runtime\") 4.94066e-324 s is not one a run has (1e-06 s to 1e+09 s); skipped" ]]
  run --separate-stderr "$IOBENCH" report --json "$TMP/e.jsonl"
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 1 ]
  [ "$(jq '[.groups[] | .opsPerSec | select(. == null or . > 1e9)] | length' <<<"$output")" -eq 0 ]
}

@test "a results tree holding a link to / is walked within bounds of names and depth, each said" {
  mkdir "$TMP/rr"
  head -1 "$STUDY/gp3/g1/iobench.jsonl" >"$TMP/rr/a.jsonl"
  ln -s / "$TMP/rr/root"
  # 99,990 names walked before the link (a.jsonl, aa/, aa's files): the bound falls inside /,
  # a few names in, on any box, and the test does not read the box's own files
  mkdir "$TMP/rr/aa"
  (cd "$TMP/rr/aa" && seq 99988 | xargs touch)
  run --separate-stderr timeout -s KILL 120 "$IOBENCH" report --json "$TMP/rr"
  [ "$status" -eq 0 ]
  [[ "$stderr" == *"iobench: $TMP/rr: walked 100000 names (files and folders), the bound of one PATH; the rest from $TMP/rr/root"*" is not read (a link to / or a tree that large? give its folders)"* ]]
  [ "$(grep -c 'walked 100000 names' <<<"$stderr")" -eq 1 ]
  [ "$(jq '.inputs.files' <<<"$output")" -ge 1 ]
  # 34 folders deep: the file at 33 is not read, and that is said once
  local d=$TMP/deep _
  for _ in $(seq 34); do d=$d/d; done
  mkdir -p "$d"
  cp "$TMP/rr/a.jsonl" "$d/"
  head -1 "$STUDY/gp3/g2/iobench.jsonl" >"$TMP/deep/b.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$TMP/deep"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 1 ]
  [ "$(grep -c 'deeper than 32' <<<"$stderr")" -eq 1 ]
  [[ "$stderr" == *"a folder deeper than 32 under $TMP/deep, the bound of a walk; not entered (nor any other that deep)"* ]]
}

@test "--prices: a negative, huge or non-number price and a non-object list are refused with file and key" {
  local sample=$BATS_TEST_DIRNAME/../share/prices-sample.json q
  head -1 "$STUDY/gp3/g1/iobench.jsonl" >"$TMP/a.jsonl"
  jq '.instances["m5.large"] = -0.0959' "$sample" >"$TMP/p.json"
  run --separate-stderr "$IOBENCH" report --prices "$TMP/p.json" "$TMP/a.jsonl"
  [ "$status" -eq 2 ]
  [ "$output" = "" ]
  [ "$stderr" = "iobench: $TMP/p.json: instances.m5.large: -0.0959 is not a price or count (a number from 0 to 1e+09); see share/prices-sample.json" ]
  for q in '.volumes.standard.perMillionIO = 1e308' '.volumes.io2.iopsTiers[1].perIopsMonth = "cheap"' \
    '.volumes.gp3.freeIops = -3000'; do
    jq "$q" "$sample" >"$TMP/p.json"
    run --separate-stderr "$IOBENCH" report --prices "$TMP/p.json" "$TMP/a.jsonl"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "iobench: $TMP/p.json: volumes."* ]]
  done
  echo '[0.1]' >"$TMP/p.json"
  run --separate-stderr "$IOBENCH" report --prices "$TMP/p.json" "$TMP/a.jsonl"
  [ "$status" -eq 2 ]
  [ "$stderr" = "iobench: $TMP/p.json: not a prices file (not an object); see share/prices-sample.json" ]
  jq '.configs["large/ebs4"].volumeGB = -100' "$sample" >"$TMP/p.json"
  run --separate-stderr "$IOBENCH" report --prices "$TMP/p.json" "$TMP/a.jsonl"
  [ "$status" -eq 2 ]
  [[ "$stderr" == "iobench: $TMP/p.json: configs.large/ebs4.volumeGB: -100 is not a price or count"* ]]
  # the sample itself is a price list
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$sample" "$TMP/a.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.cost | length == 1 and .[0].dollarsPerHour > 0' <<<"$output"
  # with a byte-order mark, as an editor may save it: read as result files are
  printf '\xef\xbb\xbf' | cat - "$sample" >"$TMP/bom.json"
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$TMP/bom.json" "$TMP/a.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.cost | length == 1' <<<"$output"
  # a line's own facts are data too: a negative volume size prices nothing, never less than the instance
  jq -c '.provision.volumeSize = -500' "$TMP/a.jsonl" >"$TMP/neg.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$sample" "$TMP/neg.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.cost | length == 0' <<<"$output"
}

@test "counts past 2^63 are refused, never wrapped: five runs of 4e18, buckets that wrap to their count" {
  local h i
  h=$(head -1 "$STUDY/gp3/g1/iobench.jsonl" | jq -c '.operations |= [.[0]] | .operations[0].timeBuckets = []
      | .operations[0].total |= (.count = 4000000000000000000 | .buckets = [4000000000000000000]
      | .firstBucketStart = 1000 | .minValue = 1000 | .maxValue = 1000 | .totalValue = 1000000 | .errorCount = 0)')
  for i in 1 2 3 4 5; do jq -c --arg h "h$i" '.host = $h' <<<"$h"; done >"$TMP/big.jsonl"
  run --separate-stderr "$IOBENCH" report --json --merge-hosts --section groups "$TMP/big.jsonl"
  [ "$status" -eq 0 ]
  # two runs' 8e18 fit; the other three are said and skipped
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 2 ]
  jq -e '.groups[0].count == 8e18' <<<"$output"
  jq -e '.groups[0].opsPerSec > 0' <<<"$output"
  [ "$(grep -c "its operations would take the report's counts past 9223372036854775807, the most they hold; skipped" <<<"$stderr")" -eq 3 ]
  [[ "$stderr" == *"iobench: $TMP/big.jsonl:3: its operations would take"* ]]
  # 9e18 + 9e18 + 446744073709551680 is 2^64 + 64: a wrapped sum would match count 64
  jq -c '.operations[0].total |= (.count = 64 | .buckets = ["B"])' <<<"$h" |
    sed 's/"B"/9000000000000000000,9000000000000000000,446744073709551680/' >"$TMP/wrap.jsonl"
  run --separate-stderr "$IOBENCH" report --json "$TMP/wrap.jsonl"
  [ "$status" -eq 1 ]
  [[ "$stderr" == "iobench: $TMP/wrap.jsonl:1: operation 1 (read,4K,4K): histogram buckets sum past 9223372036854775807, the most a count holds; skipped"* ]]
}

@test "a line of 64 devices x 100,000 buckets is read in bounded memory: its device buckets folded, not kept" {
  [[ -x /usr/bin/time ]] || skip "GNU time not installed (/usr/bin/time, Debian: time; .ci/apt-report.txt)"
  # the study's line, then 64 devices of 100,000 empty buckets each (19 MB)
  head -1 "$STUDY/gp3/g1/iobench.jsonl" | sed 's/}$//' >"$TMP/head"
  local h
  for h in h1 h2; do
    {
      sed "s/\"host\":\"g1\"/\"host\":\"$h\"/" "$TMP/head" | tr -d "\n"
      awk 'BEGIN { printf ",\"devices\":["
        for (d = 0; d < 64; d++) {
          printf "%s{\"name\":\"vd%d\",\"type\":\"disk\",\"role\":\"%s\",\"buckets\":[{}", d ? "," : "", d, d ? "member" : "target"
          for (i = 1; i < 100000; i++) printf ",{}"
          printf "]}"
        }
        print "]}" }'
    } >"$TMP/$h.jsonl"
  done
  [ "$(wc -c <"$TMP/h1.jsonl")" -gt 19000000 ]
  run --separate-stderr /usr/bin/time -f 'maxrss %M' "$IOBENCH" report --json --section groups "$TMP/h1.jsonl" "$TMP/h2.jsonl"
  [ "$status" -eq 0 ]
  [ "$(jq '.inputs.runs' <<<"$output")" -eq 2 ]
  # 771 MB for one such line before (6.4M buckets of 48 bytes, twice); now the parser's
  # document of one line (~200 MB) and 64 x 1024 buckets a line: a bound with a margin
  local kb
  kb=$(awk '/^maxrss/ { print $2 }' <<<"$stderr")
  echo "peak $kb KB" >&3
  [ "$kb" -lt 450000 ]
}
