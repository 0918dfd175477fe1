#!/usr/bin/env python3
"""Keeps the source easy to find one's way in: no source file above 600 lines and no function
body above 80 lines in src/ (a function is a brace block opened by a line whose code ends in a
parameter list, not by a control statement, a lambda or a type).

    python3 tests/layout_check.py SRC_DIR
"""
import os
import re
import sys

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
CONTROL = re.compile(r"^\s*(\}\s*)?(if|for|while|switch|else|do|catch|try)\b")
TYPE = re.compile(r"^\s*(template\s*<.*>\s*)?(struct|class|union|enum|namespace)\b")


def strip_code(line):
    """The line without string literals and // comments."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//", 1)[0]


def opens_function(header):
    code = header.strip()
    if not code.endswith("{") or CONTROL.match(code) or TYPE.match(code):
        return False
    before = code[:-1].rstrip()
    # "...) {", "...) const {", "...) override {", "...) noexcept {", "...) : init(x) {"
    before = re.sub(r"\b(const|override|final|noexcept|mutable)\b", "", before).rstrip()
    if "](" in code or code.startswith("[") or "= [" in code:
        return False  # a lambda
    return before.endswith(")")


def long_functions(path):
    found, depth, start, start_depth, in_block_comment, in_raw = [], 0, None, 0, False, False
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    for number, raw in enumerate(lines, 1):
        line = raw
        if in_raw:  # inside a raw string literal R"( ... )"
            if ')"' not in line:
                continue
            line = '""' + line.split(')"', 1)[1]
            in_raw = False
        line = re.sub(r'R"\((.*?)\)"', '""', line)
        if 'R"(' in line:
            line = line.split('R"(', 1)[0] + '""'
            in_raw = True
        if in_block_comment:
            if "*/" not in line:
                continue
            line = line.split("*/", 1)[1]
            in_block_comment = False
        if "/*" in line and "*/" not in line.split("/*", 1)[1]:
            line = line.split("/*", 1)[0]
            in_block_comment = True
        code = strip_code(line)
        if start is None and opens_function(code):
            start, start_depth = number, depth
        depth += code.count("{") - code.count("}")
        if start is not None and depth <= start_depth:
            length = number - start + 1
            if length > MAX_FUNCTION_LINES:
                found.append((start, length))
            start = None
    return found, len(lines)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
    problems = []
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(root, name)
            functions, count = long_functions(path)
            rel = os.path.relpath(path, src)
            if count > MAX_FILE_LINES:
                problems.append(f"{rel}: {count} lines (at most {MAX_FILE_LINES}: split it by concern)")
            for line, length in functions:
                problems.append(f"{rel}:{line}: function of {length} lines (at most {MAX_FUNCTION_LINES})")
    for p in problems:
        print("layout:", p)
    if not problems:
        print(f"layout: every source file is at most {MAX_FILE_LINES} lines and every function at most "
              f"{MAX_FUNCTION_LINES}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
