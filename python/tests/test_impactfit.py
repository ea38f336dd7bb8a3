# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of the Python package impactfit (ctest -L python; python/tests/run_tests.py).

References: the CLI's --json output (%.17g, parsed by Python's correctly rounded float()) for the solvers,
so every value must be identical to the last digit; the generated headers compiled directly into a small C
program (py_values) for the surrogates; exact closed forms where the physics has one.
Environment (set by ctest): PYTHONPATH=BUILD/python, IMPACTFIT_CLI, IMPACTFIT_VALUES, IMPACTFIT_SRC.
"""
import json
import math
import os
import subprocess
import threading
import time

import numpy as np
import pytest

import impactfit

CLI = os.environ.get("IMPACTFIT_CLI", "impactfit")
VALUES = os.environ.get("IMPACTFIT_VALUES", "")
SRC = os.environ.get("IMPACTFIT_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def c_values(*args):
    out = subprocess.run([VALUES, *map(str, args)], check=True, capture_output=True, text=True).stdout
    return [float(x) for x in out.split()]


# ---- identical to the C library -------------------------------------------------------------------

@pytest.mark.parametrize("n,e,k,mass,v,method", [
    (1.5, 0.7, 1e8, 0.05, 2.0, "fast"),
    (1.25, 0.3, 2e7, 0.2, 1.5, "bisect"),
    (2.0, 0.95, 1e9, 1.0, 0.1, "nlopt"),
    (1.0, 1.0, 1.0, 1.0, 1.0, "fast"),
])
def test_copt_equals_cli(n, e, k, mass, v, method):
    ref = cli_json("copt", "--n", repr(n), "--e", repr(e), "--k", repr(k), "--mass", repr(mass), "--v", repr(v),
                   "--method", method)[0]
    r = impactfit.copt(n, e, k, mass, v, method=method, full=True)
    for key in ("c_opt", "zeta", "e_out", "delta_sep", "t_contact", "iterations", "rhs_evals"):
        assert r[key] == ref[key], key
    assert impactfit.copt(n=n, e=e, k=k, mass=mass, v=v, method=method) == ref["c_opt"]


@pytest.mark.parametrize("dimensional", [False, True])
def test_copt_damping_only_same_values(dimensional):
    # without full, the library's damping_only: the same c_opt (and alpha) to the bit, with less work
    n = np.repeat(np.linspace(1.0, 2.0, 11), 120)
    e = np.tile(np.linspace(0.05, 0.999, 120), 11)
    full = impactfit.copt(n, e, 1e8, 0.05, 2.0, dimensional=dimensional, full=True)
    assert np.array_equal(impactfit.copt(n, e, 1e8, 0.05, 2.0, dimensional=dimensional), full["c_opt"])
    m = np.linspace(0.0, 1.5, 1320)
    a = impactfit.zhang_alpha(1.5, m, e, full=True)
    assert np.array_equal(impactfit.zhang_alpha(1.5, m, e), a["alpha"])


def test_copt_dimensional_equals_cli():
    ref = cli_json("copt", "--n", "1.5", "--e", "0.4", "--k", "1e8", "--mass", "0.05", "--v", "2", "--dimensional")[0]
    r = impactfit.copt(1.5, 0.4, 1e8, 0.05, 2, dimensional=True, full=True)
    assert (r["zeta"], r["e_out"], r["iterations"]) == (ref["zeta"], ref["e_out"], ref["iterations"])
    # the CLI prints c_opt converted back from zeta (impactfit_copt_from_zeta), the library returns the
    # searched c itself: the two agree to rounding
    assert abs(r["c_opt"] / ref["c_opt"] - 1) < 4e-16


@pytest.mark.parametrize("n,m,e,tr", [(1.5, 0.25, 0.5, "C"), (1.5, 2.0, 0.2, "A"), (1.0, 0.0, 0.9, "C")])
def test_zhang_alpha_equals_cli(n, m, e, tr):
    ref = cli_json("zhang-alpha", "--n", repr(n), "--m", repr(m), "--e", repr(e), "--transition", tr,
                   "--k", "1e8", "--mass", "0.05", "--v", "2")[0]
    r = impactfit.zhang_alpha(n, m, e, 1e8, 0.05, 2, transition=tr, full=True)
    for key in ("alpha", "lambda_star", "zeta", "e_out", "lambda", "iterations", "rhs_evals"):
        assert r[key] == ref[key], key
    assert impactfit.zhang_lambda(n, m, e, 1e8, 0.05, 2, transition=tr) == ref["lambda"]


@pytest.mark.parametrize("args,kw", [
    (("--n", "1.5", "--c", "10", "--k", "1e8", "--mass", "0.05", "--v", "2"),
     dict(n=1.5, c=10, k=1e8, mass=0.05, v=2)),
    (("--n", "1.5", "--m", "1.5", "--c", "3e7", "--k", "1e8", "--mass", "0.05", "--v", "2", "--transition", "A"),
     dict(n=1.5, m=1.5, c=3e7, k=1e8, mass=0.05, v=2, transition="A")),
    (("--n", "1.5", "--c", "0.05", "--k", "1e6", "--mass", "1", "--v", "1", "--accel", "9.81", "--contacts", "3"),
     dict(n=1.5, c=0.05, k=1e6, mass=1.0, v=1.0, accel=9.81, contacts=3)),
    (("--n", "1.5", "--c", "0.3", "--transition", "D"), dict(n=1.5, c=0.3, transition="D")),
])
def test_simulate_equals_cli(args, kw):
    ref = cli_json("simulate", *args)[0]
    r = impactfit.simulate(**kw).as_dict()
    compared = 0
    for key, val in ref.items():
        inputs = ("n", "m", "k", "c", "mass", "v", "accel", "contacts")
        if key in r and key not in inputs and isinstance(val, (int, float)):
            assert r[key] == val, key
            compared += 1
    assert compared >= 8
    assert r["n_contacts"] == ref["contacts"] == len(r["contacts"])


def test_hc_eps_impact_time_identify_hc_equal_cli():
    ref = cli_json("hc-eps", "--e", "0.5", "--k", "1e8", "--v", "2")[0]
    r = impactfit.hc_eps(0.5, k=1e8, v=2, full=True)
    assert (r["eps"], r["lambda"]) == (ref["eps"], ref["lambda"])
    ref = cli_json("impact-time", "--eps", "0.3", "--n", "1.5", "--k", "1e8", "--mass", "0.05", "--v", "2")[0]
    r = impactfit.impact_time(0.3, 1.5, k=1e8, mass=0.05, v=2, full=True)
    for key in ("dtau", "e", "omega_i", "dt", "lambda"):
        assert r[key] == ref[key], key
    ref = cli_json("identify-hc", "--e", "0.8", "--dt", "1e-4", "--v", "1", "--mass", "0.05", "--n", "1.5")[0]
    r = impactfit.identify_hc(0.8, 1e-4, 1.0, 0.05, 1.5)
    for key in ("eps", "dtau", "omega_i", "k", "lambda", "e_sim", "dt_sim"):
        assert r[key] == ref[key], key


@pytest.mark.skipif(not VALUES, reason="IMPACTFIT_VALUES (the py_values program) not set")
def test_surrogates_equal_generated_headers():
    for n, e in ((1.0, 1e-4), (1.5, 0.7), (1.9, 0.999), (2.0, 0.5)):
        assert impactfit.copt_surrogate(n, e) == c_values("copt", n, e)[0]
    for tr in ("C", "A"):
        for n, m, e in ((1.5, 0.25, 0.5), (1.2, 1.9, 0.05), (2.0, 1.0, 0.97)):
            z, a = c_values("zhang", tr, n, m, e)
            r = impactfit.zhang_surrogate(n, m, e, transition=tr, full=True)
            assert (r["zeta"], r["alpha"]) == (z, a)
    for eps, n in ((0.0, 1.0), (0.3, 1.5), (80.0, 2.0)):
        assert impactfit.dtau_surrogate(eps, n) == c_values("dtau", eps, n)[0]
    for which in ("lsq", "minimax"):
        assert impactfit.rh_eps_refit(0.37, which) == c_values("rh", which, 0.37)[0]


def test_surrogates_close_to_exact():
    e = np.array([0.01, 0.2, 0.5, 0.9, 0.999])
    zs = impactfit.copt_surrogate(1.5, e)
    ze = impactfit.copt(1.5, e, full=True)["zeta"]
    assert np.max(np.abs(zs / ze - 1)) < 1e-6
    c = impactfit.copt_surrogate(1.5, 0.7, 1e8, 0.05, 2)
    assert abs(c / impactfit.copt(1.5, 0.7, 1e8, 0.05, 2) - 1) < 1e-6
    assert abs(impactfit.dtau_surrogate(0.0, 1.0) / math.pi - 1) < 1e-9  # dtau(0, 1) = pi
    with pytest.raises(ValueError, match="outside its box"):
        impactfit.copt_surrogate(2.5, 0.5)


# ---- exact references -----------------------------------------------------------------------------

def test_copt_kelvin_voigt_exact():
    # n = 1, m = 0 under C: e = exp(-2 xi theta / sin theta), theta = acos xi (xi < 1), and
    # exp(-2 xi phi / sinh phi), phi = acosh xi (xi >= 1), with xi = zeta/2
    e = np.array([1e-3, 0.1, 0.35, 0.6, 0.85, 0.99, 0.9999])
    z = impactfit.copt(1.0, e, full=True)["zeta"]
    xi = z / 2
    assert (xi > 1).sum() == 2
    ek = np.where(xi < 1, np.exp(-2 * xi * np.arccos(np.minimum(xi, 1)) / np.sqrt(np.abs(1 - xi ** 2))),
                  np.exp(-2 * xi * np.arccosh(np.maximum(xi, 1)) / np.sqrt(np.abs(xi ** 2 - 1))))
    assert np.max(np.abs(ek - e) / np.minimum(e, 1 - e)) < 1e-9


def test_hc_eps_relation_and_undamped_time():
    e = np.linspace(0.3, 1.0, 50)
    eps = impactfit.hc_eps(e)
    assert np.max(np.abs((1 + eps) / (1 - e * eps) / np.exp(eps * (1 + e)) - 1)) < 1e-13
    assert abs(impactfit.impact_time(0.0, 1.0) / math.pi - 1) < 1e-12  # dtau(0, 1) = pi
    r = impactfit.simulate(1, 0, k=4, mass=1, v=1)
    assert abs(r.t_contact - math.pi / 2) < 1e-12  # pi sqrt(mass / k)


def test_identify_recovers_synthetic_hc():
    n, k, lam, mass = 1.5, 1e8, 2e7, 0.05
    v = np.array([0.5, 1.0, 2.0, 3.0])
    s = impactfit.simulate(n, lam, m=n, k=k, mass=mass, v=v)
    r = impactfit.identify(v, s.e_out, dt=s.t_contact, fmax=s.f_max, mass=mass, model="hc")
    assert abs(r["n"] - n) < 1e-6
    assert abs(r["k"] / k - 1) < 1e-5
    assert abs(r["lambda"] / lam - 1) < 1e-5
    assert r["free"] == {"n": True, "m": False, "k": True, "c": True}
    with pytest.raises(ValueError, match="k"):
        impactfit.identify(v, s.e_out, mass=mass, model="hc")  # no dt, fmax: k must be fixed


# ---- broadcasting ---------------------------------------------------------------------------------

def test_broadcast_shapes_and_values():
    n = np.array([1.2, 1.5, 1.8])[:, None]
    e = np.array([0.2, 0.5, 0.8, 0.95])[None, :]
    c = impactfit.copt(n, e, 1e8, 0.05, 2)
    assert c.shape == (3, 4) and c.dtype == np.float64
    for i in range(3):
        for j in range(4):
            assert c[i, j] == impactfit.copt(float(n[i, 0]), float(e[0, j]), 1e8, 0.05, 2)
    full = impactfit.copt([1.5, 1.6], 0.5, full=True)
    assert full["iterations"].dtype == np.int64 and full["c_opt"].shape == (2,)
    assert impactfit.copt(np.float64(1.5), np.array(0.5)) == impactfit.copt(1.5, 0.5)  # 0-d: a float
    assert isinstance(impactfit.copt(1.5, 0.5), float)
    assert impactfit.hc_eps(np.empty((0, 3))).shape == (0, 3)
    s = impactfit.simulate(1.5, [[1.0, 2.0]], k=1.0, mass=1.0, v=[[1.0], [2.0], [3.0]])  # the unit set: all or none
    assert s.e_out.shape == (3, 2) and s.contacts is None
    with pytest.raises(ValueError):
        impactfit.copt([1.5, 1.6, 1.7], [0.5, 0.6])  # shapes do not broadcast


def test_results_do_not_depend_on_threads():
    e = np.linspace(0.05, 0.99, 64)
    a = impactfit.copt(1.5, e, threads=1)
    b = impactfit.copt(1.5, e, threads=2)
    c = impactfit.copt(1.5, e[::-1])[::-1]
    assert np.array_equal(a, b) and np.array_equal(a, c)


def test_million_points_in_one_call():
    e = np.linspace(1e-6, 1.0, 1_000_000)
    eps = impactfit.hc_eps(e)
    assert eps.shape == e.shape and eps[-1] == 0.0
    idx = [0, 123457, 999998]
    assert [eps[i] for i in idx] == [impactfit.hc_eps(float(e[i])) for i in idx]


def test_trajectory():
    r = impactfit.simulate(1.5, 10, k=1e8, mass=0.05, v=2, trajectory=101)
    t = r.trajectory
    assert set(t) == {"t", "delta", "delta_dot", "force", "element", "in_contact"}
    assert all(len(x) == 101 for x in t.values())
    assert t["delta"][0] == 0 and t["delta_dot"][0] == 2.0
    assert abs(t["t"][-1] / (1.25 * r.t_contact) - 1) < 1e-12
    assert len(r.contacts) == 1 and r.contacts[0]["t_end"] == r.t_contact
    with pytest.raises(ValueError, match="scalar"):
        impactfit.simulate(1.5, [1.0, 2.0], trajectory=10)


# ---- errors ---------------------------------------------------------------------------------------

def test_value_errors_carry_the_library_message():
    err = subprocess.run([CLI, "copt", "--n", "1.5", "--e", "1.5"], capture_output=True, text=True)
    assert err.returncode == 2
    with pytest.raises(ValueError) as ex:
        impactfit.copt(1.5, 1.5)
    assert "(0, 1]" in str(ex.value) and "1.5" in str(ex.value)
    with pytest.raises(ValueError, match=r"at index 1"):
        impactfit.copt([1.5, -1.0], 0.5)
    with pytest.raises(ValueError, match="method"):
        impactfit.copt(1.5, 0.5, method="newton")
    with pytest.raises(ValueError, match="transition"):
        impactfit.zhang_alpha(1.5, 0.5, 0.5, transition="Q")
    with pytest.raises(ValueError, match=r"give all of k, mass and v, or none \(only k given\)"):
        impactfit.zhang_alpha(1.5, 0.5, 0.5, k=1.0)
    with pytest.raises(TypeError):
        impactfit.copt(1.5, "x")


def test_numbers_in_floats_out_text_refused():
    ref = impactfit.copt(1.5, 0.5)
    # one number per argument, of any numeric type: a Python float back
    from decimal import Decimal
    from fractions import Fraction
    for args in ((1.5, 0.5), (np.float64(1.5), np.float32(0.5)), (np.array(1.5), np.array(0.5)),
                 (Fraction(3, 2), Decimal("0.5")), (np.int64(2), 0.5)):
        c = impactfit.copt(*args)
        assert type(c) is float
        assert c == (ref if args[0] == 1.5 else impactfit.copt(2.0, 0.5))
    # text is not a number, whether alone, in a list or in an array
    for bad in ("0.5", b"0.5", ["0.5"], [0.5, "0.6"], np.array("0.5"), np.array(["0.5"]), [None], object()):
        with pytest.raises(TypeError, match=r"copt: expected a number or an array of numbers"):
            impactfit.copt(1.5, bad)
    with pytest.raises(TypeError, match=r"hc_eps: expected a number"):
        impactfit.hc_eps("0.5")
    with pytest.raises(TypeError, match=r"simulate: expected a number"):
        impactfit.simulate(1.5, "0.4")


def test_help_documents_the_shared_arguments():
    import inspect
    funcs = [getattr(impactfit, n) for n in impactfit.__all__]
    vectorised = [f for f in funcs if callable(f) and not isinstance(f, type) and
                  "on_error" in inspect.signature(f).parameters]
    assert len(vectorised) >= 12
    for f in vectorised:
        doc = inspect.getdoc(f)
        assert 'on_error: "raise" (default)' in doc and '"nan"' in doc, f.__name__
        assert "threads:" in doc and "strings raise TypeError" in doc, f.__name__


def test_without_numpy():
    """A Python that cannot import NumPy (here: the same interpreter without its site directories, -S,
    where Debian keeps NumPy): scalar calls work and give the same floats; an array argument raises an
    ImportError that says NumPy is needed, from the package's own check, not from deep inside it."""
    import sys
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(impactfit.__file__)))
    script = r"""
import sys
try:
    import numpy
    print("NUMPY-PRESENT")
    sys.exit(0)
except ImportError:
    pass
import impactfit
print(repr(impactfit.copt(1.5, 0.5)), type(impactfit.copt(1.5, 0.5)).__name__)
print(repr(impactfit.hc_eps(0.5)))
for call in (lambda: impactfit.copt(1.5, [0.1, 0.5]), lambda: impactfit.simulate([1.5, 2.0], 0.4)):
    try:
        call()
        print("NO-ERROR")
    except ImportError as e:
        print("ImportError:", e)
try:
    impactfit.copt(1.5, "0.5")
except TypeError as e:
    print("TypeError:", e)
"""
    env = dict(os.environ, PYTHONPATH=pkg)
    out = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    if lines == ["NUMPY-PRESENT"]:
        pytest.skip("this Python imports NumPy even with -S (not Debian's layout)")
    assert lines[0] == "%r float" % impactfit.copt(1.5, 0.5)
    assert lines[1] == repr(impactfit.hc_eps(0.5))
    # the advice fits the interpreter: this one runs with -S outside a virtual environment
    advice = ("apt-get install python3-numpy (Debian's python3), or a virtual environment with pip install numpy"
              if sys.executable.startswith("/usr/bin/python3") else "%s -m pip install numpy" % sys.executable)
    assert lines[2] == ("ImportError: impactfit.copt: array arguments need NumPy, which this Python (%s) does not "
                        "have: %s; without it, give one number per argument" % (sys.executable, advice))
    assert lines[3].startswith("ImportError: impactfit.simulate: array arguments need NumPy")
    assert lines[4].startswith("TypeError: copt: expected a number")


