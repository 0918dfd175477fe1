#!/usr/bin/env python3
"""The bake read by an independent reader: Debian's pyopenvdb (Python bindings of OpenVDB).

Runs vortonfx-sim --vdb on the dye drop and checks every frame file: the four grids with their
types, one transform at the simulation's voxel size, the density volume carrying the
simulation's mass deviation sum(rho' V) (cloud-in-cell weights sum to one: float rounding only),
the tracer volume holding every tracer, and the frame's step in the metadata.
Run with Debian's own python3 (/usr/bin/python3): that is the interpreter python3-openvdb serves.
"""
import argparse, csv, glob, os, subprocess, sys, tempfile

import pyopenvdb as vdb


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def grid_sum(grid):
    # Active values; a tile stands for many voxels.
    return sum(it.value * it.count for it in grid.citerOnValues())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sim", required=True)
    parser.add_argument("--scene", required=True)
    args = parser.parse_args()
    out = tempfile.mkdtemp(prefix="vfx-pyopenvdb-")
    stats = os.path.join(out, "stats.csv")
    steps, every = 6, 3
    run = subprocess.run([args.sim, args.scene, "--steps", str(steps), "--vdb", out, "--vdb-every", str(every),
                          "--stats", stats, "--every", str(every), "--quiet",
                          "--set", "vortons.0.count=1024", "--set", "tracers.0.count=8192"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"vortonfx-sim exited {run.returncode}: {run.stderr.strip()}")
    rows = list(csv.DictReader(open(stats)))
    files = sorted(glob.glob(os.path.join(out, "*.vdb")))
    scene = os.path.splitext(os.path.basename(args.scene))[0]
    expected = [os.path.join(out, f"{scene}_{k:04d}.vdb") for k in range(1, steps // every + 1)]
    if files != expected:
        fail(f"frame files {files}, expected {expected}")
    for frame, (path, row) in enumerate(zip(files, rows), start=1):
        grids, meta = vdb.readAll(path)
        types = {g.name: type(g).__name__ for g in grids}
        want = {"density": "FloatGrid", "velocity": "Vec3SGrid", "vorticity": "FloatGrid", "tracers": "FloatGrid"}
        if types != want:
            fail(f"{path}: grids {types}, expected {want}")
        by_name = {g.name: g for g in grids}
        sizes = {tuple(round(v, 9) for v in g.transform.voxelSize()) for g in grids}
        if len(sizes) != 1:
            fail(f"{path}: grids do not share one voxel size: {sizes}")
        vx, vy, vz = sizes.pop()
        mass = grid_sum(by_name["density"]) * vx * vy * vz
        mass_sim = float(row["mass_particles"])
        if abs(mass - mass_sim) > 1e-5 * abs(mass_sim):
            fail(f"{path}: density volume holds {mass:.7g} kg, simulation {mass_sim:.7g} kg")
        tracers = grid_sum(by_name["tracers"])
        if abs(tracers - float(row["tracers"])) > 1e-5 * float(row["tracers"]):
            fail(f"{path}: tracer volume holds {tracers:.7g} tracers, simulation {row['tracers']}")
        if int(meta["vortonfx_step"]) != frame * every or int(row["step"]) != frame * every:
            fail(f"{path}: metadata step {meta['vortonfx_step']}, expected {frame * every}")
        if by_name["velocity"].vectorType != vdb.VectorType.CONTRAVARIANT_RELATIVE:
            fail(f"{path}: velocity is not flagged as a velocity vector")
        if not os.path.exists(os.path.join(out, "tracers", os.path.basename(path))):
            fail(f"{path}: no point file beside it")
        print(f"{os.path.basename(path)}: {types}, voxel {vx:.4g} m, mass {mass:.6g} kg (simulation {mass_sim:.6g}), "
              f"{tracers:.0f} tracers")
    print("PASS")


if __name__ == "__main__":
    main()
