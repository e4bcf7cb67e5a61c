#!/usr/bin/env bash
# Build the standalone bundle from a NON-editable install:
#   wheel of this checkout -> a clean venv in $WORK -> PyInstaller with rtoplanner.spec.
# Usage: packaging/build.sh [WORK_DIR]   (default: build/bundle; the bundle lands in
# WORK_DIR/dist/rto-planner). Then: packaging/smoke.sh WORK_DIR/dist/rto-planner
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mkdir -p "${1:-$ROOT/build/bundle}" && cd "${1:-$ROOT/build/bundle}" && pwd)"
PY="${PYTHON:-python3}"

rm -rf "$WORK/wheel" "$WORK/venv" "$WORK/dist" "$WORK/build"
"$PY" -m pip wheel --quiet --no-deps -w "$WORK/wheel" "$ROOT"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet "$WORK"/wheel/rtoplanner-*.whl "pyinstaller>=6.10"
cd "$WORK"   # never import rtoplanner from the checkout
"$WORK/venv/bin/pyinstaller" "$ROOT/packaging/rtoplanner.spec" --noconfirm --log-level WARN \
  --distpath "$WORK/dist" --workpath "$WORK/build"
echo "bundle: $WORK/dist/rto-planner ($(du -sh "$WORK/dist/rto-planner" | cut -f1))"
