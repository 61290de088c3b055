#!/usr/bin/env bash
# Compile time of a crate of tools under this crate's `#[tool]`, against the
# same crate under rmcp's `#[tool]`, both generated here.
#
#   benches/compile-time.sh           rebuild after a touch (dependencies built)
#   benches/compile-time.sh --clean   also a clean build of each whole tree
#
#   RUNS=3 SHAPES="shared" benches/compile-time.sh   fewer runs, some shapes
#
# Three crates of each: 50 tools of one shape (`simple`); 60 of the shapes
# real servers have (`mixed`): doc comments with `# Errors` and `# Examples`
# sections, `Json<T>` outputs, titles and annotations, explicit names and
# descriptions, bodies with `?`, early returns and loops, sync and async,
# a helper's awaited `Result` returned early and as the tail;
# and the same 60 sharing one argument type (`shared`). In the first two
# each tool has an argument struct of its own, whose derives cost the same
# under both macros and so hide what the macro itself costs; `shared` has
# one, so the ratio is mostly the macros' own expansion.
#
# Prints the ratios, and the duplicated crates of this workspace's tree (one
# syn major only).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/target/compile-time"
runs="${RUNS:-5}"
shapes="${SHAPES:-simple mixed shared}"

generate() { # generate NAME KIND SHAPE (ours | rmcp) (simple | mixed | shared)
  local dir="$work/$1" kind="$2" shape="$3" args
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
    # A server under outcome-runtime's macros needs none of rmcp's.
    if [ "$kind" = ours ]; then
      echo 'rmcp = { version = "3.11", default-features = false, features = ["server"] }'
      echo "outcome-runtime = { path = \"$root/outcome-runtime\" }"
    else
      echo 'rmcp = { version = "3.11", default-features = false, features = ["server", "macros"] }'
    fi
    echo 'serde = { version = "1", features = ["derive"] }'
  } > "$dir/Cargo.toml"
  {
    if [ "$kind" = ours ]; then
      echo '#![allow(dead_code, unused_imports)]'
      echo 'use outcome_runtime::{ToolError, tool, tool_handler, tool_router};'
      echo 'type Error = ToolError;'
      echo 'fn refused(problem: &str) -> Error {'
      echo '    ToolError::invalid(problem, "Send a count between 1 and 100, then call the tool again")'
      echo '}'
    else
      echo '#![allow(dead_code, unused_imports)]'
      echo 'use rmcp::{tool, tool_handler, tool_router};'
      echo 'type Error = String;'
      echo 'fn refused(problem: &str) -> Error {'
      echo '    format!("{problem}. Send a count between 1 and 100, then call the tool again.")'
      echo '}'
    fi
    echo 'use rmcp::handler::server::wrapper::{Json, Parameters};'
    echo 'async fn waited(text: String) -> Result<String, Error> {'
    echo '    std::future::ready(()).await;'
    echo '    Ok(text)'
    echo '}'
    echo 'use rmcp::{ServerHandler, schemars};'
    echo '#[derive(serde::Serialize, schemars::JsonSchema)]'
    echo 'pub struct Reply { pub text: String, pub count: u32 }'
    # `shared`: one argument type, `Args`, for every tool.
    local structs
    structs=$([ "$shape" = shared ] && echo Args || seq -f 'Args%g' 1 "$tools")
    for name in $structs; do
      echo "#[derive(serde::Deserialize, schemars::JsonSchema)]"
      echo "pub struct $name {"
      echo "    /// The text to repeat."
      echo "    pub text: String,"
      echo "    /// How many times, 1 to 100."
      echo "    pub count: u32,"
      echo "}"
    done
    echo 'pub struct Server;'
    echo '#[tool_router]'
    echo 'impl Server {'
    for i in $(seq 1 $tools); do
      local shape_of=$i
      [ "$shape" = simple ] && shape_of=0
      args="Args$i"
      [ "$shape" = shared ] && args=Args
      case $((shape_of % 6)) in
        0)
          echo "    /// Repeat the text, tool $i."
          echo "    #[tool]"
          if [ $((i % 2)) = 0 ]; then
            echo "    async fn tool_$i(&self, Parameters($args { text, count }): Parameters<$args>) -> Result<String, Error> {"
          else
            echo "    fn tool_$i(&self, Parameters($args { text, count }): Parameters<$args>) -> Result<String, Error> {"
          fi
          echo "        Ok(text.repeat(count as usize))"
          ;;
        1)
          echo "    /// Repeat the text and count the characters, tool $i."
          echo "    ///"
          echo "    /// # Errors"
          echo "    ///"
          echo "    /// A count over 100 is refused."
          echo "    #[tool]"
          echo "    async fn tool_$i(&self, Parameters(args): Parameters<$args>) -> Result<Json<Reply>, Error> {"
          echo "        if args.count > 100 {"
          echo "            return Err(refused(&format!(\"The count {} is over 100\", args.count)));"
          echo "        }"
          echo "        let text = args.text.repeat(args.count as usize);"
          echo "        let count = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);"
          echo "        Ok(Json(Reply { text, count }))"
          ;;
        2)
          echo "    #[tool(name = \"tool-$i\", description = \"Return the version of tool $i.\")]"
          echo "    fn tool_$i(&self) -> Result<String, Error> {"
          echo "        Ok(format!(\"{}.{}\", $i, env!(\"CARGO_PKG_VERSION\")))"
          ;;
        3)
          echo "    /// Count the words of the text, tool $i."
          echo "    #[tool(title = \"Words $i\", annotations(read_only_hint = true, open_world_hint = false))]"
          echo "    async fn tool_$i(&self, Parameters($args { text, count }): Parameters<$args>) -> Result<String, Error> {"
          echo "        let words = text.split_whitespace().filter(|word| word.len() as u32 >= count).count();"
          echo "        Ok(words.to_string())"
          ;;
        4)
          echo "    /// Split the text into lines of at most \`count\` characters, tool $i."
          echo "    ///"
          echo "    /// Words are never split."
          echo "    ///"
          echo "    /// # Examples"
          echo "    ///"
          echo "    /// \`\`\`text"
          echo "    /// tool_$i(\"a b c\", 3) -> \"a b\\\\nc\""
          echo "    /// \`\`\`"
          echo "    #[tool(annotations(idempotent_hint = true))]"
          echo "    fn tool_$i(&self, Parameters($args { text, count }): Parameters<$args>) -> Result<Json<Reply>, Error> {"
          echo "        let width = usize::try_from(count).map_err(|_| refused(\"The count is too large\"))?;"
          echo "        let mut lines: Vec<String> = Vec::new();"
          echo "        for word in text.split_whitespace() {"
          echo "            match lines.last_mut() {"
          echo "                Some(line) if line.len() + 1 + word.len() <= width => {"
          echo "                    line.push(' ');"
          echo "                    line.push_str(word);"
          echo "                }"
          echo "                _ => lines.push(word.to_owned()),"
          echo "            }"
          echo "        }"
          echo "        let count = u32::try_from(lines.len()).unwrap_or(u32::MAX);"
          echo "        Ok(Json(Reply { text: lines.join(\"\\n\"), count }))"
          ;;
        5)
          echo "    /// Wait, then repeat the text, tool $i."
          echo "    #[tool]"
          echo "    async fn tool_$i(&self, Parameters($args { text, count }): Parameters<$args>) -> Result<String, Error> {"
          echo "        let count = count.checked_mul(2).ok_or_else(|| refused(\"The count is too large\"))?;"
          echo "        if count == 0 {"
          echo "            return waited(String::new()).await;"
          echo "        }"
          echo "        waited(text.repeat(count as usize)).await"
          ;;
      esac
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

