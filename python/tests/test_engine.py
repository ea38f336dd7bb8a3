# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of impactfit.engine (= impactfit.code; ctest -L python): the same numbers and texts as `impactfit engine
... --json` to the last digit (every key), the forward problem at the inverse's value, arrays, and clear errors for
bad input.
Environment (set by ctest): PYTHONPATH=BUILD/python, IMPACTFIT_CLI."""
import json
import math
import os
import subprocess

import pytest

import impactfit

CLI = os.environ.get("IMPACTFIT_CLI", "impactfit")

KEYS = ["code", "version", "model", "integrator", "dt", "v", "mass", "e_asked", "param", "value", "input", "e_mean",
        "e_min", "e_max", "e_continuous", "naive", "naive_value", "e_naive", "reachable", "stable", "end", "note"]


def cli_engine(*args):
    out = subprocess.run([CLI, "engine", "--json", *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def same(a, b):
    if a is None:
        a = math.nan
    if isinstance(a, float) or isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


@pytest.mark.parametrize("e,integrator,dt", [(0.3, None, None), (0.7, "rk4", 0.001), (0.5, "euler", 0.0005)])
def test_same_as_cli(e, integrator, dt):
    args = ["--code", "mujoco", "--e", repr(e), "--v", "1.5", "--mass", "0.002", "--radius", "0.005", "--solref",
            "0.03,1"]
    if integrator:
        args += ["--integrator", integrator]
    if dt:
        args += ["--dt", repr(dt)]
    c = cli_engine(*args)
    p = impactfit.engine("mujoco", e=e, v=1.5, mass=0.002, radius=0.005, integrator=integrator, dt=dt,
                         settings={"solref": (0.03, 1.0)})
    for k in KEYS:
        assert same(c[k], p[k]), (k, c[k], p[k])
    assert set(c) <= set(p) and p["kind"] == "steps"
    for k in ("e_naive_range", "e_reach_range"):
        assert all(same(a, b) for a, b in zip(c[k], p[k])), k
    # the same call by name: solref as a keyword
    q = impactfit.code("mujoco", e=e, v=1.5, mass=0.002, radius=0.005, integrator=integrator, dt=dt,
                       solref=(0.03, 1.0))
    assert all(same(p[k], q[k]) for k in KEYS)


def test_forward_at_the_inverse():
    r = impactfit.engine("mujoco", e=0.4, v=1.0, density=2500.0, radius=0.005)
    f = impactfit.engine("mujoco", v=1.0, density=2500.0, radius=0.005, value=r["value"])
    assert abs(f["e_mean"] - 0.4) <= 1e-10
    assert f["e_min"] <= 0.4 <= f["e_max"]
    # the settings as they are: MuJoCo's defaults
    d = impactfit.engine("mujoco", v=1.0, mass=0.001309, radius=0.005)
    assert d["value"] == 1.0 and 0.1 < d["e_mean"] < 0.14


def test_arrays():
    """e as an array: the numbers of each scalar call, element by element"""
    import numpy as np
    e = np.array([0.3, 0.5, 0.8])
    r = impactfit.engine("mujoco", e=e, v=1.0, mass=0.001309, radius=0.005, threads=1)
    assert r["value"].shape == (3,) and r["reachable"].dtype == np.int64
    for i in range(3):
        s = impactfit.engine("mujoco", e=float(e[i]), v=1.0, mass=0.001309, radius=0.005)
        for k in ("value", "e_mean", "e_min", "e_max", "e_continuous", "dt", "mass", "stable"):
            assert same(r[k][i], s[k]), (k, i)
    # a vectorised one-value setting: refsafe on and off
    f = impactfit.engine("mujoco", v=1.0, mass=0.001309, radius=0.005, solref=(0.002, 1.0), refsafe=[1.0, 0.0])
    assert f["e_mean"][0] != f["e_mean"][1]


def test_two_spheres():
    p = impactfit.engine("mujoco", e=0.5, v=1.0, mass=0.002, m2=0.006, radius=0.005)
    c = cli_engine("--code", "mujoco", "--e", "0.5", "--v", "1", "--mass", "0.002", "--m2", "0.006", "--radius",
                   "0.005")
    assert p["mass"] == c["mass"] == pytest.approx(0.0015, rel=1e-15)
    assert same(p["value"], c["value"])


def test_errors():
    b = dict(mass=1.0, radius=0.005)
    with pytest.raises(ValueError, match="unknown code 'mujko'.*did you mean 'mujoco'"):
        impactfit.engine("mujko", e=0.5, v=1.0, **b)
    with pytest.raises(ValueError, match="its settings: solref"):
        impactfit.engine("mujoco", e=0.5, v=1.0, settings={"foo": 1.0}, **b)
    with pytest.raises(ValueError, match="did you mean 'solref'"):
        impactfit.engine("mujoco", e=0.5, v=1.0, solrf=0.02, **b)
    with pytest.raises(ValueError, match="solref takes 2 values"):
        impactfit.engine("mujoco", e=0.5, v=1.0, settings={"solref": (0.02,)}, **b)
    with pytest.raises(ValueError, match="v is required"):
        impactfit.engine("mujoco", e=0.5, **b)
    with pytest.raises(ValueError, match="mass"):
        impactfit.engine("mujoco", e=0.5, v=1.0, radius=0.005)
    with pytest.raises(ValueError, match="radius"):
        impactfit.engine("mujoco", e=0.5, v=1.0, mass=1.0)
    with pytest.raises(TypeError):
        impactfit.engine("mujoco", e="0.5", v=1.0, **b)
    with pytest.raises(TypeError, match="model must be a string"):
        impactfit.engine("mujoco", 0.5, 1.0, **b)
    with pytest.raises(ValueError, match="integrator 'rk5'"):
        impactfit.engine("mujoco", e=0.5, v=1.0, integrator="rk5", **b)
    with pytest.raises(ValueError, match="refsafe"):
        impactfit.engine("mujoco", e=0.5, v=1.0, refsafe=2, **b)


def test_infinite_default():
    """An infinity where the setting's default is infinite (ODE's mu = dInfinity, max_vel: no cap) is that default;
    anywhere else it is refused as the CLI refuses it."""
    b = dict(r1=0.005, m1=0.001309, dt=1e-4, kp=1000.0, kd=1.0)
    want = impactfit.engine("ode", e=0.5, v=1.0, **b)
    got = impactfit.engine("ode", e=0.5, v=1.0, settings={"mu": math.inf, "max_vel": math.inf}, **b)
    assert (got["value"], got["e_mean"]) == (want["value"], want["e_mean"])
    with pytest.raises(ValueError, match="ode spring-damper: mu value 1 is not a finite number"):
        impactfit.engine("ode", e=0.5, v=1.0, settings={"mu": -math.inf}, **b)
    with pytest.raises(ValueError, match="ode spring-damper: kd value 1 is not a finite number"):
        impactfit.engine("ode", e=0.5, v=1.0, **dict(b, kd=math.inf))


def test_settings_as_text():
    """A setting typed as the code writes it ("0.02 1", MuJoCo's solref) or as the CLI takes it ("0.02,1") is its
    numbers, not its characters (issue 38 item 7); a wrong count says what the CLI says."""
    b = dict(r1=0.005, m1=0.001309)
    want = impactfit.engine("mujoco", e=0.5, v=1.0, settings={"solref": (0.02, 1.0)}, **b)["value"]
    for text in ("0.02 1", "0.02,1", " 0.02, 1 "):
        assert impactfit.engine("mujoco", e=0.5, v=1.0, settings={"solref": text}, **b)["value"] == want
    assert impactfit.engine("mujoco", e=0.5, v=1.0, solref="0.02 1", **b)["value"] == want
    with pytest.raises(ValueError, match=r"mujoco soft contact: solref takes 2 values \(got 3\)$"):
        impactfit.engine("mujoco", e=0.5, v=1.0, settings={"solref": "0.02 1 3"}, **b)
    with pytest.raises(ValueError, match="expected numbers separated by commas or spaces"):
        impactfit.engine("mujoco", e=0.5, v=1.0, settings={"solref": "0.02 x"}, **b)
    cli = subprocess.run([CLI, "engine", "--code", "mujoco", "--solref", "0.02 1 3", "--e", "0.5", "--v", "1",
                          "--radius", "0.005", "--mass", "0.001309"], capture_output=True, text=True)
    assert cli.returncode == 2 and cli.stderr.strip().endswith("mujoco soft contact: solref takes 2 values (got 3)")


def test_friction_kept():
    """The friction typed comes back in the pasted text; MuJoCo's text carries the settings it was computed for."""
    b = dict(r1=0.005, m1=0.001309)
    r = impactfit.engine("mujoco", e=0.5, v=1.0, settings={"friction": (0.5, 0.5, 0.01, 0.001, 0.001)}, impratio=10,
                         **b)
    assert 'friction="0.5 0.01 0.001"' in r["input"] and 'impratio="10"' in r["input"]
    assert "Computed for condim 3, the pyramidal cone, friction 0.5 (the contact's first value) and impratio 10" in r["note"]
    r = impactfit.engine("ode", model="bounce", e=0.5, v=1.0, dt=0.001, mu=0.25, **b)
    assert "contact.surface.mu = 0.25;" in r["input"]


def test_gravity_same_as_cli():
    b = dict(mass=0.001309, radius=0.005)
    r = impactfit.engine("mujoco", e=0.6, v=1.0, gravity=9.81, **b)
    c = cli_engine("--code", "mujoco", "--e", "0.6", "--v", "1", "--mass", "0.001309", "--radius", "0.005",
                   "--gravity", "9.81")
    for k in KEYS + ["gravity"]:
        assert same(c[k], r[k]), k
    assert r["gravity"] == 9.81 and r["note"].startswith("Gravity taken")
    # gravity changes the answer (the speeds at the step states): the value without it is another
    assert abs(r["value"] - impactfit.engine("mujoco", e=0.6, v=1.0, **b)["value"]) > 1e-3
    with pytest.raises(ValueError, match="does not model gravity"):
        impactfit.engine("simbody", e=0.6, v=1.0, gravity=9.81, **b)
    with pytest.raises(ValueError, match="gravity"):
        impactfit.engine("mujoco", e=0.6, v=1.0, gravity=-1.0, **b)


DROP = dict(mass=0.5, radius=0.1, dt=1e-4, peak=0.002, releases=4, settings={"solimp": (0.0001, 0.95, 0.001, 0.5, 2)})
DROP_CLI = ["--code", "mujoco", "--mass", "0.5", "--radius", "0.1", "--dt", "1e-4", "--peak", "0.002", "--releases",
            "4", "--solimp", "0.0001,0.95,0.001,0.5,2", "--drop", "1"]


@pytest.mark.parametrize("e", [0.75, 0.5])
def test_drop_same_as_cli(e):
    d = impactfit.drop("mujoco", e=e, **DROP)
    c = cli_engine(*DROP_CLI, "--e", repr(e))
    assert list(c) == list(d)
    for k in c:
        if k == "bounce":
            assert len(c[k]) == len(d[k]) and all(same(x[j], y[j]) for x, y in zip(c[k], d[k]) for j in x)
        elif k == "e_range":
            assert all(same(x, y) for x, y in zip(c[k], d[k]))
        else:
            assert same(c[k], d[k]), k
    # the resolving step: the sequence is determined to its end, the release's fit is e
    assert d["solved_on"] == "release" and d["determined"] == d["counted"] >= 4
    assert abs(d["e_fit"] - e) <= 1e-9
    # the fit written here from the answer's apexes (h_0 the release height): least squares of ln h_n on n
    h = [1.0] + [b["apex"] for b in d["bounce"]]
    n = len(h) - 1
    mx, my = n / 2, sum(math.log(x) for x in h) / (n + 1)
    slope = sum((k - mx) * (math.log(h[k]) - my) for k in range(n + 1)) / sum((k - mx) ** 2 for k in range(n + 1))
    assert abs(math.exp(slope / 2) - d["e_fit"]) <= 1e-12
    # forward at the answer's value: the same sequence
    f = impactfit.drop("mujoco", value=d["value"], **DROP)
    assert f["solved_on"] == "forward" and [b["apex"] for b in f["bounce"]] == [b["apex"] for b in d["bounce"]]


def test_drop_errors():
    with pytest.raises(ValueError, match="takes no time step"):
        impactfit.drop("simbody", e=0.75, mass=0.5, radius=0.1)
    with pytest.raises(ValueError, match="reading"):
        impactfit.drop("mujoco", e=0.75, reading="peaks", **DROP)
    with pytest.raises(ValueError, match="height"):
        impactfit.drop("mujoco", e=0.75, height=0.0, **DROP)
    with pytest.raises(ValueError, match="not both"):
        impactfit.drop("mujoco", e=0.75, value=0.1, **DROP)
