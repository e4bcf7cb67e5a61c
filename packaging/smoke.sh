#!/usr/bin/env bash
# Smoke-test a built bundle the way a user gets it: copied to another folder, with no
# Python, checkout or venv on the path, its own empty home. Runs `plan` on every demo
# shipped inside it, `estate` on the demo estates, `catalog list`, `report`,
# `gui --screenshot` (a plan, and the demo estate's window) and times start-up.
# Usage: packaging/smoke.sh BUNDLE_DIR   (e.g. build/bundle/dist/rto-planner)
set -euo pipefail
SRC="$(cd "$1" && pwd)"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
cp -a "$SRC" "$T/RTO Planner"          # moved, and a space in the path
B="$T/RTO Planner/rto-planner"
export HOME="$T/home" XDG_DATA_HOME="$T/home/share" XDG_CONFIG_HOME="$T/home/config" \
  XDG_STATE_HOME="$T/home/state" RTOPLANNER_DB="$T/store.duckdb" PATH=/usr/bin:/bin
unset PYTHONPATH PYTHONHOME VIRTUAL_ENV
cd "$T"
demos=("$T/RTO Planner/_internal/rtoplanner/data/scenarios/"*.toml)
for demo in "${demos[@]}"; do
  [ "$("$B" plan "$demo" | grep -c "Recovery timeline")" -gt 0 ] || { echo "FAIL plan $demo"; exit 1; }
  echo "ok   plan $(basename "$demo")"
done
for estate in "$T/RTO Planner/_internal/rtoplanner/data/estates/"*.toml; do
  [ "$("$B" estate "$estate" | grep -c "Estate:")" -gt 0 ] || { echo "FAIL estate $estate"; exit 1; }
  echo "ok   estate $(basename "$estate")"
done
[ "$("$B" catalog list | grep -c "tape_drive")" -gt 0 ] && echo "ok   catalog list"
"$B" report "${demos[0]}" -o "$T/plan.pdf" >/dev/null && head -c4 "$T/plan.pdf" | grep -q "%PDF" \
  && echo "ok   report ($(du -k "$T/plan.pdf" | cut -f1) KB)"
"$B" gui --screenshot "$T/window.png" && head -c8 "$T/window.png" | grep -q "PNG" \
  && echo "ok   gui --screenshot"
estate="$T/RTO Planner/_internal/rtoplanner/data/estates/site_loss.toml"
"$B" gui "$estate" --screenshot "$T/estate.png" && head -c8 "$T/estate.png" | grep -q "PNG" \
  && echo "ok   gui ESTATE.toml --screenshot (the Estate window)"
"$B" --version
grep -q "rto-planner gui --screenshot" "$XDG_STATE_HOME/rto-planner/log/rto-planner.log" \
  && echo "ok   log: $(wc -l < "$XDG_STATE_HOME/rto-planner/log/rto-planner.log") lines in \$XDG_STATE_HOME/rto-planner/log/rto-planner.log"
ls "$T/RTO Planner/_internal/licenses/" | tr '\n' ' '; echo "(licences in the bundle)"
echo "size: $(du -sh "$T/RTO Planner" | cut -f1)"
median() {  # median wall time of N runs of a command, in seconds
  local n=$1; shift
  local times=()
  for _ in $(seq "$n"); do
    local s e; s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (n + 1) / 2 ))p"
}
echo "start-up: --version $(median 5 "$B" --version) s;" \
  "plan $(median 5 "$B" plan "${demos[0]}") s;" \
  "gui --screenshot (window with a computed plan) $(median 3 "$B" gui --screenshot "$T/w.png") s" \
  "(medians)"
