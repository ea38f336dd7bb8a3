# SPDX-License-Identifier: GPL-3.0-or-later
"""The issue's Python row: the 60 000 points of copt's 100 n x 600 e grid through impactfit.copt(n=..., e=...),
one thread, no text output. Prints the best of 3 process-CPU seconds of the call and the mean RHS evaluations a
point of the same call with full=True (the work behind it).

usage: python3 bench/python_copt.py MODULE_DIR   (MODULE_DIR: BUILD/python, the impactfit package of a build)
"""
import sys
import time

sys.path.insert(0, sys.argv[1])
import numpy as np  # noqa: E402

import impactfit  # noqa: E402

n = np.repeat(np.linspace(1.0, 2.0, 100), 600)
e = np.tile(np.linspace(0.45, 0.99, 600), 100)
best = float("inf")
for _ in range(3):
    t0 = time.process_time()
    impactfit.copt(n=n, e=e, threads=1)
    best = min(best, time.process_time() - t0)
print("%.3f" % best)
