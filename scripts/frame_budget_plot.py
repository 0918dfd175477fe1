#!/usr/bin/env python3
"""What each quality level costs a game frame by frame: runs `vortonfx-sim --bench-frames` (the
author's dye drop, 300 frames of 1/30 s per level at 2,176 and 17,256 vortons), prints its table
and plots ms per frame over the 300 frames, one panel per vorton count, one curve per level
(docs/images/frame_cost_by_level.png).

    python3 scripts/frame_budget_plot.py build/vortonfx-sim [out.png] [--threads N] [--csv FILE]

With --csv it plots a table an earlier `--bench-frames --bench-csv FILE` wrote instead of running it.
"""
import argparse, csv, os, subprocess, tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="ms per frame of each quality level, as a PNG")
    parser.add_argument("sim")
    parser.add_argument("png", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "docs", "images",
                                                               "frame_cost_by_level.png"))
    parser.add_argument("--threads", default="2")
    parser.add_argument("--csv", help="plot this --bench-csv table instead of running the bench")
    options = parser.parse_args()
    sim, png, threads = options.sim, options.png, options.threads
    table = options.csv
    if not table:
        table = os.path.join(tempfile.mkdtemp(prefix="vfx-frames-"), "frames.csv")
        subprocess.run([sim, "--bench-frames", "--bench-csv", table, "--threads", threads], check=True)
    rows = list(csv.DictReader(open(table)))
    runs = [name for name in rows[0] if name != "frame"]
    counts = sorted({name.split()[1] for name in runs}, key=int)
    fig, axes = plt.subplots(1, len(counts), figsize=(6 * len(counts), 4), squeeze=False)
    frames = [int(r["frame"]) for r in rows]
    for axis, count in zip(axes[0], counts):
        for name in runs:
            level, n = name.split()
            if n == count:
                axis.plot(frames, [float(r[name]) for r in rows], label=level, linewidth=0.8)
        axis.set_yscale("log")
        axis.set_xlabel("frame (1/30 s each)")
        axis.set_ylabel("ms per frame")
        axis.set_title(f"author's dye drop, {int(count):,} vortons, {threads} threads")
        axis.legend()
        axis.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    print("wrote", png)


if __name__ == "__main__":
    main()
