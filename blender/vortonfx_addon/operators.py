"""Bake (in the background with Blender's progress bar, Esc or Cancel stops it; from a script or
in background mode it bakes before returning), Cancel, Frame Camera and Clear."""
import os
import time

import bpy

from . import baking, objects, staging

_job = None  # the bake running in the background, if any


def running_job():
    return _job if _job is not None and _job.running else None


def _request(context):
    s = context.scene.vortonfx
    render = context.scene.render
    fps = render.fps / render.fps_base
    folder = bpy.path.abspath(s.folder)
    if not bpy.data.filepath and s.folder.startswith("//"):  # an unsaved file has no folder of its own
        folder = os.path.join(bpy.app.tempdir or "/tmp", s.folder[2:])
    request = baking.BakeRequest(folder=os.path.abspath(folder), frames=s.frames,
                                 dt=1.0 / fps / s.steps_per_frame, steps_per_frame=s.steps_per_frame,
                                 voxel_size=s.voxel_size, threads=s.threads, tracer_points=s.tracer_points)
    if s.source == "PRESET":
        request.preset = s.preset
    else:
        request.scene_file = bpy.path.abspath(s.scene_file)
    if s.use_viscosity:
        request.overrides["fluid.viscosity"] = s.viscosity
    if s.vortons:
        request.region_counts["vortons"] = s.vortons
    if s.tracers:
        request.region_counts["tracers"] = s.tracers
    return request


class VORTONFX_OT_bake(bpy.types.Operator):
    bl_idname = "vortonfx.bake"
    bl_label = "Bake"
    bl_description = "Simulate the scene and bake it to a VDB sequence; replaces an earlier result"

    _timer = None

    @classmethod
    def poll(cls, context):
        return running_job() is None

    def _start(self, context):
        try:
            self._started = time.perf_counter()
            return baking.BakeJob(_request(context))
        except (baking.BakeSetupError, OSError) as error:
            self.report({"ERROR"}, f"vortonfx: {error}")
            return None

    def execute(self, context):
        job = self._start(context)
        if job is None:
            return {"CANCELLED"}
        job.run()
        return self._finish(context, job)

    def invoke(self, context, event):
        global _job
        if bpy.app.background:
            return self.execute(context)
        _job = self._start(context)
        if _job is None:
            return {"CANCELLED"}
        _job.start()
        wm = context.window_manager
        wm.progress_begin(0, _job.request.frames)
        self._timer = wm.event_timer_add(0.2, window=context.window)
        wm.modal_handler_add(self)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        if event.type == "ESC" and event.value == "PRESS":
            _job.cancel()
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        wm = context.window_manager
        wm.progress_update(_job.frames_done)
        context.workspace.status_text_set(f"vortonfx: baking frame {_job.frames_done + 1} of "
                                          f"{_job.request.frames} (Esc cancels)")
        for area in context.screen.areas:
            if area.type == "PROPERTIES":
                area.tag_redraw()
        if _job.running:
            return {"PASS_THROUGH"}
        wm.event_timer_remove(self._timer)
        wm.progress_end()
        context.workspace.status_text_set(None)
        return self._finish(context, _job)

    def _finish(self, context, job):
        seconds = time.perf_counter() - self._started
        if job.error is not None:
            self.report({"ERROR"}, f"vortonfx: {job.error}")
        if not job.paths:
            return {"CANCELLED"}
        s = context.scene.vortonfx
        objects.build_result(context.scene, job.request.folder, job.name, job.paths, s.tracer_points,
                             s.render_points)
        stopped = " (cancelled)" if job.cancelled else ""
        self.report({"INFO"}, f"vortonfx: baked {len(job.paths)} frames in {seconds:.1f} s{stopped}")
        return {"FINISHED"}


class VORTONFX_OT_cancel(bpy.types.Operator):
    bl_idname = "vortonfx.cancel"
    bl_label = "Cancel"
    bl_description = "Stop the bake after the frame being baked; the frames before it are kept"

    @classmethod
    def poll(cls, context):
        return running_job() is not None

    def execute(self, context):
        running_job().cancel()
        return {"FINISHED"}


def result_volume(scene):
    return next((o for o in scene.objects if o.get(objects.RESULT_TAG) and o.type == "VOLUME"), None)


class VORTONFX_OT_frame_camera(bpy.types.Operator):
    bl_idname = "vortonfx.frame_camera"
    bl_label = "Frame Camera"
    bl_description = ("Aim the scene's camera at the baked dye as it is at the current frame (adds a camera, "
                      "a sun and a world if missing)")

    @classmethod
    def poll(cls, context):
        return result_volume(context.scene) is not None

    def execute(self, context):
        _, corners = objects.grid_peak_and_corners(result_volume(context.scene), "tracers")
        staging.frame_camera(context.scene, corners)
        staging.ensure_light_and_world(context.scene)
        return {"FINISHED"}


class VORTONFX_OT_clear(bpy.types.Operator):
    bl_idname = "vortonfx.clear"
    bl_label = "Clear"
    bl_description = "Remove the baked result from the scene (the files stay)"

    @classmethod
    def poll(cls, context):
        return running_job() is None and any(o.get(objects.RESULT_TAG) for o in context.scene.objects)

    def execute(self, context):
        objects.remove_result(context.scene)
        return {"FINISHED"}


classes = (VORTONFX_OT_bake, VORTONFX_OT_cancel, VORTONFX_OT_frame_camera, VORTONFX_OT_clear)


def register():
    for cls in classes:
        bpy.utils.register_class(cls)


def unregister():
    if running_job() is not None:
        running_job().cancel()
    for cls in reversed(classes):
        bpy.utils.unregister_class(cls)
