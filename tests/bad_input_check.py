#!/usr/bin/env python3
"""Bad input never crashes, hangs or loses a file: vortonfx-sim against a corpus of damaged scenes.

Every case runs vortonfx-sim once and checks its exit code (2 bad input, 3 non-finite, 4 a write
failed), that its message is one line naming the key or path at fault, that it took less than
--seconds of wall time and less than --megabytes of peak resident memory, and where outputs are
involved that earlier files are unchanged and no temporary file is left behind. The cases are the
small scenes in tests/fuzz_corpus/ (each must have a case here), inputs made here (nesting
70,000 deep, a file past the size limit, /dev/zero, a pipe, 1,000 polytope planes, 64 regions of
16.7 million particles), clashing and unwritable output paths, a full disk (a file-size limit),
and --mutants scenes made by damaging the presets at random (fixed seed): those must load or be
refused with one message, within the same limits.

usage: bad_input_check.py --sim EXE --corpus DIR --scenes DIR [--seconds S] [--megabytes M] [--mutants N]
"""
import argparse, json, math, os, random, resource, shutil, signal, stat, subprocess, sys, tempfile, threading, time


class Run:
    def __init__(self, code, output, seconds, megabytes):
        self.code, self.output, self.seconds, self.megabytes = code, output, seconds, megabytes


def run_sim(sim, args, cwd, file_size_limit=None):
    """Runs the program; returns its exit code (negative: killed by that signal), output, wall time
    and peak resident memory (from wait4, for this child alone)."""
    def limits():
        if file_size_limit is not None:  # a full disk: writes past the limit fail with EFBIG
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        p = subprocess.Popen([sim] + args, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             preexec_fn=limits)
        killer = threading.Timer(60.0, p.kill)  # a hang still ends (and fails on time)
        killer.start()
        _, status, usage = os.wait4(p.pid, 0)
        killer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return Run(p.returncode, text, seconds, usage.ru_maxrss / 1024.0)


class Checker:
    def __init__(self, args, work):
        self.args, self.work, self.failures, self.count = args, work, [], 0

    def check(self, name, run, code, fragments=(), extra=None):
        """Records a failure unless the run exited `code` with one line holding every fragment,
        within the time and memory limits; `extra` returns further problems ("" when none)."""
        self.count += 1
        problems = []
        if run.code != code:
            problems.append(f"exit {run.code}, expected {code}")
        lines = [l for l in run.output.splitlines() if l.strip()]
        if code == 2 and len(lines) != 1:
            problems.append(f"{len(lines)} lines of output, expected one")
        if code in (2, 4) and not any(l.startswith("vortonfx-sim: ") for l in lines):
            problems.append("no line starting 'vortonfx-sim: '")
        for f in fragments:
            if f not in run.output:
                problems.append(f"no '{f}' in the message")
        if run.seconds > self.args.seconds:
            problems.append(f"took {run.seconds:.2f} s, limit {self.args.seconds} s")
        if run.megabytes > self.args.megabytes:
            problems.append(f"peaked at {run.megabytes:.0f} MB, limit {self.args.megabytes} MB")
        if extra:
            more = extra()
            if more:
                problems.append(more)
        first = lines[0] if lines else ""
        status = "ok  " if not problems else "FAIL"
        print(f"{status} {name}: exit {run.code}, {run.seconds:.2f} s, {run.megabytes:.0f} MB: {first[:300]}")
        for p in problems:
            print(f"     {p}")
        if problems:
            self.failures.append(name)

    def sim(self, args, **kw):
        return run_sim(self.args.sim, args, self.work, **kw)


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


def leftovers(directory):
    """Hidden temporary files an output left behind."""
    return [n for n in os.listdir(directory) if n.startswith(".")]


# --- the corpus: small damaged scenes, each with what its message must name ---------------------------

