#!/usr/bin/env bash
# The step of the svc-contract GitHub Action: turns the action's inputs (INPUT_* variables) into
# the command's options and runs the published CLI. The key arrives as SVC_API_KEY and is never
# put on the command line. SVC_CONTRACT_BIN replaces the published CLI (the package's own tests
# run this script against the local build).
set -euo pipefail

if [[ -z "${INPUT_BASE_URL:-}" ]]; then
  echo "svc-contract action: the base-url input is required" >&2
  exit 2
fi
if [[ -z "${SVC_API_KEY:-}" ]]; then
  echo "svc-contract action: the api-key input is required (pass a secret)" >&2
  exit 2
fi

args=(--base-url "$INPUT_BASE_URL" --profile "${INPUT_PROFILE:-full}" --reporter junit,json --output "${INPUT_OUTPUT:-svc-contract-report}")
[[ -n "${INPUT_CONFIG:-}" ]] && args+=(--config "$INPUT_CONFIG")
[[ "${INPUT_ALLOW_WRITES:-false}" == "true" ]] && args+=(--allow-writes)
[[ -n "${INPUT_MAX_SKIPPED:-}" ]] && args+=(--max-skipped "$INPUT_MAX_SKIPPED")
[[ -n "${INPUT_ONLY:-}" ]] && args+=(--only "$INPUT_ONLY")
[[ -n "${INPUT_SHARD:-}" ]] && args+=(--shard "$INPUT_SHARD")

if [[ -n "${SVC_CONTRACT_BIN:-}" ]]; then
  # shellcheck disable=SC2206 # a command and its leading arguments, e.g. "node dist/cli.js"
  bin=($SVC_CONTRACT_BIN)
else
  bin=(npx --yes "@svc/contract@${INPUT_VERSION:-latest}")
fi
exec "${bin[@]}" "${args[@]}"
