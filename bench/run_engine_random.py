# SPDX-License-Identifier: GPL-3.0-or-later
"""Random `impactfit engine` requests beyond bench/run_engine_grid.sh's grid: any engine model and version the
registry lists, its integrators, dt log-uniform from the model's default down to 1e-7 s, speeds 0.05-5 m/s,
spheres of 1-50 mm on a plane or on a second sphere, gravity now and then, the model's settings moved from their
defaults, inverse (e 0.02-0.98) or forward. Each request is one process (--json), timed whole-process.

Checked for every request: the exit status is 0, 1 or 2 (no signal, no other code); a non-zero status comes with
an "impactfit: error: " line on stderr; an answer (status 0) is one JSON object whose asked e, where reachable,
is met: |e_mean - e_asked| <= 1e-8, or the note starts with NEAREST (a mean that moves in steps of the value).
Printed: the failures of these checks, the requests over 50 ms of wall time,
the distribution of the statuses and the slowest answers. Exit status 1 when a check failed.

usage: python3 bench/run_engine_random.py [IMPACTFIT] [N] [SEED]   (default build-bench/src/cli/impactfit, 200, 1)
GRAVITY (default 0.1): the share of the requests with gravity 9.81 m/s^2 (where a model refuses it: status 2).
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import time

X = sys.argv[1] if len(sys.argv) > 1 else "build-bench/src/cli/impactfit"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
GRAVITY = float(os.environ.get("GRAVITY", "0.1"))  # the share of requests with gravity 9.81 m/s^2

REQUIRED = {"kp": "1000", "kd": "1", "erp": "0.2", "cfm": "1e-5", "restitution": "0.5", "mRestitution": "0.5,0",
            "solref": "-1000,-20", "bounce": "0.5,0.1"}


def listing(code):
    """The code's blocks: model, option flags, version, integrators, default dt, settings (name, default, units,
    required)."""
    out = subprocess.run([X, "engine", "--list", "--code", code], capture_output=True, text=True).stdout
    blocks, b = [], None
    for line in out.splitlines():
        m = re.match(r"^[a-z]+ '([^']*)'(.*?)\s+\[([^\]]*)\]", line)
        if m:
            b = {"model": m.group(1), "opt": m.group(2).split(), "version": m.group(3), "settings": [],
                 "formula_only": "formula only" in line, "integrators": [""], "dt": 1e-4}
            blocks.append(b)
            continue
        if b is None:
            continue
        m = re.search(r"integrators: ([^ ]+)", line)
        if m:
            b["integrators"] = m.group(1).split(",")
            d = re.search(r"default dt ([0-9.e+-]+) s", line)
            if d:
                b["dt"] = float(d.group(1))
        m = re.match(r"^  --(\S+) (\S+)\s+\[([^\]]*)\]", line)
        if m:
            b["settings"].append((m.group(1), m.group(2), m.group(3), m.group(2) == "(required)"))
    return blocks


def moved(name, default, units, required):
    """A setting's value: the required ones a plausible value, the others their default moved now and then."""
    if required:
        base = REQUIRED.get(name, "1")
    elif rng.random() < 0.7:
        return None  # the default
    else:
        base = default
    m = re.match(r"^\s*([0-9]) or ([0-9])\s*$", units) or re.match(r"^\s*([0-9, ]+) or ([0-9])\s*$", units)
    if m:  # a choice among integers ("0 or 1", "1, 3, 4 or 6")
        return rng.choice(re.findall(r"[0-9]+", units))
    parts = []
    for p in base.split(","):
        try:
            x = float(p)
        except ValueError:
            return base
        if not math.isfinite(x):
            parts.append(p)
            continue
        if x != 0 and abs(x) < 1e15 and (required or rng.random() < 0.5):
            x *= math.exp(rng.uniform(math.log(0.5), math.log(2.0)))
        parts.append("%.4g" % x)
    return ",".join(parts)


def request():
    code = rng.choice(CODES)
    blocks = BLOCKS[code]
    b = rng.choice(blocks)
    args = [X, "engine", "--code", code, "--model", b["model"], *b["opt"], "--json"]
    if b["version"] != DEFAULT_VERSION[code]:
        args += ["--version", re.split(r"[- ]", b["version"])[0]]
    integ = rng.choice(b["integrators"])
    if integ:
        args += ["--integrator", integ]
    dt = math.exp(rng.uniform(math.log(1e-7), math.log(b["dt"])))
    r1 = math.exp(rng.uniform(math.log(1e-3), math.log(0.05)))
    v = math.exp(rng.uniform(math.log(0.05), math.log(5.0)))
    args += ["--dt", "%.3g" % dt, "--v", "%.3g" % v, "--radius", "%.3g" % r1, "--density", "2500"]
    if rng.random() < 0.2:
        args += ["--r2", "%.3g" % (r1 * rng.uniform(0.5, 4)), "--rho2", "2500"]
    if rng.random() < GRAVITY:
        args += ["--gravity", "9.81"]
    for name, default, units, req in b["settings"]:
        val = moved(name, default, units, req)
        if val is not None:
            args += ["--" + name, val]
    if rng.random() < 0.7:
        args += ["--e", "%.3g" % rng.uniform(0.02, 0.98)]
    return args


top = subprocess.run([X, "engine", "--list"], capture_output=True, text=True).stdout
CODES, DEFAULT_VERSION = [], {}
for line in top.splitlines():
    m = re.match(r"^  ([a-z]+)\s+(\S+)\s+default version (\S+)", line)
    if m and "engine" in m.group(2):
        CODES.append(m.group(1))
        DEFAULT_VERSION[m.group(1)] = m.group(3)
BLOCKS = {c: listing(c) for c in CODES}

fails, slow, statuses, times = [], [], {}, []
for i in range(N):
    args = request()
    t0 = time.perf_counter()
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    wall = time.perf_counter() - t0
    cmd = " ".join(a if re.match(r"^[A-Za-z0-9_.,:/+=-]+$", a) else "'%s'" % a for a in args[1:])
    statuses[rc] = statuses.get(rc, 0) + 1
    times.append((wall, cmd))
    if wall > 0.05:
        slow.append((wall, cmd))
    if rc not in (0, 1, 2):
        fails.append("status %s: %s\n  %s" % (rc, cmd, err.strip()[-300:]))
    elif rc != 0 and "impactfit: error: " not in err:
        fails.append("status %d without an error line: %s\n  %s" % (rc, cmd, err.strip()[-300:]))
    elif rc == 0:
        try:
            a = json.loads(out)
        except ValueError:
            fails.append("status 0, not one JSON object: %s" % cmd)
            continue
        ea, em = a.get("e_asked"), a.get("e_mean")
        nearest = (a.get("note") or "").startswith("NEAREST")  # a mean in steps of the value: said first
        if a.get("reachable") == 1 and ea is not None and not (em is not None and (abs(em - ea) <= 1e-8 or nearest)):
            fails.append("reachable, e_mean %s for e %s: %s" % (em, ea, cmd))

print("%d requests (%s): statuses %s" % (N, X, ", ".join("%s: %d" % (k, v) for k, v in sorted(statuses.items(),
                                                                                            key=str))))
for f in fails:
    print("FAIL " + f)
times.sort(reverse=True)
print("over 50 ms of wall time: %d; the slowest:" % len(slow))
for w, c in times[:8]:
    print("  %7.1f ms  %s" % (1e3 * w, c))
sys.exit(1 if fails else 0)
