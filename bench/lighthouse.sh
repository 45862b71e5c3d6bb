#!/usr/bin/env bash
# Lighthouse's audit of `npuzzle serve`'s page with its mobile profile (the default: a phone's
# screen, simulated slow 4G and a 4x slower CPU), run with Debian's chromium on 127.0.0.1.
# Prints the scores of the four categories and writes the full report beside the JSON.
#
#   bash bench/lighthouse.sh [OUT_DIR]       # default OUT_DIR: /tmp/npuzzle-lighthouse
#
# Needs node and npm (Lighthouse is installed once into LH_PREFIX, default
# ~/.cache/npuzzle-lighthouse, pinned to LH_VERSION) and chromium (CHROME_PATH, default
# /usr/bin/chromium). The server runs from this checkout (PYTHONPATH=src) with the table store of
# NPUZZLE_DATA_DIR, if set.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-/tmp/npuzzle-lighthouse}"
prefix="${LH_PREFIX:-$HOME/.cache/npuzzle-lighthouse}"
version="${LH_VERSION:-12.8.2}"
python="${PYTHON:-python}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
mkdir -p "$out"
if [ ! -x "$prefix/node_modules/.bin/lighthouse" ]; then
  npm install --prefix "$prefix" --no-audit --no-fund "lighthouse@$version" >/dev/null
fi
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
PYTHONPATH="$here/src" "$python" -m npuzzle serve --port "$port" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -INT "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
  if "$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=2)" 2>/dev/null; then break; fi
  sleep 0.2
done
"$prefix/node_modules/.bin/lighthouse" "http://127.0.0.1:$port/" --quiet \
  --chrome-flags="--headless=new --no-sandbox --disable-dev-shm-usage --disable-gpu" \
  --output=json --output=html --output-path="$out/report" >/dev/null
"$python" - "$out/report.report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print(f"lighthouse {report['lighthouseVersion']}, {report['configSettings']['formFactor']}, "
      f"{report['environment']['hostUserAgent'].split(') ')[-1]}")
for key, category in report["categories"].items():
    print(f"{category['title']}: {round(category['score'] * 100)}")
    for ref in category["auditRefs"]:
        audit = report["audits"][ref["id"]]
        if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
            print(f"  {ref['id']}: {audit['score']} {audit.get('displayValue', '')}")
PY
