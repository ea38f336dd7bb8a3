# SPDX-License-Identifier: GPL-3.0-or-later
# %% [markdown]
# # Contact parameters from a measured e(v) table
#
# Notebook-style script (cells marked `# %%`). A drop test gives the coefficient of restitution at a few
# impact velocities (and, here, the contact duration); impactfit turns it into the stiffness and damping of
# a contact law that reproduces every row, and shows which damping law the data follow.
#
#     PYTHONPATH=build/python python3 examples/python/identify_from_table.py [TABLE.csv]
#
# TABLE.csv: columns v (m/s), e, optionally dt (s); without a file the example makes a synthetic table
# (a Hunt-Crossley contact with 0.2 % measurement noise), so the result can be checked against the truth.

# %%
import io
import sys

import numpy as np

import impactfit

mass = 0.05  # effective mass of the drop test, kg

if len(sys.argv) > 1:
    table = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
else:
    # the "measurement": Hunt-Crossley with n = 3/2, k = 1e8 N/m^1.5, lambda = 2e7 N s/m^2.5
    truth = dict(n=1.5, k=1e8, lam=2e7)
    v = np.array([0.3, 0.6, 1.0, 1.5, 2.0, 3.0])
    sim = impactfit.simulate(truth["n"], truth["lam"], m=truth["n"], k=truth["k"], mass=mass, v=v)
    rng = np.random.default_rng(1)
    noisy = lambda x: x * (1 + 0.002 * rng.standard_normal(x.shape))
    csv = "v,e,dt\n" + "".join("%r,%r,%r\n" % row for row in zip(v, noisy(sim.e_out), noisy(sim.t_contact)))
    print(csv)
    table = np.genfromtxt(io.StringIO(csv), delimiter=",", names=True)

v, e = table["v"], table["e"]
dt = table["dt"] if "dt" in table.dtype.names else None

# %% [markdown]
# ## 1. Each row on its own, exactly
# The Hunt-Crossley damping ratio eps = lambda v / k that gives each row's e (exact relation, no fit), and
# with a contact duration the stiffness and damping that reproduce that single impact.

# %%
eps = impactfit.hc_eps(e)
print("eps(e) per row:", np.array2string(eps, precision=5))
if dt is not None:
    one = impactfit.identify_hc(e, dt, v, mass, n=1.5)
    print("per-row k (n = 3/2):      ", np.array2string(one["k"], precision=4))
    print("per-row lambda (n = 3/2): ", np.array2string(one["lambda"], precision=4))

# %% [markdown]
# ## 2. One contact law for all rows
# A least-squares fit of n, k and lambda to every row (global search, BOBYQA, Gauss-Newton), with standard
# errors and the damping each law would need per row: for the law the data follow it does not depend on v.

# %%
fit = impactfit.identify(v, e, dt=dt, mass=mass, model="hc", fix=None if dt is not None else {"k": 1e8},
                         per_row=0.0)
for name in ("n", "k", "lambda"):
    key = "c" if name == "lambda" else name
    print("%-7s = %.6g  +- %.2g" % (name, fit[name], fit["se"][key]))
print("rms relative misfit %.2g, %d simulations" % (fit["rms"], fit["simulations"]))
for w in fit["warnings"]:
    print("warning:", w)
print("\n   v       Hunt-Crossley lambda   linear c (c_opt)")
for vi, row in zip(v, fit["rows"]):
    print("%5.2f  %20.6g  %18.6g" % (vi, row["per_row"]["lambda_hc"], row["per_row"]["c_linear"]))

# %% [markdown]
# ## 3. Use the result
# e.g. the restitution the identified contact gives at a velocity that was not measured:

# %%
r = impactfit.simulate(fit["n"], fit["lambda"], m=fit["n"], k=fit["k"], mass=mass, v=5.0)
print("predicted e at 5 m/s: %.5f, contact duration %.4g s" % (r.e_out, r.t_contact))
