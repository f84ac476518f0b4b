#!/usr/bin/env bash
# Installs the packed quotabar globally once, online, into a throwaway prefix: npm's cache then holds
# every registry answer a global install needs, so test/cli/package.test.ts can repeat it --offline.
# --ignore-scripts: only the answers are wanted, not a build of the native addons (a minute and a half).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm pack --silent --ignore-scripts --pack-destination "$tmp" >/dev/null
npm install --global --ignore-scripts --no-audit --no-fund --prefix "$tmp/global" "$tmp"/quotabar-*.tgz >/dev/null
echo "npm cache primed for the global-install test"
