#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# bats file_tags=root,slow
# package.bats - `make deb` (iobench and iobench-fleet) in a fresh Debian 12:
# apt installs them with their Depends (and nothing they only recommend) from
# the mirror, the commands, man pages, completion and the watch unit's setup
# work as installed, lintian finds no error, and remove + purge leave none of
# their files.
#
# The root is a debootstrap minbase of bookworm (plus man-db, for man -w),
# made once and kept as a tarball under ${XDG_CACHE_HOME:-~/.cache}/iobench,
# named by what went into it; apt's downloaded packages are kept beside it,
# so a second run unpacks, installs from the cache and takes seconds.

bats_require_minimum_version 1.5.0

load lib/skip

ROOT=$BATS_TEST_DIRNAME/..
SUITE=bookworm
INCLUDE=man-db

# mirror: the Debian mirror this machine's apt uses, else Debian's default.
mirror() {
  local m
  m=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# in_root CMD: run CMD (bash -c) in the chroot, with a plain environment.
in_root() {
  chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb \
    DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 /bin/bash -c "$1"
}

setup() {
  [[ $(id -u) == 0 ]] || skip "needs root (chroot, mount)"
  skip_unless_cmd debootstrap .ci/apt-core.txt
  skip_unless_cmd dpkg-shlibdeps "dpkg-dev, with build-essential"
  [[ -x "$ROOT/iobench" ]] || skip "iobench not built (make)"
  skip_unless_static
  CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/iobench
  mkdir -p "$CACHE/apt-archives/partial"
  local key
  key=$(printf '%s\n' "$SUITE" minbase "$INCLUDE" "$(mirror)" | sha256sum | cut -c1-12)
  TARBALL=$CACHE/debian12-$key.tar
  R=$BATS_TEST_TMPDIR/root
  mkdir -p "$R"
}

teardown() {
  # Whatever happened: nothing stays mounted, the root goes.
  if [[ -n "${R:-}" ]]; then
    umount "$R/var/cache/apt/archives" 2>/dev/null || umount -l "$R/var/cache/apt/archives" 2>/dev/null || true
    umount "$R/proc" 2>/dev/null || umount -l "$R/proc" 2>/dev/null || true
    if ! mountpoint -q "$R/proc" && ! mountpoint -q "$R/var/cache/apt/archives"; then
      rm -rf --one-file-system "$R"
    fi
  fi
}

# make_root: the cached minbase root unpacked into $R (made first when missing).
make_root() {
  if [[ ! -s "$TARBALL" ]]; then
    local tmp=$BATS_TEST_TMPDIR/debootstrap
    if ! debootstrap --variant=minbase --include="$INCLUDE" "$SUITE" "$tmp" "$(mirror)" \
      >"$BATS_TEST_TMPDIR/debootstrap.log" 2>&1; then
      tail -5 "$BATS_TEST_TMPDIR/debootstrap.log" >&2
      # No mirror is a fact of the machine; a failure with a mirror is not.
      if grep -qiE 'Failed getting release file|could not resolve|Temporary failure resolving|Connection (refused|timed out)' \
        "$BATS_TEST_TMPDIR/debootstrap.log"; then
        skip "env: debootstrap cannot reach the Debian mirror $(mirror)"
      fi
      return 1
    fi
    tar -C "$tmp" -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
    rm -rf --one-file-system "$tmp"
  fi
  tar -C "$R" -xf "$TARBALL"
  cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
  mount -t proc proc "$R/proc"
  mount --bind "$CACHE/apt-archives" "$R/var/cache/apt/archives"
  # Keep what apt downloads (the bind mount is the cache across runs).
  echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$R/etc/apt/apt.conf.d/01keep-debs"
}

# deb_contents DEB: the paths DEB holds, one a line, from /.
deb_contents() {
  dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|; s|/$||' | grep -v '^$'
}

@test "make deb: iobench and iobench-fleet, their Depends what their files run, lintian clean of errors" {
  run --separate-stderr make -s -C "$ROOT" deb DEB_DIR="$BATS_TEST_TMPDIR/out" DEB_STAGE="$BATS_TEST_TMPDIR/stage"
  [ "$status" -eq 0 ]
  local version arch deb fleet depends lib pkg s
  version=$(sed -n 's/^VERSION *= *//p' "$ROOT/config.mk")
  arch=$(dpkg --print-architecture)
  deb=$BATS_TEST_TMPDIR/out/iobench_${version}_${arch}.deb
  fleet=$BATS_TEST_TMPDIR/out/iobench-fleet_${version}_${arch}.deb
  [ "$(ls "$BATS_TEST_TMPDIR/out")" = "$(printf '%s\n' "${fleet##*/}" "${deb##*/}")" ]
  # iobench: every library the binary links (dpkg -S on ldd's output), and jq for
  # its scripts; nothing only the fleet scripts run.
  depends=$(dpkg-deb -f "$deb" Depends)
  while read -r lib; do
    pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) || true
    [ -n "$pkg" ] || pkg=$(dpkg -S "$(readlink -f "$lib")" | head -1 | cut -d: -f1)
    [[ "$depends" == *"$pkg"* ]] || { echo "Depends lacks $pkg (for $lib): $depends" >&2; return 1; }
  done < <(ldd "$ROOT/iobench" | awk '$3 ~ /^\// {print $3}')
  [[ "$depends" == *", jq" ]]
  for pkg in openssh-client parallel rsync; do [[ "$depends" != *"$pkg"* ]]; done
  [ "$(dpkg-deb -f "$deb" Recommends)" = gnuplot-nox ]
  [[ "$(dpkg-deb -f "$deb" Suggests)" == *mdadm* && "$(dpkg-deb -f "$deb" Suggests)" == *iobench-fleet* ]]
  [ "$(dpkg-deb -f "$fleet" Depends)" = "iobench (= $version), jq, openssh-client, parallel, rsync" ]
  [ "$(dpkg-deb -f "$fleet" Suggests)" = awscli ]
  # The fleet's scripts call ssh and parallel; iobench's own scripts never do.
  local f
  for f in $(deb_contents "$deb" | grep '^/usr/libexec/iobench/\(scripts\|raid\)/[^/]*$'); do
    s=$BATS_TEST_DIRNAME/../${f#/usr/libexec/iobench/}
    ! grep -qE '(^|[^a-z_-])(ssh|parallel|rsync)( |$)' "$s" || { echo "$f runs ssh/parallel/rsync" >&2; return 1; }
  done
  # Each has its copyright (machine-readable) and changelog.
  for pkg in iobench iobench-fleet; do
    f=$BATS_TEST_TMPDIR/out/${pkg}_${version}_${arch}.deb
    deb_contents "$f" | grep -qx "/usr/share/doc/$pkg/copyright"
    deb_contents "$f" | grep -qx "/usr/share/doc/$pkg/changelog.gz"
  done
  dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/iobench/copyright >"$BATS_TEST_TMPDIR/copyright"
  grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$BATS_TEST_TMPDIR/copyright"
  [ "$(grep -c '^License: Apache-2.0$' "$BATS_TEST_TMPDIR/copyright")" -eq 2 ]
  dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/iobench/changelog.gz | gzip -dc | head -1 |
    grep -qx "iobench ($version) unstable; urgency=medium"
  # The example configuration is a conffile.
  [ "$(dpkg-deb -I "$deb" conffiles)" = /etc/iobench/watch.env.example ]
  # lintian: no error (the warnings that stay are in docs/building.md; there are none today).
  skip_unless_cmd lintian .ci/apt-core.txt
  run lintian --tag-display-limit 0 "$deb" "$fleet"
  echo "$output"
  [ "$(grep -c '^[EW]: ' <<<"$output")" -eq 0 ]
}

@test "make deb: installs in a fresh Debian 12 with apt, runs, and remove + purge leave nothing" {
  # The packages, built outside the tree's own build/ and top folder.
  run --separate-stderr make -s -C "$ROOT" deb DEB_DIR="$BATS_TEST_TMPDIR/out" DEB_STAGE="$BATS_TEST_TMPDIR/stage"
  [ "$status" -eq 0 ]
  local deb fleet version arch
  version=$(sed -n 's/^VERSION *= *//p' "$ROOT/config.mk")
  arch=$(dpkg --print-architecture)
  deb=$BATS_TEST_TMPDIR/out/iobench_${version}_${arch}.deb
  fleet=$BATS_TEST_TMPDIR/out/iobench-fleet_${version}_${arch}.deb
  [ -f "$deb" ] && [ -f "$fleet" ]
  # What they hold: both binaries, every script and man page, the price list, the unit.
  local contents s
  contents=$(deb_contents "$deb"; deb_contents "$fleet")
  for s in /usr/bin/iobench /usr/libexec/iobench/iobench-static /usr/share/man/man1/iobench.1.gz \
    /usr/share/iobench/prices-sample.json /usr/lib/systemd/system/iobench-watch@.service \
    /usr/libexec/iobench/scripts/lib/common.sh /usr/libexec/iobench/scripts/lib/paths.sh \
    /usr/share/bash-completion/completions/iobench /etc/iobench/watch.env.example; do
    grep -qx "$s" <<<"$contents" || { echo "the packages lack $s" >&2; return 1; }
  done
  # Every library the scripts source (manifest.sh, ...), as make install put it.
  for s in "$ROOT"/scripts/lib/*.sh; do
    s=/usr/libexec/iobench/scripts/lib/${s##*/}
    grep -qx "$s" <<<"$contents" || { echo "the packages lack $s" >&2; return 1; }
  done
  while read -r s; do
    grep -qx "/usr/bin/iobench-${s##*/}" <<<"$contents"
    grep -qx "/usr/share/man/man1/iobench-${s##*/}.1.gz" <<<"$contents"
  done < <(find "$ROOT/scripts" "$ROOT/raid" -maxdepth 1 -type f -perm -u+x ! -name fleet-job)

  make_root
  cp "$deb" "$fleet" "$R/tmp/"
  # Which of the packages' paths the root has before (its shared folders: /usr/bin, ...).
  local before
  before=$(while read -r s; do [[ -e "$R$s" || -L "$R$s" ]] && echo "$s"; done <<<"$contents" | sort)
  # iobench alone, without Recommends: its Depends are enough, and few (no ssh,
  # parallel, perl or systemd for a user who runs iobench on one box).
  run in_root "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends /tmp/${deb##*/}"
  echo "$output" | tail -20
  [ "$status" -eq 0 ]
  local pulled
  pulled=$(sed -n '/^The following NEW packages will be installed:$/,/^[0-9]* upgraded/p' <<<"$output" | sed '1d;$d' | tr -s ' \n' '\n' | sed '/^$/d')
  echo "pulled: $pulled"
  grep -qx iobench <<<"$pulled" && grep -qx jq <<<"$pulled"
  [ "$(wc -l <<<"$pulled")" -le 12 ]
  for s in openssh-client parallel perl systemd dbus rsync; do
    ! grep -qx "$s" <<<"$pulled" || { echo "iobench pulled $s" >&2; return 1; }
  done

  run in_root 'iobench --version'
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench $version"* ]]
  # A 2-second run on a file, its JSON line read back with the jq it pulled in
  # (stderr apart: iobench warns that a small file is read from the page cache).
  run --separate-stderr in_root 'iobench -q -o read4k -d 2 --no-direct --size 16M --json /tmp/r.jsonl /tmp/data.bin &&
    jq -r "[.tool, .operations[0].name, (.operations[0].total.count > 0)] | @tsv" /tmp/r.jsonl'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'iobench\tread4k\ttrue')" ]
  # gnuplot is only recommended: --plot says which package to install.
  run --separate-stderr in_root 'iobench report --plot /tmp/plots /tmp/r.jsonl'
  [ "$status" -eq 1 ]
  # shellcheck disable=SC2154 # $stderr is set by run --separate-stderr
  [[ "$stderr" == "iobench: report: gnuplot not found; install it (Debian: gnuplot-nox)"* ]]

  # The watch unit's setup comment, followed as written in the root (which has no
  # systemd: its last step, systemctl, is what the unit's ExecStart then runs).
  local unit=$R/usr/lib/systemd/system/iobench-watch@.service step
  grep -q '^ExecStart=/usr/bin/iobench watch ' "$unit"
  grep -qx 'EnvironmentFile=/etc/iobench/watch-%i.env' "$unit"
  step=$(sed -n 's/^#   \(cp .*\)/\1/p' "$unit")
  [ "$step" = "cp /etc/iobench/watch.env.example /etc/iobench/watch-data.env" ]
  # docs/watch.md gives the same steps.
  grep -qE "^    $step( |$)" "$ROOT/docs/watch.md"
  grep -qx '    systemctl enable --now iobench-watch@data' "$ROOT/docs/watch.md"
  run in_root "$step"
  [ "$status" -eq 0 ]
  grep -qx 'TARGET=.*' "$R/etc/iobench/watch-data.env" && grep -qx 'OPTS=.*' "$R/etc/iobench/watch-data.env"
  # (set TARGET= and OPTS= in it): a small file, and one period of one second.
  sed -i -e 's|^TARGET=.*|TARGET=/var/tmp/watch.dat|' \
    -e 's|^OPTS=.*|OPTS=--size 16M --no-direct --interval 0.2 --period 1 --count 1 --label host=root|' \
    "$R/etc/iobench/watch-data.env"
  grep -qx '#   systemctl enable --now iobench-watch@data' "$unit"
  # What systemd runs for iobench-watch@data: StateDirectory, the EnvironmentFile, ExecStart.
  local exec
  exec=$(sed -n 's/^ExecStart=//p' "$unit" | sed 's/%i/data/g')
  # (systemd's EnvironmentFile is KEY=VALUE lines, the value whole: not shell;
  # it then splits $OPTS at spaces and keeps ${TARGET} one word, as bash does here.)
  run --separate-stderr in_root "mkdir -p /var/lib/iobench &&
    while IFS= read -r l; do case \$l in '#'* | '') ;; *) export \"\${l%%=*}=\${l#*=}\" ;; esac; done </etc/iobench/watch-data.env &&
    $exec"
  echo "$stderr"
  [ "$status" -eq 0 ]
  [ "$(jq -r '[.labels.host, (.operations | length)] | @tsv' "$R/var/lib/iobench/watch-data.jsonl")" = "$(printf 'root\t2')" ]
  rm -f "$R/var/tmp/watch.dat" "$R/tmp/r.jsonl" "$R/tmp/data.bin"
  rm -rf "$R/var/lib/iobench" "$R/etc/iobench/watch-data.env"

  # Bash completion, as bash-completion would load it.
  # shellcheck disable=SC2016 # expanded by the root's bash
  run in_root '. /usr/share/bash-completion/completions/iobench && COMP_WORDS=(iobench --sp) COMP_CWORD=1 && _iobench && echo "${COMPREPLY[*]}"'
  [ "$status" -eq 0 ]
  [ "$output" = "--span" ]

  # Then the fleet package, with what it depends on.
  run in_root "apt-get install -y -q --no-install-recommends /tmp/${fleet##*/}"
  echo "$output" | tail -5
  [ "$status" -eq 0 ]
  # Installed, a script's help names it by its installed name.
  run in_root 'iobench-fleet-run --help'
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench-fleet-run - "*"usage: iobench-fleet-run --hosts FILE"* ]]
  run in_root 'man -w iobench; man -w iobench-fleet-run'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '/usr/share/man/man1/iobench.1.gz\n/usr/share/man/man1/iobench-fleet-run.1.gz')" ]
  # dpkg -L names what the packages put there: every path of the .debs.
  [ "$(in_root 'dpkg -L iobench iobench-fleet' | grep -v '^/\.$' | grep -v '^$' | sort -u)" = "$(sort -u <<<"$contents")" ]

  # (purge through dpkg: apt knows a package from a local file only while it is installed)
  run in_root 'apt-get remove -y -q iobench-fleet iobench && dpkg --purge iobench-fleet iobench'
  echo "$output" | tail -5
  [ "$status" -eq 0 ]
  # shellcheck disable=SC2016 # ${Status} is dpkg-query's, not the shell's
  run in_root 'dpkg-query -W -f="\${Status}" iobench 2>&1'
  [[ "$output" == *"no packages found"* || "$output" == *" not-installed" ]]
  # Every path of the packages that is there now was there before them.
  local after
  after=$(while read -r s; do [[ -e "$R$s" || -L "$R$s" ]] && echo "$s"; done <<<"$contents" | sort)
  [ "$after" = "$before" ] || { echo "left behind:" >&2; comm -13 <(echo "$before") <(echo "$after") >&2; return 1; }
}
