# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# moto.bash - a local EC2 API for bats suites: moto's server mode on
# 127.0.0.1 with a free port, and an environment in which every aws call
# goes there (dummy credentials, no profile, no user config).
#
#   setup_file()    { moto_suite_up; }  exports MOTO_ENDPOINT, MOTO_AMI
#   teardown_file() { moto_stop; }
#   setup()         { suite_skip; }     skips each test when moto is missing
#   moto_assert_local                   fails unless aws talks to moto only
#   taws ec2 ...                        aws against moto, JSON output

# shellcheck source-path=SCRIPTDIR source=skip.bash
source "${BASH_SOURCE[0]%/*}/skip.bash"

# moto_missing: why moto cannot run here (nothing if it can).
moto_missing() {
  local c
  for c in moto_server aws python3 jq; do
    command -v "$c" >/dev/null 2>&1 || {
      echo "$c not found (.ci/run installs .ci/pip-cloud.txt into .ci/venv; put .ci/venv/bin on PATH)"
      return 0
    }
  done
}

# moto_env PORT: the environment for the suite: dummy credentials and an
# endpoint on 127.0.0.1, nothing read from the user's ~/.aws.
moto_env() {
  export MOTO_ENDPOINT="http://127.0.0.1:$1"
  export AWS_ENDPOINT_URL=$MOTO_ENDPOINT
  unset AWS_ENDPOINT_URL_EC2 AWS_PROFILE AWS_DEFAULT_PROFILE AWS_REGION AWS_SESSION_TOKEN
  export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1
  export AWS_CONFIG_FILE=$BATS_FILE_TMPDIR/aws-config
  export AWS_SHARED_CREDENTIALS_FILE=$BATS_FILE_TMPDIR/aws-credentials
  export AWS_EC2_METADATA_DISABLED=true AWS_PAGER=""
  : >"$AWS_CONFIG_FILE"
  : >"$AWS_SHARED_CREDENTIALS_FILE"
}

# moto_start: start moto_server on a free loopback port and wait until it
# answers; export the environment and an AMI id that moto knows.
moto_start() {
  local port i
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  moto_env "$port"
  # fd 3 closed: bats waits for whatever holds it.
  moto_server -H 127.0.0.1 -p "$port" >"$BATS_FILE_TMPDIR/moto.log" 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/moto.pid"
  for ((i = 0; i < 300; i++)); do
    if (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      break
    fi
    kill -0 "$(cat "$BATS_FILE_TMPDIR/moto.pid")" 2>/dev/null || break
    sleep 0.1
  done
  if ! (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "moto_server did not start on port $port:" >&2
    cat "$BATS_FILE_TMPDIR/moto.log" >&2
    moto_stop
    return 1
  fi
}

# moto_stop: stop the moto_server this suite started (by its pid).
moto_stop() {
  local pid
  [[ -f "$BATS_FILE_TMPDIR/moto.pid" ]] || return 0
  pid=$(cat "$BATS_FILE_TMPDIR/moto.pid")
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$BATS_FILE_TMPDIR/moto.pid"
}

# taws ARGS...: aws against moto (endpoint also passed explicitly).
taws() {
  aws --endpoint-url "$MOTO_ENDPOINT" --region us-east-1 --output json "$@"
}

# moto_assert_local: fail unless the aws CLI on PATH honours AWS_ENDPOINT_URL
# (awscli v1 with botocore >= 1.31) and really sends its requests to moto on
# 127.0.0.1. Run before any script is called.
moto_assert_local() {
  local version bc dbg
  version=$(aws --version 2>&1)
  [[ "$version" =~ ^aws-cli/1\.[0-9.]+\ .*botocore/([0-9]+)\.([0-9]+)\. ]] || {
    echo "need awscli v1 from PyPI (honours AWS_ENDPOINT_URL), got: $version" >&2
    return 1
  }
  bc=$((BASH_REMATCH[1] * 1000 + BASH_REMATCH[2]))
  ((bc >= 1031)) || {
    echo "botocore too old to honour AWS_ENDPOINT_URL: $version" >&2
    return 1
  }
  [[ "$AWS_ENDPOINT_URL" =~ ^http://127\.0\.0\.1:[0-9]+$ ]] || {
    echo "AWS_ENDPOINT_URL is not on 127.0.0.1: $AWS_ENDPOINT_URL" >&2
    return 1
  }
  # Without --endpoint-url: the environment alone must send it to moto.
  dbg=$(aws ec2 describe-availability-zones --debug 2>&1 >/dev/null) || {
    echo "aws could not reach moto at $AWS_ENDPOINT_URL" >&2
    return 1
  }
  grep -q "'url': '$AWS_ENDPOINT_URL/'" <<<"$dbg" || {
    echo "aws did not send its request to $AWS_ENDPOINT_URL:" >&2
    grep -m3 "'url'" <<<"$dbg" >&2
    return 1
  }
  if grep -E "'url': 'https?://" <<<"$dbg" | grep -vq "'url': '$AWS_ENDPOINT_URL/"; then
    echo "aws sent a request elsewhere than $AWS_ENDPOINT_URL" >&2
    return 1
  fi
}

# moto_default_ami: an image id from moto's built-in catalogue.
moto_default_ami() {
  taws ec2 describe-images --owners amazon \
    --filters 'Name=name,Values=ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-*' |
    jq -r '[.Images[].ImageId] | sort | .[0] // empty'
}

# moto_up: start moto, make sure every aws call goes to it (127.0.0.1), and
# export MOTO_AMI (an image from moto's catalogue). Returns 1, moto stopped,
# when any of that fails. For setup_file.
moto_up() {
  moto_start
  # Before any script runs: every aws call must go to moto on 127.0.0.1.
  moto_assert_local || { moto_stop; return 1; }
  MOTO_AMI=$(moto_default_ami)
  [[ "$MOTO_AMI" == ami-* ]] || { echo "no AMI in moto's catalogue" >&2; moto_stop; return 1; }
  export MOTO_AMI
}

# moto_suite_up: for setup_file: moto_up, or, when this machine has no moto
# or aws CLI, every test of the file to skip with why (suite_skip_all;
# each test's suite_skip skips).
moto_suite_up() {
  local why
  why=$(moto_missing)
  if [[ -n "$why" ]]; then
    suite_skip_all "$why"
    return 0
  fi
  moto_up
}
