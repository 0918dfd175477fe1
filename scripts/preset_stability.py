#!/usr/bin/env python3
"""Every preset at every quality level, for many frames: does it stay finite, and how fast does it get?

    python3 scripts/preset_stability.py [--sim build/vortonfx-sim] [--steps 3000] [--levels custom,preview,game,film]
                                        [--threads 2] [--markdown]

Runs each scene of scenes/ at each level, once at its own step and once at 1/30 s (a game's
frame), through the runner, with a stats row every 50 steps. A run passes when the runner
finishes all its steps (a flow that leaves the finite numbers stops it with an error) and its
peak speed stays below 25 m/s, the bound the author's heavy drop keeps (docs/method.md). Prints
one row per run: peak speed, vortons at the end, wall seconds; exits 1 if any run fails. The film
level at 1/30 s takes 8 sub-steps a frame, so a sweep of every level takes about an hour on one
thread, three quarters of it the film level.
"""
import argparse
import csv
import glob
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PEAK_SPEED_BOUND = 25.0  # m/s
FRAME_STEP = 1.0 / 30.0  # s
STATS_EVERY = 50  # steps between stats rows


def run(sim, scene, level, dt, steps, threads):
    """Runs one scene; returns (finished, peak speed m/s, vortons at the end, seconds, message)."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.csv")
        command = [sim, scene, "--set", "fluid.quality=" + level, "--steps", str(steps), "--threads",
                   str(threads), "--stats", stats, "--every", str(STATS_EVERY), "--quiet"]
        if dt is not None:
            command += ["--dt", repr(dt)]
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.monotonic() - started
        # The runner writes the stats file only for a run that finished; a run it stopped leaves
        # its rows beside it as .failed.
        table = stats if os.path.exists(stats) else stats + ".failed"
        rows = []
        if os.path.exists(table):
            with open(table) as f:
                rows = list(csv.DictReader(f))
        peak = max((float(r["max_speed"]) for r in rows), default=float("nan"))
        vortons = int(rows[-1]["vortons"]) if rows else 0
        lines = done.stderr.strip().splitlines()
        message = f"exit {done.returncode}" + (": " + lines[-1] if lines else "")
        return done.returncode == 0, peak, vortons, seconds, message


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sim", default=os.path.join(ROOT, "build", "vortonfx-sim"))
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--levels", default="custom,preview,game,film")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    if args.steps < STATS_EVERY:
        parser.error(f"--steps must be at least {STATS_EVERY}, the steps between stats rows")
    if not os.access(args.sim, os.X_OK):
        parser.error(f"--sim {args.sim}: no such program (build it first)")
    levels = [level.strip() for level in args.levels.split(",")]
    scenes = sorted(glob.glob(os.path.join(ROOT, "scenes", "*.json")))
    failures = 0
    if args.markdown:
        print("| level | preset | step | peak m/s | vortons at the end | seconds | result |")
        print("| --- | --- | --- | ---: | ---: | ---: | --- |")
    for level in levels:
        for scene in scenes:
            name = os.path.splitext(os.path.basename(scene))[0]
            for dt, label in ((None, "own"), (FRAME_STEP, "1/30")):
                finished, peak, vortons, seconds, message = run(args.sim, scene, level, dt, args.steps, args.threads)
                ok = finished and peak < PEAK_SPEED_BOUND
                failures += 0 if ok else 1
                verdict = "ok" if ok else "FAILED (" + message + ")"
                if args.markdown:
                    print(f"| {level} | {name} | {label} | {peak:.2f} | {vortons} | {seconds:.0f} | {verdict} |",
                          flush=True)
                else:
                    print(f"{level:8s} {name:16s} {label:5s} peak {peak:6.2f} m/s  vortons {vortons:6d}  "
                          f"{seconds:6.0f} s  {verdict}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
