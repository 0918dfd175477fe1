"""The baked result in a Blender scene: an Empty that turns vortonfx's Y-up into Blender's Z-up
(a quarter turn about X), the Volume object reading the VDB frames with a dye material, and the
tracers as a point cloud (a vertex mesh shown as points by a Geometry Nodes modifier) that a
frame-change handler fills from each frame's saved positions. Also used on its own by
scripts/render_blender.py to render one baked frame."""
import math
import os

import bpy
from bpy.app.handlers import persistent
from mathutils import Vector

RESULT_TAG = "vortonfx_result"  # custom property marking every object a bake made
GRIDS = ("density", "velocity", "vorticity", "tracers")
DYE_COLOUR = (0.3, 0.55, 1.0, 1.0)
# The densest voxel stops nearly all light within a few voxels: density multiplier = this / peak.
OPACITY_AT_PEAK = 8.0


def remove_result(scene):
    """Deletes the objects of an earlier bake (and their volume and mesh data) from the scene."""
    for obj in [o for o in scene.objects if o.get(RESULT_TAG)]:
        data = obj.data
        bpy.data.objects.remove(obj)
        if isinstance(data, bpy.types.Volume) and data.users == 0:
            bpy.data.volumes.remove(data)
        elif isinstance(data, bpy.types.Mesh) and data.users == 0:
            bpy.data.meshes.remove(data)


def _link(scene, obj, parent):
    scene.collection.objects.link(obj)
    obj[RESULT_TAG] = True
    if parent is not None:
        obj.parent = parent
    return obj


def make_root(scene, name):
    """An Empty at the origin turned a quarter turn about X: its children are in vortonfx's axes."""
    root = _link(scene, bpy.data.objects.new(f"vortonfx {name}", None), None)
    root.empty_display_type = "ARROWS"
    root.empty_display_size = 0.25
    root.rotation_euler = (math.pi / 2, 0.0, 0.0)  # Y-up (vortonfx) to Z-up (Blender)
    return root


def add_volume(scene, first_frame, frames, parent, frame_start=1):
    """A Volume object reading first_frame (…_0001.vdb) and, with frames > 1, the sequence after it."""
    name = os.path.splitext(os.path.basename(first_frame))[0].rsplit("_", 1)[0]
    volume = bpy.data.volumes.new(f"vortonfx {name}")
    volume.filepath = first_frame
    if frames > 1:
        volume.is_sequence = True
        volume.frame_duration = frames
        volume.frame_start = frame_start
        volume.frame_offset = 0
        volume.sequence_mode = "EXTEND"
    # No grids.load() here: the original datablock is not evaluated for a frame, so it would load
    # the sequence's frame 0, and the evaluated copies inherit that failed load. Read the grids of
    # evaluated_volume() instead.
    return _link(scene, bpy.data.objects.new(f"vortonfx {name} volume", volume), parent)


def evaluated_volume(volume_object):
    """The volume as the scene's current frame evaluates it: its grids are that frame's file."""
    return volume_object.evaluated_get(bpy.context.evaluated_depsgraph_get()).data


def dye_material(grid="tracers", density=1.0):
    """A Principled Volume whose density is the grid (the dye the tracers mark) times `density`."""
    material = bpy.data.materials.new("vortonfx dye")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.clear()
    shader = nodes.new("ShaderNodeVolumePrincipled")
    shader.inputs["Color"].default_value = DYE_COLOUR
    shader.inputs["Density"].default_value = density
    shader.inputs["Density Attribute"].default_value = grid
    output = nodes.new("ShaderNodeOutputMaterial")
    material.node_tree.links.new(shader.outputs["Volume"], output.inputs["Volume"])
    return material


