# SPDX-License-Identifier: GPL-3.0-or-later
"""Per-point overhead of the Python binding over the C library (goal: < 1 us per point).

usage: PYTHONPATH=BUILD/python python3 bench/bench_python.py [BUILD] [N]
Runs BUILD/bench/bench_bindings N (the library in a plain C loop, one thread) and the same points
through impactfit with threads=1 (one call per function on a NumPy array: broadcasting, buffers, the
kernel table and the workspace pool), best of 5 each, and prints both per-point times, their
difference (the binding's overhead per point) and the overhead of a scalar call. The checksums of the
two sides must agree exactly (the same values). Default N = 1e5 (c_opt: N/10 points).
"""
import os
import subprocess
import sys
import time

import numpy as np

import impactfit


def best_of(f, reps=5):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        best = min(best, time.perf_counter() - t)
    return best, r


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    n = int(float(sys.argv[2])) if len(sys.argv) > 2 else 100000
    out = subprocess.run([os.path.join(build, "bench", "bench_bindings"), str(n)], check=True,
                         capture_output=True, text=True).stdout
    c = {}
    for line in out.splitlines():
        name, count, per, chk = line.split()
        c[name] = (int(count), float(per), float(chk))
    calls = {
        "hc_eps": lambda e: impactfit.hc_eps(e, threads=1),
        "rh_eps_refit": lambda e: impactfit.rh_eps_refit(e, "minimax", threads=1),
        "copt": lambda e: impactfit.copt(1.5, e, 1e8, 0.05, 2.0, threads=1),
    }
    print("per-point time on one thread, best of 5 (N = %d; c_opt N/10)" % n)
    print("%-14s %8s %14s %14s %16s %s" % ("function", "points", "C (us/pt)", "Python (us/pt)",
                                           "overhead (us/pt)", "same values"))
    worst = 0.0
    for name, f in calls.items():
        count, c_per, c_sum = c[name]
        e = 0.05 + 0.9 * np.arange(count) / (count - 1)
        t, r = best_of(lambda: f(e))
        py_per = t / count
        same = sum(r.tolist()) == c_sum  # summed in the same order as the C loop
        over = py_per - c_per
        worst = max(worst, over)
        print("%-14s %8d %14.4f %14.4f %16.4f %s" % (name, count, c_per * 1e6, py_per * 1e6, over * 1e6,
                                                    "yes" if same else "NO"))
    t, _ = best_of(lambda: [impactfit.rh_eps_refit(0.5) for _ in range(10000)])
    print("scalar call overhead: %.2f us per call (impactfit.rh_eps_refit(0.5), 1e4 calls)" % (t / 1e4 * 1e6))
    print("largest per-point overhead: %.4f us (goal < 1 us)" % (worst * 1e6))


if __name__ == "__main__":
    main()
