#!/usr/bin/env bash
# Installs dependencies (if missing), builds Release into build/ and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# VFX_WERROR=ON (as CI sets it) turns compiler warnings into errors; VFX_UNITY=ON compiles the
# sources in batches (a fresh build in about half the time, slower to rebuild after one edit).
unity=()
[ -z "${VFX_UNITY:-}" ] || unity=(-DCMAKE_UNITY_BUILD="$VFX_UNITY")
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVFX_WERROR="${VFX_WERROR:-OFF}" "${unity[@]}"
cmake --build build -j"$(nproc)"
# One test per core: the longest runs are started first (their COST, tests/CMakeLists.txt).
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
