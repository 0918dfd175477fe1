"""The bake's settings, stored on the scene (scene.vortonfx) so they are saved with the file."""
import bpy

_preset_items = []  # Blender needs the enum items kept alive while it shows them


def preset_items(self, context):
    """The presets the vortonfx module ships (vortonfx.presets()), or one item saying it is missing."""
    global _preset_items
    try:
        import vortonfx
        items = [(p["name"], p["title"], p["description"]) for p in vortonfx.presets() if "error" not in p]
    except ImportError:
        items = []
    _preset_items = items or [("", "(vortonfx module not found)", "Install the vortonfx package or set PYTHONPATH")]
    return _preset_items


class VortonfxSettings(bpy.types.PropertyGroup):
    source: bpy.props.EnumProperty(
        name="Source", items=[("PRESET", "Preset", "A scene that ships with vortonfx"),
                              ("FILE", "Scene File", "A vortonfx scene (.json)")], default="PRESET")
    preset: bpy.props.EnumProperty(name="Preset", items=preset_items,
                                   description="The vortonfx preset to bake (scenes/*.json)")
    scene_file: bpy.props.StringProperty(name="Scene File", subtype="FILE_PATH",
                                         description="A vortonfx scene file (JSON)")
    frames: bpy.props.IntProperty(name="Frames", default=60, min=1, soft_max=1000,
                                  description="Frames to bake, from the scene's start frame at its frame rate")
    steps_per_frame: bpy.props.IntProperty(
        name="Steps per Frame", default=1, min=1, soft_max=8,
        description="Simulation steps per frame (each is sub-stepped further as the flow needs)")
    voxel_size: bpy.props.FloatProperty(
        name="Voxel Size", default=0.03, min=0.0, soft_min=0.005, soft_max=0.2, unit="LENGTH", precision=3,
        description="Voxel size of the baked volumes in metres (0: the simulation's own grid)")
    vortons: bpy.props.IntProperty(
        name="Vortons", default=0, min=0, soft_max=65536,
        description="Vortons in each of the scene's vorton regions (0: as the scene says)")
    tracers: bpy.props.IntProperty(
        name="Tracers", default=0, min=0, soft_max=1048576,
        description="Tracers in each of the scene's tracer regions (0: as the scene says)")
    use_viscosity: bpy.props.BoolProperty(name="Viscosity", default=False,
                                          description="Override the scene's kinematic viscosity")
    viscosity: bpy.props.FloatProperty(name="Viscosity", default=0.001, min=0.0, max=10.0, precision=4,
                                       description="Kinematic viscosity nu, m^2/s")
    threads: bpy.props.IntProperty(name="Threads", default=0, min=0, soft_max=64,
                                   description="Worker threads (0: all cores); the result does not depend on it")
    folder: bpy.props.StringProperty(
        name="Folder", subtype="DIR_PATH", default="//vortonfx_bake/",
        description="Where the VDB frames go (// is the .blend file's folder; Blender's temporary folder "
                    "when the file is not saved)")
    tracer_points: bpy.props.BoolProperty(name="Tracer Points", default=True,
                                          description="Keep the tracers of every frame and show them as points")
    render_points: bpy.props.BoolProperty(name="Render Points", default=False,
                                          description="Render the tracer points too (the dye volume shows "
                                                      "them as smoke either way)")


def register():
    bpy.utils.register_class(VortonfxSettings)
    bpy.types.Scene.vortonfx = bpy.props.PointerProperty(type=VortonfxSettings)


def unregister():
    del bpy.types.Scene.vortonfx
    bpy.utils.unregister_class(VortonfxSettings)
