#!/usr/bin/env bash
# The step of the svc-contract GitHub Action: installs the suite, turns the action's inputs
# (INPUT_* variables) into the command's options and runs it, then appends the markdown summary
# to the job summary. The key arrives as SVC_API_KEY and is never put on the command line.
#
# Where the suite comes from (the first that applies):
#   INPUT_PACKS    a folder of the tarballs `pnpm release:pack` writes (dist-packs/), installed with npm;
#   INPUT_VERSION  a version of @svc/contract on the npm registry (once it is published);
#   otherwise      the action's own checkout of its repository, packed there the same way.
# SVC_CONTRACT_BIN replaces all three with a command (e.g. "node dist/cli.js").
set -euo pipefail

output="${INPUT_OUTPUT:-svc-contract-report}"

if [[ -z "${INPUT_MERGE:-}" ]]; then
  if [[ -z "${INPUT_BASE_URL:-}" ]]; then
    echo "svc-contract action: the base-url input is required" >&2
    exit 2
  fi
  if [[ -z "${SVC_API_KEY:-}" ]]; then
    echo "svc-contract action: the api-key input is required (pass a secret)" >&2
    exit 2
  fi
fi

# Installs the tarballs of folder $1 once per runner (a stamp of their bytes), prints nothing on stdout.
install_packs() {
  local packs prefix stamp
  packs="$(cd "$1" && pwd)" # absolute: npm reads a relative a/b.tgz as a GitHub repository
  prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/svc-contract-install"
  stamp="$(cat "$packs"/*.tgz | sha256sum | cut -d' ' -f1)"
  if [[ ! -x "$prefix/node_modules/.bin/svc-contract" || "$(cat "$prefix/stamp" 2>/dev/null)" != "$stamp" ]]; then
    mkdir -p "$prefix"
    [[ -f "$prefix/package.json" ]] || echo '{ "private": true }' >"$prefix/package.json"
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "$packs"/*.tgz >&2
    echo "$stamp" >"$prefix/stamp"
  fi
  bin=("$prefix/node_modules/.bin/svc-contract")
}

if [[ -n "${SVC_CONTRACT_BIN:-}" ]]; then
  # shellcheck disable=SC2206 # a command and its leading arguments, e.g. "node dist/cli.js"
  bin=($SVC_CONTRACT_BIN)
elif [[ -n "${INPUT_PACKS:-}" ]]; then
  install_packs "$INPUT_PACKS"
elif [[ -n "${INPUT_VERSION:-}" ]]; then
  bin=(npx --yes "@svc/contract@${INPUT_VERSION}")
else
  # The action lives at packages/contract/action of the repository GitHub checked out for it.
  root="$(cd "${GITHUB_ACTION_PATH:-$(dirname "$0")}/../../.." && pwd)"
  (cd "$root" && corepack enable && pnpm install --frozen-lockfile && pnpm release:pack) >&2
  install_packs "$root/dist-packs"
fi

if [[ -n "${INPUT_MERGE:-}" ]]; then
  # The report folders of the shard jobs: a glob, expanded here (e.g. shards/*).
  # shellcheck disable=SC2206
  dirs=($INPUT_MERGE)
  args=(merge "${dirs[@]}" --reporter junit,json,markdown --output "$output")
else
  args=(--base-url "$INPUT_BASE_URL" --profile "${INPUT_PROFILE:-full}" --reporter junit,json,markdown --output "$output")
  [[ -n "${INPUT_CONFIG:-}" ]] && args+=(--config "$INPUT_CONFIG")
  [[ "${INPUT_ALLOW_WRITES:-false}" == "true" ]] && args+=(--allow-writes)
  [[ -n "${INPUT_MAX_SKIPPED:-}" ]] && args+=(--max-skipped "$INPUT_MAX_SKIPPED")
  [[ -n "${INPUT_ONLY:-}" ]] && args+=(--only "$INPUT_ONLY")
  [[ -n "${INPUT_SHARD:-}" ]] && args+=(--shard "$INPUT_SHARD")
  [[ "${INPUT_SHARED_KEY:-false}" == "true" ]] && args+=(--shared-key)
  [[ "${INPUT_EXPORT_FAILURES:-false}" == "true" ]] && args+=(--export-failures "$output/failures")
fi

status=0
"${bin[@]}" "${args[@]}" || status=$?
# The verdict where GitHub shows it, whatever the outcome (the report exists unless the run could not start).
if [[ -n "${GITHUB_STEP_SUMMARY:-}" && -f "$output/report.md" ]]; then
  cat "$output/report.md" >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