def test_numerical_error():
    ref = subprocess.run([CLI, "simulate", "--n", "1.5", "--c", "1e9", "--k", "1e8", "--mass", "0.05", "--v", "2",
                          "--transition", "A", "--json"], capture_output=True, text=True)
    assert ref.returncode == 1
    msg = json.loads(ref.stdout.splitlines()[0])["error"]
    with pytest.raises(impactfit.NumericalError) as ex:
        impactfit.simulate(1.5, 1e9, k=1e8, mass=0.05, v=2, transition="A")
    assert ex.value.status == "ENOSEP" and str(ex.value) == msg and ex.value.index is None
    with pytest.raises(impactfit.NumericalError) as ex:
        impactfit.simulate(1.5, [[10.0, 1e9]], k=1e8, mass=0.05, v=2, transition="A")
    assert ex.value.index == 1 and "(0, 1)" in str(ex.value)
    r = impactfit.simulate(1.5, [10.0, 1e9], k=1e8, mass=0.05, v=2, transition="A", on_error="nan")
    assert np.isfinite(r.e_out[0]) and np.isnan(r.e_out[1])
    assert isinstance(ex.value, RuntimeError) and not isinstance(ex.value, ValueError)


# ---- the GIL is released during a computation ------------------------------------------------------

def test_gil_released():
    e = np.linspace(0.05, 0.95, 2000)
    t0 = time.perf_counter()
    impactfit.copt(1.5, e, threads=1)
    alone = time.perf_counter() - t0
    progress = []
    window = []

    def compute():
        a = time.perf_counter()
        impactfit.copt(1.5, e, threads=1)
        window.append((a, time.perf_counter()))

    th = threading.Thread(target=compute)
    th.start()
    count = 0
    while th.is_alive():  # pure Python work on the main thread while the other computes
        count += 1
        progress.append(time.perf_counter())
    th.join()
    a, b = window[0]
    during = sum(1 for t in progress if a < t < b)
    # with the GIL held for the whole call the main thread could not run at all inside the window
    assert during > 1000, (during, alone)
    # two Python threads computing at once overlap in wall time
    spans = []

    def work():
        s = time.perf_counter()
        impactfit.copt(1.5, e, threads=1)
        spans.append((s, time.perf_counter()))

    e = np.linspace(0.05, 0.95, 3000)
    go = threading.Barrier(2)

    def work():
        go.wait()
        s = time.perf_counter()
        impactfit.copt(1.5, e, threads=1)
        spans.append((s, time.perf_counter()))

    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    (s1, e1), (s2, e2) = sorted(spans)
    assert s2 < e1, "the second call started only after the first had ended"


