#!/bin/bash
# vortonfx-sim --bench-frames on a small drop: a row for every quality level with finite figures,
# the per-frame CSV with a column per run and a row per frame, and bad flags refused with one
# message naming the flag. Timings are for reading, not for passing.
set -u
sim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "bench_frames_check: $1"; exit 1; }
out=$("$sim" --bench-frames --bench-vortons 300 --bench-csv "$dir/frames.csv" --threads 2) || fail "--bench-frames failed"
printf '%s\n' "$out"
for level in preview game film; do
    grep -qE "^\| 300 \| $level \|( [-+0-9.%]+ \|){12}$" <<< "$out" || fail "no complete row for $level"
done
! grep -qiE 'nan|inf' <<< "$out" || fail "a figure is not finite"
[[ $(head -1 "$dir/frames.csv") == "frame,preview 300,game 300,film 300" ]] || fail "the CSV header is $(head -1 "$dir/frames.csv")"
(($(wc -l < "$dir/frames.csv") == 301)) || fail "the CSV has $(wc -l < "$dir/frames.csv") lines, not a header and 300 frames"
expect_refused() {  # flags... -- the text the one message must contain
    local msg
    msg=$("$sim" "${@:1:$#-1}" 2>&1 >/dev/null)
    local rc=$?
    ((rc == 2)) || fail "$* exited $rc, not 2"
    grep -qF -- "${!#}" <<< "$msg" || fail "$*: message '$msg'"
    (($(wc -l <<< "$msg") == 1)) || fail "$*: more than one line: $msg"
}
expect_refused --bench-frames --bench-vortons 0 "--bench-vortons: must be a comma-separated list"
expect_refused --bench-frames --bench-vortons 300,x "--bench-vortons: must be a comma-separated list"
expect_refused --bench-vortons 300 "--bench-vortons: only with --bench-frames"
expect_refused --bench-frames --bench-csv "$dir/none/x.csv" "--bench-csv: cannot create a file in"
expect_refused --bench-frames --steps 5 "--bench-frames: runs fixed scenes"
echo "bench_frames_check: ok"
