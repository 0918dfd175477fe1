"""The vortonfx panel in the Properties editor's Physics tab."""
import bpy

from . import operators


class VORTONFX_PT_bake(bpy.types.Panel):
    bl_label = "vortonfx"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "physics"

    def draw(self, context):
        s = context.scene.vortonfx
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = False
        layout.prop(s, "source", expand=True)
        layout.prop(s, "preset" if s.source == "PRESET" else "scene_file")
        column = layout.column(align=True)
        column.prop(s, "frames")
        column.prop(s, "steps_per_frame")
        layout.prop(s, "voxel_size")
        column = layout.column(align=True)
        column.prop(s, "vortons")
        column.prop(s, "tracers")
        row = layout.row(heading="Viscosity")
        row.prop(s, "use_viscosity", text="")
        row.prop(s, "viscosity", text="")
        layout.prop(s, "threads")
        layout.prop(s, "folder")
        column = layout.column(heading="Tracers")
        column.prop(s, "tracer_points", text="Points")
        column.prop(s, "render_points", text="Render Points")
        job = operators.running_job()
        if job is not None:
            layout.label(text=f"Baking frame {job.frames_done + 1} of {job.request.frames}", icon="TIME")
            layout.operator("vortonfx.cancel", icon="CANCEL")
        else:
            layout.operator("vortonfx.bake", icon="PHYSICS")
        row = layout.row(align=True)
        row.operator("vortonfx.frame_camera", icon="CAMERA_DATA")
        row.operator("vortonfx.clear", icon="TRASH")


def register():
    bpy.utils.register_class(VORTONFX_PT_bake)


def unregister():
    bpy.utils.unregister_class(VORTONFX_PT_bake)
