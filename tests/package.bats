#!/usr/bin/env bats
# bats file_tags=root,slow
# package.bats - `make deb` in a fresh Debian 12: apt installs it with its
# Depends (and nothing it only recommends) from the mirror, the commands and
# man pages work as installed, and remove + purge leave none of its files.
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

@test "make deb: installs in a fresh Debian 12 with apt, runs, and remove + purge leave nothing" {
  # The package, built outside the tree's own build/ and top folder.
  run --separate-stderr make -s -C "$ROOT" deb DEB_DIR="$BATS_TEST_TMPDIR/out" DEB_STAGE="$BATS_TEST_TMPDIR/stage"
  [ "$status" -eq 0 ]
  local deb version arch
  deb=$(echo "$BATS_TEST_TMPDIR"/out/iobench_*.deb)
  [ -f "$deb" ]
  version=$(sed -n 's/^VERSION *= *//p' "$ROOT/config.mk")
  arch=$(dpkg --print-architecture)
  [ "$(basename "$deb")" = "iobench_${version}_${arch}.deb" ]
  [ "$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" = "Package: iobench Version: $version Architecture: $arch " ]
  # Depends: every library the binary links, found by dpkg -S on ldd's output.
  local depends lib pkg
  depends=$(dpkg-deb -f "$deb" Depends)
  while read -r lib; do
    pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) || true
    [ -n "$pkg" ] || pkg=$(dpkg -S "$(readlink -f "$lib")" | head -1 | cut -d: -f1)
    [[ "$depends" == *"$pkg"* ]] || { echo "Depends lacks $pkg (for $lib): $depends" >&2; return 1; }
  done < <(ldd "$ROOT/iobench" | awk '$3 ~ /^\// {print $3}')
  for pkg in jq openssh-client parallel; do [[ "$depends" == *"$pkg"* ]]; done
  [[ "$(dpkg-deb -f "$deb" Suggests)" == *mdadm* && "$(dpkg-deb -f "$deb" Suggests)" == *awscli* ]]
  # What it holds: both binaries, every script and man page, the price list, the unit.
  local contents s
  contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
  for s in /usr/bin/iobench /usr/libexec/iobench/iobench-static /usr/share/man/man1/iobench.1.gz \
    /usr/share/iobench/prices-sample.json /usr/lib/systemd/system/iobench-watch@.service \
    /usr/libexec/iobench/scripts/lib/common.sh /usr/libexec/iobench/scripts/lib/paths.sh; do
    grep -qx "$s" <<<"$contents" || { echo "$deb lacks $s" >&2; return 1; }
  done
  # Every library the scripts source (manifest.sh, ...), as make install put it.
  for s in "$ROOT"/scripts/lib/*.sh; do
    s=/usr/libexec/iobench/scripts/lib/${s##*/}
    grep -qx "$s" <<<"$contents" || { echo "$deb lacks $s" >&2; return 1; }
  done
  while read -r s; do
    grep -qx "/usr/bin/iobench-${s##*/}" <<<"$contents"
    grep -qx "/usr/share/man/man1/iobench-${s##*/}.1.gz" <<<"$contents"
  done < <(find "$ROOT/scripts" "$ROOT/raid" -maxdepth 1 -type f -perm -u+x ! -name fleet-job)

  make_root
  cp "$deb" "$R/tmp/"
  # Which of the package's paths the root has before (its shared folders: /usr/bin, ...).
  local before
  before=$(while read -r s; do [[ -e "$R$s" || -L "$R$s" ]] && echo "$s"; done <<<"$contents" | sort)
  # Without Recommends: the Depends alone must be enough (and the test stays quick).
  run in_root "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")"
  echo "$output" | tail -20
  [ "$status" -eq 0 ]

  run in_root 'iobench --version'
  [ "$status" -eq 0 ]
  [[ "$output" == "iobench $version"* ]]
  # A 2-second run on a file, its JSON line read back with the jq it pulled in
  # (stderr apart: iobench warns that a small file is read from the page cache).
  run --separate-stderr in_root 'iobench -q -o read4k -d 2 --no-direct --size 16M --json /tmp/r.jsonl /tmp/data.bin &&
    jq -r "[.tool, .operations[0].name, (.operations[0].total.count > 0)] | @tsv" /tmp/r.jsonl'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf 'iobench\tread4k\ttrue')" ]
  run in_root 'iobench-fleet-run --help'
  [ "$status" -eq 0 ]
  [[ "$output" == "fleet-run - "*"usage: fleet-run --hosts FILE"* ]]
  run in_root 'man -w iobench; man -w iobench-fleet-run'
  [ "$status" -eq 0 ]
  [ "$output" = "$(printf '/usr/share/man/man1/iobench.1.gz\n/usr/share/man/man1/iobench-fleet-run.1.gz')" ]
  # The installed unit runs the installed binary.
  grep -q '^ExecStart=/usr/bin/iobench watch ' "$R/usr/lib/systemd/system/iobench-watch@.service"
  # dpkg -L names what the package put there: every path of the .deb.
  [ "$(in_root 'dpkg -L iobench' | grep -v '^/\.$' | sort)" = "$(sort <<<"$contents" | sed 's|/$||' | grep -v '^$')" ]

  # (purge through dpkg: apt knows a package from a local file only while it is installed)
  run in_root 'apt-get remove -y -q iobench && dpkg --purge iobench'
  echo "$output" | tail -5
  [ "$status" -eq 0 ]
  # shellcheck disable=SC2016 # ${Status} is dpkg-query's, not the shell's
  run in_root 'dpkg-query -W -f="\${Status}" iobench 2>&1'
  [[ "$output" == *"no packages found"* || "$output" == *" not-installed" ]]
  # Every path of the package that is there now was there before it.
  local after
  after=$(while read -r s; do [[ -e "$R$s" || -L "$R$s" ]] && echo "$s"; done <<<"$contents" | sort)
  [ "$after" = "$before" ] || { echo "left behind:" >&2; comm -13 <(echo "$before") <(echo "$after") >&2; return 1; }
}
