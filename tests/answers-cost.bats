#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=report,cloud
# answers-cost.bats - the study's first question answered right: which
# configuration gives the most I/O per dollar (one price model for
# ec2-provision's estimate and the report), which pairs of configurations
# compare, and which flushed writes are too fast to be durable.

bats_require_minimum_version 1.5.0

setup_file() {
  export IOBENCH=${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}
  export ROOT=$BATS_TEST_DIRNAME/..
  export GEN=$BATS_TEST_DIRNAME/data/report/gen-lines
  export PRICES=$ROOT/share/prices-sample.json
}

# ec2_line ARGS...: ec2-provision --dry-run's estimate line (every aws call,
# there should be none, aimed at a closed port on 127.0.0.1).
ec2_line() {
  local err
  err=$(env -u AWS_PROFILE -u AWS_ENDPOINT_URL AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
    "$ROOT/scripts/ec2-provision" --ami ami-12345678 --run-id r1 --dry-run --region us-east-1 \
    --endpoint-url http://127.0.0.1:9 --results-dir "$BATS_TEST_TMPDIR/res" "$@" 2>&1 >/dev/null)
  grep 'estimated cost: ' <<<"$err"
}

# ec2_estimate ARGS...: ec2-provision --dry-run's estimated $/h.
ec2_estimate() {
  ec2_line "$@" | sed -n 's/.*estimated cost: \$\([0-9.]*\)\/hour.*/\1/p'
}

# priced_line FACTS-JSON: a real short iobench run whose line carries those provision facts.
priced_line() {
  printf '%s\n' "$1" >"$BATS_TEST_TMPDIR/prov.json"
  "$IOBENCH" run -q -o read4k -t 1 -d 1 -b 1 -n 2000 --size 16M "$BATS_TEST_TMPDIR/data.bin" \
    --provision none --provision "$BATS_TEST_TMPDIR/prov.json" --host h1 --json -
}

# fleet CONFIG-FACTS HOST OPS1 OPS4 OPS16 [SIG]: a host's thread sweep (1, 4, 16
# threads; 60 s runs of known ops/s) with those provision facts.
fleet() {
  local facts=$1 host=$2 sig=${6:-read,4K,4K} t ops
  local -A by=([1]=$3 [4]=$4 [16]=$5)
  for t in 1 4 16; do
    ops=${by[$t]}
    "$GEN" "host=$host sig=$sig threads=$t modes=$((t * 1000000000 / ops)):$((ops * 60))" |
      jq -c --argjson p "$facts" --arg az "us-east-1${host: -1}" '.provision = ($p + { az: $az })'
  done
}

GP3='{"instanceType":"m5.large","volumeType":"gp3","volumeSize":200,"volumeCount":1}'
IO2='{"instanceType":"m5.large","volumeType":"io2","volumeSize":200,"volumeIops":8000,"volumeCount":1}'

# Two fleets of four: gp3 at its 3000 IOPS and 125 MiB/s, io2 at 8000 IOPS (faster, dearer).
two_fleets() {
  local h
  for h in a b c d; do
    fleet "$GP3" "gp3-$h" 1000 2900 3000
    fleet "$GP3" "gp3-$h" 20 30 31 'read,4M,4M'
    fleet "$IO2" "io2-$h" 1500 6000 8000
    fleet "$IO2" "io2-$h" 40 110 120 'read,4M,4M'
  done
}

# price FACTS...: iobench price --json for those facts (K=V words) under the sample list.
price() {
  local f words=()
  for f in "$@"; do words+=(--fact "$f"); done
  "$IOBENCH" price --json --prices "$PRICES" "${words[@]}"
}

@test "for every volume type of the sample price list, ec2-provision's estimate is iobench price's, and so is the report's \$/h" {
  local type n=0 est line got p ih vh count
  local -A args=(
    [standard]='-m 1 --volume-size 100'
    [gp2]='-m 2 --volume-size 500'
    [gp3]='-m 4 --volume-size 200 --volume-iops 6000 --volume-throughput 250'
    [io1]='-m 1 --volume-size 200 --volume-iops 8000'
    [io2]='-m 3 --volume-size 100 --volume-iops 50000'
    [st1]='-m 1 --volume-size 500'
    [sc1]='-m 16 --volume-size 1000'
    [ephemeral]='-m 0'
  )
  for type in $(jq -r '.volumes | keys[]' "$PRICES"); do
    [[ -n "${args[$type]:-}" ]] || { echo "no case for volume type $type of the sample list"; return 1; }
    if [[ "$type" == ephemeral ]]; then
      # instance-store disks come with the instance: no EBS volumes to price
      est=$(ec2_line -n 2 -t i3.large -m 0)
      p=$(price instanceType=i3.large)
      count=0
      line=$(priced_line '{"instanceType":"i3.large","instanceStore":true}')
    else
      # shellcheck disable=SC2086 # the options split into words
      est=$(ec2_line -n 2 -t m5.large ${args[$type]} --volume-type "$type")
      # the facts ec2-provision's options stand for, as fleet-run records them
      line=$(jq -cn --arg t "$type" --arg a "${args[$type]}" '
        ($a | split(" ")) as $w
        | def opt($o): ($w | index($o)) as $i | if $i == null then null else ($w[$i + 1] | tonumber) end;
        { instanceType: "m5.large", volumeType: $t, volumeCount: opt("-m"), volumeSize: opt("--volume-size"),
          volumeIops: opt("--volume-iops"), volumeThroughput: opt("--volume-throughput") }
        | with_entries(select(.value != null))')
      # shellcheck disable=SC2046 # one K=V word a fact
      p=$(price $(jq -r 'to_entries[] | "\(.key)=\(.value)"' <<<"$line"))
      count=$(jq .volumeCount <<<"$line")
      line=$(priced_line "$line")
    fi
    [[ -n "$est" ]] || { echo "$type: no estimate from ec2-provision"; return 1; }
    # ec2-provision prints iobench price's parts: the instance's $/h as the list has it, a volume's to 4 places
    ih=$(jq -r .instanceDollarsPerHour <<<"$p")
    vh=$(jq -r '.volumeDollarsPerHour // 0' <<<"$p")
    vh=$(awk -v v="$vh" 'BEGIN { printf "%.4f", v }')
    [[ "$est" == *"2 x m5.large on-demand (\$$ih/h each)"* || "$est" == *"2 x i3.large on-demand (\$$ih/h each)"* ]] ||
      { echo "$type: '$est' does not say iobench price's \$$ih/h"; return 1; }
    if ((count > 0)); then
      [[ "$est" == *" + $((2 * count)) x $type "*" GiB (\$$vh/h each)"* ]] ||
        { echo "$type: '$est' does not say iobench price's \$$vh/h a volume"; return 1; }
    fi
    # ...and their sum for 2 hosts: 2 x iobench price's $/h, to the cent
    got=${est#*estimated cost: \$}
    got=${got%%/hour*}
    jq -e --argjson got "$got" '(2 * .dollarsPerHour - $got | fabs) < 0.005' <<<"$p" ||
      { echo "$type: ec2-provision \$$got/h for 2 hosts, iobench price $(jq -c . <<<"$p")"; return 1; }
    # the report prices a run of the same facts by the same model: the same $/h before per-I/O charges
    got=$("$IOBENCH" report --json --section cost --prices "$PRICES" - <<<"$line")
    jq -e --argjson p "$p" '.cost | length == 1 and ((.[0].dollarsPerHour - .[0].ioDollarsPerHour - $p.dollarsPerHour) | fabs) < 1e-9' <<<"$got" ||
      { echo "$type: iobench price $(jq -c . <<<"$p"), report: $(jq -c '.cost' <<<"$got")"; return 1; }
    # per-I/O charges (standard) are billed at the rate measured: the estimate names them apart
    if [[ "$type" == standard ]]; then
      [[ "$est" == *" + \$0.05 per million I/O requests"* ]]
      jq -e --argjson p "$p" '.cost[0] | (.ioDollarsPerHour - .opsPerSec * 3600 * $p.perMillionIO / 1e6 | fabs) < 1e-9 and .ioDollarsPerHour > 0' <<<"$got"
    else
      [[ "$est" != *"per million"* ]]
      jq -e '.cost[0].ioDollarsPerHour == 0' <<<"$got"
    fi
    n=$((n + 1))
  done
  [ "$n" -eq 8 ]
}

@test "ec2-provision says iobench price's refusal of a wrong price list in one line, and a missing iobench in one" {
  # a copy of the scripts with its own share/: the list they read
  local tree=$BATS_TEST_TMPDIR/tree
  mkdir -p "$tree/share"
  cp -r "$ROOT/scripts" "$tree/"
  jq '.volumes.gp3.freeIops = -3' "$PRICES" >"$tree/share/prices-sample.json"
  run --separate-stderr env -u AWS_PROFILE -u AWS_ENDPOINT_URL AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
    "$tree/scripts/ec2-provision" --ami ami-12345678 --run-id r1 --dry-run --region us-east-1 \
    --endpoint-url http://127.0.0.1:9 --results-dir "$BATS_TEST_TMPDIR/res" -t m5.large
  [ "$status" -eq 1 ]
  [ "$output" == "" ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [ "$stderr" == "ec2-provision: $tree/share/prices-sample.json: volumes.gp3.freeIops: -3 is not a price or count (a number from 0 to 1e+09); see share/prices-sample.json" ]
  # iobench price says the same, as a usage error
  run --separate-stderr "$IOBENCH" price --prices "$tree/share/prices-sample.json" --fact instanceType=m5.large
  [ "$status" -eq 2 ]
  [ "$output" == "" ]
  [ "$stderr" == "iobench: $tree/share/prices-sample.json: volumes.gp3.freeIops: -3 is not a price or count (a number from 0 to 1e+09); see share/prices-sample.json" ]
  # not JSON at all: one line too
  printf '{"instances": ' >"$tree/share/prices-sample.json"
  run --separate-stderr env -u AWS_PROFILE -u AWS_ENDPOINT_URL AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test \
    "$tree/scripts/ec2-provision" --ami ami-12345678 --run-id r1 --dry-run --region us-east-1 \
    --endpoint-url http://127.0.0.1:9 --results-dir "$BATS_TEST_TMPDIR/res" -t m5.large
  [ "$status" -eq 1 ]
  [[ "$stderr" == "ec2-provision: $tree/share/prices-sample.json:1: not a prices file ("*"); see share/prices-sample.json" ]]
  # no iobench: one line, nothing launched
  run --separate-stderr env IOBENCH="$BATS_TEST_TMPDIR/none/iobench" "$tree/scripts/ec2-provision" --ami ami-12345678 \
    --run-id r1 --dry-run --region us-east-1 --endpoint-url http://127.0.0.1:9 --results-dir "$BATS_TEST_TMPDIR/res"
  [ "$status" -eq 1 ]
  [ "$stderr" == "ec2-provision: IOBENCH=$BATS_TEST_TMPDIR/none/iobench is not an executable; point it at an iobench binary, or unset it" ]
}

@test "iobench price: the issue's io2 200 GiB at 8000 IOPS on m5.large, in parts, as text and JSON" {
  run --separate-stderr "$IOBENCH" price --prices "$PRICES" --fact instanceType=m5.large --fact volumeType=io2 \
    --fact volumeSize=200 --fact volumeIops=8000
  [ "$status" -eq 0 ]
  [ "$stderr" == "" ]
  # as docs/report.md prints it
  [ "$output" == "$(sed -n '/^    \$ iobench price --prices/,/^    prices:/p' "$ROOT/docs/report.md" | tail -n +3 | sed 's/^    //')" ]
  # shellcheck disable=SC2016 # the dollars are text
  [ "${lines[0]}" == 'm5.large: $0.0960/h' ]
  # shellcheck disable=SC2016 # the dollars are text
  [ "${lines[1]}" == '1 x io2 200 GiB: $0.7466/h ($0.7466/h each); of which storage $0.0342, IOPS $0.7123, throughput $0.0000' ]
  # shellcheck disable=SC2016 # the dollars are text
  [ "${lines[2]}" == 'total: $0.8426/h' ]
  [ "${lines[3]}" == 'prices: us-east-1 2026-11-01 USD' ]
  run --separate-stderr price instanceType=m5.large volumeType=io2 volumeSize=200 volumeIops=8000 volumeCount=3
  [ "$status" -eq 0 ]
  jq -e '.instanceDollarsPerHour == 0.096 and .volumeCount == 3 and .unpriced == []
    and (.volumeDollarsPerHour - (200 * 0.125 + 8000 * 0.065) / 730 | fabs) < 1e-12
    and (.iopsDollarsPerHour - 3 * 8000 * 0.065 / 730 | fabs) < 1e-12
    and (.dollarsPerHour - (0.096 + 3 * .volumeDollarsPerHour) | fabs) < 1e-12
    and .date == "2026-11-01" and .region == "us-east-1"' <<<"$output"
  # a config of the list: its facts (large/ebs4: m1.large, 4 x standard 100 GiB), per-I/O named apart
  run --separate-stderr price config=large/ebs4
  [ "$status" -eq 0 ]
  jq -e '.instanceType == "m1.large" and .volumeType == "standard" and .volumeCount == 4 and .volumeSize == 100
    and .perMillionIO == 0.05 and (.dollarsPerHour - (0.175 + 4 * 100 * 0.05 / 730) | fabs) < 1e-12' <<<"$output"
  # instance-store disks are the list's ephemeral
  run --separate-stderr price instanceType=i3.large instanceStore=true
  [ "$status" -eq 0 ]
  jq -e '.volumeType == "ephemeral" and .dollarsPerHour == 0.156' <<<"$output"
}

@test "iobench price: a type the list has no price for is said and left out (exit 1); a bad fact is a usage error" {
  run --separate-stderr price instanceType=m9.nope volumeType=gp3 volumeSize=100
  [ "$status" -eq 1 ]
  jq -e '.instanceDollarsPerHour == null and .unpriced == ["instanceType"]
    and (.dollarsPerHour - 100 * 0.08 / 730 | fabs) < 1e-12' <<<"$output"
  [ "$stderr" == "iobench: instance type m9.nope has no price in $PRICES; the estimate leaves it out; add it to the list" ]
  local bad
  for bad in volumeSize=-1 volumeIops=1e300 volumeCount=four instanceStore=yes nosuch=1 instanceType config=none; do
    run --separate-stderr price "$bad"
    [ "$status" -eq 2 ] || { echo "--fact $bad: exit $status"; return 1; }
    [ "$output" == "" ]
    # shellcheck disable=SC2154 # $stderr_lines is set by run --separate-stderr
    [ "${#stderr_lines[@]}" -eq 1 ]
    [[ "$stderr" == "iobench: "*"; "* ]]
  done
  run --separate-stderr "$IOBENCH" price --fact instanceType=m5.large
  [ "$status" -eq 2 ]
  [ "$stderr" == "iobench: no --prices FILE given; give a price list (share/prices-sample.json)" ]
}

@test "the issue's io2 200 GiB at 8000 IOPS on m5.large costs \$0.8426/h in the estimate and the report alike" {
  [ "$(ec2_estimate -t m5.large --volume-type io2 --volume-size 200 --volume-iops 8000)" == 0.8426 ]
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$PRICES" - < <(priced_line "$IO2")
  [ "$status" -eq 0 ]
  jq -e '.cost[0].dollarsPerHour | . > 0.84255 and . < 0.84265' <<<"$output"
}

@test "gp3 gives more reads per dollar than io2 at the true price, though io2 is faster; each op at its optimal thread count" {
  two_fleets >"$BATS_TEST_TMPDIR/fleets.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section cost --prices "$PRICES" "$BATS_TEST_TMPDIR/fleets.jsonl"
  [ "$status" -eq 0 ]
  # one row per op and config, not one per thread count
  [ "$(jq '.cost | length' <<<"$output")" -eq 4 ]
  local gp3 io2
  gp3=$(jq -c '.cost[] | select(.op == "read4k" and .volume == "gp3")' <<<"$output")
  io2=$(jq -c '.cost[] | select(.op == "read4k" and .volume == "io2")' <<<"$output")
  # io2 is faster...
  jq -e '.threads == 16 and .opsPerSec == 8000' <<<"$io2"
  jq -e '.threads == 4 and .opsPerSec == 2900' <<<"$gp3"
  # ...at $0.8426/h against $0.1179/h: gp3 ranks first per dollar
  jq -e '.rank == 1 and (.dollarsPerHour - (0.096 + 200 * 0.08 / 730) | fabs) < 1e-9' <<<"$gp3"
  jq -e '.rank == 2 and (.dollarsPerHour - (0.096 + (200 * 0.125 + 8000 * 0.065) / 730) | fabs) < 1e-9' <<<"$io2"
  jq -e '(.opsPerDollar - 2900 * 3600 / (0.096 + 16 / 730) | fabs) < 1' <<<"$gp3"
  jq -e '.mbPerDollar == null' <<<"$gp3"
  # bulk reads: MB per dollar, gp3 first too
  jq -e '.cost[] | select(.op == "read4m" and .volume == "gp3") | .rank == 1 and .threads == 4 and .mbPerDollar > 0' <<<"$output"
  jq -e '.cost[] | select(.op == "read4m" and .volume == "io2") | .rank == 2' <<<"$output"
  # the text table says it in numbers for people
  run --separate-stderr "$IOBENCH" report --section cost --prices "$PRICES" "$BATS_TEST_TMPDIR/fleets.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *"ops per \$"* ]]
  grep -E '^read4k +1G +m5\.large / gp3 x1 .* 88\.5M .* 1 +-$' <<<"$output"
  grep -E '^read4k +1G +m5\.large / io2 x1 .* 34\.2M .* 2 +-$' <<<"$output"
}

@test "real runs held to gp3's and io2's rates rank and pair as the fleets would" {
  local h
  for h in a b; do
    "$IOBENCH" run -q -o read4k -t 1 -d 2 -b 1 --rate 300 --no-direct --size 16M "$BATS_TEST_TMPDIR/data.bin" \
      --provision none --provision-fact instanceType=m5.large --provision-fact volumeType=gp3 \
      --provision-fact volumeSize=200 --host "gp3-$h" --json - 2>/dev/null
    "$IOBENCH" run -q -o read4k -t 1 -d 2 -b 1 --rate 800 --no-direct --size 16M "$BATS_TEST_TMPDIR/data.bin" \
      --provision none --provision-fact instanceType=m5.large --provision-fact volumeType=io2 \
      --provision-fact volumeSize=200 --provision-fact volumeIops=8000 --host "io2-$h" --json - 2>/dev/null
  done >"$BATS_TEST_TMPDIR/real.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section cost,compare --prices "$PRICES" "$BATS_TEST_TMPDIR/real.jsonl"
  [ "$status" -eq 0 ]
  # the runs were on this machine's disk, not on the volumes their facts name:
  # priced, but no rank (a figure in doubt is not an answer), the reason said
  jq -e '[.cost[] | {(.volume): .rank}] | add == {"gp3": null, "io2": null}' <<<"$output"
  jq -e '[.cost[] | .doubt | test("did not measure the volume")] == [true, true]' <<<"$output"
  jq -e '.cost[] | select(.volume == "io2") | (.dollarsPerHour - 0.8426 | fabs) < 0.00005' <<<"$output"
  # they differ in the volume and in --rate (a setting, so a dimension): side by side, unless asked
  jq -e '[.compare[] | select(.metric == "ops/s")] | length == 1 and (.[0].ratio == null)
    and (.[0].verdict | test("differ in 2 dimensions \\(volume, settings\\)"))' <<<"$output"
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'volumeType=gp3 vs volumeType=io2' \
    "$BATS_TEST_TMPDIR/real.jsonl"
  jq -e '[.compare[] | select(.metric == "ops/s")] | length == 1 and .[0].hostsA == 2 and .[0].hostsB == 2
    and .[0].ratio > 2' <<<"$output"
}

@test "compare pairs gp3 with io2 though type, IOPS and throughput differ: one dimension, said as a reader says it" {
  two_fleets >"$BATS_TEST_TMPDIR/fleets.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section compare "$BATS_TEST_TMPDIR/fleets.jsonl"
  [ "$status" -eq 0 ]
  local row
  row=$(jq -c '.compare[] | select(.op == "read4k" and .metric == "ops/s")' <<<"$output")
  jq -e '.a == "m5.large / gp3 x1" and .b == "m5.large / io2 x1"
    and .differs == "volume gp3 3000 IOPS → io2 8000 IOPS"
    and .threadsA == 4 and .threadsB == 16 and .hostsA == 4 and .hostsB == 4
    and (.ratio - 8000 / 2900 | fabs) < 1e-9 and (.verdict | startswith("B is 2.76x A"))' <<<"$row"
  # three metrics for each of the two ops, all of that one pair
  [ "$(jq '[.compare[] | select(.differs == "volume gp3 3000 IOPS → io2 8000 IOPS")] | length' <<<"$output")" -eq 6 ]
  run --separate-stderr "$IOBENCH" report --section compare "$BATS_TEST_TMPDIR/fleets.jsonl"
  grep -E '^read4k +ops/s +m5\.large / gp3 x1 +m5\.large / io2 x1 +volume gp3 3000 IOPS → io2 8000 IOPS +4 +16 ' <<<"$output"
  # the columns after the arrow stand under their headings ("→" takes one column, three bytes)
  local head row1
  head=$(grep -E '^op +metric ' <<<"$output")
  row1=$(grep -E '^read4k +ops/s ' <<<"$output" | sed 's/→/>/')
  head=${head%%thr A*}
  [ "${row1:${#head}:2}" == "4 " ]
}

@test "compare pairs one volume with a RAID 0 of four: the layout" {
  local one='{"instanceType":"m5.large","volumeType":"gp3","volumeSize":200}'
  local four='{"instanceType":"m5.large","volumeType":"gp3","volumeSize":200,"volumeCount":4,"raidLevel":"0","raidChunk":262144}'
  local h
  for h in a b c; do
    fleet "$one" "one-$h" 1000 2900 3000
    fleet "$four" "four-$h" 1000 4000 11000
  done >"$BATS_TEST_TMPDIR/raid.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section compare "$BATS_TEST_TMPDIR/raid.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.compare[] | select(.metric == "ops/s") | .differs == "layout 1 volume → 4 volumes raid0 chunk 256K"
    and .a == "m5.large / gp3 x1" and .b == "m5.large / gp3 x4 / raid0" and (.ratio - 11000 / 2900 | fabs) < 1e-9' <<<"$output"
}

@test "configs that differ in two dimensions are shown side by side with what differs and the --compare to use" {
  local c5='{"instanceType":"c5.large","volumeType":"io2","volumeSize":200,"volumeIops":8000}'
  local h
  for h in a b c; do
    fleet "$GP3" "gp3-$h" 1000 2900 3000
    fleet "$c5" "c5-$h" 1500 6000 8000
  done >"$BATS_TEST_TMPDIR/two.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section compare "$BATS_TEST_TMPDIR/two.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.compare | length == 3 and all(.[]; .ratio == null and .low == null
    and .differs == "instance c5.large → m5.large; volume io2 8000 IOPS → gp3 3000 IOPS")' <<<"$output"
  jq -e '.compare[] | select(.metric == "ops/s") | .valueA == 8000 and .valueB == 2900
    and (.verdict | contains("differ in 2 dimensions (instance, volume)"))
    and (.verdict | contains("--compare '"'"'c5.large / io2 x1 vs m5.large / gp3 x1'"'"'"))' <<<"$output"
  # the --compare it names works as written
  run --separate-stderr "$IOBENCH" report --json --section compare --compare 'c5.large / io2 x1 vs m5.large / gp3 x1' \
    "$BATS_TEST_TMPDIR/two.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.compare[] | select(.metric == "ops/s") | (.ratio - 2900 / 8000 | fabs) < 1e-9' <<<"$output"
}

@test "compare is never an empty section: one configuration says why" {
  fleet "$GP3" gp3-a 1000 2900 3000 >"$BATS_TEST_TMPDIR/one.jsonl"
  run --separate-stderr "$IOBENCH" report --section compare "$BATS_TEST_TMPDIR/one.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *"nothing to compare: one configuration; name two sides with --compare 'A vs B'"* ]]
  run --separate-stderr "$IOBENCH" report --json --section compare "$BATS_TEST_TMPDIR/one.jsonl"
  jq -e '.compare | length == 1 and .[0].a == "m5.large / gp3 x1" and .[0].ratio == null' <<<"$output"
}

# flushed W_NS R_NS [FACTS-JSON] [ROT]: a host's flushed write and read of one
# target (p50 W_NS and R_NS; R_NS 0: no read), with those provision facts.
flushed() {
  local specs=("host=d sig=writeFlush,4K,4K rot=${4:-false} modes=$1:600")
  [[ "$2" == 0 ]] || specs+=("host=d sig=read,4K,4K rot=${4:-false} modes=$2:600")
  "$GEN" "${specs[@]}" | jq -c --argjson p "${3:-null}" 'if $p then .provision = $p else . end'
}

@test "durability: the rotational flag is no evidence (virtio and loop devices say 1)" {
  # 400 us flushed writes beside 300 us reads on a device that says it is rotational
  flushed 400000 300000 null true >"$BATS_TEST_TMPDIR/rot.jsonl"
  jq -e '.target.rotational == true' "$BATS_TEST_TMPDIR/rot.jsonl" >/dev/null
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/rot.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability | length == 1 and .[0].suspicious == false and .[0].verdict == "plausible"
    and .[0].floorNs == 50000 and .[0].evidence == "none (checked: read4k p50, 50.0us floor)"' <<<"$output"
}

@test "durability: a flushed write under an EBS round trip is suspicious, by the provision facts" {
  # 70 us: above the 50 us floor and more than a quarter of the 200 us read, but no EBS write returns so soon
  flushed 70000 200000 "$GP3" >"$BATS_TEST_TMPDIR/ebs.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/ebs.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability[0] | .suspicious == true and .evidence == "EBS round trip" and .floorNs == 100000
    and (.verdict | startswith("durability suspicious: ")) and (.verdict | contains("on EBS (gp3, by the provision facts)"))' <<<"$output"
  # the same figures with no facts that name EBS: nothing says they are too fast
  flushed 70000 200000 >"$BATS_TEST_TMPDIR/local.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/local.jsonl"
  jq -e '.durability[0] | .suspicious == false and .floorNs == 50000' <<<"$output"
  # the text row says which evidence
  run --separate-stderr "$IOBENCH" report --section durability "$BATS_TEST_TMPDIR/ebs.jsonl"
  grep -E '^write4k .* \* +EBS round trip +durability suspicious: 7[0-9.]+us on EBS' <<<"$output"
}

@test "durability: a flushed write under an EBS round trip is suspicious, by the device model with no provision facts" {
  # a real run's target object, its model set as an EBS volume on Nitro reports it
  local target
  target=$("$IOBENCH" run -q -o read4k -d 1 -n 200 --size 16M "$BATS_TEST_TMPDIR/data.bin" --json - | jq -c .target)
  jq -e 'has("model")' <<<"$target" >/dev/null
  # 70 us beside 200 us reads: only the model says the device is EBS
  flushed 70000 200000 | jq -c --argjson t "$target" '.target = ($t | .model = "Amazon Elastic Block Store")' \
    >"$BATS_TEST_TMPDIR/ebs.jsonl"
  jq -e 'has("provision") | not' "$BATS_TEST_TMPDIR/ebs.jsonl" >/dev/null
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/ebs.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability | length == 1 and (.[0] | .suspicious == true and .floorNs == 100000
    and .evidence == "device model Amazon Elastic Block Store: EBS is a network round trip (100us)"
    and (.verdict | contains("on EBS (by the device model Amazon Elastic Block Store)")))' <<<"$output"
  # another model is no evidence of a network round trip
  jq -c '.target.model = "Samsung SSD 980 PRO 1TB"' "$BATS_TEST_TMPDIR/ebs.jsonl" >"$BATS_TEST_TMPDIR/ssd.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/ssd.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability[0] | .suspicious == false and .floorNs == 50000 and .verdict == "plausible"' <<<"$output"
  # the text row names the model
  run --separate-stderr "$IOBENCH" report --section durability "$BATS_TEST_TMPDIR/ebs.jsonl"
  grep -E '^write4k .* \* +device model Amazon Elastic Block Store: EBS is a network round trip \(100us\) +durability suspicious: 7[0-9.]+us on EBS' <<<"$output"
}

@test "durability: a flushed write far faster than a read of the same target is suspicious; a little faster is not" {
  flushed 200000 1000000 >"$BATS_TEST_TMPDIR/far.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/far.jsonl"
  [ "$status" -eq 0 ]
  jq -e '.durability[0] | .suspicious == true and .evidence == "read of the same target"
    and (.verdict | contains("under a quarter of a read4k of the same target"))' <<<"$output"
  # 600 us against 1 ms reads: a write cache that keeps its promise can do that
  flushed 600000 1000000 >"$BATS_TEST_TMPDIR/near.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/near.jsonl"
  jq -e '.durability[0] | .suspicious == false and .verdict == "plausible"' <<<"$output"
  # every piece of evidence that fires is said: EBS, the read and the floor
  flushed 20000 1000000 "$IO2" >"$BATS_TEST_TMPDIR/all.jsonl"
  run --separate-stderr "$IOBENCH" report --json --section durability "$BATS_TEST_TMPDIR/all.jsonl"
  jq -e '.durability[0].evidence == "EBS round trip, read of the same target, floor"' <<<"$output"
}

@test "a cost section with nothing priced says why instead of staying empty" {
  fleet '{"instanceType":"x9.huge","volumeType":"gp3"}' h-a 1000 2900 3000 >"$BATS_TEST_TMPDIR/x9.jsonl"
  run --separate-stderr "$IOBENCH" report --section cost --prices "$PRICES" "$BATS_TEST_TMPDIR/x9.jsonl"
  [ "$status" -eq 0 ]
  [[ "$output" == *$'Operations per dollar\nNo configuration has a price: its instance or volume type is not in the price list; add it'* ]]
  "$GEN" "host=h threads=1 modes=100000:600" >"$BATS_TEST_TMPDIR/bare.jsonl"
  run --separate-stderr "$IOBENCH" report --section cost --prices "$PRICES" "$BATS_TEST_TMPDIR/bare.jsonl"
  [[ "$output" == *"No configuration has a price: the runs carry no instanceType/volumeType facts"* ]]
}
