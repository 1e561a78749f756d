# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# netns.bash - a fleet of real ssh hosts on this machine, for bats suites.
#
#   load lib/netns
#   netns_fleet_setup 4        # a test's 4 hosts (skips when it cannot run)
#   netns_fleet_teardown       # ... gone, and nothing of them left
#   netns_fleet_up 4 "$DIR"    # 4 namespaces with an sshd each; writes
#                              # $DIR/hosts (one address a line), $DIR/id_fleet
#   netns_fleet_down           # kills the sshd's, deletes namespaces, bridge
#   netns_kill_host 2          # host 2 dies: every process in its namespace
#   netns_stop_sshd 2          # host 2 takes no new ssh session (sessions go on)
#   netns_start_sshd 2         # ... and takes them again
#   netns_new_hostkey 2        # host 2 is rebuilt: a new host key, sshd restarted
#   netns_exec_mnt 2 CMD...    # CMD in the mount namespace of host 2's sessions
#   netns_strays               # processes in the namespaces besides sshd
#
# Needs root, ip (iproute2) and sshd (openssh-server). The namespaces hang
# off one bridge on a private /24 (NETNS_SUBNET); host i is .(10+i). Only
# these addresses are ever targets. Namespaces share the file system, so each
# host needs its own working directory.
#
# Each bats run (one suite) claims a slot of its own (netns_claim_slot), and
# its names and subnet derive from it: prefix ibSn, subnet 10.251.S. Two
# suites, two `make check` on one machine, or a suite here and one in a
# chroot on it, never meet, and cleanup removes only its own slot's
# namespaces. A slot is free again when the run that claimed it is gone; a
# killed run's leftovers go when its slot is next claimed.

# shellcheck source-path=SCRIPTDIR source=skip.bash
source "${BASH_SOURCE[0]%/*}/skip.bash"

NETNS_DIR=
# The share of one CPU each host may use, in percent (0: no limit). A real
# fleet's hosts have CPUs of their own; here they share the machine with
# every other suite, and one host's 64-thread run for a second would take
# all of it. The runs are timed, not counted, so a host under a cap does the
# same steps with less CPU. Needs the cpu controller (cgroup v1 or v2);
# without it the hosts run uncapped.
NETNS_CPU=${NETNS_CPU:-25}

# netns_claim_slot: sets NETNS_SLOT, NETNS_PREFIX and NETNS_SUBNET for this
# bats run (the same in every test of the run: the claim is kept in
# BATS_RUN_TMPDIR). A NETNS_PREFIX and NETNS_SUBNET set by the caller win.
#
# The claim is held in the kernel, where the bridges and addresses live:
# a process of the run's binds the abstract unix socket
# "@iobench-tests-slotS" in this machine's network namespace (exclusive,
# gone with its process) and keeps it until the run's bats process
# (BATS_ROOT_PID) has ended. A chroot or container with its own /run and
# /tmp shares that namespace, and its pids: claim files in /run did not
# see each other across a chroot, so a fresh-root check and a suite on the
# machine itself took one slot, and each one's cleanup deleted the other's
# bridge (its hosts then answered with another suite's keys).
# shellcheck disable=SC2016 # perl's variables
NETNS_CLAIM_PL='use Socket;
my ($slot, $owner) = @ARGV;
socket(my $sock, AF_UNIX, SOCK_STREAM, 0) or exit 1;
bind($sock, pack_sockaddr_un("\0iobench-tests-slot$slot")) or do { print "busy\n"; exit 1 };
$| = 1; print "ok\n"; close STDOUT;
sleep 1 while kill 0, $owner;'
netns_claim_slot() {
  local mine=${BATS_RUN_TMPDIR:?netns.bash needs bats}/netns-slot s fd got
  if [[ ! -s $mine ]]; then
    for ((s = 1; s <= 250; s++)); do
      # The holder keeps none of bats' descriptors but its answer's pipe
      # (bats waits for the ends of its pipes and of fd 3).
      exec {fd}< <(
        for f in /proc/"$BASHPID"/fd/*; do
          f=${f##*/}
          ((f <= 2)) || exec {f}>&- 2>/dev/null
        done
        exec perl -e "$NETNS_CLAIM_PL" "$s" "${BATS_ROOT_PID:-$$}" </dev/null 2>/dev/null
      )
      got=''
      read -r -u "$fd" got || true
      exec {fd}<&-
      [[ $got != ok ]] || { echo "$s" >"$mine" && break; }
    done
  fi
  read -r NETNS_SLOT <"$mine" 2>/dev/null || { echo "netns.bash: no free test slot (1-250 are all held)" >&2; return 1; }
  NETNS_PREFIX=${NETNS_PREFIX:-ib${NETNS_SLOT}n}
  NETNS_SUBNET=${NETNS_SUBNET:-10.251.$NETNS_SLOT}
}
if [[ $(id -u) == 0 ]]; then
  netns_claim_slot
