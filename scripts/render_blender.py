"""Renders one baked vortonfx frame with Blender's Cycles, headless.

    blender -b --factory-startup -P scripts/render_blender.py -- BAKE/dye_drop_0002.vdb out.png [--grid tracers]

Imports the frame as a Blender volume object, shades the chosen grid (default `tracers`, the dye
the tracers mark; `density` shows the density deviation) with a Principled Volume, lights it and
renders a small image. The import, the Y-up to Z-up turn, the material and the framing are the
Blender add-on's (blender/vortonfx_addon), used here straight from the source tree; the add-on
itself bakes and imports whole sequences.
"""
import argparse
import os
import sys

import bpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blender"))
from vortonfx_addon import objects, staging  # noqa: E402


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    ap = argparse.ArgumentParser(prog="render_blender.py")
    ap.add_argument("vdb", help="a baked frame, e.g. bake/dye_drop_0002.vdb")
    ap.add_argument("out", help="PNG to write")
    ap.add_argument("--grid", default="tracers", help="grid that gives the smoke its density")
    ap.add_argument("--density", type=float, default=0.0,
                    help="density multiplier (default: chosen from the grid's largest value)")
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--size", default="640x400")
    return ap.parse_args(argv)


def main():
    args = parse_args()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    root = objects.make_root(scene, os.path.splitext(os.path.basename(args.vdb))[0])
    volume = objects.add_volume(scene, os.path.abspath(args.vdb), 1, root)
    grids = objects.evaluated_volume(volume).grids
    names = [g.name for g in grids]
    if args.grid not in names:
        raise SystemExit(f"render_blender.py: {args.vdb} has no grid '{args.grid}' (it has {names}; "
                         f"{grids.error_message})")
    density = objects.shade_volume(volume, args.grid)
    if args.density:
        volume.active_material.node_tree.nodes["Principled Volume"].inputs["Density"].default_value = args.density
        density = args.density
    _, corners = objects.grid_peak_and_corners(volume, args.grid)
    staging.frame_camera(scene, corners)
    staging.ensure_light_and_world(scene)
    width, height = (int(v) for v in args.size.split("x"))
    staging.cycles_settings(scene, width, height, args.samples)
    scene.render.filepath = args.out
    bpy.ops.render.render(write_still=True)
    print(f"render_blender.py: {args.out} ({width}x{height}, {args.samples} samples, grid {args.grid}, "
          f"density x{density:.3g})")


main()
