#!/usr/bin/env bash
# The installed package as a user gets it, with no path into the source or build tree:
#   consumer  install into a temporary prefix; build and run examples/embed_minimal.cpp as an
#             outside CMake project (find_package) and with pkg-config; every installed header's
#             includes resolve inside the installed tree
#   programs  run the installed vortonfx-sim on an installed preset from another directory,
#             --version of both programs, and the installed demo (under Xvfb when present)
#             finding its shaders and presets; the installed Python module (when built) with
#             PYTHONPATH, finding the installed presets, and the Blender add-on's zip
# usage: install_check.sh consumer|programs BUILD_DIR SOURCE_DIR
set -euo pipefail
mode=$1 build=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
version=$(sed -n 's/^#define VORTONFX_VERSION "\(.*\)"/\1/p' "$prefix/include/vortonfx/version.hpp")
[ -n "$version" ] || { echo "FAIL: no version in the installed version.hpp"; exit 1; }

if [ "$mode" = consumer ]; then
  for dir in render ui app; do
    [ ! -e "$prefix/include/vortonfx/$dir" ] || { echo "FAIL: $dir headers installed"; exit 1; }
  done
  # Every quoted include of an installed header names another installed header.
  missing=0
  while IFS= read -r header; do
    while IFS= read -r inc; do
      [ -f "$prefix/include/vortonfx/$inc" ] || [ -f "$(dirname "$header")/$inc" ] ||
        { echo "FAIL: $header includes \"$inc\", which is not installed"; missing=1; }
    done < <(sed -n 's/^#include "\(.*\)"/\1/p' "$header")
  done < <(find "$prefix/include/vortonfx" -name '*.hpp')
  [ $missing -eq 0 ]
  # An outside project: its own copy of the example, found through the package only.
  mkdir "$work/consumer"
  cp "$source/examples/CMakeLists.txt" "$source/examples/embed_minimal.cpp" "$work/consumer/"
  cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$work/consumer/build" -j2 >/dev/null
  "$work/consumer/build/embed_minimal"
  # The same program through pkg-config.
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs vortonfx)
  # shellcheck disable=SC2086
  c++ -std=c++17 -O2 "$work/consumer/embed_minimal.cpp" -o "$work/embed_pc" $flags
  LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/embed_pc"  # a shared build in a private prefix
  grep -q "^Version: $version$" "$prefix/lib/pkgconfig/vortonfx.pc"
  echo "PASS: CMake package and pkg-config consumers built and ran against vortonfx $version"
else
  cd "$work"
  "$prefix/bin/vortonfx-sim" --version | grep -qx "vortonfx-sim $version"
  "$prefix/bin/vortonfx-sim" "$prefix/share/vortonfx/scenes/dye_drop.json" --steps 3 --dump dump.json --quiet
  grep -q "\"vortonfx_version\":\"$version\"" dump.json
  if [ -x "$prefix/bin/vortonfx" ]; then
    "$prefix/bin/vortonfx" --version | grep -qx "vortonfx $version"
    if command -v xvfb-run >/dev/null; then
      # No --scene and no --shaders: the default preset and the shaders come from PREFIX/share.
      xvfb-run -a -s "-screen 0 1280x800x24" "$prefix/bin/vortonfx" --frames 2 --screenshot shot.png --quit
      [ -s shot.png ] || { echo "FAIL: the installed demo saved no screenshot"; exit 1; }
    fi
  fi
  # The Python module (when built): from PREFIX/lib/python3/dist-packages, finding PREFIX/share.
  if compgen -G "$prefix/lib/python3/dist-packages/vortonfx*.so" >/dev/null; then
    PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c "
import vortonfx
assert vortonfx.__file__.startswith('$prefix/'), vortonfx.__file__
assert vortonfx.preset_directory() == '$prefix/share/vortonfx/scenes', vortonfx.preset_directory()
assert vortonfx.__version__ == '$version'
s = vortonfx.Simulation.preset('dye_drop'); s.step(1/30); assert s.tracers.position.shape == (65536, 3)"
    [ -s "$prefix/share/vortonfx/blender/vortonfx_addon.zip" ] || { echo "FAIL: no Blender add-on installed"; exit 1; }
  fi
  echo "PASS: installed programs ran from $work on installed presets (vortonfx $version)"
fi
