#!/usr/bin/env python3
"""What a step costs from Python against the same step in C++.

    PYTHONPATH=build /usr/bin/python3 scripts/python_step_cost.py [--sim build/vortonfx-sim] [--steps 60]

Runs the dye drop at dt 1/30 s (one frame a step) in the runner (its --stats ms_step: the time
inside Simulation::step) and from Python (wall clock around each sim.step() call: the binding,
the GIL hand-over and the step), alternately, three times each, and prints the medians. Both
run the same library on the same thread count and compute the same bits.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time

import vortonfx

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def runner_ms(sim, scene, steps, dt, threads):
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.csv")
        subprocess.run([sim, scene, "--steps", str(steps), "--dt", repr(dt), "--threads", str(threads),
                        "--stats", stats, "--quiet"], check=True)
        with open(stats) as f:
            return [float(row["ms_step"]) for row in csv.DictReader(f)]


def python_ms(scene, steps, dt, threads):
    sim = vortonfx.Simulation(scene, threads=threads)
    wall, inside = [], []
    for _ in range(steps):
        started = time.perf_counter()
        sim.step(dt)
        wall.append((time.perf_counter() - started) * 1000.0)
        inside.append(sim.last_step_ms)
    return wall, inside


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default=os.path.join(ROOT, "build", "vortonfx-sim"))
    ap.add_argument("--scene", default=os.path.join(ROOT, "scenes", "dye_drop.json"))
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--dt", type=float, default=1.0 / 30.0)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    cpp, py_wall, py_inside = [], [], []
    for _ in range(args.repeats):
        cpp.append(statistics.median(runner_ms(args.sim, args.scene, args.steps, args.dt, args.threads)))
        wall, inside = python_ms(args.scene, args.steps, args.dt, args.threads)
        py_wall.append(statistics.median(wall))
        py_inside.append(statistics.median(inside))
    c, w, i = statistics.median(cpp), statistics.median(py_wall), statistics.median(py_inside)
    print(f"{os.path.basename(args.scene)}, {args.steps} steps of {args.dt:.4g} s, {args.threads} threads, "
          f"median of {args.repeats} runs of per-step medians:")
    print(f"  C++ runner (ms_step)            {c:8.3f} ms")
    print(f"  Python, inside step()           {i:8.3f} ms")
    print(f"  Python, wall around sim.step()  {w:8.3f} ms   ({(w / c - 1.0) * 100.0:+.1f}% against C++)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