CORPUS = {
    "overflow_double.json": ["line 1, column 30", "/fluid/viscosity: must be >= 0 and <= 10, got 1e309",
                             "beyond double precision"],
    "overflow_double_in_vector.json": ["/vortons/0/center/1: each component must be >= -10000", "-1e400"],
    "overflow_float.json": ["/fluid/gravity: each component must be >= -1000 and <= 1000"],
    "underflow_float_dt.json": ["/time/dt: must be > 0 and <= 1, got 1e-50", "too small for single precision"],
    "underflow_double_dt.json": ["/time/dt: must be > 0 and <= 1, got 1e-400", "too small for double precision"],
    "underflow_float_radius.json": ["/vortons/0/radius: must be >= 0.0001"],
    "underflow_float_circulation.json": ["/vortons/0/circulation:", "too small for single precision"],
    "centre_beyond_world.json": ["/vortons/0/center: each component must be >= -10000 and <= 10000"],
    "centre_beyond_1e30.json": ["/tracers/0/center: each component must be >= -10000 and <= 10000, got [1e+31"],
    "box_beyond_world.json": ["/vortons/0/max: each component must be >= -10000 and <= 10000"],
    "plane_beyond_world.json": ["/bodies/0/planes: element 5: each number must be >= -10000"],
    "vorton_radius_too_small.json": ["/vortons/0/vorton_radius: must be 0 (automatic) or >= 0.0001"],
    "count_too_large.json": ["/vortons/0/count: must be > 0 and <= 16777216"],
    "count_fractional.json": ["/vortons/0/count: must be a whole number"],
    "seed_negative.json": ["/vortons/0/seed: must be >= 0"],
    "body_names_same_column.json": ["/bodies/1/name: must give a stats column of its own", "body_a_b_x"],
    "body_names_differ_in_case.json": ["/bodies/1/name: must give a stats column of its own", "body_ball_x"],
    "duplicate_key.json": ["/vortons/1/count: duplicate key"],
    "truncated.json": ["line 2, column 1: malformed JSON"],
    "trailing_comma.json": ["line 4, column 3: malformed JSON"],
    "nan_literal.json": ["line 1, column 25: malformed JSON"],
    "empty.json": ["line 1, column 1: malformed JSON"],
    "invalid_utf8.json": ["malformed JSON", "\\xE9"],
    "not_an_object.json": ["/: a scene must be a JSON object"],
    "unknown_key.json": ["/fluid/viscosityy: unknown key", "did you mean \"viscosity\""],
    "wrong_type.json": ["/fluid/gravity: must be 3 finite numbers"],
    "nested_object_as_vector.json": ["/fluid/gravity: must be 3 finite numbers"],
    "polytope_open.json": ["/bodies/0/planes: planes do not bound a finite region"],
    "polytope_empty.json": ["/bodies/0/planes: planes bound an empty or flat region"],
    "polytope_coplanar_vertices.json": ["/bodies/0/vertices: vertices are coplanar"],
    "ring_core_too_thick.json": ["/vortons/0/core_radius: must be < radius"],
    "control_characters_in_key.json": ["/fluid/a\\nb\\u001b[31m: unknown key"],
    # The fuzzer reads a first line "--set PATH=VALUE" as an override (this one's value is not UTF-8);
    # as a scene file it is not JSON.
    "set_value_not_utf8.json": ["line 1, column 2: malformed JSON"],
}


def check_corpus(c):
    files = sorted(n for n in os.listdir(c.args.corpus) if n.endswith(".json"))
    for name in sorted(set(files) ^ set(CORPUS)):
        c.failures.append(f"corpus file {name}: " + ("no case for it" if name in files else "missing"))
    for name in files:
        if name not in CORPUS:
            continue
        path = os.path.join(c.args.corpus, name)
        run = c.sim([path, "--steps", "0", "--quiet"])
        c.check(f"corpus/{name}", run, 2, [path + ": "] + CORPUS[name])


# --- inputs made here ----------------------------------------------------------------------------------

def sphere_points(n):
    """n points spread evenly over the unit sphere (a Fibonacci lattice)."""
    points = []
    for i in range(n):
        y = 1 - 2 * (i + 0.5) / n
        r = math.sqrt(max(0.0, 1 - y * y))
        t = i * 2.399963229728653
        points.append([round(r * math.cos(t), 6), round(y, 6), round(r * math.sin(t), 6)])
    return points


