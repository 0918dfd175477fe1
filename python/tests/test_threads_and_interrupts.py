"""The GIL is released while the simulation steps and bakes: other Python threads run meanwhile,
and cannot touch the simulation that is stepping. Ctrl-C stops a bake between steps and leaves
only whole frames."""
import os
import signal
import threading
import time

import pytest

from conftest import scene_path


def test_another_thread_runs_while_a_step_runs(vortonfx):
    sim = vortonfx.Simulation.preset("dye_drop", threads=1)  # 4,096 vortons, 65,536 tracers: ~20 ms a step
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    worker = threading.Thread(target=count)
    worker.start()
    try:
        time.sleep(0.01)
        before = counter[0]
        started = time.perf_counter()
        sim.step(0.01, steps=5)
        elapsed = time.perf_counter() - started
        during = counter[0] - before
    finally:
        stop.set()
        worker.join()
    # Holding the GIL through step() would leave the counter where it was for the whole call.
    assert elapsed > 0.02
    assert during > 1000, f"the other thread counted {during} in {elapsed * 1000:.0f} ms of stepping"


def test_the_simulation_refuses_other_threads_while_it_steps(vortonfx):
    sim = vortonfx.Simulation.preset("dye_drop", threads=1)
    errors = []
    running = threading.Event()

    def step():
        running.set()
        sim.step(0.01, steps=20)

    worker = threading.Thread(target=step)
    worker.start()
    running.wait()
    deadline = time.monotonic() + 5.0
    while worker.is_alive() and not errors and time.monotonic() < deadline:
        try:
            sim.tracers.position
        except RuntimeError as error:
            errors.append(str(error))
    worker.join()
    assert errors and "stepping in another thread" in errors[0]
    assert sim.step_count == 20
    assert sim.tracers.position.shape == (65536, 3)


def test_ctrl_c_stops_a_bake_between_steps(vortonfx, tmp_path):
    sim = vortonfx.Simulation(scene_path("dye_drop"), set={"vortons.0.count": 1024, "tracers.0.count": 4096})
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.bake(str(tmp_path), 100000)
    elapsed = time.perf_counter() - started
    timer.join()
    assert elapsed < 5.0
    frames = sorted(f for f in os.listdir(tmp_path) if f.endswith(".vdb"))
    assert frames, "some frames were written before the interrupt"
    assert frames == [f"dye_drop_{i:04d}.vdb" for i in range(1, len(frames) + 1)]
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".")], "no half-written frame is left"
    sim.step(0.01)  # still usable