def grid_peak_and_corners(volume_object, grid, path=None):
    """Largest |value| of a grid in one of the volume's files (default: the current frame's) and
    the eight world corners (Blender axes) of its active voxels. Blender's API exposes neither;
    pyopenvdb (Debian's python3-openvdb) does. Without it: no peak (0) and the bounding box."""
    bpy.context.view_layer.update()
    world = volume_object.matrix_world
    try:
        import pyopenvdb
        path = bpy.path.abspath(path or evaluated_volume(volume_object).grids.frame_filepath)
        vdb = pyopenvdb.read(path, grid)
        lo, hi = vdb.evalActiveVoxelBoundingBox()
        corners = [world @ Vector(vdb.transform.indexToWorld((x, y, z)))
                   for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
        return max(abs(v) for v in vdb.evalMinMax()), corners
    except Exception:
        return 0.0, [world @ Vector(c) for c in volume_object.bound_box]


def shade_volume(volume_object, grid="tracers", path=None):
    """Gives the volume a dye material scaled to the grid's peak in `path` (default: the current
    frame); returns the density multiplier. One multiplier serves the whole sequence: the dye is
    conserved, so where it gathers it grows denser."""
    peak, _ = grid_peak_and_corners(volume_object, grid, path)
    density = OPACITY_AT_PEAK / peak if peak > 0 else 1.0
    volume_object.data.materials.clear()
    volume_object.data.materials.append(dye_material(grid, density))
    return density


def _points_modifier(obj, radius):
    group = bpy.data.node_groups.new("vortonfx tracer points", "GeometryNodeTree")
    group.inputs.new("NodeSocketGeometry", "Geometry")
    group.outputs.new("NodeSocketGeometry", "Geometry")
    nodes, links = group.nodes, group.links
    source, sink = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
    to_points = nodes.new("GeometryNodeMeshToPoints")
    to_points.inputs["Radius"].default_value = radius
    material = nodes.new("GeometryNodeSetMaterial")
    points_material = bpy.data.materials.new("vortonfx tracers")
    points_material.diffuse_color = (0.75, 0.85, 1.0, 1.0)
    material.inputs["Material"].default_value = points_material
    links.new(source.outputs["Geometry"], to_points.inputs["Mesh"])
    links.new(to_points.outputs["Points"], material.inputs["Geometry"])
    links.new(material.outputs["Geometry"], sink.inputs["Geometry"])
    modifier = obj.modifiers.new("vortonfx points", "NODES")
    modifier.node_group = group


def add_tracer_points(scene, folder, name, frames, parent, frame_start=1, radius=0.004, render=False):
    """A point cloud of the tracers, refilled from folder/tracers/<name>_NNNN.npy on every frame change."""
    obj = _link(scene, bpy.data.objects.new(f"vortonfx {name} tracers", bpy.data.meshes.new(f"vortonfx {name}")),
                parent)
    obj["vortonfx_tracers"] = os.path.join(folder, "tracers", name)
    obj["vortonfx_frames"] = frames
    obj["vortonfx_frame_start"] = frame_start
    obj.hide_render = not render
    _points_modifier(obj, radius)
    load_tracer_frame(obj, scene.frame_current)
    return obj


def load_tracer_frame(obj, scene_frame):
    """Fills the point mesh with the tracers of the baked frame shown at scene_frame (held at the ends)."""
    import numpy
    frame = min(max(scene_frame - obj["vortonfx_frame_start"] + 1, 1), obj["vortonfx_frames"])
    path = f"{obj['vortonfx_tracers']}_{frame:04d}.npy"
    if not os.path.exists(path):
        return
    positions = numpy.load(path).astype(numpy.float32).reshape(-1)
    mesh = obj.data
    if len(mesh.vertices) != len(positions) // 3:
        mesh.clear_geometry()
        mesh.vertices.add(len(positions) // 3)
    mesh.vertices.foreach_set("co", positions)
    mesh.update()


@persistent
def _on_frame_change(scene, *args):
    for obj in scene.objects:
        if "vortonfx_tracers" in obj:
            load_tracer_frame(obj, scene.frame_current)


def register_handlers():
    if _on_frame_change not in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.append(_on_frame_change)


def unregister_handlers():
    if _on_frame_change in bpy.app.handlers.frame_change_pre:
        bpy.app.handlers.frame_change_pre.remove(_on_frame_change)


def build_result(scene, job_folder, name, frame_paths, tracer_points, render_points=False):
    """The whole result of a bake: replaces any earlier one; returns the Volume object."""
    remove_result(scene)
    root = make_root(scene, name)
    volume = add_volume(scene, frame_paths[0], len(frame_paths), root, scene.frame_start)
    shade_volume(volume, path=frame_paths[0])  # scaled to the dye as it starts
    if tracer_points:
        add_tracer_points(scene, job_folder, name, len(frame_paths), root, scene.frame_start, render=render_points)
    return volume
