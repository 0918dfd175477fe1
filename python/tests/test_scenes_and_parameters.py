"""Scenes from presets, files and dicts; parameters by dotted name, live or at reset; particles
and bodies added between steps; kinematic bodies moved."""
import math

import numpy as np
import pytest

from conftest import scene_path


def test_presets_are_listed_and_load_by_any_name(vortonfx):
    names = [p["name"] for p in vortonfx.presets()]
    assert "dye_drop" in names and "sinking_ball" in names
    for spelling in ("dye_drop", "dye_drop.json", "Dye drop", "DYE DROP"):
        assert vortonfx.Simulation.preset(spelling).name == "Dye drop"
    assert vortonfx.preset_directory().endswith("scenes")


def test_dict_scene_and_set_overrides(vortonfx):
    sim = vortonfx.Simulation({"vortons": [{"shape": "sphere", "count": 300, "density": 0.2}]},
                              set={"fluid.viscosity": 0.01})
    assert len(sim.vortons) == 300
    assert sim.get("fluid.viscosity") == pytest.approx(0.01)
    assert sim.path == "scene"


def test_live_parameter_applies_at_once_and_others_at_reset(vortonfx, small_drop):
    small_drop.set("fluid.viscosity", 0.02)
    assert small_drop.get("fluid.viscosity") == pytest.approx(0.02)
    assert small_drop.parameters()["fluid.viscosity"] == pytest.approx(0.02)
    small_drop.set("vortons.0.count", 512)
    assert len(small_drop.vortons) == 1024  # a region applies at reset()
    assert small_drop.get("vortons.0.count") == 512
    small_drop.set("time.dt", 0.02)
    small_drop.step()
    assert small_drop.time == pytest.approx(0.02)
    small_drop.reset()
    assert len(small_drop.vortons) == 512 and small_drop.step_count == 0 and small_drop.time == 0
    assert small_drop.get("fluid.viscosity") == pytest.approx(0.02)
    with pytest.raises(ValueError, match="vortons.3"):
        small_drop.get("vortons.3.count")


def test_a_quality_level_applies_at_once_and_later_sets_stay(vortonfx, small_drop):
    small_drop.set("fluid.quality", "game")
    assert small_drop.get("fluid.cfl_limit") == pytest.approx(6.0)  # the game level's value
    assert small_drop.get("fluid.max_vortons") == 9000  # its bound on a frame's cost
    small_drop.set("fluid.cfl_limit", 1.5)
    small_drop.step()
    assert small_drop.get("fluid.cfl_limit") == pytest.approx(1.5)
    assert small_drop.get("fluid.strain_limit") == pytest.approx(1.5)


def test_parameter_declarations_are_exposed(vortonfx):
    specs = {p["name"]: p for p in vortonfx.parameters()}
    assert specs["fluid.viscosity"]["unit"] == "m^2/s" and specs["fluid.viscosity"]["live"]
    assert "vpm" in specs["fluid.method"]["choices"]
    assert specs["time.dt"]["default"] == pytest.approx(0.01)


def test_adding_vortons_and_tracers(vortonfx):
    sim = vortonfx.Simulation()
    added = sim.add_vortons(np.array([[0, 0, 0], [0.1, 0, 0]]), [0, 0, 1], radius=0.05, density=[0.1, 0.2])
    assert list(added) == [0, 1]
    assert sim.vortons.radius == pytest.approx([0.05, 0.05])
    assert sim.vortons.volume == pytest.approx([4 / 3 * math.pi * 0.05 ** 3] * 2)
    assert sim.vortons.density == pytest.approx([0.1, 0.2])
    assert list(sim.add_tracers([0.5, 0, 0])) == [0]
    sim.step(0.01)
    assert np.all(np.isfinite(sim.tracers.position))
    # Two parallel vortex blobs push a tracer on their axis's side along y.
    assert sim.tracers.position[0, 1] != 0.0


def test_adding_and_moving_a_kinematic_body(vortonfx, small_drop):
    paddle = {"name": "paddle", "shape": "box", "half_extents": [0.05, 0.3, 0.3], "position": [1.5, 1, 0],
              "motion": "kinematic"}
    assert small_drop.add_body(paddle) == 0
    small_drop.step(0.02)
    assert small_drop.bodies["paddle"]["position"] == pytest.approx((1.5, 1, 0))
    small_drop.move_body("paddle", position=[1.2, 1, 0], velocity=[-1, 0, 0])
    assert small_drop.bodies.position[0] == pytest.approx([1.2, 1, 0])
    small_drop.step(0.02)
    assert small_drop.bodies.position[0] == pytest.approx([1.18, 1, 0], abs=1e-5)
    assert small_drop.bodies.velocity[0] == pytest.approx([-1, 0, 0])
    turn = [math.cos(0.25), 0, math.sin(0.25), 0]
    small_drop.move_body(0, orientation=turn)
    assert small_drop.bodies.orientation[0] == pytest.approx(turn, abs=1e-6)
    small_drop.reset()
    assert len(small_drop.bodies) == 0  # added bodies are not part of the scene


def test_a_body_set_into_the_scene_stays(vortonfx, small_drop):
    small_drop.set("bodies.0", {"name": "post", "shape": "sphere", "radius": 0.1, "position": [2, 0, 0],
                                "motion": "kinematic"})
    small_drop.reset()
    assert small_drop.bodies.names == ["post"]


def test_repr_and_counters(vortonfx, small_drop):
    small_drop.step(0.02, steps=2)
    assert "1024 vortons" in repr(small_drop)
    assert small_drop.step_count == 2 and small_drop.substeps >= 1 and small_drop.last_step_ms > 0
