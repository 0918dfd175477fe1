#!/usr/bin/env bash
# Bakes the dye drop to OpenVDB and renders its last frame with Blender's Cycles, headless:
# the end-to-end check that a bake opens in an outside tool.
#   scripts/bake_and_render.sh [OUT.png]     (needs build/vortonfx-sim and Debian's blender)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/images/blender_dye_drop.png}
bake=$(mktemp -d)
trap 'rm -rf "$bake"' EXIT
# 3 s of the fall at dt 0.01, one frame a second, voxels finer than the simulation's grid.
"$root/build/vortonfx-sim" "$root/scenes/dye_drop.json" --steps 300 --vdb "$bake" --vdb-every 100 --vdb-voxel 0.02 --quiet
blender -b --factory-startup -P "$root/scripts/render_blender.py" -- "$bake/dye_drop_0003.vdb" "$out" --samples 64 \
  | grep "render_blender.py"
