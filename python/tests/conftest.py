"""Shared fixtures: the built runner and the source tree (from ctest's environment), and small
versions of the presets so every test runs in well under a second."""
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("VFX_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SIM = os.environ.get("VFX_SIM", os.path.join(SOURCE_DIR, "build", "vortonfx-sim"))

# The dye drop with fewer particles: the same physics at a fraction of the cost.
SMALL_DYE_DROP = {"vortons.0.count": 1024, "tracers.0.count": 4096}


def scene_path(name):
    return os.path.join(SOURCE_DIR, "scenes", name + ".json")


def run_sim(*args, check=True):
    """Runs vortonfx-sim quietly; returns the CompletedProcess (text output)."""
    result = subprocess.run([SIM, *args, "--quiet"], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"vortonfx-sim {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def set_flags(overrides):
    flags = []
    for key, value in overrides.items():
        flags += ["--set", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
    return flags


@pytest.fixture
def vortonfx():
    import vortonfx as module
    return module


@pytest.fixture
def small_drop(vortonfx):
    return vortonfx.Simulation(scene_path("dye_drop"), set=SMALL_DYE_DROP)
