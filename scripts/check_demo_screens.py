#!/usr/bin/env python3
"""End-to-end test of the vortonfx demo under Xvfb (Mesa software OpenGL).

For every preset in scenes/ it runs the real window for a few frames, saves a screenshot and
checks it: size, not blank, and the dye colours the scene should show (heavy fluid blue,
light fluid red, neutral dye pale). It also checks the default scene with its panels, that a
shader that does not compile makes the demo fail naming the file, that a bad --scene (a
range error, nesting 70,000 deep, a missing file, /dev/zero) exits 2 with a message, and that
a bad flag exits 2 with one message naming the flag and its value.
Python standard library only (PNG decoded with zlib).
"""
import argparse, collections, glob, json, os, shutil, struct, subprocess, sys, tempfile, zlib

SCREEN = "-screen 0 1280x800x24"


def read_png(path, step=1):
    """8-bit RGB/RGBA non-interlaced PNG -> (width, height, every step-th row of every step-th (r, g, b))."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"{path}: unsupported PNG format depth={depth} colour type={ctype}")
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += chunk
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 0:
            pass  # the demo writes unfiltered rows: nothing to undo
        elif ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + (a + prev[i]) // 2) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        if y % step == 0:
            rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp * step)])
        prev = line
    return w, h, rows


def measure(path):
    w, h, rows = read_png(path, step=4)
    pix = [px for r in rows for px in r]
    counts = collections.Counter(pix)
    bg_count = counts.most_common(1)[0][1]
    return {
        "width": w, "height": h,
        "colours": len(counts),
        "background": bg_count / len(pix),
        "blue": sum(1 for r, g, b in pix if b > r + 40 and b > 80),
        "red": sum(1 for r, g, b in pix if r > b + 40 and r > 80),
        "pale": sum(1 for r, g, b in pix if min(r, g, b) > 110 and max(r, g, b) - min(r, g, b) < 60),
    }


def expected_dye(scene_path):
    """Which dye colours the scene must show: from the sign of its region densities."""
    with open(scene_path) as f:
        doc = json.load(f)
    signs = set()
    for region in doc.get("vortons", []) + doc.get("tracers", []):
        d = region.get("density", 0.0)
        g = region.get("density_gradient", [0, 0, 0])
        if d > 0:
            signs.add("blue")
        elif d < 0:
            signs.add("red")
        elif any(abs(x) > 0 for x in g):
            signs.add("any")  # a stratified layer: tinted, sign depends on where it is cut
    return signs or {"pale"}


def run_demo(args, extra, timeout=300):
    cmd = [args.xvfb_run, "-a", "-s", SCREEN, args.demo] + extra
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def check_preset(args, scene, out_dir, with_ui):
    name = os.path.splitext(os.path.basename(scene))[0] + ("_ui" if with_ui else "")
    shot = os.path.join(out_dir, name + ".png")
    extra = ["--scene", scene, "--frames", str(args.frames), "--screenshot", shot, "--quit", "--no-vsync"]
    if args.shaders:
        extra += ["--shaders", args.shaders]
    if not with_ui:
        extra.append("--hide-ui")
    p = run_demo(args, extra)
    if p.returncode != 0 or not os.path.exists(shot):
        return [f"{name}: demo exited {p.returncode}: {(p.stderr or p.stdout).strip()[-400:]}"]
    m = measure(shot)
    line = (f"{name}: {m['width']}x{m['height']}, {m['colours']} colours, background {m['background']:.0%}, "
            f"blue {m['blue']}, red {m['red']}, pale {m['pale']}  [{p.stdout.strip()}]")
    print(line)
    problems = []
    if m["width"] < 640 or m["height"] < 400:
        problems.append("too small")
    if m["colours"] < 50:
        problems.append(f"only {m['colours']} colours (blank?)")
    if m["background"] > 0.97:
        problems.append(f"background covers {m['background']:.0%}")
    for colour in expected_dye(scene):
        if colour == "any":
            if m["blue"] + m["red"] < 20:
                problems.append("no tinted dye visible")
        elif m[colour] < 20:
            problems.append(f"{colour} dye missing ({m[colour]} pixels)")
    return [f"{name}: {', '.join(problems)}"] if problems else []


def check_broken_shader(args):
    source = args.shaders or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shaders")
    tmp = tempfile.mkdtemp(prefix="vfx-bad-shaders-")
    for f in glob.glob(os.path.join(source, "*")):
        shutil.copy(f, tmp)
    with open(os.path.join(tmp, "vorton.frag"), "a") as f:
        f.write("\nthis is not GLSL;\n")
    p = run_demo(args, ["--shaders", tmp, "--frames", "1", "--quit"])
    shutil.rmtree(tmp, ignore_errors=True)
    if p.returncode == 0 or "vorton.frag" not in p.stderr:
        return [f"broken shader: expected a non-zero exit naming vorton.frag, got {p.returncode}: {p.stderr.strip()[-300:]}"]
    print(f"broken shader: exit {p.returncode}, {p.stderr.strip().splitlines()[0]}")
    return []


def check_bad_scene(args):
    tmp = tempfile.mkdtemp(prefix="vfx-bad-scene-")
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        json.dump({"name": "bad", "vortons": [{"shape": "sphere", "radius": -1, "count": 10}]}, f)
    # Nesting far past the parser's bound: one message, as vortonfx-sim gives, not a crash.
    deep = os.path.join(tmp, "deep.json")
    with open(deep, "w") as f:
        f.write("[" * 70000 + "]" * 70000)
    problems = []
    for scene in (bad, deep, os.path.join(tmp, "missing.json"), "/dev/zero"):
        p = subprocess.run([args.demo, "--scene", scene, "--frames", "1", "--quit"], capture_output=True, text=True, timeout=60)
        if p.returncode != 2 or os.path.basename(scene) not in p.stderr:
            problems.append(f"bad scene {scene}: expected exit 2 and a message naming it, got {p.returncode}: {p.stderr.strip()[-200:]}")
        else:
            print(f"bad scene: exit 2, {p.stderr.strip().splitlines()[0]}")
    shutil.rmtree(tmp, ignore_errors=True)
    return problems


def check_bad_flags(args):
    """A bad flag: exit 2 before any window opens, the first line naming the flag and the bad value."""
    cases = [(["--frames", "0"], ["--frames", '"0"']), (["--width", "ten"], ["--width", '"ten"']),
             (["--show", "vortons,sparkles"], ["--show", "sparkles"]), (["--bogus"], ["--bogus"])]
    problems = []
    for extra, fragments in cases:
        p = subprocess.run([args.demo] + extra, capture_output=True, text=True, timeout=60)
        lines = p.stderr.strip().splitlines()
        first = lines[0] if lines else ""
        if p.returncode != 2 or not all(f in first for f in fragments):
            problems.append(f"bad flag {' '.join(extra)}: expected exit 2 and a message naming {fragments}, "
                            f"got {p.returncode}: {p.stderr.strip()[-200:]}")
        else:
            print(f"bad flag: exit 2, {first}")
    return problems


def check_bake(args, scene):
    """The demo's bake: --vdb-frames N stops after N frames, each complete (its points beside it)."""
    tmp = tempfile.mkdtemp(prefix="vfx-demo-bake-")
    extra = ["--scene", scene, "--frames", "8", "--vdb", tmp, "--vdb-every", "2", "--vdb-frames", "3", "--quit",
             "--no-vsync", "--hide-ui"]
    if args.shaders:
        extra += ["--shaders", args.shaders]
    p = run_demo(args, extra)
    name = os.path.splitext(os.path.basename(scene))[0]
    frames = sorted(os.path.basename(f) for f in glob.glob(os.path.join(tmp, "*.vdb")))
    points = sorted(os.path.basename(f) for f in glob.glob(os.path.join(tmp, "tracers", "*.vdb")))
    expected = [f"{name}_{k:04d}.vdb" for k in (1, 2, 3)]
    leftovers = [f for f in os.listdir(tmp) + os.listdir(os.path.join(tmp, "tracers")) if f.startswith(".")]
    shutil.rmtree(tmp, ignore_errors=True)
    if p.returncode != 0 or frames != expected or points != expected or leftovers:
        return [f"demo bake: exit {p.returncode}, frames {frames}, points {points}, temporary files {leftovers}; "
                f"expected {expected}: {p.stderr.strip()[-300:]}"]
    print(f"demo bake: {len(frames)} frames with points, stopped at --vdb-frames")
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--demo", required=True)
    ap.add_argument("--scenes", default="scenes")
    ap.add_argument("--shaders", default="")
    ap.add_argument("--xvfb-run", default="xvfb-run")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--out", default="", help="keep the screenshots here")
    ap.add_argument("--only", default="", help="check only scenes whose file name contains this")
    args = ap.parse_args()
    out_dir = args.out or tempfile.mkdtemp(prefix="vfx-demo-shots-")
    os.makedirs(out_dir, exist_ok=True)
    scenes = sorted(s for s in glob.glob(os.path.join(args.scenes, "*.json")) if args.only in os.path.basename(s))
    if not scenes:
        print(f"no scenes in {args.scenes}")
        return 1
    problems = check_bad_flags(args)
    for scene in scenes:
        problems += check_preset(args, scene, out_dir, with_ui=False)
    default = os.path.join(args.scenes, "dye_drop.json")
    if os.path.exists(default) and not args.only:
        problems += check_preset(args, default, out_dir, with_ui=True)
        problems += check_broken_shader(args)
        problems += check_bad_scene(args)
        problems += check_bake(args, default)
    print(f"screenshots in {out_dir}")
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