else
  NETNS_PREFIX=${NETNS_PREFIX:-ib0n} NETNS_SUBNET=${NETNS_SUBNET:-10.251.0}
fi

# netns_ssh_opts: the ssh options that reach a test host without prompts,
# for a plain ssh (this file's own, durability-check's): every host's key
# is new to it.
netns_ssh_opts() {
  printf '%s' "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
}

# netns_fleet_ssh_opts: the --ssh-opts of fleet-run and campaign: nothing
# about host keys (they accept a new one and keep it with the run's
# results); no ssh warnings in what a test compares.
netns_fleet_ssh_opts() {
  printf '%s' "-o LogLevel=ERROR"
}

# netns_addr I: address of host I (1-based).
netns_addr() {
  printf '%s.%d' "$NETNS_SUBNET" $((10 + $1))
}

# netns_can_run: succeeds when this machine can host the fleet; else prints why.
netns_can_run() {
  if [[ $(id -u) != 0 ]]; then
    echo "needs root (network namespaces)"
    return 1
  fi
  local c
  for c in ip ssh ssh-keygen /usr/sbin/sshd parallel rsync jq; do
    if ! command -v "$c" >/dev/null 2>&1; then
      echo "$c not installed (see .ci/apt-fleet.txt)"
      return 1
    fi
  done
}

# _netns_remove_all: delete anything of ours, including leftovers of an
# earlier run that was killed before its teardown.
_netns_remove_all() {
  local ns pidf pid
  if [[ -n "$NETNS_DIR" ]]; then
    for pidf in "$NETNS_DIR"/sshd*.pid; do
      [[ -f "$pidf" ]] || continue
      pid=$(cat "$pidf" 2>/dev/null) || continue
      [[ -z "$pid" ]] || kill "$pid" 2>/dev/null || true
      rm -f "$pidf"
    done
  fi
  while read -r ns _; do
    [[ "$ns" == "${NETNS_PREFIX}"[0-9]* ]] || continue
    # Whatever still runs inside (sessions, benchmarks) goes with the host.
    for pid in $(ip netns pids "$ns" 2>/dev/null); do
      kill -9 "$pid" 2>/dev/null || true
    done
    ip netns del "$ns" 2>/dev/null || true
  done < <(ip netns list 2>/dev/null)
  # Host ends of the veths go now, not whenever the kernel frees the namespace.
  local link
  for link in $(ip -o link show | grep -o "${NETNS_PREFIX}v[0-9]*@" | tr -d @); do
    ip link del "$link" 2>/dev/null || true
  done
  ip link del "${NETNS_PREFIX}br" 2>/dev/null || true
  _netns_cpu_remove
}

# _netns_cpu_dir I: host I's cpu cgroup (made, its cap set); prints its
# path, or nothing where there is no cpu controller or no cap.
_netns_cpu_dir() {
  local root d
  ((NETNS_CPU > 0)) || return 0
  if [[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]]; then
    root=/sys/fs/cgroup/cpu/iobench-tests
    d=$root/$NETNS_PREFIX$1
    mkdir -p "$d" 2>/dev/null || return 0
    echo 100000 >"$d/cpu.cfs_period_us" 2>/dev/null &&
      echo $((NETNS_CPU * 1000)) >"$d/cpu.cfs_quota_us" 2>/dev/null || return 0
  elif [[ -f /sys/fs/cgroup/cgroup.controllers ]] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
    root=/sys/fs/cgroup/iobench-tests
    mkdir -p "$root" 2>/dev/null || return 0
    grep -qw cpu "$root/cgroup.subtree_control" 2>/dev/null ||
      echo +cpu >"/sys/fs/cgroup/cgroup.subtree_control" 2>/dev/null
    echo +cpu >"$root/cgroup.subtree_control" 2>/dev/null
    d=$root/$NETNS_PREFIX$1
    mkdir -p "$d" 2>/dev/null || return 0
    echo "$((NETNS_CPU * 1000)) 100000" >"$d/cpu.max" 2>/dev/null || return 0
  else
    return 0
  fi
  printf '%s' "$d"
}

