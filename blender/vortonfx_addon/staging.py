"""Putting a baked result in view: the scene's camera aimed at it from the front and a little
above, and a sun and a dark world where the scene has none (an empty scene renders at once)."""
import math

import bpy
from mathutils import Vector

BACKGROUND = (0.02, 0.025, 0.04, 1.0)


def frame_camera(scene, corners):
    """Aims the scene's camera (made if missing) at the box `corners` (eight world points)."""
    centre = sum(corners, Vector()) / len(corners)
    radius = max((c - centre).length for c in corners)
    camera = scene.camera
    if camera is None:
        camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
        scene.collection.objects.link(camera)
        scene.camera = camera
    camera.location = centre + Vector((0.0, -2.4 * radius, 1.1 * radius))
    camera.rotation_euler = (centre - camera.location).to_track_quat("-Z", "Y").to_euler()
    return camera


def ensure_light_and_world(scene):
    """A sun if the scene has no light, and a dark world if it has none."""
    if not any(o.type == "LIGHT" for o in scene.objects):
        sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
        sun.data.energy = 8.0
        sun.rotation_euler = (math.radians(40), math.radians(20), math.radians(30))
        scene.collection.objects.link(sun)
    if scene.world is None:
        world = bpy.data.worlds.new("world")
        world.use_nodes = True
        world.node_tree.nodes["Background"].inputs["Color"].default_value = BACKGROUND
        world.node_tree.nodes["Background"].inputs["Strength"].default_value = 1.0
        scene.world = world


def cycles_settings(scene, width, height, samples):
    """Small, quick Cycles settings on the CPU (Debian's Blender has no OpenImageDenoise)."""
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = False
    scene.cycles.volume_step_rate = 1.0
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
