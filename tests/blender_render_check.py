#!/usr/bin/env python3
"""End to end into an outside tool: bake the dye drop, render the frame in Blender's Cycles
(headless), and check the picture shows the dye: a lit cloud covering part of the frame, the
background around it."""
import argparse, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from check_demo_screens import read_png  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--blender", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="vfx-blender-")
    subprocess.run([args.sim, os.path.join(args.root, "scenes", "dye_drop.json"), "--steps", "100", "--vdb", tmp,
                    "--vdb-every", "100", "--vdb-voxel", "0.04", "--quiet"], check=True)
    out = os.path.join(tmp, "render.png")
    r = subprocess.run([args.blender, "-b", "--factory-startup", "-P",
                        os.path.join(args.root, "scripts", "render_blender.py"), "--",
                        os.path.join(tmp, "dye_drop_0001.vdb"), out, "--samples", "8", "--size", "320x200"],
                       capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(out):
        print(f"FAIL: blender exited {r.returncode}: {(r.stderr or r.stdout).strip()[-400:]}")
        return 1
    w, h, rows = read_png(out)
    pixels = [sum(p) / 3 for row in rows for p in row]
    background = sum(sum(p) / 3 for p in (rows[0][0], rows[0][-1], rows[-1][0], rows[-1][-1])) / 4
    lit = sum(1 for v in pixels if v > background + 20) / len(pixels)
    peak = max(pixels)
    print(f"{w}x{h}: background {background:.0f}, brightest {peak:.0f}, dye covers {lit:.0%} of the frame")
    if peak < background + 40 or not 0.03 < lit < 0.9:
        print("FAIL: no dye cloud in the render")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
