#!/usr/bin/env bash
# bench/scan-load.sh BIN [FILES] [DOCS] [ROUNDS]
# `bot scan` as a whole process over a generated corpus of FILES files x DOCS documents (default
# 100 x 100: 10,000 documents of mixed kinds, helm-template style, as ../shared/peers/scan-peers.sh
# makes them), against a database made from the built-in snapshot. Prints each round's wall time,
# user+system CPU and peak resident memory, and their medians. The peer script times pluto on the
# same corpus; this one adds the memory.
set -euo pipefail
bin=$(realpath "${1:?usage: bench/scan-load.sh BIN [FILES] [DOCS] [ROUNDS]}"); files=${2:-100}; docs=${3:-100}; rounds=${4:-5}
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install -y time" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/corpus" "$files" "$docs" <<'PY'
import os, random, sys
out, files, docs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(7)
kinds = [("apps/v1", "Deployment"), ("v1", "Service"), ("v1", "ConfigMap"), ("networking.k8s.io/v1", "Ingress"),
         ("batch/v1", "CronJob"), ("policy/v1", "PodDisruptionBudget"), ("rbac.authorization.k8s.io/v1", "Role"),
         ("extensions/v1beta1", "Ingress"), ("batch/v1beta1", "CronJob"), ("policy/v1beta1", "PodSecurityPolicy"),
         ("autoscaling/v2beta2", "HorizontalPodAutoscaler"), ("flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema"),
         ("storage.k8s.io/v1beta1", "CSIStorageCapacity"), ("cert-manager.io/v1", "Certificate")]
for f in range(files):
    d = os.path.join(out, f"team{f % 10}"); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"app{f:03d}.yaml"), "w") as fh:
        for i in range(docs):
            a, k = rnd.choice(kinds)
            fh.write(f"# Source: app{f:03d}/templates/{k.lower()}-{i}.yaml\n---\napiVersion: {a}\nkind: {k}\n"
                     f"metadata:\n  name: app{f:03d}-{i:03d}\n  namespace: ns{i % 7}\n  labels:\n    app.kubernetes.io/name: app{f:03d}\n"
                     f"spec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n")
PY
"$bin" ask --db "$tmp/k.db" "releases" >/dev/null 2>&1 || true
walls=() cpus=() rss=()
for r in $(seq 1 "$rounds"); do
  set +e
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$bin" scan --to 1.33 --db "$tmp/k.db" "$tmp/corpus" >/dev/null 2>"$tmp/err"
  rc=$?; set -e
  case $rc in 0|4|5) ;; *) echo "bot scan exit $rc: $(tail -1 "$tmp/err")" >&2; exit 1;; esac
  read -r wall user sys kb < <(tail -1 "$tmp/t") # time says "Command exited with non-zero status 5" first
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')
  walls+=("$wall") cpus+=("$cpu") rss+=("$kb")
  awk -v r="$r" -v w="$wall" -v c="$cpu" -v k="$kb" 'BEGIN {printf "round %d: %.0f ms wall, %.0f ms CPU, peak RSS %.0f MiB\n", r, w * 1000, c * 1000, k / 1024}' 
done
python3 -c 'import sys, statistics as s
w, c, m = (list(map(float, a.split())) for a in sys.argv[1:4])
print(f"{len(w)} rounds, {sys.argv[4]} documents: median {s.median(w)*1000:.0f} ms wall, {s.median(c)*1000:.0f} ms CPU, peak RSS {s.median(m)/1024:.0f} MiB")' \
  "${walls[*]}" "${cpus[*]}" "${rss[*]}" "$((files * docs))"
