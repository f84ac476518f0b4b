#!/usr/bin/env bash
# The Store's check of the extension, where the repository is not: package it (dist-raycast/), copy it
# to an empty directory, `npm ci` (nothing may be compiled: Raycast loads no native addon), `ray build`,
# `ray lint` (only the checks that need the network may fail: the author lookup and the remote schema),
# and no file of the bundle may name a path of the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/package-raycast.mjs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r dist-raycast "$work/quotabar"
cd "$work/quotabar"
npm ci --no-audit --no-fund --loglevel=error
if find node_modules -name '*.node' -o -name binding.gyp | grep -q .; then
  echo "dist-raycast installs a native addon:" && find node_modules -name '*.node' -o -name binding.gyp && exit 1
fi
npx ray build -e dist -o dist
lint=$(npx ray lint 2>&1 || true)
echo "$lint"
# the two checks that need www.raycast.com; anything else is a finding
problems=$(echo "$lint" | grep -E "^\s+[0-9]+:[0-9]+\s+(error|warning)|^\s+(error|warning)\s" | grep -vE "Invalid author|Failed compiling JSON schema" || true)
if [ -n "$problems" ]; then echo "ray lint found:"; echo "$problems"; exit 1; fi
echo "ray lint: only the checks that need www.raycast.com failed (the author lookup, the remote schema): expected offline"
repo=$(cd "$OLDPWD" && pwd)
[ -d dist ] || { echo "ray build wrote no dist/"; exit 1; }
if grep -rl --include="*.js" -e "$repo" dist; then echo "the bundle names a path of the repository"; exit 1; fi
echo "dist-raycast builds and lints alone"