def check_made_inputs(c):
    w = c.work
    deep = write(os.path.join(w, "deep_array.json"), "[" * 70000 + "]" * 70000)
    c.check("nesting 70,000 deep (arrays)", c.sim([deep, "--quiet"]), 2,
            [deep + ": line 1, column 65: arrays and objects nest deeper than 64 levels"])
    deep = write(os.path.join(w, "deep_object.json"), '{"fluid": {"gravity": ' + '{"a": ' * 70000 + "1" + "}" * 70002)
    c.check("nesting 70,000 deep (objects under a key)", c.sim([deep, "--quiet"]), 2, ["nest deeper than 64 levels"])
    scene = write(os.path.join(w, "small.json"), '{"time": {"steps": 3}, "vortons": [{"count": 64}]}')
    c.check("nesting 60,000 deep through --set", c.sim([scene, "--set", "fluid.gravity=" + "[" * 60000 + "]" * 60000]),
            2, ["--set fluid.gravity=[[[", "nest deeper than 64 levels"])
    c.check("--set path 100 elements long", c.sim([scene, "--set", ".".join(["a"] * 100) + "=1"]), 2,
            ["--set a.a.a", "more than 64 elements"])
    c.check("--set value beyond double precision", c.sim([scene, "--set", "fluid.viscosity=1e400"]), 2,
            ["--set fluid.viscosity=1e400: /fluid/viscosity: must be >= 0 and <= 10, got 1e400"])
    c.check("--set value not UTF-8", c.sim([scene, "--set", b"bodies.0.name=ab\xbe\xbe"]), 2,
            ["--set bodies.0.name=ab\\xBE\\xBE: byte 17 is not UTF-8"])
    key = write(os.path.join(w, "long_key.json"), json.dumps({"fluid": {"k" * 4000000: 1}}))
    c.check("a key 4 million characters long", c.sim([key, "--quiet"]), 2,
            ["/fluid/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...: unknown key"])
    big = os.path.join(w, "big.json")
    with open(big, "wb") as f:
        f.truncate(9 << 20)  # a sparse file past the 8 MB limit
    c.check("a 9 MB scene file", c.sim([big, "--quiet"]), 2, [big + ": is 9 MB, more than the 8 MB"])
    c.check("/dev/zero as the scene", c.sim(["/dev/zero", "--quiet"]), 2, ["/dev/zero: is not a regular file"])
    fifo = os.path.join(w, "pipe.json")
    os.mkfifo(fifo)
    c.check("a named pipe as the scene", c.sim([fifo, "--quiet"]), 2, [fifo + ": is not a regular file"])
    c.check("a directory as the scene", c.sim([w, "--quiet"]), 2, [w + ": is a directory"])

    def polytope(name, key, values):
        return write(os.path.join(w, name), json.dumps(
            {"time": {"steps": 1}, "bodies": [{"shape": "polytope", key: values}],
             "vortons": [{"count": 64, "center": [5, 0, 0]}]}))
    planes = [p + [1.0] for p in sphere_points(1000)]
    c.check("a polytope of 1,000 planes", c.sim([polytope("planes1000.json", "planes", planes), "--quiet"]), 2,
            ["/bodies/0/planes: must have at most 512 elements, got 1000"])
    planes = [p + [1.0] for p in sphere_points(512)]
    c.check("a polytope of 512 planes runs", c.sim([polytope("planes512.json", "planes", planes), "--quiet"]), 0)
    c.check("a polytope of 256 vertices runs",
            c.sim([polytope("vertices256.json", "vertices", sphere_points(256)), "--quiet"]), 0)
    regions = [{"count": 16777216, "center": [3.0 * i, 0, 0], "radius": 1} for i in range(64)]
    many = write(os.path.join(w, "many.json"), json.dumps({"vortons": regions}))
    c.check("64 regions of 16.7 million vortons", c.sim([many, "--quiet"]), 2,
            [many + ": /vortons/0/count: this scene needs about", "the limit is"])
    for layout in ("random", "lattice"):  # a thousand tries and more per particle: refused at once
        thin = write(os.path.join(w, f"thin_ring_{layout}.json"), json.dumps({"vortons": [
            {"shape": "ring", "radius": 1000, "core_radius": 0.0001, "axis": [1, 1, 1], "count": 1000000,
             "layout": layout}]}))
        c.check(f"a thin ring of a million vortons, {layout}", c.sim([thin, "--steps", "0", "--quiet"]), 2,
                [thin + ": /vortons/0: the region fills", "too thin to place particles in"])
    one = write(os.path.join(w, "one_million.json"), '{"vortons": [{"count": 1000000}]}')
    c.check("--max-memory below the estimate", c.sim([one, "--max-memory", "0.1", "--quiet"]), 2,
            ["/vortons/0/count: this scene needs about", "the limit is 100 MB, set by --max-memory"])
    c.check("--dt 1e-50", c.sim([scene, "--dt", "1e-50", "--quiet"]), 2,
            ["--dt: must be a number > 0", "too small for single precision"])
    c.check("--threads past 1024", c.sim([scene, "--threads", "2147483648", "--quiet"]), 2,
            ["--threads: must be a whole number from 1 to 1024"])


