"""vortonfx for Blender: bake a vortex-particle fluid into a VDB volume sequence.

Properties > Physics > vortonfx: pick a preset or a scene file, set the frames, the voxel size
and a few key parameters, and Bake. The bake runs in the background (Blender's progress bar;
Esc cancels) through the `vortonfx` Python module, and the result appears as a Volume object
with the VDB sequence (grids density, velocity, vorticity and tracers) and a dye material, plus
the tracers as a point cloud. Baking again replaces the result.
"""

bl_info = {
    "name": "vortonfx",
    "author": "vortonfx",
    "version": (0, 2, 0),
    "blender": (3, 4, 0),
    "location": "Properties > Physics > vortonfx",
    "description": "Bake a vortonfx vortex-particle fluid to a VDB volume sequence with tracer points",
    "category": "Physics",
}

if "bpy" in locals():  # reloaded by Blender (F3 > Reload Scripts): pick up edited modules
    import importlib
    for _module in (settings, objects, staging, baking, operators, panel):  # noqa: F821
        importlib.reload(_module)

import bpy  # noqa: E402,F401

from . import baking, objects, operators, panel, settings, staging  # noqa: E402,F401

_modules = (settings, operators, panel)


def register():
    for module in _modules:
        module.register()
    objects.register_handlers()


def unregister():
    objects.unregister_handlers()
    for module in reversed(_modules):
        module.unregister()