# Each kind builds its dependencies once, into a target directory of its own
# that its two crates share.
build() { # build NAME [ENV=VALUE...] -- time one `cargo build` of crate NAME
  local name="$1"
  shift
  seconds "$work/$name" CARGO_TARGET_DIR="$work/target-${name%%-*}" "$@"
}

for shape in $shapes; do
  tools=$([ $shape = simple ] && echo 50 || echo 60)
  generate "ours-$shape" ours $shape
  generate "rmcp-$shape" rmcp $shape

  # Rebuild of the crate alone, dependencies built: with incremental
  # compilation off, so the whole crate is compiled (the stable measure),
  # and with it on, after a touch (what an edit loop sees). The two kinds
  # alternate, so a busy moment costs both.
  for mode in 0 1; do
    for name in "ours-$shape" "rmcp-$shape"; do
      build "$name" CARGO_INCREMENTAL=$mode > /dev/null
    done
    declare -A times=([ours]="" [rmcp]="")
    for _ in $(seq 1 $runs); do
      for kind in ours rmcp; do
        touch "$work/$kind-$shape/src/lib.rs"
        times[$kind]+="$(build "$kind-$shape" CARGO_INCREMENTAL=$mode) "
      done
    done
    ours=$(echo "${times[ours]}" | tr ' ' '\n' | grep . | median)
    rmcp=$(echo "${times[rmcp]}" | tr ' ' '\n' | grep . | median)
    label=$([ $mode = 0 ] && echo "whole crate, incremental off" || echo "after a touch, incremental on")
    echo "Rebuild of a crate of $tools $shape tools, dependencies built ($label, median of $runs):"
    echo "  outcome_runtime::tool ${ours} s, rmcp::tool ${rmcp} s: ratio $(ratio "$ours" "$rmcp")x"
  done
done

if [ "${1:-}" = --clean ]; then
  declare -A clean
  for kind in ours rmcp; do
    rm -rf "$work/clean-$kind"
    clean[$kind]=$(seconds "$work/$kind-mixed" CARGO_TARGET_DIR="$work/clean-$kind" CARGO_INCREMENTAL=1)
    rm -rf "$work/clean-$kind"
  done
  echo "Clean build of the whole tree (the mixed crate and every dependency):"
  echo "  with outcome-runtime ${clean[ours]} s, rmcp alone ${clean[rmcp]} s: ratio $(ratio "${clean[ours]}" "${clean[rmcp]}")x"
fi

echo "syn in the tree of outcome-runtime (cargo tree -i syn), by major:"
for version in $(cd "$root" && cargo tree -p outcome-runtime -e normal,build --offline --prefix none \
  2>/dev/null | grep -E '^syn v' | awk '{ print $2 }' | sort -u); do
  echo "  syn $version, pulled in by: $(cd "$root" && cargo tree -p outcome-runtime -e normal,build \
    --offline -i "syn@${version#v}" --depth 1 --prefix none 2>/dev/null | tail -n +2 \
    | awk '{ print $1 }' | sort -u | tr '\n' ' ')"
done
