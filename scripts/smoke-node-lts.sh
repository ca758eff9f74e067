#!/usr/bin/env bash
# A smoke run on the newest Node LTS, so that `engines: >=20.19` stays true beyond the machine's
# Node 20: the built packages, the client's runtime tests, and the contract suite (full profile,
# writes allowed) against an embedded sandbox. The build is turbo's: after `pnpm test` (as in CI) a
# cache hit, the same files (tsc and the generators write the same output on any Node), so CI does
# not build twice; on its own it builds on that Node. Node comes from the npm registry's `node` package, the only
# place this machine may download it from. Usage: scripts/smoke-node-lts.sh [node-version-range]
set -euo pipefail
cd "$(dirname "$0")/.."

range="${1:-26}" # Node 26 is the newest LTS line (since October 2026)
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "node@${range}" >/dev/null
export PATH="$prefix/node_modules/.bin:$PATH"
echo "smoke: $(node --version) from the npm registry"

pnpm exec turbo run build --output-logs=errors-only --filter=@svc/api-client... --filter=@svc/contract...
# The client's runtime tests. Its type tests (test/*.test-d.ts, tsc) and its size check read no
# Node API and give the same answer on any Node: `pnpm test` ran them on this machine's Node.
pnpm --filter @svc/api-client exec vitest run --typecheck.enabled=false
node packages/contract/bin/svc-contract.js --allow-writes --rate off --quiet
echo "smoke on Node $(node --version): passed"
