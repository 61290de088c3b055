#!/usr/bin/env bash
# Builds the boundary bench in the bench profile and prints its path: the
# binary footprint.sh, input_check.sh and misses.sh count under valgrind.
# Each passes its own name, for the error when valgrind is missing.
#
#   benches/boundary-binary.sh CALLER
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
command -v valgrind > /dev/null || {
  echo "${1:-this bench} needs valgrind (Debian's package valgrind)" >&2
  exit 1
}
cd "$root" && cargo build --quiet --profile bench -p outcome-benches --bench boundary \
    --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])'
