#!/usr/bin/env bash
# The per-call ratio of the boundary bench, over several layouts of the
# binary.
#
#   benches/layouts.sh [LAYOUTS] [PROCESSES] [RUNS] [BASE]   (default 6 2 3)
#
# Where the linker puts each function moves a round trip's time by a few
# percent either way on some machines, and a second copy of bare rmcp (the
# bench's `Twin`, a type of its own) shows it: against the first, the same
# code, it strays as far. A ratio from one build is then a ratio of one
# layout. This links the bench LAYOUTS times, each with its functions in
# another order (lld's `--shuffle-sections`, the linker Rust uses on
# x86_64 Linux), runs each build in PROCESSES processes of RUNS interleaved
# runs (`BENCH_INTERLEAVED`), and prints the median of each layout and of
# all runs. `twin` is the control: its median over layouts is near 1.
#
# With BASE, a git revision, it measures that revision too, built from a
# worktree of it into a target directory of its own, and runs the two builds
# of each layout in turn, process by process: a machine whose speed drifts
# over minutes (by a percent and more on some) then moves both alike, where
# two runs one after the other would differ by the drift.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
layouts="${1:-6}" processes="${2:-2}" runs="${3:-3}" base="${4:-}"
work="$root/target/layouts"
mkdir -p "$work"
out="$work/runs.txt"
: > "$out"

# Links the bench of the tree at $1 with layout $2 and copies it to $3.
build() {
  local binary
  binary=$(cd "$1" && cargo rustc --quiet --profile bench -p outcome-benches --bench boundary \
      --message-format=json -- -C "link-arg=-Wl,--shuffle-sections=*=$2" |
    python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])')
  cp "$binary" "$3"
}

builds=(current)
if [ -n "$base" ]; then
  tree="$work/base-tree"
  git -C "$root" worktree remove --force "$tree" 2>/dev/null || true
  git -C "$root" worktree add --quiet --detach "$tree" "$base"
  trap 'git -C "$root" worktree remove --force "$tree"' EXIT
  builds=(base current)
fi
for seed in $(seq 1 "$layouts"); do
  CARGO_TARGET_DIR="$root/target" build "$root" "$seed" "$work/current-$seed"
  if [ -n "$base" ]; then
    # A target directory of its own: cargo names the two trees' bench
    # alike, and in a shared one it would take one build for the other's.
    CARGO_TARGET_DIR="$work/base-target" build "$tree" "$seed" "$work/base-$seed"
    if cmp -s "$work/base-$seed" "$work/current-$seed"; then
      echo "layout $seed: $base and the working tree built the same binary" >&2
    fi
  fi
done
for _ in $(seq 1 "$processes"); do
  for seed in $(seq 1 "$layouts"); do
    for name in "${builds[@]}"; do
      BENCH_INTERLEAVED="$runs" "$work/$name-$seed" | sed "s/^/$name $seed: /" >> "$out"
    done
  done
done
python3 - "$out" <<'EOF'
import re, statistics, sys

names = ["fixed", "timed", "bare_again", "twin", "text", "handwritten", "spanned"]
builds = {}
for line in open(sys.argv[1]):
    build, layout = line.split(":")[0].split()
    builds.setdefault(build, {}).setdefault(layout, []).append(
        [float(x) for x in re.findall(r"= ([0-9.]+)x", line)])

def medians(rows):
    return "  ".join(f"{name} {statistics.median(c):.4f}"
                     for name, c in zip(names, zip(*rows)))

for build, layouts in builds.items():
    for layout, rows in layouts.items():
        print(f"{build}, layout {layout}: {medians(rows)}")
    everything = [row for rows in layouts.values() for row in rows]
    print(f"{build}, all {len(everything)} runs: {medians(everything)}")
print("fixed, timed: wrapped / bare rmcp with a fixed or a measured duration in its log line;")
print("bare_again: bare / the same bare; twin: a second bare type / bare; text: wrapped / bare, 1 KB arguments;")
print("handwritten: wrapped / bare rmcp with the line written by a call_tool of its own;")
print("spanned: wrapped / bare rmcp with the call's span and the timed line written by hand")
EOF