# ---- sweeps and fits on definition files -------------------------------------------------------------

def test_sweep_equals_cli(tmp_path):
    path = os.path.join(SRC, "sweeps", "demo_scaling.ini")
    subprocess.run([CLI, "sweep", path, "--out", str(tmp_path), "--quiet"], check=True, capture_output=True)
    with open(tmp_path / "demo_scaling.csv") as f:
        ref = f.read()
    r = impactfit.sweep(path)
    assert r["csv"] == ref
    cols = r["columns"]
    assert cols["t_contact"].shape == (30,) and cols["ok"].all()
    # exact: t_c = a mass^0.4 k^-0.4 with a = 2 (1.25)^0.4 B(0.4, 0.5) / 2.5
    a = 2 * 1.25 ** 0.4 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9) / 2.5
    assert np.max(np.abs(cols["t_contact"] / (a * cols["mass"] ** 0.4 * cols["k"] ** -0.4) - 1)) < 1e-11
    assert r["summary"]["points"] == 30 and r["failures"] == []


def test_fit_finds_exact_exponents(tmp_path):
    stages = impactfit.fit(os.path.join(SRC, "fits", "demo_scaling.ini"))
    (st,) = stages
    p = st["groups"][0]["params"]
    assert abs(p["b"] - 0.4) < 1e-9 and abs(p["d"] + 0.4) < 1e-9
    a = 2 * 1.25 ** 0.4 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9) / 2.5
    assert abs(p["a"] / a - 1) < 1e-8
    # the committed header holds the CLI's fit of the same data: identical constants
    with open(os.path.join(SRC, "include", "impactfit", "generated", "demo_scaling.h")) as f:
        text = f.read()
    for name in ("a", "b", "d"):
        line = next(x for x in text.splitlines() if "impactfit_demo_scaling_tc_%s =" % name in x)
        assert float(line.split("=")[1].strip(" ;")) == p[name]
    with pytest.raises(OSError, match="no_such_file"):
        impactfit.fit(os.path.join(SRC, "fits", "no_such_file.ini"))
