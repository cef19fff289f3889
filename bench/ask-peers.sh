#!/usr/bin/env bash
# bench/ask-peers.sh BIN [QUESTION] [LINES] [ROUNDS]
# `bot ask --json -` (one question a line on stdin, one JSON answer a line out) beside its
# ceiling, bench/peers/askbare (reads the lines, writes kepbot's own answer bytes for each:
# no reading of the question, no lookup, no encoding). Both run on CPU 1 with stdin from a
# file and stdout to /dev/null; rounds alternate which goes first. Prints questions/s for
# each (kepbot's time includes opening the database), the per-round ratios and their median.
set -euo pipefail
bin=$(realpath "$1"); q=${2:-"kep 4639"}; lines=${3:-200000}; rounds=${4:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
srv="taskset -c 1"; [ "$(nproc)" -ge 2 ] || srv=""
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/bare" ./bench/peers/askbare)
export BOT_DB="$tmp/bot.db"
awk -v q="$q" -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) print q }' >"$tmp/in"
echo "$q" | "$bin" ask --json - 2>/dev/null >"$tmp/reply.json"
echo "kepbot's answer: $(wc -c <"$tmp/reply.json") bytes a line; the bare reader writes the same bytes"
declare -A qps
run() { # run NAME CMD...: questions/s of CMD over the lines
  local t0 t1; t0=$(date +%s.%N); $srv "${@:2}" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" || { echo "$1 failed:"; tail -3 "$tmp/err"; exit 1; }
  t1=$(date +%s.%N)
  [ "$(wc -l <"$tmp/out")" = "$lines" ] || { echo "$1 answered $(wc -l <"$tmp/out") of $lines lines"; exit 1; }
  qps[$1]+="$(echo "$lines $t0 $t1" | awk '{printf "%.0f", $1 / ($3 - $2)}') "
}
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then run kepbot "$bin" ask --json -; run bare env REPLY_FILE="$tmp/reply.json" "$tmp/bare"
  else run bare env REPLY_FILE="$tmp/reply.json" "$tmp/bare"; run kepbot "$bin" ask --json -; fi
done
med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for n in kepbot bare; do printf '%-7s questions/s: %s(median %s)\n' "$n" "${qps[$n]}" "$(med "${qps[$n]}")"; done
rc=$(paste -d' ' <(printf '%s\n' ${qps[kepbot]}) <(printf '%s\n' ${qps[bare]}) | awk '{printf "%.3f ", $1 / $2}')
echo "per-round kepbot/bare: $rc"
printf 'ratio kepbot/bare: %.3f\n' "$(med "$rc")"
