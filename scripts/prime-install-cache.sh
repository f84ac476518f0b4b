#!/usr/bin/env bash
# Installs the packed quotabar globally once, online, into a throwaway prefix: npm's cache then holds
# every registry answer a global install needs, so test/cli/package.test.ts can repeat it --offline.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm pack --ignore-scripts --pack-destination "$tmp" >/dev/null
npm install --global --no-audit --no-fund --prefix "$tmp/global" "$tmp"/quotabar-*.tgz >/dev/null
echo "npm cache primed for the global-install test"
