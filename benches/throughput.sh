#!/usr/bin/env bash
# Requests per second under load: wrk, two threads and 32 connections,
# posting one stateless `tools/call` of a tool that does nothing, over
# rmcp's streamable HTTP, to the wrapped server and to bare rmcp writing an
# equal log line by hand (the http_throughput bench's servers).
#
#   benches/throughput.sh [SECONDS] [ROUNDS]      (default 5 and 12)
#
# Two bare servers: `bare_spanned` opens by hand the span the request log
# opens and writes the same line in it, so under `fmt` its line is equal to
# the wrapped server's, span context and all; `bare_timed` writes the line
# alone, with no span (what the span costs is the difference).
#
# A round measures each server once, for SECONDS, each in a fresh process,
# in an order that turns from round to round, so that a machine slowing
# down or speeding up falls on all. Each round prints the figures and
# wrapped / bare: 1.000 means the boundary and the request log cost nothing
# a hand-written equal line doesn't, 0.950 that the wrapped server serves
# 5% fewer calls a second. Read the median of many short rounds, not one
# round: on a shared machine a round's figures move by 10% or more with
# whatever else runs, and the server, wrk and the log's writer share the
# cores. Latencies are wrk's p50 and p99 over the round.
#
# Every call must succeed: a status other than 2xx, a socket error, or a
# response of another size than the one checked by hand before the round
# (a JSON-RPC error answers 200 too, but not with the same bytes) stops the
# script. The log goes to /dev/null through the same subscriber for both;
# BENCH_LOG_FILTER (e.g. `info,rmcp=warn`) passes on to the server.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-5}" rounds="${2:-12}"
command -v wrk > /dev/null || {
  echo "throughput.sh needs wrk (Debian's package wrk)" >&2
  exit 1
}
work="$root/target/throughput"
mkdir -p "$work"
binary=$(cd "$root" && cargo build --quiet --profile bench -p outcome-benches --bench http_throughput \
    --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable"):
        print(message["executable"])')

# The stateless lifecycle of protocol 2026-07-28: no initialize, so every
# request names its protocol version and the client's capabilities in
# `_meta` (both required; the client's name is what a client sends too),
# and, from that version on, its method and tool in headers that must
# match the body.
body='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"wrk","version":"4.1.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}'
headers=(
  "Content-Type: application/json"
  "Accept: application/json, text/event-stream"
  "MCP-Protocol-Version: 2026-07-28"
  "Mcp-Method: tools/call"
  "Mcp-Name: echo"
)
expected='{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"42"}],"isError":false}}'

{
  echo 'wrk.method = "POST"'
  echo "wrk.body = [[$body]]"
  for header in "${headers[@]}"; do
    echo "wrk.headers[\"${header%%: *}\"] = \"${header#*: }\""
  done
  # wrk's own report rounds what the checks need; this line is exact.
  cat <<'EOF'
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "summary requests=%d bytes=%d status=%d connect=%d read=%d write=%d timeout=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
EOF
} > "$work/request.lua"

curl_args=(-s -X POST --max-time 5 -d "$body")
for header in "${headers[@]}"; do
  curl_args+=(-H "$header")
done

pid=
stop() {
  if [ -n "$pid" ]; then
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    pid=
  fi
}
trap stop EXIT

fail() {
  echo "throughput.sh: $*" >&2
  exit 1
}

# Starts `server`, checks one call by hand, loads it for SECONDS, stops it;
# writes `requests/sec p50_us p99_us` to target/throughput/SERVER.result.
measure() {
  local server="$1" url= response size wrk_out summary
  BENCH_SERVER="$server" "$binary" > "$work/$server.url" 2> "$work/$server.err" &
  pid=$!
  for _ in $(seq 300); do
    url=$(head -n 1 "$work/$server.url")
    [ -n "$url" ] && break
    kill -0 "$pid" 2> /dev/null || fail "$server exited: $(cat "$work/$server.err")"
    sleep 0.1
  done
  [ -n "$url" ] || fail "$server printed no address"
  # Its answer, headers and all: every response under load is as long.
  curl "${curl_args[@]}" -i "$url" > "$work/$server.response" || fail "$server does not answer at $url"
  [ "$(tail -n 1 "$work/$server.response")" = "$expected" ] ||
    fail "$server answered otherwise: $(cat "$work/$server.response")"
  size=$(wc -c < "$work/$server.response")

  wrk_out=$(wrk -t2 -c32 -d"${seconds}s" -s "$work/request.lua" "$url") || fail "wrk failed: $wrk_out"
  stop
  echo "$wrk_out" > "$work/$server.wrk"
  if grep -q -e "Non-2xx" -e "Socket errors" <<< "$wrk_out"; then
    fail "$server: wrk saw failures:"$'\n'"$wrk_out"
  fi
  summary=$(grep '^summary ' <<< "$wrk_out") || fail "wrk printed no summary: $wrk_out"
  python3 - "$server" "$size" "$summary" "$wrk_out" > "$work/$server.result" <<'EOF' || exit 1
import re, sys

server, size, summary, report = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
fields = dict(pair.split("=") for pair in summary.split()[1:])
counts = {key: int(value) for key, value in fields.items()}
errors = {key: counts[key] for key in ("status", "connect", "read", "write", "timeout") if counts[key]}
if counts["requests"] == 0 or errors:
    sys.exit(f"throughput.sh: {server}: {counts['requests']} requests, errors {errors}")
# The last reads of a round may hold part of a response wrk never counts;
# 32 connections' worth is well under half a byte a request.
per_request = counts["bytes"] / counts["requests"]
if abs(per_request - size) > 0.5:
    sys.exit(f"throughput.sh: {server}: {per_request:.2f} bytes a response, not {size}:\n{report}")
rate = re.search(r"Requests/sec:\s*([\d.]+)", report)
if not rate:
    sys.exit(f"throughput.sh: {server}: no Requests/sec in:\n{report}")
print(rate.group(1), counts["p50_us"], counts["p99_us"])
EOF
}

results=()
for round in $(seq "$rounds"); do
  case $((round % 3)) in
    1) order=(wrapped bare_spanned bare_timed) ;;
    2) order=(bare_spanned bare_timed wrapped) ;;
    *) order=(bare_timed wrapped bare_spanned) ;;
  esac
  for server in "${order[@]}"; do
    measure "$server"
    read -r rate p50 p99 < "$work/$server.result"
    echo "round $round: $server: $rate requests/s, p50 ${p50} us, p99 ${p99} us"
    results+=("$round $server $rate")
  done
done

python3 - "${results[@]}" <<'EOF'
import statistics, sys

rates = {}
for line in sys.argv[1:]:
    round_, server, rate = line.split()
    rates.setdefault(int(round_), {})[server] = float(rate)
ratios = {"bare_spanned": [], "bare_timed": []}
print(f"\nRequests per second, {len(rates)} round(s):")
for round_, by_server in sorted(rates.items()):
    line = f"  round {round_}: wrapped {by_server['wrapped']:.0f}"
    for bare in ratios:
        ratio = by_server["wrapped"] / by_server[bare]
        ratios[bare].append(ratio)
        line += f", {bare} {by_server[bare]:.0f} ({ratio:.3f})"
    print(line)
for bare, values in ratios.items():
    print(f"  wrapped / {bare}, median of the rounds: {statistics.median(values):.3f}")
EOF
