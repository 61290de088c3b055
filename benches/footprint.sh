#!/usr/bin/env bash
# What one round trip runs, counted rather than timed: instructions, and
# lines of code (64-byte cache lines) run on every call, for the wrapped
# call and for bare rmcp writing an equal line by hand.
#
#   benches/footprint.sh [CALLS] [--functions]      (default 500)
#
# A clock on a shared machine can't tell apart two builds whose round trips
# differ by a percent or two; valgrind's count can, and gives the same
# count for the same build every time. A round trip of the boundary bench
# runs some 140,000 instructions from some 3,000 lines of code, more than
# an instruction cache holds, so each of those lines is fetched again on
# every call: on such a machine a round trip's time follows the lines it
# runs as much as its instructions. Both figures come from two runs of the
# bench's count mode (`BENCH_ROUND_TRIPS`), one of CALLS calls and one of
# none, per server; a line counts when the calls ran some instruction of it
# at least once per call.
#
# Servers: `wrapped` (this crate), `bare_timed` (rmcp, the line written in
# the tool), `twin_timed` (the same from a second copy of rmcp's code: how
# far the figures stray when nothing differs), `handwritten` (rmcp, the line
# written by a `call_tool` of its own). With --functions, it also prints the
# functions whose lines differ between `wrapped` and `bare_timed`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
calls="${1:-500}" functions="${2:-}"
command -v valgrind > /dev/null || {
  echo "footprint.sh needs valgrind (Debian's package valgrind)" >&2
  exit 1
}
work="$root/target/footprint"
mkdir -p "$work"
binary=$(cd "$root" && cargo build --quiet --profile bench -p outcome-benches --bench boundary \
    --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])')
servers=(wrapped bare_timed twin_timed handwritten)
for server in "${servers[@]}"; do
  for n in 0 "$calls"; do
    BENCH_SERVER="$server" BENCH_ROUND_TRIPS="$n" valgrind --tool=callgrind --dump-instr=yes \
      --callgrind-out-file="$work/$server.$n" "$binary" > /dev/null 2>&1 &
  done
  wait
done
python3 - "$work" "$calls" "$functions" "${servers[@]}" <<'EOF'
import collections, re, sys

work, calls, functions, servers = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]

def read(path):
    """Instructions run at each address, and the function of each address."""
    names, counts, owner = {}, collections.Counter(), {}
    function, address, call = None, 0, False
    for line in open(path):
        if line.startswith(("fn=", "cfn=")):
            match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
            if match.group(2):
                names[match.group(1)] = match.group(2)
            if line.startswith("fn="):
                function = names[match.group(1)]
        elif line.startswith("calls="):
            call = True
        elif line[:1] in "0123456789+-*":
            position, *rest = line.split()
            if position.startswith("0x"):
                address = int(position, 16)
            elif position[0] in "+-":
                step = int(position[1:], 0)
                address += step if position[0] == "+" else -step
            # The line after `calls=` is the callee's cost, not this
            # address's own.
            if call:
                call = False
                continue
            counts[address] += int(rest[1]) if len(rest) > 1 else 0
            owner[address] = function
    return counts, owner

def summary(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])

def per_call(server):
    none, counts_none = f"{work}/{server}.0", None
    many = f"{work}/{server}.{calls}"
    counts, owner = read(many)
    counts_none, _ = read(none)
    lines = collections.defaultdict(set)
    for address, count in counts.items():
        if count - counts_none.get(address, 0) >= calls:
            lines[re.sub(r"\b(Wrapped|Bare|Twin|Handwritten)\b", "_", owner[address] or "?")].add(address >> 6)
    instructions = (summary(many) - summary(none)) / calls
    return instructions, lines

figures = {server: per_call(server) for server in servers}
base_instructions, base_lines = figures["bare_timed"]
base_total = len(set().union(*base_lines.values()))
print(f"per call, over {calls} calls:")
for server in servers:
    instructions, lines = figures[server]
    total = len(set().union(*lines.values()))
    print(f"  {server:12} {instructions:9.0f} instructions ({instructions / base_instructions:.4f}x)"
          f"  {total:5} lines of code ({total - base_total:+d})")
if functions:
    wrapped = figures["wrapped"][1]
    print("lines per function, wrapped against bare_timed:")
    names = set(wrapped) | set(base_lines)
    rows = sorted(((len(wrapped.get(n, ())) - len(base_lines.get(n, ())), n) for n in names),
                  key=lambda row: -abs(row[0]))
    for difference, name in rows:
        if difference:
            print(f"  {difference:+4d}  {name[:140]}")
EOF