# --- outputs -------------------------------------------------------------------------------------------

def check_output_paths(c):
    w = os.path.join(c.work, "out")
    os.makedirs(w)
    scene = write(os.path.join(w, "tiny.json"), '{"time": {"steps": 3}, "vortons": [{"count": 64}]}')
    scene_text = open(scene).read()
    dump, stats = os.path.join(w, "dump.json"), os.path.join(w, "stats.csv")
    c.check("--dump and --stats name one file", c.sim([scene, "--dump", dump, "--stats", w + "/./dump.json"]),
            2, ["--dump and --stats: both name"], lambda: "a file was written" if os.path.exists(dump) else "")
    c.check("--dump names the scene", c.sim([scene, "--dump", scene]), 2, ["--dump: \"" + scene + "\" is the scene file"],
            lambda: "the scene changed" if open(scene).read() != scene_text else "")
    c.check("--stats names the scene by another spelling", c.sim([scene, "--stats", w + "/../out/tiny.json"]), 2,
            ["is the scene file itself"], lambda: "the scene changed" if open(scene).read() != scene_text else "")
    for flag in ("--dump", "--stats"):
        c.check(f"{flag} \"\"", c.sim([scene, flag, ""]), 2, [f"{flag}: expected a file name, got an empty path"])
    c.check("--vdb \"\"", c.sim([scene, "--vdb", ""]), 2, ["--vdb: expected a directory"])
    c.check("--dump /proc/x", c.sim([scene, "--dump", "/proc/x"]), 2, ["--dump: cannot create a file in \"/proc\""])
    c.check("--dump a directory", c.sim([scene, "--dump", w]), 2, ["--dump: \"" + w + "\" is a directory"])
    c.check("--stats /dev/null", c.sim([scene, "--stats", "/dev/null"]), 2, ["--stats: \"/dev/null\" is not a regular"])
    c.check("--dump in a missing directory", c.sim([scene, "--dump", os.path.join(w, "no", "d.json")]), 2,
            ["--dump: directory"])
    c.check("outputs left no temporary files", Run(0, "", 0, 0), 0, [],
            lambda: f"left {leftovers(w)}" if leftovers(w) else "")


def check_failed_runs_keep_files(c):
    w = os.path.join(c.work, "keep")
    os.makedirs(w)
    dump, stats = os.path.join(w, "dump.json"), os.path.join(w, "stats.csv")

    def earlier():
        write(dump, "EARLIER DUMP\n")
        write(stats, "EARLIER STATS\n")

    def unchanged():
        problems = []
        if open(dump).read() != "EARLIER DUMP\n":
            problems.append("the earlier dump changed")
        if open(stats).read() != "EARLIER STATS\n":
            problems.append("the earlier stats changed")
        if leftovers(w):
            problems.append(f"left {leftovers(w)}")
        return "; ".join(problems)

    boom = write(os.path.join(w, "boom.json"), json.dumps({"fluid": {"gravity": [0, 0, 0]}, "vortons": [
        {"shape": "ring", "radius": 0.5, "core_radius": 0.1, "circulation": 1000000, "count": 200}]}))
    earlier()
    c.check("a non-finite run", c.sim([boom, "--steps", "50", "--dt", "1000", "--quiet", "--dump", dump, "--stats", stats]),
            3, ["non-finite value at step", stats + ".failed"],
            lambda: unchanged() or ("" if os.path.exists(stats + ".failed") else "no stats.csv.failed"))
    os.remove(stats + ".failed")
    scene = write(os.path.join(w, "tracers.json"),
                  '{"vortons": [{"count": 500}], "tracers": [{"count": 20000}], "bodies": [{"name": "b", "radius": 0.1, "position": [3, 0, 0]}]}')
    earlier()
    c.check("a full disk while writing the dump", c.sim([scene, "--steps", "2", "--quiet", "--dump", dump, "--stats", stats],
                                                        file_size_limit=64 << 10),
            4, ["--dump: writing \"" + dump + "\" failed", "is unchanged"], unchanged)
    earlier()
    c.check("a full disk while writing the stats", c.sim([scene, "--steps", "100", "--quiet", "--stats", stats],
                                                         file_size_limit=4 << 10),
            4, ["--stats: writing \"" + stats + "\" failed", "is unchanged"], unchanged)


