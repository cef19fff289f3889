#!/usr/bin/env bash
# restraint.sh: how many requests bot sync and bot serve make of an upstream
# that fails as a whole (issue 28), with the time bot sync takes to give up.
# Each line: the fault, bot sync's exit, its time and requests; then bot
# serve refreshing every 2 s for SERVE_SECONDS (default 30) against a 503.
# Run from the repository's root: bench/restraint.sh
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/bot" ./cmd/bot && go build -o "$dir/up" ./bench/failingupstream || exit 1

upstream() { # upstream MODE: start it, set $u and $upid
  rm -f "$dir/addr"
  "$dir/up" -mode "$1" >"$dir/addr" 2>"$dir/count" &
  upid=$!
  for _ in $(seq 50); do [ -s "$dir/addr" ] && break; sleep 0.1; done
  u=http://$(head -1 "$dir/addr")
}
stopup() { kill -INT "$upid"; wait "$upid" 2>/dev/null; asked=$(tail -1 "$dir/count"); }
env_for() {
  echo BOT_SYNC_URL="$u/enhancements.tar.gz" BOT_RELNOTES_URL="$u/releases" BOT_LIFECYCLE_URL="$u/lifecycle/kubernetes.md" \
    BOT_PATCHES_URL="$u/patches/kubernetes.json" BOT_API_LIFECYCLE_URL="$u/api/archive/refs/tags" \
    BOT_FEATURE_GATES_URL="$u/proxy" BOT_VULNDB_URL="$u/vulndb" BOT_SOURCES_ALLOW_HOSTS=127.0.0.1
}

for mode in 503 429 403 reset hang; do
  upstream "$mode"
  rm -f "$dir/kb.db"
  start=$(date +%s.%N)
  env $(env_for) BOT_DB="$dir/kb.db" timeout -s INT 120 "$dir/bot" sync --timeout 10s >/dev/null 2>&1
  code=$?
  took=$(echo "$(date +%s.%N) - $start" | bc)
  stopup
  printf 'bot sync, %-5s exit %d after %.1fs: %s\n' "$mode" "$code" "$took" "$asked"
done

upstream 503
port=$((20000 + RANDOM % 20000))
env $(env_for) BOT_DB="$dir/serve.db" BOT_HTTP_ADDR=127.0.0.1:$port BOT_REFRESH_INTERVAL=2s BOT_LOG_FORMAT=json \
  SLACK_SIGNING_SECRET=0123456789abcdef0123456789abcdef "$dir/bot" serve </dev/null >/dev/null 2>"$dir/log" &
bot=$!
sleep "${SERVE_SECONDS:-30}"
ready=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")
kill -INT "$bot"; wait "$bot" 2>/dev/null
stopup
echo "bot serve every 2s, 503: /readyz $ready, $(grep -c '"level":"warn"' "$dir/log") warnings: $asked"
