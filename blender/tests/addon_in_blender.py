"""Runs inside Blender (blender -b --python-use-system-env -P addon_in_blender.py -- ...), started by
addon_check.py: installs the add-on from its zip, bakes the dye drop through the add-on's operator,
checks the result objects and grids, checks a background bake can be cancelled, renders one frame
with Cycles and prints a summary line `ADDON_CHECK {json}`. Any failed check raises (exit 1)."""
import argparse
import json
import os
import sys
import time

import bpy


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:]
    ap = argparse.ArgumentParser(prog="addon_in_blender.py")
    ap.add_argument("--addon", required=True)
    ap.add_argument("--bake", required=True, help="folder for the frames")
    ap.add_argument("--out", required=True, help="PNG to render")
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--size", default="320x200")
    ap.add_argument("--samples", type=int, default=16)
    return ap.parse_args(argv)


def require(condition, what):
    if not condition:
        raise AssertionError(what)


def bake(settings, frames, **values):
    settings.frames = frames
    for key, value in values.items():
        setattr(settings, key, value)
    started = time.perf_counter()
    require(bpy.ops.vortonfx.bake() == {"FINISHED"}, "the bake operator finished")
    return time.perf_counter() - started


def check_result(scene, frames, tracers):
    volumes = [o for o in scene.objects if o.type == "VOLUME"]
    require(len(volumes) == 1, f"one Volume object after baking again, got {len(volumes)}")
    require(sum(1 for o in scene.objects if o.type == "EMPTY") == 1, "one result root")
    volume = volumes[0]
    require(volume.data.is_sequence and volume.data.frame_duration == frames, "a VDB sequence of every frame")
    from vortonfx_addon import objects
    evaluated = objects.evaluated_volume(volume)
    require(evaluated.grids.is_loaded and not evaluated.grids.error_message,
            f"the frame's grids load: {evaluated.grids.error_message}")
    grids = {g.name: g.data_type for g in evaluated.grids}
    require(grids == {"density": "FLOAT", "velocity": "VECTOR_FLOAT", "vorticity": "FLOAT", "tracers": "FLOAT"},
            f"grids density, velocity, vorticity, tracers; got {grids}")
    shader = volume.active_material.node_tree.nodes["Principled Volume"]
    require(shader.inputs["Density Attribute"].default_value == "tracers", "the dye material reads the tracers grid")
    points = [o for o in scene.objects if "vortonfx_tracers" in o]
    require(len(points) == 1 and len(points[0].data.vertices) == tracers, f"{tracers} tracer points")
    return volume, points[0], grids


def check_cancel(settings):
    """A background bake (the worker thread the panel's Bake starts) stops when cancelled."""
    from vortonfx_addon import baking, operators
    settings.frames, settings.vortons, settings.tracers = 100, 512, 2048
    job = baking.BakeJob(operators._request(bpy.context))
    job.start()
    while job.frames_done < 1 and job.running:
        time.sleep(0.01)
    job.cancel()
    job.wait()
    require(job.error is None and job.cancelled and 1 <= job.frames_done < job.request.frames,
            f"cancelled after {job.frames_done} of {job.request.frames} frames")
    return job.frames_done


def render(scene, volume, args):
    from vortonfx_addon import objects, staging
    scene.frame_set(scene.frame_start + args.frames - 1)
    _, corners = objects.grid_peak_and_corners(volume, "tracers")
    staging.frame_camera(scene, corners)
    staging.ensure_light_and_world(scene)
    width, height = (int(v) for v in args.size.split("x"))
    staging.cycles_settings(scene, width, height, args.samples)
    scene.render.filepath = args.out
    started = time.perf_counter()
    bpy.ops.render.render(write_still=True)
    return time.perf_counter() - started


def main():
    args = parse_args()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_install(filepath=args.addon, overwrite=True)
    bpy.ops.preferences.addon_enable(module="vortonfx_addon")
    scene = bpy.context.scene
    scene.render.fps = 24
    settings = scene.vortonfx
    settings.source, settings.preset, settings.folder = "PRESET", "dye_drop", args.bake
    # A short, small bake first: the real one must replace it.
    bake(settings, 3, vortons=512, tracers=2048, voxel_size=0.06)
    cancelled_after = check_cancel(settings)
    seconds = bake(settings, args.frames, vortons=0, tracers=0, voxel_size=0.03)
    volume, points, grids = check_result(scene, args.frames, 65536)
    frames_on_disk = sorted(f for f in os.listdir(args.bake) if f.endswith(".vdb"))
    require(len(frames_on_disk) == args.frames, f"{args.frames} frames on disk, got {len(frames_on_disk)}")
    render_seconds = render(scene, volume, args)
    summary = {"frames": args.frames, "bake_seconds": round(seconds, 2), "render_seconds": round(render_seconds, 2),
               "grids": sorted(grids), "tracer_points": len(points.data.vertices), "cancelled_after": cancelled_after,
               "size": args.size, "samples": args.samples}
    print("ADDON_CHECK " + json.dumps(summary))


main()
