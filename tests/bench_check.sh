#!/bin/bash
# The speed table a user prints on their own machine (vortonfx-sim --bench): every table comes out
# with finite numbers, and each row is for the vorton count it says: the heavy drop at the scene's
# 16,384 before any remesh and at more after its first remesh, the growth rows at exactly 4,096,
# 16,384 and 65,536. Timings are for reading, not for passing.
set -u
sim=$1
out=$("$sim" --bench) || { echo "bench_check: --bench failed"; exit 1; }
printf '%s\n' "$out"
fail() { echo "bench_check: $1"; exit 1; }
for table in 'Heavy drop' 'Growth with tracers' 'Growth with vortons' 'Tree velocity on the grid' "author's dye drop"; do
    grep -q "$table" <<< "$out" || fail "no '$table' table"
done
! grep -qiE 'nan|inf' <<< "$out" || fail "a figure is not finite"
grep -qE "^\| scene's count \| 1 \| 16384 \| 6-15 \|" <<< "$out" || fail "the heavy drop's first row is not at 16384 vortons, steps 6-15"
# (one count, or first-last when a second remesh falls inside the measured steps)
after=$(grep -E "^\| after remesh \| 1 \|" <<< "$out" | head -1 | cut -d'|' -f4 | tr -d ' ')
[[ "$after" =~ ^([0-9]+)(-[0-9]+)?$ ]] && ((BASH_REMATCH[1] > 16384)) || fail "the after-remesh row is at '$after' vortons"
for n in 4096 16384 65536; do
    grep -qE "^\| $n \| [0-9.]+ \| [0-9.]+ \|$" <<< "$out" || fail "no growth row at exactly $n vortons"
done
