#!/usr/bin/env bash
# bench/discord-peers.sh BIN [KEP] [CONNECTIONS] [SECONDS] [ROUNDS]
# kepbot's Discord HTTP interactions endpoint beside its ceiling, same machine, one run:
# bench/peers/discordbare (net/http + the Ed25519 check + kepbot's own answer bytes, fixed).
# Each server gets CPU 1 alone; bench/interactload (every request a new interaction, signed
# ahead) gets CPU 0; rounds alternate which goes first. Prints req/s and p99 for each, the
# per-round ratios and their median.
set -euo pipefail
bin=$(realpath "$1"); kep=${2:-4639}; conns=${3:-32}; secs=${4:-5}; rounds=${5:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
srv="taskset -c 1"; gen="taskset -c 0"
[ "$(nproc)" -ge 2 ] || { srv=""; gen=""; }
tmp=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
(cd "$root" && go build -o "$tmp/bare" ./bench/peers/discordbare && go build -o "$tmp/load" ./bench/interactload)
seed=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
pub=$("$tmp/load" -seed "$seed" -pub)
ports=($((40100 + RANDOM % 200)) $((40400 + RANDOM % 200)))
(cd "$tmp" && BOT_DB="$tmp/bot.db" BOT_HTTP_ADDR=127.0.0.1:${ports[0]} DISCORD_PUBLIC_KEY=$pub exec $srv "$bin" serve </dev/null >"$tmp/bot.log" 2>&1) & pids+=($!)
for i in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:${ports[0]}/healthz" && break; sleep 0.2; done
path=/discord/interactions
"$tmp/load" -seed "$seed" -url "http://127.0.0.1:${ports[0]}$path" -kep "$kep" -once >"$tmp/reply.json" ||
  { echo "kepbot did not answer the signed interaction"; tail -5 "$tmp/bot.log"; exit 1; }
echo "kepbot's answer: $(wc -c <"$tmp/reply.json") bytes; the bare handler sends the same bytes"
(DISCORD_PUBLIC_KEY=$pub PORT=${ports[1]} REPLY_FILE="$tmp/reply.json" exec $srv "$tmp/bare" >"$tmp/bare.log" 2>&1) & pids+=($!)
for i in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:${ports[1]}/healthz" && break; sleep 0.2; done
names=(kepbot bare)
declare -A rps p99
for r in $(seq 1 "$rounds"); do
  order="0 1"; [ $((r % 2)) = 0 ] && order="1 0"
  for i in $order; do
    out=$($gen "$tmp/load" -seed "$seed" -url "http://127.0.0.1:${ports[$i]}$path" -kep "$kep" -conns "$conns" -d "${secs}s")
    echo "$out" | grep -q "non-200: 0 " || { echo "${names[$i]}: answers other than 200 under load: $out"; exit 1; }
    rps[${names[$i]}]+="$(echo "$out" | sed 's/.*requests\/s: \([0-9.]*\).*/\1/') "
    p99[${names[$i]}]+="$(echo "$out" | sed 's/.*p99: \([0-9.]*ms\).*/\1/') "
  done
done
med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for n in "${names[@]}"; do printf '%-7s req/s: %s(median %s)  p99: %s\n' "$n" "${rps[$n]}" "$(med "${rps[$n]}")" "${p99[$n]}"; done
rc=$(paste -d' ' <(printf '%s\n' ${rps[kepbot]}) <(printf '%s\n' ${rps[bare]}) | awk '{printf "%.3f ", $1 / $2}')
echo "per-round kepbot/bare: $rc"
printf 'ratio kepbot/bare: %.2f\n' "$(med "$rc")"
