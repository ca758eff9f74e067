#!/usr/bin/env bash
# Runs CI (`bash .ci/run`) in a fresh clone of this repository's HEAD while busy loops occupy the
# cores, as on a shared CI runner or a laptop doing other work, and prints how long it took.
# Uncommitted changes are not in the clone: commit first.
#
#   scripts/ci-under-load.sh            # two busy loops (a 2-core machine, fully taken)
#   LOAD_LOOPS=4 scripts/ci-under-load.sh
#   KEEP_CLONE=1 scripts/ci-under-load.sh   # keep the clone and its log for a look afterwards
#
# Exits with CI's own exit code. The loops end with the script, however it ends.
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
loops=${LOAD_LOOPS:-2}
work=$(mktemp -d)
log="$work/ci.log"
busy=()

cleanup() {
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${busy[@]}" 2>/dev/null || true
  if [[ -n "${KEEP_CLONE:-}" ]]; then echo "clone and log kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

git clone -q "$repo" "$work/p"
echo "ci-under-load: $(git -C "$work/p" log -1 --format='%h %s')"
echo "ci-under-load: $loops busy loops on $(nproc) cores; CI output goes to $log"

for _ in $(seq "$loops"); do
  ( while :; do :; done ) &
  busy+=("$!")
done

start=$SECONDS
status=0
(cd "$work/p" && CI=true bash .ci/run) >"$log" 2>&1 || status=$?
elapsed=$((SECONDS - start))

if [[ $status -ne 0 ]]; then
  echo "ci-under-load: CI FAILED (exit $status) after ${elapsed}s; the end of its output:"
  tail -n 60 "$log"
  KEEP_CLONE=1
else
  # turbo's own summary of the test command: tasks and its time.
  grep -E '^\s*(Tasks|Time):' "$log" | head -n 2 || true
fi
printf 'ci-under-load: %s in %dm%02ds with %d busy loops\n' "$([[ $status -eq 0 ]] && echo passed || echo failed)" $((elapsed / 60)) $((elapsed % 60)) "$loops"
exit "$status"