# _netns_cpu_remove: our hosts' cpu cgroups go (once their processes have).
_netns_cpu_remove() {
  local d tries
  for d in /sys/fs/cgroup/cpu/iobench-tests/"$NETNS_PREFIX"[0-9]* /sys/fs/cgroup/iobench-tests/"$NETNS_PREFIX"[0-9]*; do
    [[ -d $d ]] || continue
    # Killed processes leave their cgroup when they are reaped.
    for ((tries = 0; tries < 50; tries++)); do
      rmdir "$d" 2>/dev/null && break
      sleep 0.1
    done
  done
}

# netns_fleet_up N DIR: start N hosts; files go to DIR.
netns_fleet_up() {
  local n=$1 dir=$2 i ns addr
  NETNS_DIR=$dir
  _netns_remove_all
  mkdir -p "$dir" /run/sshd
  ssh-keygen -q -t ed25519 -N '' -C iobench-fleet-test -f "$dir/id_fleet"
  cp "$dir/id_fleet.pub" "$dir/authorized_keys"
  : >"$dir/hosts"

  ip link add "${NETNS_PREFIX}br" type bridge
  ip addr add "$NETNS_SUBNET.1/24" dev "${NETNS_PREFIX}br"
  ip link set "${NETNS_PREFIX}br" up
  for ((i = 1; i <= n; i++)); do
    ns=$NETNS_PREFIX$i
    addr=$(netns_addr "$i")
    ip netns add "$ns"
    ip link add "${NETNS_PREFIX}v$i" type veth peer name eth0 netns "$ns"
    ip link set "${NETNS_PREFIX}v$i" master "${NETNS_PREFIX}br"
    ip link set "${NETNS_PREFIX}v$i" up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up

    ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey$i"
    cat >"$dir/sshd$i.conf" <<EOF
ListenAddress $addr
Port 22
HostKey $dir/hostkey$i
PidFile $dir/sshd$i.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 100
MaxSessions 100
# VERBOSE: a line for each session a connection opens ("Starting
# session: command for root ..."), which tests count.
LogLevel VERBOSE
# The key exchange is not what the suites test, and OpenSSH 9's default
# (sntrup761x25519) costs its client ~60 ms of CPU a login against ~7 ms
# for curve25519: the fleet suites make hundreds of logins on 2 cores.
KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org
EOF
    netns_start_sshd "$i"
    echo "$addr" >>"$dir/hosts"
  done

  # Ready when every host answers a real login.
  local tries
  # shellcheck disable=SC2046
  for ((i = 1; i <= n; i++)); do
    for ((tries = 0; tries < 50; tries++)); do
      ssh $(netns_ssh_opts) -o ConnectTimeout=2 -i "$dir/id_fleet" \
        "root@$(netns_addr "$i")" true 2>/dev/null && break
      sleep 0.2
    done
    ((tries < 50)) || {
      echo "host $i ($(netns_addr "$i")) did not come up; see $dir/sshd$i.log" >&2
      return 1
    }
  done
}

# netns_start_sshd I: start host I's sshd (its listener).
netns_start_sshd() {
  # fd 3 closed: bats would wait for whatever holds it. An absolute config
  # path: sshd re-executes itself with it for every session. In the host's
  # cpu cgroup (NETNS_CPU), with every session and benchmark it starts.
  #
  # The host's root has a fresh system's ~/.bashrc (bash reads it for every
  # ssh command): this machine's own (a pyenv init, say) is bound over by
  # NETNS_DIR/bashrc in the host's mount namespace only, as an EC2 image's
  # root has none of it. The files under it are the machine's, as before,
  # but for ~/.cache: each host has its own, empty at start (NETNS_DIR/cacheI:
  # fleet-run keeps the build it ships there), as separate machines would.
  local cg
  cg=$(_netns_cpu_dir "$1")
  [[ -f $NETNS_DIR/bashrc ]] ||
    printf '%s\n' "# a test host's ~/.bashrc (tests/lib/netns.bash): a fresh system's, empty" >"$NETNS_DIR/bashrc"
  [[ -d $NETNS_DIR/cache$1 ]] || mkdir -m 700 "$NETNS_DIR/cache$1"
  (
    [[ -z $cg ]] || echo "$BASHPID" >"$cg/cgroup.procs"
    # shellcheck disable=SC2016 # expanded by the inner sh
    exec ip netns exec "$NETNS_PREFIX$1" sh -c 'home=$(getent passwd root | cut -d: -f6) rc=$home/.bashrc
      [ ! -f "$rc" ] || mount --bind "$1" "$rc" || exit 1
      mkdir -p "$home/.cache" && mount --bind "$2" "$home/.cache" || exit 1
      shift 2; exec "$@"' sh "$NETNS_DIR/bashrc" "$NETNS_DIR/cache$1" \
      /usr/sbin/sshd -f "$NETNS_DIR/sshd$1.conf" -E "$NETNS_DIR/sshd$1.log" 3>&-
  )
}

