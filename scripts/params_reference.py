#!/usr/bin/env python3
"""Keeps docs/scene_format.md's parameter reference equal to `vortonfx-sim --params-markdown`.

usage: params_reference.py SIM_EXE [--check]
Without --check it rewrites the block between the markers; with --check it exits 1 if stale.
"""
import pathlib, subprocess, sys

BEGIN, END = "<!-- params:begin -->", "<!-- params:end -->"
DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "scene_format.md"


def main():
    sim, check = sys.argv[1], "--check" in sys.argv[2:]
    table = subprocess.run([sim, "--params-markdown"], check=True, capture_output=True, text=True).stdout.strip()
    text = DOC.read_text()
    if BEGIN not in text or END not in text:
        print(f"{DOC}: markers {BEGIN} ... {END} missing")
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    fresh = f"{head}{BEGIN}\n{table}\n{END}{tail}"
    if fresh == text:
        return 0
    if check:
        print(f"{DOC} parameter reference is stale: run python3 scripts/params_reference.py build/vortonfx-sim")
        return 1
    DOC.write_text(fresh)
    print(f"{DOC} parameter reference updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
