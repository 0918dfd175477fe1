"""Bad input raises ValueError naming what is at fault, with the runner's own messages where the
runner takes the same input; nothing changes when a call fails."""
import numpy as np
import pytest

from conftest import run_sim, scene_path


def runner_message(*args):
    result = run_sim(*args, check=False)
    assert result.returncode == 2, result.stderr
    prefix = "vortonfx-sim: "
    assert result.stderr.startswith(prefix)
    return result.stderr[len(prefix):].strip()


@pytest.mark.parametrize("key,value,flag", [
    ("fluid.viscosity", -1, "fluid.viscosity=-1"),
    ("fluid.method", "lattice", "fluid.method=lattice"),
    ("vortons.0.count", 0, "vortons.0.count=0"),
    ("fluid.viscosty", 0.1, "fluid.viscosty=0.1"),
    ("fluid.cfl_limit", float("nan"), "fluid.cfl_limit=nan"),
])
def test_overrides_fail_with_the_runners_message(vortonfx, key, value, flag):
    expected = runner_message(scene_path("dye_drop"), "--steps", "1", "--set", flag)
    with pytest.raises(ValueError) as error:
        vortonfx.Simulation(scene_path("dye_drop"), set={key: value})
    assert str(error.value) == expected
    assert key.split(".")[-1] in str(error.value)
    assert isinstance(error.value, vortonfx.SceneError)


def test_set_names_the_key_and_changes_nothing(vortonfx, small_drop):
    before = small_drop.scene
    with pytest.raises(ValueError, match=r"/fluid/viscosity: must be >= 0"):
        small_drop.set("fluid.viscosity", -1)
    with pytest.raises(ValueError, match=r"/vortons/0/radius"):
        small_drop.set("vortons.0.radius", "big")
    with pytest.raises(ValueError, match=r"gravity"):
        small_drop.set("fluid.gravity", [0, 1])
    assert small_drop.scene == before
    assert small_drop.get("fluid.viscosity") == pytest.approx(0.001)


def test_scene_dict_errors_name_the_json_path(vortonfx):
    with pytest.raises(ValueError, match=r"^scene: /vortons/0/count: must be"):
        vortonfx.Simulation({"vortons": [{"shape": "sphere", "count": -5}]})
    with pytest.raises(ValueError, match=r"^scene: /fluid/viscocity: unknown key \(did you mean \"viscosity\"\?\)"):
        vortonfx.Simulation({"fluid": {"viscocity": 0.1}})


def test_missing_scene_file_names_it(vortonfx, tmp_path):
    missing = str(tmp_path / "nope.json")
    with pytest.raises(ValueError) as error:
        vortonfx.Simulation(missing)
    assert str(error.value) == runner_message(missing)


def test_unknown_preset_lists_the_presets(vortonfx):
    with pytest.raises(ValueError, match=r"preset \"dye_dorp\": unknown, expected one of .*dye_drop"):
        vortonfx.Simulation.preset("dye_dorp")


def test_step_and_bake_arguments_are_named(vortonfx, small_drop, tmp_path):
    with pytest.raises(ValueError, match=r"^dt: must be a number > 0"):
        small_drop.step(-0.01)
    with pytest.raises(ValueError, match=r"^dt: "):
        small_drop.step(float("inf"))
    with pytest.raises(ValueError, match=r"^steps: "):
        small_drop.step(0.01, steps=-1)
    with pytest.raises(ValueError, match=r"^frames: "):
        small_drop.bake(str(tmp_path), 0)
    with pytest.raises(ValueError, match=r"^steps_per_frame: "):
        small_drop.bake(str(tmp_path), 1, steps_per_frame=0)
    with pytest.raises(ValueError, match=r"^voxel_size: "):
        small_drop.bake(str(tmp_path), 1, voxel_size=-0.1)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match=r"exists and is not a directory"):
        small_drop.bake(str(blocker), 1)
    with pytest.raises(ValueError, match=r"^threads: "):
        vortonfx.Simulation(threads=-2)
    assert small_drop.step_count == 0


def test_added_particles_and_bodies_are_checked(vortonfx, small_drop):
    with pytest.raises(ValueError, match=r"^radius: must be > 0"):
        small_drop.add_vortons([[0, 1, 0]], radius=-0.1)
    with pytest.raises(ValueError, match=r"^position: must be finite"):
        small_drop.add_tracers([[0, np.nan, 0]])
    with pytest.raises(ValueError, match=r"^position: expected shape \(n, 3\)"):
        small_drop.add_tracers(np.zeros((4, 2)))
    with pytest.raises(ValueError, match=r"^vorticity: expected shape"):
        small_drop.add_vortons(np.zeros((4, 3)), np.zeros((3, 3)), radius=0.1)
    with pytest.raises(ValueError, match=r"/bodies/0/radius: must be >= 0.0001 and <= 10000, got -1"):
        small_drop.add_body({"shape": "sphere", "radius": -1, "position": [3, 0, 0]})
    with pytest.raises(ValueError, match=r"only kinematic bodies"):
        small_drop.add_body({"shape": "sphere", "radius": 0.1, "position": [3, 0, 0]})
        small_drop.move_body(0, position=[3, 1, 0])
    assert len(small_drop.vortons) == 1024 and len(small_drop.tracers) == 4096


def test_non_finite_step_names_step_and_phase(vortonfx):
    # An absurdly strong ring stepped a thousand seconds at a time (the runner's test of exit code 3).
    sim = vortonfx.Simulation({"fluid": {"gravity": [0, 0, 0]},
                               "vortons": [{"shape": "ring", "radius": 0.5, "core_radius": 0.1,
                                            "circulation": 1000000, "count": 200}]})
    with pytest.raises(vortonfx.NonFiniteError) as error:
        sim.step(1000.0, steps=50)
    assert isinstance(error.value, ArithmeticError)
    assert error.value.step >= 1
    assert f'at step {error.value.step} in phase "{error.value.phase}"' in str(error.value)
