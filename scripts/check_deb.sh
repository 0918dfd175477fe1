#!/usr/bin/env bash
# Builds the .deb from a portable build (no -march=native: a package runs on other machines),
# installs it with apt-get (as root), and uses it as a user would: the programs from another
# directory on an installed preset, and an outside CMake project that finds the package.
# Removes the package afterwards.
#   bash scripts/check_deb.sh [PACKAGE_BUILD_DIR]   (default build-package)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_arg=${1:-$root/build-package}
# The directory is configured for packaging (portable, no tests): never turn a development build
# into one.
if [ -f "$build_arg/CMakeCache.txt" ] && grep -qE '^(VFX_NATIVE:BOOL=ON|VFX_BUILD_TESTS:BOOL=ON)' "$build_arg/CMakeCache.txt"; then
  echo "check_deb.sh: $build_arg is a development build (native or with tests); give a directory for the package build (default build-package)" >&2
  exit 2
fi
# VFX_PACKAGE_SHARED=ON packs shared libraries instead of static ones.
cmake -S "$root" -B "$build_arg" -DCMAKE_BUILD_TYPE=Release -DVFX_NATIVE=OFF -DVFX_BUILD_TESTS=OFF \
  -DVFX_BUILD_BENCH=OFF -DVFX_WERROR="${VFX_WERROR:-OFF}" -DBUILD_SHARED_LIBS="${VFX_PACKAGE_SHARED:-OFF}" \
  -DCMAKE_UNITY_BUILD="${VFX_UNITY:-OFF}" >/dev/null
cmake --build "$build_arg" -j2
build=$(cd "$build_arg" && pwd)
rm -f "$build"/vortonfx_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls "$build"/vortonfx_*.deb | head -n 1)
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null
trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq vortonfx >/dev/null; rm -rf "$work"' EXIT
work=$(mktemp -d)
cd "$work"
vortonfx-sim --version
vortonfx --version
vortonfx-sim /usr/share/vortonfx/scenes/dye_drop.json --steps 3 --quiet
if command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x800x24" vortonfx --frames 2 --screenshot shot.png --quit >/dev/null
  [ -s shot.png ] || { echo "FAIL: the installed demo saved no screenshot"; exit 1; }
fi
# The Python module in Debian's dist-packages, for Debian's python3 (and so Debian's Blender),
# finding the installed presets; and the Blender add-on's zip.
/usr/bin/python3 -c "import vortonfx; s = vortonfx.Simulation.preset('dye_drop'); s.step(1/30); print(s.tracers.position.shape)"
[ -s /usr/share/vortonfx/blender/vortonfx_addon.zip ] || { echo "FAIL: the package has no Blender add-on"; exit 1; }
cp "$root/examples/CMakeLists.txt" "$root/examples/embed_minimal.cpp" "$work/"
cmake -S "$work" -B "$work/build" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/embed_minimal"
echo "PASS: $(basename "$deb") installs, runs from $work and serves a CMake consumer"
