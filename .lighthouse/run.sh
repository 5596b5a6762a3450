#!/usr/bin/env bash
# make lighthouse: every page of the lab through Lighthouse's mobile preset
# (its default: a mid-range phone, simulated slow 4G and a 4x slower CPU),
# RUNS times each with a fresh Chromium profile, against bloomlab serve;
# prints the median of each figure. Needs bin/bloomlab, web/app.wasm and
# npm ci here (make lighthouse does all three).
set -euo pipefail
cd "$(dirname "$0")"
port=${PORT:-8090}
runs=${RUNS:-3}
out=$(mktemp -d)
../bin/bloomlab serve --port "$port" --web ../web >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do
	curl -fs "http://localhost:$port/" >/dev/null && break
	sleep 0.2
done
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run"
for page in / /lessons /experiments /calculator /audit /about; do
	for run in $(seq "$runs"); do
		node_modules/.bin/lighthouse "http://localhost:$port$page" --quiet \
			--only-categories=performance,accessibility --output=json \
			--output-path="$out/$(echo "$page" | tr / _)-$run.json" --chrome-flags="$flags"
	done
done
node summary.js "$out"
