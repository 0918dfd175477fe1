#!/usr/bin/env bash
# Installs dependencies (if missing), builds Release into build/ and launches the demo on the
# default scene (the dye drop). Extra arguments go to vortonfx, e.g. --scene scenes/two_drops.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target vortonfx vortonfx-sim
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run-demo: no display; running under xvfb-run for 300 frames and saving build/demo.png" >&2
  exec xvfb-run -a -s "-screen 0 1280x800x24" ./build/vortonfx --frames 300 --screenshot build/demo.png --quit "$@"
fi
exec ./build/vortonfx "$@"
