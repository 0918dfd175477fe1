#!/usr/bin/env python3
"""Keeps README.md's parameter reference equal to `vortonfx-sim --params-markdown`.

usage: readme_params.py SIM_EXE [--check]
Without --check it rewrites the block between the markers; with --check it exits 1 if stale.
"""
import pathlib, subprocess, sys

BEGIN, END = "<!-- params:begin -->", "<!-- params:end -->"


def main():
    sim, check = sys.argv[1], "--check" in sys.argv[2:]
    readme = pathlib.Path(__file__).resolve().parent.parent / "README.md"
    table = subprocess.run([sim, "--params-markdown"], check=True, capture_output=True, text=True).stdout.strip()
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        print(f"{readme}: markers {BEGIN} ... {END} missing")
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    fresh = f"{head}{BEGIN}\n{table}\n{END}{tail}"
    if fresh == text:
        return 0
    if check:
        print("README.md parameter reference is stale: run python3 scripts/readme_params.py build/vortonfx-sim")
        return 1
    readme.write_text(fresh)
    print("README.md parameter reference updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