# netns_stop_sshd I: host I's sshd listener stops: no new session, while the
# sessions under way go on (as when a host's network or sshd fails after a
# job started).
netns_stop_sshd() {
  local pid
  pid=$(cat "$NETNS_DIR/sshd$1.pid")
  kill "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# netns_new_hostkey I: host I gets a new host key (as a rebuilt machine
# would) and its sshd is restarted with it.
netns_new_hostkey() {
  netns_stop_sshd "$1"
  rm -f "$NETNS_DIR/hostkey$1" "$NETNS_DIR/hostkey$1.pub"
  ssh-keygen -q -t ed25519 -N '' -f "$NETNS_DIR/hostkey$1"
  netns_start_sshd "$1"
}

# netns_exec_mnt I CMD...: run CMD in the mount namespace of host I's sshd
# (ip netns exec gave it its own: a mount made outside is not seen there).
# --root: under the sshd's root too (entering a mount namespace alone would
# leave a chroot the test runs in).
netns_exec_mnt() {
  local i=$1
  shift
  nsenter --target "$(cat "$NETNS_DIR/sshd$i.pid")" --mount --root "$@"
}

# netns_kill_host I: host I dies: its sshd, every session and every process
# started in its namespace are killed.
netns_kill_host() {
  local ns=$NETNS_PREFIX$1 pid
  for pid in $(ip netns pids "$ns"); do
    kill -9 "$pid" 2>/dev/null || true
  done
}

# netns_strays: prints "NAMESPACE PID COMMAND" for each process in our
# namespaces other than their sshd listeners: what a fleet run left running.
netns_strays() {
  local ns pid listener
  while read -r ns _; do
    [[ "$ns" == "${NETNS_PREFIX}"[0-9]* ]] || continue
    listener=$(cat "$NETNS_DIR/sshd${ns#"$NETNS_PREFIX"}.pid" 2>/dev/null) || listener=
    for pid in $(ip netns pids "$ns" 2>/dev/null); do
      [[ "$pid" != "$listener" ]] || continue
      printf '%s %s %s\n' "$ns" "$pid" "$(ps -o args= -p "$pid" 2>/dev/null)"
    done
  done < <(ip netns list 2>/dev/null)
}

# netns_fleet_down: remove every namespace, link and sshd this file made.
netns_fleet_down() {
  _netns_remove_all
}

# netns_leftovers: prints namespaces and links of ours that still exist.
netns_leftovers() {
  ip netns list | grep "^${NETNS_PREFIX}[0-9]" || true
  ip -o link show | grep -o "${NETNS_PREFIX}\(br\|v[0-9]*\)@\?" | tr -d @ || true
}

# netns_fleet_setup [--static] N: a test's fleet of N hosts, with NET,
# RESULTS and REMOTE under the test's own tmpdir. Skips, saying why, when
# this machine cannot host it (netns_can_run) or iobench is not built
# (--static: nor the static build that fleet-run ships).
netns_fleet_setup() {
  local why
  why=$(netns_can_run) || skip "$why"
  [[ -x "${IOBENCH:-$BATS_TEST_DIRNAME/../iobench}" ]] || skip "iobench not built (make)"
  if [[ $1 == --static ]]; then
    skip_unless_static
    shift
  fi
  NET=$BATS_TEST_TMPDIR/net
  RESULTS=$BATS_TEST_TMPDIR/results
  REMOTE=$BATS_TEST_TMPDIR/remote
  export NET RESULTS REMOTE
  netns_fleet_up "$1" "$NET"
}

# netns_fleet_teardown: stop the fleet; nothing of ours may survive a test.
netns_fleet_teardown() {
  netns_fleet_down
  [ -z "$(netns_leftovers)" ]
}
