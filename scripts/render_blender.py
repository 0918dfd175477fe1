"""Renders one baked vortonfx frame with Blender's Cycles, headless.

    blender -b --factory-startup -P scripts/render_blender.py -- BAKE/dye_drop_0002.vdb out.png [--grid tracers]

Imports the frame as a Blender volume object, shades the chosen grid (default `tracers`, the dye
the tracers mark; `density` shows the density deviation) with a Principled Volume, lights it and
renders a small image. vortonfx is Y-up like Houdini; Blender is Z-up, so the volume is turned
a quarter turn about X on import.
"""
import argparse
import math
import sys

import bpy
from mathutils import Vector


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


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return bpy.context.scene


def import_volume(path):
    bpy.ops.object.volume_import(filepath=path, align="WORLD", location=(0, 0, 0))
    volume = bpy.context.active_object
    volume.rotation_euler = (math.pi / 2, 0, 0)  # Y-up (vortonfx) to Z-up (Blender)
    volume.data.grids.load()
    return volume


def grid_extent(volume, grid_name):
    """Largest |value| and the world box (Blender axes) of the grid's active voxels.

    Blender's Python API exposes neither voxel values nor a grid's active box; pyopenvdb does.
    Without it: no peak (the caller picks a default density) and the object's bounding box."""
    try:
        import pyopenvdb
        grid = pyopenvdb.read(bpy.path.abspath(volume.data.filepath), grid_name)
        lo, hi = grid.evalActiveVoxelBoundingBox()
        corners = [grid.transform.indexToWorld((x, y, z)) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                   for z in (lo[2], hi[2])]
        corners = [Vector((x, -z, y)) for x, y, z in corners]  # the quarter turn about X
        return max(abs(v) for v in grid.evalMinMax()), corners
    except Exception:
        return 0.0, [volume.matrix_world @ Vector(c) for c in volume.bound_box]


def smoke_material(grid_name, density):
    material = bpy.data.materials.new("vortonfx dye")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.clear()
    shader = nodes.new("ShaderNodeVolumePrincipled")
    shader.inputs["Color"].default_value = (0.3, 0.55, 1.0, 1.0)
    shader.inputs["Density"].default_value = density
    shader.inputs["Density Attribute"].default_value = grid_name
    output = nodes.new("ShaderNodeOutputMaterial")
    material.node_tree.links.new(shader.outputs["Volume"], output.inputs["Volume"])
    return material


def frame_camera(scene, corners):
    centre = sum(corners, Vector()) / 8.0
    radius = max((c - centre).length for c in corners)
    camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    scene.collection.objects.link(camera)
    camera.location = centre + Vector((0.0, -2.4 * radius, 1.1 * radius))
    camera.rotation_euler = (centre - camera.location).to_track_quat("-Z", "Y").to_euler()
    scene.camera = camera
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 8.0
    sun.rotation_euler = (math.radians(40), math.radians(20), math.radians(30))
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.02, 0.025, 0.04, 1.0)
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 1.0
    scene.world = world


def main():
    args = parse_args()
    scene = empty_scene()
    volume = import_volume(args.vdb)
    names = [g.name for g in volume.data.grids]
    if args.grid not in names:
        raise SystemExit(f"render_blender.py: {args.vdb} has no grid '{args.grid}' (it has {names})")
    peak, corners = grid_extent(volume, args.grid)
    density = args.density or (8.0 / peak if peak > 0 else 1.0)  # the densest voxel stops ~all light over a few voxels
    volume.data.materials.append(smoke_material(args.grid, density))
    frame_camera(scene, corners)
    width, height = (int(v) for v in args.size.split("x"))
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = args.samples
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.cycles.volume_step_rate = 1.0
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.render.filepath = args.out
    scene.render.image_settings.file_format = "PNG"
    bpy.ops.render.render(write_still=True)
    print(f"render_blender.py: {args.out} ({width}x{height}, {args.samples} samples, grid {args.grid}, "
          f"density x{density:.3g})")


main()
