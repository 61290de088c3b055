#!/usr/bin/env bash
# What the check of a tool's published input schema costs per call, counted
# by valgrind rather than timed: instructions per round trip for a tool
# whose schema narrows nothing (`echo_text`: the check is not installed)
# and for one whose schema narrows each argument (`echo_checked`: a length,
# a pattern, a range), wrapped and in bare rmcp, which checks nothing.
#
#   benches/input_check.sh [CALLS]      (default 500)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
calls="${1:-500}"
work="$root/target/input-check"
mkdir -p "$work"
binary=$("$root/benches/boundary-binary.sh" input_check.sh)
servers=(bare_text wrapped_text bare_checked wrapped_checked)
for server in "${servers[@]}"; do
  for n in 0 "$calls"; do
    BENCH_SERVER="$server" BENCH_ROUND_TRIPS="$n" valgrind --tool=callgrind \
      --callgrind-out-file=/dev/null "$binary" > /dev/null 2> "$work/$server.$n" &
  done
  wait
done
python3 - "$work" "$calls" "${servers[@]}" <<'PY'
import re, sys
work, calls, servers = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def total(path):
    for line in open(path):
        found = re.search(r"Collected : (\d+)", line)
        if found:
            return int(found.group(1))
    raise SystemExit(f"no count in {path}")
per = {s: (total(f"{work}/{s}.{calls}") - total(f"{work}/{s}.0")) / calls for s in servers}
for s in servers:
    print(f"{s:16} {per[s]:>10.0f} instructions per call")
print(f"schema narrows nothing: wrapped / bare = {per['wrapped_text'] / per['bare_text']:.3f}x")
print(f"schema narrows each argument: wrapped / bare = {per['wrapped_checked'] / per['bare_checked']:.3f}x")
check = (per['wrapped_checked'] - per['bare_checked']) - (per['wrapped_text'] - per['bare_text'])
print(f"the check: {check:.0f} instructions per call")
PY
