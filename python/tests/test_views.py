"""The particle and body arrays are read-only NumPy views of the simulation's own memory: no copy,
the Simulation kept alive by them, float32 rows of three packed floats (GLM_FORCE_XYZW_ONLY)."""
import gc

import numpy as np
import pytest

VECTOR_FIELDS = [("vortons", "position"), ("vortons", "velocity"), ("vortons", "vorticity"),
                 ("vortons", "density_gradient"), ("tracers", "position"), ("tracers", "velocity")]
SCALAR_FIELDS = [("vortons", "density"), ("vortons", "radius"), ("vortons", "volume"), ("tracers", "density")]


def owner_of(array):
    while isinstance(array, np.ndarray):
        array = array.base
    return array


@pytest.mark.parametrize("group,field", VECTOR_FIELDS + SCALAR_FIELDS)
def test_views_share_memory_and_are_read_only(small_drop, group, field):
    small_drop.step(0.02)
    first = getattr(getattr(small_drop, group), field)
    second = getattr(getattr(small_drop, group), field)
    assert np.shares_memory(first, second)
    assert first.__array_interface__["data"][0] == second.__array_interface__["data"][0]
    assert not first.flags.owndata and not first.flags.writeable
    assert owner_of(first) is small_drop
    assert first.dtype == np.float32
    if (group, field) in VECTOR_FIELDS:
        assert first.shape == (len(getattr(small_drop, group)), 3)
        assert first.strides == (12, 4) and first.flags.c_contiguous
    else:
        assert first.shape == (len(getattr(small_drop, group)),) and first.strides == (4,)
    with pytest.raises(ValueError):
        first[0] = 0


def test_a_view_keeps_the_simulation_alive(vortonfx):
    sim = vortonfx.Simulation({"tracers": [{"shape": "sphere", "count": 1000}]})
    view = sim.tracers.position
    expected = view.copy()
    del sim
    gc.collect()
    assert np.array_equal(view, expected)


def test_views_follow_the_simulation_until_the_next_step(small_drop):
    small_drop.step(0.05)  # the drop starts at rest: the flow moves the dye from the second step on
    positions = small_drop.tracers.position
    kept = np.array(positions)
    assert np.array_equal(positions, kept)
    small_drop.step(0.05)
    fresh = small_drop.tracers.position
    assert not np.array_equal(fresh, kept)  # the dye has moved
    assert fresh.shape == kept.shape


def test_body_arrays_stride_over_the_bodies(vortonfx):
    sim = vortonfx.Simulation.preset("sinking_ball")
    positions = sim.bodies.position
    assert positions.shape == (2, 3) and not positions.flags.writeable
    assert owner_of(positions) is sim and not positions.flags.owndata
    assert positions.strides[1] == 4 and positions.strides[0] > 12  # rows are whole bodies apart
    assert np.shares_memory(positions, sim.bodies.velocity) is False
    assert sim.bodies.names == ["ball", "tank"]
    assert sim.bodies["ball"]["position"] == pytest.approx(tuple(positions[0]))
    assert sim.bodies[-1]["hole"] is True
    assert sim.bodies.orientation.shape == (2, 4)
    assert sim.bodies.orientation[1] == pytest.approx([1, 0, 0, 0])


def test_empty_views_have_their_shapes(vortonfx):
    sim = vortonfx.Simulation()
    assert sim.vortons.position.shape == (0, 3)
    assert sim.tracers.density.shape == (0,)
    assert sim.bodies.position.shape == (0, 3)
