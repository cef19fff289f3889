#!/usr/bin/env bash
# bench/slash-load.sh BIN [TEXT] [CONNECTIONS] [SECONDS]
# kepbot's slash command endpoint under many connections, for what the peer script does not
# print: memory and allocations. serve gets CPU 1, wrk CPU 0 (as in slash-peers.sh), every
# request the same signed /k8s TEXT. Prints req/s and p99, the peak resident memory
# (VmHWM), the whole process's heap allocations a request (net/http's included, from
# /metrics), the live heap after the run and the garbage collections it took.
set -euo pipefail
bin=$(realpath "$1"); text=${2:-"kep 4639"}; conns=${3:-256}; secs=${4:-10}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 2; }
srv="taskset -c 1"; gen="taskset -c 0"
[ "$(nproc)" -ge 2 ] || { srv=""; gen=""; }
secret=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=$((40700 + RANDOM % 200))
tmp=$(mktemp -d); pid=
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
(cd "$tmp" && BOT_DB="$tmp/bot.db" BOT_HTTP_ADDR=127.0.0.1:$port SLACK_SIGNING_SECRET=$secret SLACK_ALLOW_REPLAYS=true exec $srv "$bin" serve </dev/null >"$tmp/bot.log" 2>&1) &
pid=$!
for i in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
body="token=x&team_id=T1&channel_id=C1&user_id=U1&command=%2Fk8s&text=$(printf '%s' "$text" | sed 's/ /+/g')&response_url=http%3A%2F%2F127.0.0.1%3A9%2Fr&trigger_id=1.2"
ts=$(date +%s); sig="v0=$(printf 'v0:%s:%s' "$ts" "$body" | openssl dgst -sha256 -hmac "$secret" | awk '{print $NF}')"
cat >"$tmp/cmd.lua" <<LUA
wrk.method = "POST"
wrk.path = "/slack/commands"
wrk.body = "$body"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["X-Slack-Request-Timestamp"] = "$ts"
wrk.headers["X-Slack-Signature"] = "$sig"
LUA
url="http://127.0.0.1:$port"
$gen wrk -t1 -c"$conns" -d2s -s "$tmp/cmd.lua" "$url" >/dev/null # warm up: the reply is kept, connections open
metric() { curl -sf "$url/metrics" | awk -v m="$1" '$1 == m {printf "%.0f", $2}'; }
mallocs0=$(metric go_memstats_mallocs_total); gcs0=$(metric go_gc_duration_seconds_count)
out=$($gen wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$tmp/cmd.lua" "$url")
echo "$out" | grep -q Non-2xx && { echo "kepbot: non-2xx answers under load"; echo "$out"; exit 1; }
mallocs1=$(metric go_memstats_mallocs_total); gcs1=$(metric go_gc_duration_seconds_count)
reqs=$(echo "$out" | awk '/requests in/ {print $1}')
hwm=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
live=$(metric go_memstats_heap_alloc_bytes)
echo "$conns connections, ${secs}s: $(echo "$out" | awk '/Requests\/sec/ {print $2}') req/s, p99 $(echo "$out" | awk '$1=="99%" {print $2}')"
echo "peak RSS: ${hwm} MiB"
echo "allocations a request (whole process): $(echo "$mallocs0 $mallocs1 $reqs" | awk '{printf "%.1f", ($2 - $1) / $3}')"
echo "garbage collections: $((gcs1 - gcs0)) in ${secs}s; heap in use at the end: $(echo "$live" | awk '{printf "%.1f", $1 / 1048576}') MiB"
