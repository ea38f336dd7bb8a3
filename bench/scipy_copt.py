#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The same c_opt points solved with SciPy: solve_ivp (DOP853, rtol 1e-12, atol 1e-14) with a
terminal event at zero contact force, and brentq on c until |e_out - e| <= 1e-10 e.

Scaled problem (as impactfit): x'' + c x' + ((n+1)/2) x^n = 0, x(0) = 0, x'(0) = 1; contact ends
where the force (n+1)/2 x^n + c x' falls to zero. Reads the points written by bench_copt and checks
SciPy's c against impactfit's. Usage: scipy_copt.py copt_points.csv [count]"""
import csv
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq


def e_out(n, c):
    K = 0.5 * (n + 1.0)

    def rhs(t, y):
        x = max(y[0], 0.0)
        return [y[1], -K * x**n - c * y[1]]

    def force(t, y):
        x = max(y[0], 0.0)
        return K * x**n + c * y[1]

    force.terminal = True
    force.direction = -1
    sol = solve_ivp(rhs, (0.0, 1e3), [0.0, 1.0], method="DOP853", rtol=1e-12, atol=1e-14,
                    events=force)
    return -sol.y_events[0][0][1], sol.nfev


def solve(n, e, tol=1e-10):
    evals = [0, 0]

    def g(lc):
        eo, nf = e_out(n, np.exp(lc))
        evals[0] += 1
        evals[1] += nf
        return np.log(eo) - np.log(e)

    # bracket from the same kind of guess impactfit uses (Zhang's primary formula with alpha = 1)
    z0 = 0.75 * (1 - e) * e ** (-1.0 / (n + 1))
    lo, hi = np.log(z0) - 1.0, np.log(z0) + 1.0
    while g(lo) < 0:
        lo -= 1.0
    while g(hi) > 0:
        hi += 1.0
    lc = brentq(g, lo, hi, xtol=1e-14, rtol=1e-15)
    eo, _ = e_out(n, np.exp(lc))
    return np.exp(lc), eo, evals


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "copt_points.csv"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rows = list(csv.DictReader(open(path)))[:count]
    t0, c0 = time.perf_counter(), time.process_time()
    sims = nfev = 0
    maxdev = maxmis = 0.0
    for r in rows:
        n, e, z = float(r["n"]), float(r["e"]), float(r["zeta"])
        c, eo, ev = solve(n, e)
        sims += ev[0]
        nfev += ev[1]
        maxdev = max(maxdev, abs(c / z - 1))
        maxmis = max(maxmis, abs(eo / e - 1))
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print("scipy isolated points (1 thread): %d points, %.1f us/point, %.1f simulations/point, "
          "%.0f RHS evaluations/point, max |e_out - e|/e = %.1e, max |c/c_impactfit - 1| = %.1e"
          % (len(rows), 1e6 * dt / len(rows), sims / len(rows), nfev / len(rows), maxmis, maxdev))
    print("SCIPY_US_PER_POINT %.3f" % (1e6 * dt / len(rows)))
    # the CPU time of this process: the figure to compare on a machine shared with other work
    print("SCIPY_CPU_US_PER_POINT %.3f" % (1e6 * cpu / len(rows)))


if __name__ == "__main__":
    main()
