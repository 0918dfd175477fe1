"""A bake as a job: the simulation is built where the job is made (so bad settings fail at once,
with the module's message naming the key), then stepped and written frame by frame, either in a
worker thread (start: Blender stays responsive, the module releases the GIL while it steps) or in
the calling thread (run: scripts and background mode). Nothing here touches bpy: a worker thread
must not."""
import glob
import os
import threading
from dataclasses import dataclass, field


class BakeSetupError(Exception):
    """The bake cannot start: the module is missing or the scene or settings are bad."""


@dataclass
class BakeRequest:
    folder: str                      # absolute
    frames: int
    dt: float                        # seconds per step
    preset: str = ""                 # a preset name, or
    scene_file: str = ""             # a scene file
    overrides: dict = field(default_factory=dict)  # dotted name -> value, as the runner's --set
    region_counts: dict = field(default_factory=dict)  # "vortons"/"tracers" -> count for every region
    steps_per_frame: int = 1
    voxel_size: float = 0.0
    threads: int = 0
    tracer_points: bool = True


def tracer_frame_path(folder, name, frame):
    """Where the job keeps a frame's tracer positions: beside the frame's OpenVDB points."""
    return os.path.join(folder, "tracers", f"{name}_{frame:04d}.npy")


def remove_frames(folder, name):
    """Deletes an earlier bake of the same scene in the folder, so no stale frame outlives it."""
    for pattern in (f"{name}_[0-9]*.vdb", os.path.join("tracers", f"{name}_[0-9]*.vdb"),
                    os.path.join("tracers", f"{name}_[0-9]*.npy")):
        for path in glob.glob(os.path.join(glob.escape(folder), pattern)):
            os.remove(path)


def _simulation(vortonfx, request):
    try:
        if request.preset:
            sim = vortonfx.Simulation.preset(request.preset, threads=request.threads)
        else:
            sim = vortonfx.Simulation(request.scene_file, threads=request.threads)
        overrides = dict(request.overrides)
        for group, count in request.region_counts.items():
            for index in range(len(sim.scene.get(group, []))):
                overrides[f"{group}.{index}.count"] = count
        for key, value in overrides.items():
            sim.set(key, value)
        sim.reset()  # region counts apply at reset
        return sim
    except ValueError as error:
        raise BakeSetupError(str(error)) from None


class BakeJob:
    def __init__(self, request):
        try:
            import vortonfx
        except ImportError:
            raise BakeSetupError("the vortonfx Python module is not installed (install the vortonfx .deb, "
                                 "or start Blender with --python-use-system-env and PYTHONPATH set)") from None
        self.request = request
        self.sim = _simulation(vortonfx, request)
        self.name = os.path.splitext(os.path.basename(self.sim.path))[0] or "scene"
        self.frames_done = 0
        self.paths = []
        self.error = None
        self._cancel = False
        self._thread = None
        os.makedirs(os.path.join(request.folder, "tracers"), exist_ok=True)
        remove_frames(request.folder, self.name)

    def _progress(self, frame, frames, path):
        if self.request.tracer_points:
            import numpy
            numpy.save(tracer_frame_path(self.request.folder, self.name, frame), self.sim.tracers.position)
        self.paths.append(path)
        self.frames_done = frame
        return not self._cancel

    def run(self):
        """Bakes in the calling thread; errors are kept in self.error."""
        r = self.request
        try:
            self.sim.bake(r.folder, r.frames, dt=r.dt, steps_per_frame=r.steps_per_frame, voxel_size=r.voxel_size,
                          name=self.name, progress=self._progress)
        except Exception as error:  # reported by the caller in Blender's UI
            self.error = error

    def start(self):
        self._thread = threading.Thread(target=self.run, name="vortonfx bake", daemon=True)
        self._thread.start()

    def cancel(self):
        """Stops after the frame being baked; the frames before stay."""
        self._cancel = True

    @property
    def cancelled(self):
        return self._cancel

    @property
    def running(self):
        return self._thread is not None and self._thread.is_alive()

    def wait(self):
        if self._thread is not None:
            self._thread.join()
