#!/usr/bin/env bash
# Compile time of a crate with 50 tools under this crate's `#[tool]`, against
# the same crate under rmcp's `#[tool]`, both generated here.
#
#   benches/compile-time.sh           rebuild after a touch (dependencies built)
#   benches/compile-time.sh --clean   also a clean build of each whole tree
#
# Prints the ratios, and the duplicated crates of this workspace's tree (one
# syn major only).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/target/compile-time"
tools=50
runs=5

generate() { # generate NAME KIND (ours | rmcp)
  local dir="$work/$1" kind="$2"
  mkdir -p "$dir/src"
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
  {
    echo '[package]'
    echo "name = \"compile-time-$1\""
    echo 'version = "0.0.0"'
    echo 'edition = "2024"'
    echo 'publish = false'
    echo '[workspace]'
    echo '[dependencies]'
    echo 'rmcp = { version = "3.11", default-features = false, features = ["server", "macros"] }'
    echo 'serde = { version = "1", features = ["derive"] }'
    if [ "$kind" = ours ]; then
      echo "outcome-runtime = { path = \"$root/outcome-runtime\" }"
    fi
  } > "$dir/Cargo.toml"
  {
    if [ "$kind" = ours ]; then
      echo 'use outcome_runtime::{ToolError, tool, tool_handler, tool_router};'
      echo 'type Error = ToolError;'
    else
      echo 'use rmcp::{tool, tool_handler, tool_router};'
      echo 'type Error = String;'
    fi
    echo 'use rmcp::handler::server::wrapper::Parameters;'
    echo 'use rmcp::{ServerHandler, schemars};'
    for i in $(seq 1 $tools); do
      echo "#[derive(serde::Deserialize, schemars::JsonSchema)]"
      echo "pub struct Args$i { pub text: String, pub count: u32 }"
    done
    echo 'pub struct Server;'
    echo '#[tool_router]'
    echo 'impl Server {'
    for i in $(seq 1 $tools); do
      echo "    /// Repeat the text, tool $i."
      echo "    #[tool]"
      if [ $((i % 2)) = 0 ]; then
        echo "    async fn tool_$i(&self, Parameters(Args$i { text, count }): Parameters<Args$i>) -> Result<String, Error> {"
      else
        echo "    fn tool_$i(&self, Parameters(Args$i { text, count }): Parameters<Args$i>) -> Result<String, Error> {"
      fi
      echo "        Ok(text.repeat(count as usize))"
      echo "    }"
    done
    echo '}'
    echo '#[tool_handler]'
    echo 'impl ServerHandler for Server {}'
  } > "$dir/src/lib.rs"
}

seconds() { # seconds DIR [ENV=VALUE...] -- time one `cargo build` in DIR
  local dir="$1" start end
  shift
  start=$(date +%s.%N)
  (cd "$dir" && env "$@" cargo build --quiet --offline)
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

ratio() { echo "scale=3; $1 / $2" | bc; }

generate ours ours
generate rmcp rmcp

# Rebuild of the crate alone, dependencies built: with incremental
# compilation off, so the whole crate is compiled (the stable measure), and
# with it on, after a touch (what an edit loop sees).
for mode in 0 1; do
  for name in ours rmcp; do
    (cd "$work/$name" && CARGO_INCREMENTAL=$mode cargo build --quiet --offline)
  done
  declare -A times=([ours]="" [rmcp]="")
  for _ in $(seq 1 $runs); do
    for name in ours rmcp; do
      touch "$work/$name/src/lib.rs"
      times[$name]+="$(seconds "$work/$name" CARGO_INCREMENTAL=$mode) "
    done
  done
  ours=$(echo "${times[ours]}" | tr ' ' '\n' | grep . | median)
  rmcp=$(echo "${times[rmcp]}" | tr ' ' '\n' | grep . | median)
  label=$([ $mode = 0 ] && echo "whole crate, incremental off" || echo "after a touch, incremental on")
  echo "Rebuild of a crate with $tools tools, dependencies built ($label, median of $runs):"
  echo "  outcome_runtime::tool ${ours} s, rmcp::tool ${rmcp} s: ratio $(ratio "$ours" "$rmcp")x"
done

if [ "${1:-}" = --clean ]; then
  declare -A clean
  for name in ours rmcp; do
    rm -rf "$work/$name/target"
    clean[$name]=$(seconds "$work/$name" CARGO_INCREMENTAL=1)
  done
  echo "Clean build of the whole tree:"
  echo "  with outcome-runtime ${clean[ours]} s, rmcp alone ${clean[rmcp]} s: ratio $(ratio "${clean[ours]}" "${clean[rmcp]}")x"
fi

echo "syn in the tree of outcome-runtime (cargo tree -i syn), by major:"
for version in $(cd "$root" && cargo tree -p outcome-runtime -e normal,build --offline --prefix none \
  2>/dev/null | grep -E '^syn v' | awk '{ print $2 }' | sort -u); do
  echo "  syn $version, pulled in by: $(cd "$root" && cargo tree -p outcome-runtime -e normal,build \
    --offline -i "syn@${version#v}" --depth 1 --prefix none 2>/dev/null | tail -n +2 \
    | awk '{ print $1 }' | sort -u | tr '\n' ' ')"
done
