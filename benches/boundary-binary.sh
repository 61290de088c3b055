#!/usr/bin/env bash
# Builds the boundary bench in the bench profile and prints its path: the
# binary footprint.sh and input_check.sh count under valgrind.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" && cargo build --quiet --profile bench -p outcome-benches --bench boundary \
    --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])'
