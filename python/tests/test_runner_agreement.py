"""The module runs the same simulation as the runner: after the same scene, dt and steps the
arrays are the runner's --dump bit for bit, the stats row has the --stats columns and values,
and a bake holds the same grids as --vdb."""
import csv
import json
import os

import numpy as np
import pytest

from conftest import SMALL_DYE_DROP, run_sim, scene_path, set_flags

VORTON_FIELDS = ["position", "velocity", "vorticity", "density", "radius", "volume", "density_gradient"]


def dump_after(tmp_path, scene, steps, dt, overrides):
    path = tmp_path / "dump.json"
    run_sim(scene_path(scene), "--steps", str(steps), "--dt", repr(dt), "--dump", str(path), *set_flags(overrides))
    with open(path) as f:
        return json.load(f)


@pytest.mark.parametrize("scene,overrides", [
    ("dye_drop", SMALL_DYE_DROP),
    ("sinking_ball", {}),
    ("vortex_ring", {}),
])
def test_arrays_match_the_runners_dump(vortonfx, tmp_path, scene, overrides):
    steps, dt = 4, 0.02
    dump = dump_after(tmp_path, scene, steps, dt, overrides)
    sim = vortonfx.Simulation(scene_path(scene), set=overrides)
    sim.step(dt, steps=steps)
    assert sim.step_count == dump["step"] == steps
    assert sim.time == dump["time"]
    for field in VORTON_FIELDS:
        expected = np.array(dump["vortons"][field], dtype=np.float32)
        assert np.array_equal(getattr(sim.vortons, field), expected.reshape(getattr(sim.vortons, field).shape)), field
    assert np.array_equal(sim.tracers.position, np.array(dump["tracers"]["position"], dtype=np.float32).reshape(-1, 3))
    assert np.array_equal(sim.tracers.density, np.array(dump["tracers"]["density"], dtype=np.float32))
    assert sim.bodies.names == [b["name"] for b in dump["bodies"]]
    for i, body in enumerate(dump["bodies"]):
        assert np.array_equal(sim.bodies.position[i], np.array(body["position"], dtype=np.float32))
        assert np.array_equal(sim.bodies.velocity[i], np.array(body["velocity"], dtype=np.float32))
        assert np.array_equal(sim.bodies.orientation[i], np.array(body["orientation"], dtype=np.float32))


def test_thread_count_does_not_change_the_result(vortonfx):
    one = vortonfx.Simulation(scene_path("dye_drop"), set=SMALL_DYE_DROP, threads=1)
    two = vortonfx.Simulation(scene_path("dye_drop"), set=SMALL_DYE_DROP, threads=2)
    one.step(0.02, steps=3)
    two.step(0.02, steps=3)
    assert np.array_equal(one.vortons.vorticity, two.vortons.vorticity)
    assert np.array_equal(one.tracers.position, two.tracers.position)


def test_stats_row_has_the_runners_columns_and_values(vortonfx, tmp_path):
    path = tmp_path / "stats.csv"
    run_sim(scene_path("sinking_ball"), "--steps", "3", "--dt", "0.02", "--stats", str(path))
    with open(path) as f:
        rows = list(csv.DictReader(f))
    sim = vortonfx.Simulation(scene_path("sinking_ball"))
    sim.step(0.02, steps=3)
    row = sim.stats()
    assert list(row) == list(rows[-1])
    for column, text in rows[-1].items():
        if column.startswith("ms_") or column == "vortonfx_version":
            continue  # timings differ run to run; the version is text
        if column.startswith("energy_change_"):
            assert text == "" and row[column] is None, column  # measured only when asked
            continue
        # The CSV keeps ten significant digits.
        assert float(text) == pytest.approx(row[column], rel=1e-9, abs=1e-300), column
    assert row["vortonfx_version"] == vortonfx.__version__
    phases = sim.timings
    assert list(phases) == [c[3:] for c in row if c.startswith("ms_") and c != "ms_step"]
    assert all(ms >= 0.0 for ms in phases.values())
    assert set(sim.average_timings) == set(phases)



