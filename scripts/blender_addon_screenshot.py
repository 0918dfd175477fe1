"""The add-on's panel and a baked dye drop in Blender's window, for docs/images.

    PYTHONPATH=build xvfb-run -a -s "-screen 0 1440x1080x24" blender --factory-startup \
        --python-use-system-env -P scripts/blender_addon_screenshot.py -- build/vortonfx_addon.zip OUT.png

Installs the add-on, presses Bake the way the panel's button does (the background bake with the
progress bar), waits for the result, shows the Physics tab and saves a screenshot of the window.
"""
import os
import sys
import tempfile
import time

import bpy

ARGS = sys.argv[sys.argv.index("--") + 1:]
ADDON, OUT = ARGS[0], os.path.abspath(ARGS[1])
FRAMES = 40
started = time.time()


def window_area(kind):
    window = bpy.context.window_manager.windows[0]
    return window, next(a for a in window.screen.areas if a.type == kind)


def press_bake():
    settings = bpy.context.scene.vortonfx
    settings.preset, settings.frames = "dye_drop", FRAMES
    settings.folder = os.path.join(tempfile.mkdtemp(prefix="vfx-shot-"), "bake")
    window, area = window_area("PROPERTIES")
    with bpy.context.temp_override(window=window, screen=window.screen, area=area):
        bpy.ops.vortonfx.bake("INVOKE_DEFAULT")
    bpy.app.timers.register(wait_for_result, first_interval=1.0)


def wait_for_result():
    from vortonfx_addon import objects, operators
    done = operators.running_job() is None and any(o.get(objects.RESULT_TAG) for o in bpy.context.scene.objects)
    if not done:
        if time.time() - started > 120:
            print("blender_addon_screenshot.py: the bake did not finish")
            bpy.ops.wm.quit_blender()
        return 0.5
    arrange()
    bpy.app.timers.register(save, first_interval=6.0)  # let the window redraw
    return None


def arrange():
    scene = bpy.context.scene
    scene.frame_set(FRAMES)
    cube = bpy.data.objects.get("Cube")
    if cube is not None:
        bpy.data.objects.remove(cube)
    points = next(o for o in scene.objects if "vortonfx_tracers" in o)
    bpy.context.view_layer.objects.active = points  # a mesh object: the Physics tab shows
    _, properties = window_area("PROPERTIES")
    properties.spaces[0].context = "PHYSICS"
    _, view = window_area("VIEW_3D")
    view.spaces[0].region_3d.view_location = (0.0, 0.0, 0.6)
    view.spaces[0].region_3d.view_distance = 4.5


def save():
    window, view = window_area("VIEW_3D")
    with bpy.context.temp_override(window=window, screen=window.screen, area=view):
        bpy.ops.screen.screenshot(filepath=OUT)
    print(f"blender_addon_screenshot.py: {OUT}")
    bpy.ops.wm.quit_blender()


bpy.context.preferences.view.show_splash = False
bpy.ops.preferences.addon_install(filepath=ADDON, overwrite=True)
bpy.ops.preferences.addon_enable(module="vortonfx_addon")
bpy.app.timers.register(press_bake, first_interval=2.0)
