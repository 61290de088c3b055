#!/usr/bin/env bash
# What one round trip runs, counted rather than timed: the instructions it
# runs, the distinct instructions it runs on every call, and the lines of
# code (64-byte cache lines) those fill, for the wrapped call and for bare
# rmcp writing an equal line by hand.
#
#   benches/footprint.sh [CALLS] [--functions]      (default 500)
#
# A clock on a shared machine can't tell apart two builds whose round trips
# differ by a percent or two; valgrind's count can, and gives the same
# count for the same build every time. A round trip of the boundary bench
# runs some 140,000 instructions from some 3,000 lines of code, more than
# an instruction cache holds, so each of those lines is fetched again on
# every call: on such a machine a round trip's time follows the code it
# runs as much as the instructions. The lines a function fills move by a
# few with where the linker puts it (see `twin_timed`); the distinct
# instructions don't. The figures come from two runs of the bench's count
# mode (`BENCH_ROUND_TRIPS`), one of CALLS calls and one of none, per
# server; an instruction counts when the calls ran it at least once per
# call.
#
# Beside each count, the heap allocations per call, from the bench's
# counting allocator in a native run.
#
# The count of one process is not the count of the next: glibc's allocator
# takes another path when the chunks a call frees overflow its per-size
# caches, and whether they do depends on where earlier allocations landed,
# which a process's random hash seeds move. On a wrapped call that moves the
# count by up to a percent between processes, though every call allocates
# and frees the same sizes as bare rmcp's does. So each server is counted in
# RUNS processes (default 3), the median printed, and beside it the median
# of the instructions outside the allocator (`malloc`, `free` and their
# helpers), which move by a few dozen.
#
# Servers: `wrapped` (this crate), `bare_timed` (rmcp, the line written in
# the tool), `bare_spanned` (the same inside a span written in the tool, all
# that a wrapped call writes), `twin_timed` (the same from a second copy of rmcp's code: how
# far the figures stray when nothing differs), `handwritten` (rmcp, the line
# written by a `call_tool` of its own). With --functions, it also prints,
# per function, how far `wrapped` differs from `bare_timed`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
calls="${1:-500}" functions="${2:-}"
work="$root/target/footprint"
mkdir -p "$work"
binary=$("$root/benches/boundary-binary.sh" footprint.sh)
runs="${RUNS:-3}"
servers=(wrapped bare_timed bare_spanned twin_timed handwritten)
for server in "${servers[@]}"; do
  for run in $(seq 1 "$runs"); do
    for n in 0 "$calls"; do
      BENCH_SERVER="$server" BENCH_ROUND_TRIPS="$n" valgrind --tool=callgrind --dump-instr=yes \
        --callgrind-out-file="$work/$server.$run.$n" "$binary" > /dev/null 2>&1 &
    done
    wait
  done
  # Allocations, counted by the bench's own allocator, natively.
  BENCH_SERVER="$server" BENCH_ROUND_TRIPS="$calls" "$binary" | sed -n 's/^allocations per call: //p' \
    > "$work/$server.allocations"
done
python3 - "$work" "$calls" "$functions" "$runs" "${servers[@]}" <<'EOF'
import collections, re, statistics, sys

work, calls, functions, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
servers = sys.argv[5:]
# glibc's allocator, by the functions callgrind names.
ALLOCATOR = re.compile(r"^(malloc|free|cfree|realloc|calloc|_int_\w+|_mid_memalign\S*|"
                       r"malloc_consolidate|unlink_chunk\S*|alloc_perturb|tcache_\w+|"
                       r"__libc_(malloc|free|memalign|realloc|calloc)\S*|posix_memalign|"
                       r"_?_?memalign\S*|aligned_alloc)$")

def read(path):
    """Instructions run at each address, and the function of each address."""
    names, counts, owner = {}, collections.Counter(), {}
    function, address, call, positions = None, 0, False, 1
    for line in open(path):
        if line.startswith("positions:"):
            # The instruction's address, then (by default) its source line:
            # the events follow them.
            positions = len(line.split()) - 1
        elif line.startswith(("fn=", "cfn=")):
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
            events = rest[positions - 1:]
            counts[address] += int(events[0]) if events else 0
            owner[address] = function
    return counts, owner

def summary(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])

def allocator(counts, owner):
    return sum(count for address, count in counts.items()
               if ALLOCATOR.match(owner.get(address) or ""))

def per_call(server):
    """The median over runs of the instructions a call runs, in all and
    outside the allocator; the first run's distinct instructions and lines."""
    totals, outside = [], []
    for run in range(1, runs + 1):
        none, many = f"{work}/{server}.{run}.0", f"{work}/{server}.{run}.{calls}"
        counts, owner = read(many)
        counts_none, owner_none = read(none)
        totals.append((summary(many) - summary(none)) / calls)
        outside.append(totals[-1] - (allocator(counts, owner) - allocator(counts_none, owner_none)) / calls)
        if run == 1:
            lines, distinct = collections.defaultdict(set), collections.Counter()
            for address, count in counts.items():
                if count - counts_none.get(address, 0) >= calls:
                    function = re.sub(r"\b(Wrapped|Bare|Twin|Handwritten)\b", "_", owner[address] or "?")
                    distinct[function] += 1
                    lines[function].add(address >> 6)
    return statistics.median(totals), statistics.median(outside), lines, distinct

figures = {server: per_call(server) for server in servers}
base_instructions, base_outside, base_lines, base_distinct = figures["bare_timed"]
base_by_function = base_distinct
base_distinct = sum(base_distinct.values())
base_total = len(set().union(*base_lines.values()))
print(f"per call, over {calls} calls, median of {runs} processes:")
for server in servers:
    instructions, outside, lines, distinct = figures[server]
    total = len(set().union(*lines.values()))
    distinct = sum(distinct.values())
    print(f"  {server:12} {instructions:9.0f} instructions run ({instructions / base_instructions:.4f}x)"
          f"  {outside:9.0f} outside the allocator ({outside / base_outside:.4f}x)"
          f"  {distinct:6} distinct ({distinct - base_distinct:+5d})"
          f"  {total:5} lines of code ({total - base_total:+4d})"
          f"  {open(f'{work}/{server}.allocations').read().strip()} allocations")
if functions:
    _, _, wrapped_lines, wrapped = figures["wrapped"]
    print("distinct instructions and lines of code per function, wrapped against bare_timed:")
    names = set(wrapped) | set(base_by_function)
    rows = sorted(((wrapped.get(n, 0) - base_by_function.get(n, 0),
                    len(wrapped_lines.get(n, ())) - len(base_lines.get(n, ())), n) for n in names),
                  key=lambda row: -abs(row[0]))
    for difference, lines, name in rows:
        if difference or lines:
            print(f"  {difference:+5d} {lines:+4d}  {name[:130]}")
EOF