def test_energy_changes_match_the_runners_and_add_up(vortonfx, tmp_path):
    path = tmp_path / "stats.csv"
    run_sim(scene_path("vortex_ring"), "--steps", "6", "--dt", "0.05", "--stats", str(path), "--energy-changes")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    sim = vortonfx.Simulation(scene_path("vortex_ring"))
    start = sim.stats()["field_energy"]
    sim.measure_energy_changes = True
    assert sim.measure_energy_changes
    sim.step(0.05, steps=6)
    row = sim.stats()
    assert sim.remeshes > 0  # so the remesh's column is a measured change too
    changes = [c for c in row if c.startswith("energy_change_")]
    assert len(changes) == 7
    for column in changes:
        assert float(rows[-1][column]) == pytest.approx(row[column], rel=1e-9, abs=1e-12), column
    # Every phase that changes the vortons is counted: the changes add up to the energy's.
    assert sum(row[c] for c in changes) == pytest.approx(row["field_energy"] - start, rel=1e-6, abs=1e-9 * start)

def read_grids(path):
    pyopenvdb = pytest.importorskip("pyopenvdb")
    grids, metadata = pyopenvdb.readAll(str(path))
    out = {}
    for grid in grids:
        lo, hi = grid.evalActiveVoxelBoundingBox()
        shape = tuple(h - l + 1 for l, h in zip(lo, hi))
        values = np.zeros(shape + ((3,) if "Vec3" in type(grid).__name__ else ()), dtype=np.float32)
        grid.copyToArray(values, ijk=lo)
        out[grid.name] = (lo, hi, values)
    return out, metadata


def test_bake_writes_the_runners_frames(vortonfx, tmp_path):
    run_sim(scene_path("dye_drop"), "--steps", "4", "--vdb", str(tmp_path / "runner"), "--vdb-every", "2",
            *set_flags(SMALL_DYE_DROP))
    sim = vortonfx.Simulation(scene_path("dye_drop"), set=SMALL_DYE_DROP)
    calls = []
    paths = sim.bake(str(tmp_path / "module"), 2, steps_per_frame=2,
                     progress=lambda frame, frames, path: calls.append((frame, frames, os.path.basename(path))))
    assert [os.path.basename(p) for p in paths] == ["dye_drop_0001.vdb", "dye_drop_0002.vdb"]
    assert calls == [(1, 2, "dye_drop_0001.vdb"), (2, 2, "dye_drop_0002.vdb")]
    assert sim.step_count == 4
    for name in ("dye_drop_0001.vdb", "dye_drop_0002.vdb"):
        ours, our_meta = read_grids(tmp_path / "module" / name)
        theirs, their_meta = read_grids(tmp_path / "runner" / name)
        assert our_meta == their_meta
        assert sorted(ours) == ["density", "tracers", "velocity", "vorticity"]
        for grid in ours:
            assert ours[grid][:2] == theirs[grid][:2], grid
            assert np.array_equal(ours[grid][2], theirs[grid][2]), grid
        assert (tmp_path / "module" / "tracers" / name).exists()


def test_progress_returning_false_stops_the_bake(vortonfx, tmp_path, small_drop):
    paths = small_drop.bake(str(tmp_path), 5, progress=lambda frame, frames, path: frame < 2)
    assert len(paths) == 2
    assert sorted(os.listdir(tmp_path)) == ["dye_drop_0001.vdb", "dye_drop_0002.vdb", "tracers"]


def test_progress_may_read_the_simulation_but_not_change_it(vortonfx, tmp_path, small_drop):
    seen = []

    def progress(frame, frames, path):
        seen.append((small_drop.step_count, small_drop.tracers.position.copy(), small_drop.stats()["step"]))
        with pytest.raises(RuntimeError, match="may read the simulation, not change it"):
            small_drop.step(0.01)

    small_drop.bake(str(tmp_path), 2, steps_per_frame=3, progress=progress)
    assert [(s[0], s[2]) for s in seen] == [(3, 3), (6, 6)]
    assert np.array_equal(seen[-1][1], small_drop.tracers.position)
