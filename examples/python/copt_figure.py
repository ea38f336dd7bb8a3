# SPDX-License-Identifier: GPL-3.0-or-later
# %% [markdown]
# # Poursina & Nikravesh (2020), Fig. 6: c_opt against e, redone exactly
#
# Notebook-style script (cells marked `# %%`; runs as a plain script, or cell by cell in an editor that
# understands the markers). It redraws the paper's Fig. 6 -- the optimal damping coefficient c_opt of the
# Hertz spring with a linear damper against the coefficient of restitution, for n = 1, 3/2, 2 and
# mass = k = v = 1 -- with the exact c_opt from impactfit, next to the paper's fitted closed form
# (their Eqs. 46, 47 and 49), and checks every exact point by simulating it back.
#
# Run from the repository after `bash scripts/main.sh` (which builds the package into build/):
#
#     PYTHONPATH=build/python python3 examples/python/copt_figure.py [OUT.png]
#
# Needs NumPy and matplotlib (Debian: python3-numpy python3-matplotlib; bash scripts/deps.sh python).

# %%
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import numpy as np

import impactfit

out = sys.argv[1] if len(sys.argv) > 1 else "copt_fig6.png"

# %% [markdown]
# The exact c_opt on 600 values of e in [0.45, 1] for each n: one vectorised call over a (3, 600) grid,
# run on all cores. With mass = k = v = 1, c_opt is in N*s/m (= the scaled zeta times
# [(n+1)/2]^(-1/(n+1))).

# %%
ns = np.array([1.0, 1.5, 2.0])
e = np.linspace(0.45, 1.0, 600)
r = impactfit.copt(ns[:, None], e[None, :], full=True)
c = r["c_opt"]
print("solved %d points; largest |e_out - e| / min(e, 1 - e): %.2g"
      % (c.size, np.max(np.abs(r["e_out"] - e) / np.maximum(np.minimum(e, 1 - e), 1e-300))))

# %% [markdown]
# Independent check: simulate each exact c_opt back (a second, separate solve of the direct problem) and
# compare the restitution with the target.

# %%
sim = impactfit.simulate(ns[:, None], c, m=0.0)
err = np.abs(sim.e_out - e)
print("simulated back: max |e_sim - e| = %.2g" % err.max())
assert err.max() < 1e-9

# %% [markdown]
# The paper's closed form: c = alpha(n) (e^beta(n) - 1) [k v^(n-1) mass^n]^(1/(n+1)) with
# alpha(n) = 0.3331 n^4 - 1.48 n^3 + 3.077 n^2 - 2.306 n + 1.794 and beta(n) = 1.285 n^0.2553 - 1.725.

# %%
def published(n, e):
    alpha = (((0.3331 * n - 1.48) * n + 3.077) * n - 2.306) * n + 1.794
    beta = 1.285 * n ** 0.2553 - 1.725
    return alpha * (e ** beta - 1.0)


pub = published(ns[:, None], e[None, :])
e_pub = impactfit.simulate(ns[:, None], pub, m=0.0).e_out
print("published formula: max |e_out - e| = %.3g" % np.max(np.abs(e_pub - e)))

# %%
fig, ax = plt.subplots(figsize=(6.4, 4.4))
for i, n in enumerate(ns):
    line, = ax.plot(e[::20], c[i, ::20], "o", ms=4, label="exact, n = %g" % n)
    ax.plot(e, pub[i], "--", color=line.get_color(), lw=1.2, label="Eqs. (46), (47), (49), n = %g" % n)
ax.set_xlabel("coefficient of restitution e")
ax.set_ylabel("c_opt (N s/m), mass = k = v = 1")
ax.set_title("Poursina & Nikravesh (2020), Fig. 6, exact")
ax.legend(fontsize=8)
ax.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(out, dpi=120)
print("wrote", out)
