#!/usr/bin/env python3
"""The Blender add-on end to end, headless: Blender installs the add-on from its zip, bakes the dye
drop through it, and the checks inside Blender pass (addon_in_blender.py: the Volume object with
its VDB sequence and grids, the tracer points, baking again replaces, a background bake cancels);
then the Cycles render of the last frame must show the dye (a lit cloud covering part of the
frame, the background around it). The picture is kept at --out.

    addon_check.py --blender blender --addon build/vortonfx_addon.zip --module-dir build --out render.png
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from check_demo_screens import read_png  # noqa: E402


def strip_text_chunks(path):
    """Drops the PNG's text chunks (Blender writes the date and the render time there), so the
    same picture makes the same file and the kept copy changes only when the render does."""
    with open(path, "rb") as f:
        data = f.read()
    out, pos = [data[:8]], 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        end = pos + 12 + length
        if kind not in (b"tEXt", b"zTXt", b"iTXt"):
            out.append(data[pos:end])
        pos = end
    with open(path, "wb") as f:
        f.write(b"".join(out))


def dye_coverage(path):
    w, h, rows = read_png(path)
    pixels = [sum(p) / 3 for row in rows for p in row]
    background = sum(sum(p) / 3 for p in (rows[0][0], rows[0][-1], rows[-1][0], rows[-1][-1])) / 4
    lit = sum(1 for v in pixels if v > background + 20) / len(pixels)
    return w, h, background, max(pixels), lit


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--blender", required=True)
    ap.add_argument("--addon", required=True)
    ap.add_argument("--module-dir", required=True, help="directory holding the built vortonfx module")
    ap.add_argument("--out", required=True)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--size", default="320x200")
    ap.add_argument("--samples", type=int, default=16)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="vfx-blender-addon-")
    try:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.module_dir),
                   BLENDER_USER_SCRIPTS=os.path.join(tmp, "scripts"), BLENDER_USER_CONFIG=os.path.join(tmp, "config"))
        started = time.perf_counter()
        result = subprocess.run([args.blender, "-b", "--factory-startup", "--python-use-system-env",
                                 "--python-exit-code", "1", "-P", os.path.join(HERE, "addon_in_blender.py"), "--",
                                 "--addon", args.addon, "--bake", os.path.join(tmp, "bake"),
                                 "--out", os.path.abspath(args.out), "--frames", str(args.frames),
                                 "--size", args.size, "--samples", str(args.samples)],
                                capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        lines = [line for line in result.stdout.splitlines() if line.startswith("ADDON_CHECK ")]
        if result.returncode != 0 or not lines:
            print(f"FAIL: blender exited {result.returncode}:\n{(result.stdout + result.stderr)[-3000:]}")
            return 1
        summary = json.loads(lines[-1][len("ADDON_CHECK "):])
        strip_text_chunks(args.out)
        w, h, background, peak, lit = dye_coverage(args.out)
        print(f"bake of {summary['frames']} frames {summary['bake_seconds']} s, Cycles render "
              f"{summary['render_seconds']} s ({summary['size']}, {summary['samples']} samples), Blender {wall:.1f} s "
              f"in all; grids {', '.join(summary['grids'])}; {summary['tracer_points']} tracer points; a background "
              f"bake cancelled after {summary['cancelled_after']} frame(s)")
        print(f"{args.out}: {w}x{h}, background {background:.0f}, brightest {peak:.0f}, dye covers {lit:.0%}")
        if peak < background + 40 or not 0.03 < lit < 0.9:
            print("FAIL: no dye cloud in the render")
            return 1
        print("PASS")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