def check_bake(c):
    w = os.path.join(c.work, "bake")
    os.makedirs(w)
    scene = write(os.path.join(w, "tiny.json"), '{"vortons": [{"count": 64}], "tracers": [{"count": 32}]}')
    bake = os.path.join(w, "frames")

    def frames(sub=""):
        d = os.path.join(bake, sub)
        return sorted(n for n in os.listdir(d) if n.endswith(".vdb")) if os.path.isdir(d) else []
    c.check("a bake of 5 frames", c.sim([scene, "--steps", "5", "--vdb", bake, "--quiet"]), 0, [],
            lambda: "" if len(frames()) == 5 else f"frames {frames()}")
    c.check("a shorter bake into the same directory", c.sim([scene, "--steps", "2", "--vdb", bake, "--quiet"]), 2,
            ["--vdb: \"" + bake + "\" already holds 10 frame file(s) of an earlier bake", "refused", "--vdb-clear"],
            lambda: "" if len(frames()) == 5 else f"frames {frames()}")
    c.check("the same with --vdb-clear", c.sim([scene, "--steps", "2", "--vdb", bake, "--vdb-clear", "--quiet"]), 0, [],
            lambda: "" if frames() == ["tiny_0001.vdb", "tiny_0002.vdb"] == frames("tracers") else
            f"frames {frames()} / {frames('tracers')}")
    orphan = os.path.join(w, "orphan")
    c.check("a full disk while baking", c.sim([scene, "--steps", "2", "--vdb", orphan, "--quiet"],
                                               file_size_limit=20 << 10),
            4, ["--vdb: writing", "failed", "frame(s) before it are complete"],
            lambda: "" if not os.listdir(os.path.join(orphan, "tracers")) and not leftovers(orphan) else
            f"left {os.listdir(os.path.join(orphan, 'tracers'))} {leftovers(orphan)}")


# --- presets damaged at random -------------------------------------------------------------------------

NUMBERS = ["1e309", "-1e400", "1e-50", "1e-400", "1e39", "2147483648", "16777216", "-0", "1e31", "0", "-1", "1e4", "nan"]
NOISE = '{}[],:"0123456789e-.x \\\n'


def mutate(text, rng):
    kind = rng.randrange(6)
    at = rng.randrange(max(1, len(text)))
    if kind == 0:
        return text[:at]  # truncated
    if kind == 1:
        return text[:at] + rng.choice(NOISE) + text[at + 1:]  # one byte changed
    if kind == 2:
        end = min(len(text), at + rng.randrange(1, 40))
        return text[:at] + text[end:]  # a slice deleted
    if kind == 3:
        end = min(len(text), at + rng.randrange(1, 40))
        return text[:end] + text[at:end] + text[end:]  # a slice repeated
    if kind == 4:
        digits = [i for i, ch in enumerate(text) if ch.isdigit()]
        if digits:
            i = rng.choice(digits)
            j = i
            while j < len(text) and (text[j].isdigit() or text[j] in ".e-"):
                j += 1
            return text[:i] + rng.choice(NUMBERS) + text[j:]
    depth = rng.randrange(1, 200)
    return text[:at] + "[" * depth + "1" + "]" * depth + text[at:]  # nesting inserted


def check_mutants(c):
    presets = sorted(os.path.join(c.args.scenes, n) for n in os.listdir(c.args.scenes) if n.endswith(".json"))
    rng = random.Random(33)
    w = os.path.join(c.work, "mutants")
    os.makedirs(w)
    for i in range(c.args.mutants):
        source = rng.choice(presets)
        path = write(os.path.join(w, f"mutant_{i:03d}.json"), mutate(open(source).read(), rng))
        # The budget keeps a mutant that asks for millions of particles from building them here.
        run = c.sim([path, "--steps", "0", "--quiet", "--max-memory", "0.15"])
        c.check(f"mutant {i} of {os.path.basename(source)}", run, run.code if run.code in (0, 2) else 2,
                [path + ": "] if run.code == 2 else [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--scenes", required=True)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--megabytes", type=float, default=200.0)
    ap.add_argument("--mutants", type=int, default=60)
    args = ap.parse_args()
    args.sim = os.path.abspath(args.sim)
    args.corpus = os.path.abspath(args.corpus)
    args.scenes = os.path.abspath(args.scenes)
    work = tempfile.mkdtemp(prefix="vfx-bad-input-")
    c = Checker(args, work)
    try:
        check_corpus(c)
        check_made_inputs(c)
        check_output_paths(c)
        check_failed_runs_keep_files(c)
        check_bake(c)
        check_mutants(c)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{c.count - len(c.failures)} passed, {len(c.failures)} failed")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
