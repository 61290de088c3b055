#!/usr/bin/env bash
# Where a round trip's time goes that its instruction count does not see:
# the misses of the first-level caches, per call, for the wrapped call and
# for bare rmcp writing an equal span and line by hand, counted by
# cachegrind's cache simulation.
#
#   benches/misses.sh [CALLS]      (default 400)
#
# The machines this runs on give no access to the processor's counters, and
# their clocks can't tell two builds a percent apart; a simulated cache
# can, and gives the same count every time. Beside the instructions (`Ir`),
# it counts the misses of the instruction cache (`I1mr`) and of the data
# cache on reads and writes (`D1mr`, `D1mw`), and weighs each miss at ten
# instructions, about what a fetch from the second-level cache costs: the
# `estimate` column. Its ratio, wrapped / bare_spanned, is the figure to
# hold beside `layouts.sh`'s wall-time ratio; `twin_timed` (a second copy of
# bare rmcp's code) shows how far a layout alone moves it.
#
# Per function, the ten that differ most between `wrapped` and
# `bare_spanned` by that estimate follow.
#
# glibc's `malloc_consolidate` may head that list, and is not the wrapped
# call's cost. Each server runs here in a process of its own, and both make
# the same allocations per call, of the same sizes. tokio allocates each
# task 128-byte aligned (`posix_memalign`). The pieces that alignment splits
# off go to the allocator's fast bins once its per-thread cache for their
# sizes is full, and the next aligned allocation of a kilobyte or more then
# consolidates them. Which process meets that depends on where its heap's
# chunks happen to fall. `layouts.sh` runs all its servers in one process,
# and its wall-time ratio did not move with the fast bins off
# (`GLIBC_TUNABLES=glibc.malloc.mxfast=0`) or under jemalloc
# (`LD_PRELOAD=libjemalloc.so.2`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
calls="${1:-400}"
work="$root/target/misses"
mkdir -p "$work"
binary=$("$root/benches/boundary-binary.sh" misses.sh)
servers=(wrapped bare_spanned twin_timed)
for server in "${servers[@]}"; do
  for n in 0 "$calls"; do
    BENCH_SERVER="$server" BENCH_ROUND_TRIPS="$n" valgrind --tool=cachegrind --cache-sim=yes \
      --cachegrind-out-file="$work/$server.$n" "$binary" > /dev/null 2>&1 &
  done
done
wait
python3 - "$work" "$calls" "${servers[@]}" <<'EOF'
import collections, re, sys

work, calls, servers = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
EVENTS = ("Ir", "I1mr", "D1mr", "D1mw")
MISS = 10

def read(path):
    """Each event's count, per function and in all."""
    events, per, function = None, collections.defaultdict(collections.Counter), None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("fn="):
            function = re.sub(r"\b(Wrapped|Bare|Twin|Handwritten)\b", "_", line[3:].strip())
        elif line[:1].isdigit() and function:
            for event, count in zip(events, line.split()[1:]):
                per[function][event] += int(count)
    return per

def per_call(server):
    many, none = read(f"{work}/{server}.{calls}"), read(f"{work}/{server}.0")
    return {f: {e: (many[f][e] - none[f][e]) / calls for e in EVENTS}
            for f in set(many) | set(none)}

def estimate(counts):
    return counts["Ir"] + MISS * (counts["I1mr"] + counts["D1mr"] + counts["D1mw"])

figures = {server: per_call(server) for server in servers}
totals = {server: {e: sum(f[e] for f in functions.values()) for e in EVENTS}
          for server, functions in figures.items()}
print(f"per call, over {calls} calls; estimate = Ir + {MISS} x (I1mr + D1mr + D1mw)")
print(f"{'server':<14}" + "".join(f"{e:>10}" for e in EVENTS) + f"{'estimate':>11}{'ratio':>8}")
base = estimate(totals["bare_spanned"])
for server in servers:
    t = totals[server]
    print(f"{server:<14}" + "".join(f"{t[e]:>10.1f}" for e in EVENTS)
          + f"{estimate(t):>11.0f}{estimate(t) / base:>8.4f}")
wrapped, bare = figures["wrapped"], figures["bare_spanned"]
rows = []
for function in set(wrapped) | set(bare):
    zero = dict.fromkeys(EVENTS, 0)
    difference = {e: wrapped.get(function, zero)[e] - bare.get(function, zero)[e] for e in EVENTS}
    rows.append((estimate(difference), function, difference))
rows.sort(key=lambda row: -abs(row[0]))
print("\nwrapped - bare_spanned, per function (estimate, then each event):")
for cost, function, d in rows[:10]:
    print(f"{cost:+8.0f}" + "".join(f" {e} {d[e]:+.1f}" for e in EVENTS) + f"  {function[:110]}")
EOF
