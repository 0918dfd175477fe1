#!/usr/bin/env bash
# Installs the Debian packages vortonfx needs to build, test and run its demo headless, to build
# and test the Python module and the Blender add-on (Debian's blender runs on python3), and clang
# with its runtime libraries for the scene loader's libFuzzer target (scripts/fuzz_scenes.sh).
# Safe to run twice: apt-get skips what is already installed.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config python3
  libtbb-dev libglfw3-dev libglm-dev libimgui-dev python3-glad nlohmann-json3-dev
  libstb-dev libcli11-dev libgtest-dev libbenchmark-dev libopenvdb-dev libfftw3-dev libboost-dev python3-openvdb
  xvfb xauth libgl1-mesa-dri clang-format clang libclang-rt-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib blender)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "setup: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
