#!/usr/bin/env bash
# Fuzzes the scene loader for a bounded time: builds the libFuzzer target with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer in BUILD_DIR (default build-fuzz), replays the
# seeds, then mutates them for SECONDS (default 60). A crash, a leak, an uncaught exception, an
# input slower than 10 s or one using more than 2 GB fails it; libFuzzer saves the input as
# BUILD_DIR/crash-* (or leak-*, timeout-*, oom-*) to replay with: BUILD_DIR/vortonfx_scene_fuzzer FILE
# SEED (default 0: a new one each run) fixes the mutation sequence, so a failure seen in CI
# recurs when the same seed runs on the same code.
# usage: scripts/fuzz_scenes.sh [SECONDS] [BUILD_DIR] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
build=${2:-build-fuzz}
seed=${3:-0}
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVFX_SANITIZE=address -DVFX_FUZZ=ON \
  -DVFX_BUILD_TESTS=OFF -DVFX_BUILD_DEMO=OFF -DVFX_BUILD_BENCH=OFF -DVFX_WERROR="${VFX_WERROR:-OFF}" -DCMAKE_UNITY_BUILD="${VFX_UNITY:-OFF}" >/dev/null
cmake --build "$build" -j2 --target vortonfx_scene_fuzzer
ctest --test-dir "$build" --output-on-failure -R Fuzz
# The fuzzer adds what it finds to the first directory: a scratch copy, so the seeds stay as they are.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/fuzz_corpus/*.json scenes/*.json "$work"/
cd "$build"
ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1" \
  ./vortonfx_scene_fuzzer -max_total_time="$seconds" -seed="$seed" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -dict="$root/tests/fuzz/scene.dict" \
    -print_final_stats=1 "$work"
