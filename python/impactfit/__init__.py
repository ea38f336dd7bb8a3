# SPDX-License-Identifier: GPL-3.0-or-later
"""impactfit: exact damping constants of continuous contact-force models from a coefficient of restitution.

Python binding of the C library libimpactfit (the same numbers to the last digit). Every function of the
vectorised group (copt, zhang_alpha, zhang_lambda, simulate, hc_eps, impact_time, identify_hc, dem and
the surrogates) accepts scalars or array-likes for its numeric arguments and broadcasts them with NumPy's rules;
an array call runs on all cores (OpenMP, one library workspace per thread) with the GIL released. Scalar
arguments give Python floats (ints for counters); array arguments give NumPy arrays of the broadcast shape.
Each point is solved on its own (no continuation between neighbours), so a value does not depend on the
array it is part of, nor on the number of threads.

Units (SI throughout): stiffness k in N/m^n, damping c (lambda) in N*s/m^(m+1), effective mass in kg,
approach velocity v in m/s, times in s, lengths in m, forces in N, energies in J. The scaled damping zeta is
dimensionless: c = zeta * mass * v / delta_m0^(m+1), delta_m0 = [(n+1) mass v^2 / (2k)]^(1/(n+1)).

Errors: invalid input raises ValueError with the library's message; a numerical failure (no separation, no
root, no convergence, ...) raises impactfit.NumericalError. In an array call the lowest failing flat index
is reported; on_error="nan" instead puts NaN at the failed points and raises nothing.

threads=0 (default) uses OpenMP's default (OMP_NUM_THREADS or all cores).
"""
from __future__ import annotations

import array as _array
import dataclasses as _dc
import math as _math
import numbers as _numbers
import os as _os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:  # for IDEs and type checkers only: NumPy is not needed for scalar calls
    import numpy.typing as _npt

    ArrayLike = Union[float, "_npt.ArrayLike"]
    #: a float for scalar arguments, else a NumPy array of the broadcast shape
    FloatOrArray = Union[float, "_npt.NDArray[Any]"]
else:
    ArrayLike = Any
    FloatOrArray = Any

from . import _impactfit as _c

__all__ = [
    "NumericalError", "copt", "zhang_alpha", "zhang_lambda", "simulate", "SimulateResult", "hc_eps",
    "impact_time", "identify_hc", "identify", "copt_surrogate", "zhang_surrogate", "dtau_surrogate",
    "rh_eps_refit", "code", "dem", "engine", "drop", "sweep", "fit", "library_version", "__version__",
]

library_version: str = _c.library_version
__version__: str = _c.library_version


class NumericalError(RuntimeError):
    """A numerical failure of the library (not bad input): no separation within the time bound, no
    damping that gives the target restitution, no convergence, a failed integrator step.

    Attributes: status (the library's status name, e.g. "ENOROOT"), index (the flat index of the failing
    point in the broadcast inputs, None for scalar calls) and message."""

    def __init__(self, message: str, status: str = "", index: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.index = index


_c.set_numerical_error(NumericalError)

_NAN = float("nan")


def _is_scalar(x: Any) -> bool:
    return _scalar("", x) is not None


def _not_a_number(kernel: str, x: Any) -> TypeError:
    text = isinstance(x, (str, bytes, bytearray)) or getattr(getattr(x, "dtype", None), "kind", "") in "SU"
    return TypeError("%s: expected a number or an array of numbers, got %s %r%s" % (
        kernel, type(x).__name__, x, " (text is not converted to numbers)" if text else ""))


def _scalar(kernel: str, x: Any) -> Optional[float]:
    """x as a float when it is one number (a Python or NumPy number, a 0-d array, a Decimal or Fraction);
    None when it is an array-like; TypeError for a string or another non-number."""
    if isinstance(x, (str, bytes, bytearray)):
        raise _not_a_number(kernel, x)
    if isinstance(x, _numbers.Real):
        return float(x)
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        if x.shape != ():
            return None
        if getattr(x.dtype, "kind", "") not in "biuf":
            raise _not_a_number(kernel, x)
        return float(x)
    if isinstance(x, (list, tuple)) or hasattr(x, "__len__") or hasattr(x, "__iter__"):
        return None
    if hasattr(x, "__float__"):
        return float(x)
    raise _not_a_number(kernel, x)


def _numpy_advice() -> str:
    """How to get NumPy for this interpreter: pip inside a virtual environment, Debian's package for
    Debian's own python3 (whose pip refuses to install outside one), else pip."""
    import sys
    if sys.prefix != getattr(sys, "base_prefix", sys.prefix):
        return "%s -m pip install numpy" % (sys.executable,)
    if sys.executable.startswith("/usr/bin/python3"):
        return "apt-get install python3-numpy (Debian's python3), or a virtual environment with pip install numpy"
    return "%s -m pip install numpy" % (sys.executable,)


def _numpy(kernel: str):
    try:
        import numpy as np
    except ImportError:
        raise ImportError("impactfit.%s: array arguments need NumPy, which this Python (%s) does not have: %s; "
                          "without it, give one number per argument" % (kernel, __import__("sys").executable,
                                                                      _numpy_advice())) from None
    return np


def _run(kernel: str, inputs: Sequence[Any], names: Sequence[str], options: Dict[str, Any], threads: int,
         on_error: str, ints: Sequence[str] = ()) -> Dict[str, Any]:
    """Broadcasts the inputs, runs the kernel, returns {output name: float / array}: Python floats (ints
    for counters) when every input is one number, else NumPy arrays of the broadcast shape."""
    if on_error not in ("raise", "nan"):
        raise ValueError("on_error: expected 'raise' or 'nan', got %r" % (on_error,))
    scalars = [_scalar(kernel, x) for x in inputs]
    if all(x is not None for x in scalars):
        ins = tuple(_array.array("d", [x]) for x in scalars)
        outs = tuple(_array.array("d", [0.0]) for _ in names)
        status = _array.array("i", [0])
        fail = _c.run(kernel, ins, outs, status, options, int(threads))
        if fail is not None and on_error == "raise":
            _raise(fail, None)
        return {n: (int(o[0]) if n in ints and o[0] == o[0] else o[0]) for n, o in zip(names, outs)}
    np = _numpy(kernel)
    vals = []
    for x in inputs:
        a = np.asarray(x)
        if a.dtype.kind == "O" and not all(isinstance(y, _numbers.Real) or
                                           (hasattr(y, "__float__") and not isinstance(y, (str, bytes)))
                                           for y in a.reshape(-1)):
            raise _not_a_number(kernel, x)
        if a.dtype.kind not in "biufO":
            raise _not_a_number(kernel, x)
        vals.append(a.astype(np.float64))
    arrs = np.broadcast_arrays(*vals)
    shape = arrs[0].shape
    ins = tuple(np.ascontiguousarray(a).reshape(-1) for a in arrs)
    size = ins[0].size
    outs = tuple(np.empty(size, dtype=np.float64) for _ in names)
    status = np.zeros(size, dtype=np.int32)
    if size:
        fail = _c.run(kernel, ins, outs, status, options, int(threads))
        if fail is not None and on_error == "raise":
            _raise(fail, shape)
    res = {}
    for n, o in zip(names, outs):
        o = o.reshape(shape)
        if n in ints and on_error == "raise":
            o = o.astype(np.int64)
        res[n] = o
    return res


def _raise(fail: Tuple[int, int, str, str, bool], shape: Optional[Tuple[int, ...]]):
    index, _code, name, message, is_input = fail
    if shape is not None:
        import numpy as np
        where = tuple(int(i) for i in np.unravel_index(index, shape))
        message = "%s (at index %s of the broadcast inputs)" % (message, where if len(where) != 1 else where[0])
    else:
        index = None
    if is_input:
        raise ValueError(message)
    raise NumericalError(message, name, index)


def _opt(x: Optional[float]) -> Any:
    return _NAN if x is None else x


# ---- inverse problems ------------------------------------------------------------------------------

_COPT_OUT = ("c_opt", "zeta", "e_out", "delta_sep", "t_contact", "iterations", "rhs_evals")


def copt(n: ArrayLike, e: ArrayLike, k: Optional[ArrayLike] = None, mass: Optional[ArrayLike] = None,
         v: Optional[ArrayLike] = None, *,
         method: str = "fast", tol: float = 1e-10, dimensional: bool = False, full: bool = False,
         threads: int = 0, on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """Optimal damping coefficient c_opt of Poursina & Nikravesh (2020), solved exactly.

    For the Hertz spring with a linear damper, mass d'' + c d' + k d^n = 0, d(0) = 0, d'(0) = v, separating
    where the contact force falls to zero (condition C), the c with |e_out - e| <= tol*min(e, 1-e).

    n: spring exponent (> 0); e: target coefficient of restitution, 0 < e <= 1 (e = 1 gives 0);
    k: stiffness in N/m^n; mass: effective mass in kg; v: approach velocity in m/s: all three or none
    (none: the scaled problem, k = mass = v = 1; a partial set raises ValueError, as in the CLI).
    method: "fast" (default), "bisect" (the paper's; the reference, from its own bracket, ignoring every
    guess) or "nlopt"; tol: |e_out - e| <= tol*min(e, 1-e) (1e-13 <= tol < 0.1); dimensional: search c in
    the user's units instead of the scaled zeta.

    Returns c_opt in N*s/m, or with full=True a dict with c_opt (N*s/m), zeta (scaled, dimensionless),
    e_out (restitution of the simulation with c_opt: what simulate() gives for it within the engine's accuracy), delta_sep (penetration at separation, m), t_contact
    (contact duration, s), iterations and rhs_evals. Same values as `impactfit copt --json`.
    Without full, c_opt is the same double, found with less work (the library's damping_only: no
    simulation at the engine's default tolerance for an e_out nobody reads; inverse.h).
    """
    r = _run("copt", (n, e, _opt(k), _opt(mass), _opt(v)), _COPT_OUT,
             {"method": method, "tol": float(tol), "dimensional": int(bool(dimensional)),
              "damping_only": int(not full)}, threads, on_error,
             ints=("iterations", "rhs_evals"))
    return r if full else r["c_opt"]


_ZHANG_OUT = ("alpha", "lambda_star", "zeta", "e_out", "lambda", "iterations", "rhs_evals")


def zhang_alpha(n: ArrayLike, m: ArrayLike, e: ArrayLike, k: Optional[ArrayLike] = None,
                mass: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, *, transition: str = "C",
                method: str = "fast", tol: float = 1e-10, full: bool = False, threads: int = 0,
                on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """Modification parameter alpha of Zhang et al. (2021), solved exactly.

    For the element f = k d^n + lambda d^m d' with their Eq. (53),
    lambda = 3 mass (m+1)(1-e) v / (4 alpha) * [e mass (n+1) v^2 / (2k)]^(-(m+1)/(n+1)),
    alpha such that a simulated impact gives e_out = e to |e_out - e| <= tol*min(e, 1-e). alpha depends on
    n, m, e and the transition condition only (dimensionless). method: "fast" (default), "bisect" (the
    reference, from its own bracket, ignoring every guess) or "nlopt".

    n: spring exponent (> 0); m: damping exponent (>= 0); e: 0 < e < 1; transition: "C" (contact ends at
    zero force, default) or "A" (at d = 0), also "B", "D"; k (N/m^n), mass (kg), v (m/s): all three or none,
    for lambda in the user's units (N*s/m^(m+1)).

    Returns alpha, or with full=True a dict with alpha, lambda_star (their scaled damping), zeta, e_out,
    lambda (NaN without k, mass, v), iterations, rhs_evals. Same values as `impactfit zhang-alpha --json`.
    Without full, alpha is the same double, found with less work (as copt).
    """
    r = _zhang(n, m, e, k, mass, v, transition, method, tol, threads, on_error, damping_only=not full)
    return r if full else r["alpha"]


def _zhang(n, m, e, k, mass, v, transition, method, tol, threads, on_error, damping_only):
    return _run("zhang_alpha", (n, m, e, _opt(k), _opt(mass), _opt(v)), _ZHANG_OUT,
                {"method": method, "tol": float(tol), "transition": transition, "damping_only": int(damping_only)},
                threads, on_error, ints=("iterations", "rhs_evals"))


def zhang_lambda(n: ArrayLike, m: ArrayLike, e: ArrayLike, k: ArrayLike, mass: ArrayLike, v: ArrayLike, *,
                 transition: str = "C", method: str = "fast", tol: float = 1e-10, threads: int = 0,
                 on_error: str = "raise") -> FloatOrArray:
    """The damping lambda (N*s/m^(m+1)) of f = k d^n + lambda d^m d' that gives restitution e exactly:
    zhang_alpha(..., full=True)["lambda"] (the same doubles, found with zhang_alpha's work without full).
    k in N/m^n, mass in kg, v in m/s; see zhang_alpha."""
    return _zhang(n, m, e, k, mass, v, transition, method, tol, threads, on_error, damping_only=True)["lambda"]


# ---- one impact ------------------------------------------------------------------------------------

_SIM_OUT = ("e_out", "t_contact", "f_max", "t_fmax", "f_min", "delta_max", "t_delta_max", "delta_start",
            "delta_sep", "f_start", "f_end", "damping_work", "energy_error", "zeta", "gamma", "delta_m0",
            "rhs_evals", "steps", "n_contacts")


@_dc.dataclass
class SimulateResult:
    """Result of impactfit.simulate (floats for a scalar call, NumPy arrays of the broadcast shape
    otherwise). Times in s, lengths in m, forces in N, energies in J; see include/impactfit/impact.h."""
    e_out: Any          #: coefficient of restitution -d'(t_s)/v at the end of the first contact
    t_contact: Any      #: duration of the first contact, s
    f_max: Any          #: largest contact force of the first contact, N
    t_fmax: Any         #: its time, s
    f_min: Any          #: smallest contact force (< 0: tensile), N
    delta_max: Any      #: maximum penetration, m
    t_delta_max: Any    #: its time, s
    delta_start: Any    #: penetration when contact starts (< 0 under B), m
    delta_sep: Any      #: penetration at separation, m
    f_start: Any        #: force just after the start of contact, N
    f_end: Any          #: force just before the end of contact, N
    damping_work: Any   #: energy dissipated by the damper in the first contact, J
    energy_error: Any   #: relative energy-balance error
    zeta: Any           #: scaled damping
    gamma: Any          #: scaled acceleration
    delta_m0: Any       #: length scale [(n+1) mass v^2/(2k)]^(1/(n+1)), m
    rhs_evals: Any      #: right-hand-side evaluations
    steps: Any          #: accepted integrator steps
    n_contacts: Any     #: contacts started
    #: scalar calls: each contact (t_start, t_end, ... in s, m, m/s, N)
    contacts: Optional[List[Dict[str, Any]]] = None
    #: with trajectory=P: arrays t, delta, delta_dot, force, element, in_contact
    trajectory: Optional[Dict[str, Any]] = None

    def as_dict(self) -> Dict[str, Any]:
        return _dc.asdict(self)


def simulate(n: ArrayLike, c: ArrayLike, m: ArrayLike = 0.0, k: Optional[ArrayLike] = None,
             mass: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, accel: ArrayLike = 0.0, *, transition: str = "C", contacts: int = 1,
             t_max: float = 0.0, rtol: float = 1e-13, trajectory: int = 0, threads: int = 0,
             on_error: str = "raise") -> SimulateResult:
    """Simulates the impact mass d'' + k d^n + c d^m d' = mass*accel, d(0) = 0, d'(0) = v.

    n: spring exponent (> 0); c: damping coefficient (>= 0) in N*s/m^(m+1) (lambda for Hunt-Crossley,
    m = n); m: damping exponent (>= 0); k: stiffness in N/m^n; mass: effective mass in kg; v: approach
    velocity in m/s (> 0): k, mass and v all three or none (none: 1 each, the scaled problem; a partial set
    raises ValueError, as in the CLI); accel: constant acceleration pressing the bodies together, m/s^2 (>= 0).
    transition: "A" (contact while d > 0), "B" (while the force is positive), "C" (default: starts at d = 0,
    ends at zero force), "D" (as C, the element then relaxes); contacts: bounces to follow (> 1 needs
    accel > 0); t_max: time bound in units of delta_m0/v (0: automatic); rtol: integrator tolerance.
    trajectory=P (scalar calls only, P >= 2): also the motion sampled at P equally spaced times over 1.25x
    the end of the last contact, as NumPy arrays (t s, delta m, delta_dot m/s, force N, element m,
    in_contact 0/1).

    Returns a SimulateResult; same values as `impactfit simulate --json`.
    """
    opts = {"transition": transition, "max_contacts": int(contacts), "t_max": float(t_max), "rtol": float(rtol)}
    ins = (n, m, _opt(k), c, _opt(mass), _opt(v), accel)
    r = _run("simulate", ins, _SIM_OUT, opts, threads, on_error, ints=("rhs_evals", "steps", "n_contacts"))
    res = SimulateResult(**r)
    if all(_is_scalar(x) for x in ins):
        if res.e_out == res.e_out:  # not a failed point under on_error="nan"
            cts, tr = _c.details(tuple(float(x) for x in ins), opts, int(trajectory))
            res.contacts = cts
            if tr is not None:
                import numpy as np
                names = ("t", "delta", "delta_dot", "force", "element", "in_contact")
                res.trajectory = {nm: np.frombuffer(b, dtype=np.float64).copy() for nm, b in zip(names, tr)}
                res.trajectory["in_contact"] = res.trajectory["in_contact"].astype(np.int8)
    elif trajectory:
        raise ValueError("trajectory: only for a scalar call (one impact)")
    return res


# ---- Hunt-Crossley --------------------------------------------------------------------------------

def hc_eps(e: ArrayLike, k: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, *, full: bool = False,
           threads: int = 0, on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """Exact hysteresis damping ratio eps = lambda v / k of the Hunt-Crossley model f = k d^n + lambda d^n d'
    that gives restitution e (0 < e <= 1; e = 1 gives 0), from (1 + eps)/(1 - e eps) = exp(eps (1 + e)),
    accurate to a few units of double rounding (dimensionless, the same for every n).

    With k (N/m^n) and v (m/s), full=True also gives lambda = eps k / v in N*s/m^(n+1). Returns eps, or a
    dict with eps and lambda (NaN without k, v). Same values as `impactfit hc-eps --json`."""
    r = _run("hc_eps", (e, _opt(k), _opt(v)), ("eps", "lambda"), {}, threads, on_error)
    return r if full else r["eps"]


def impact_time(eps: ArrayLike, n: ArrayLike, k: Optional[ArrayLike] = None, mass: Optional[ArrayLike] = None,
                v: Optional[ArrayLike] = None, *, full: bool = False, threads: int = 0,
                on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """Dimensionless Hunt-Crossley contact duration dtau(eps, n) of x'' + x^n (eps x' + 1) = 0, x(0) = 0,
    x'(0) = 1, until x returns to 0 (tau = omega_i t); simulated, about 1e-13 relative; dtau(0, 1) = pi.

    eps: 0 <= eps <= 1e7 (cost grows with eps: ~0.1 ms below 100, 0.15 s at 1e6); n > 0. With k (N/m^n),
    mass (kg), v (m/s), full=True also gives omega_i = (k v^(n-1)/mass)^(1/(n+1)) in 1/s, dt = dtau/omega_i
    in s and lambda = eps k / v. Returns dtau, or a dict with dtau, e (exact e(eps)), e_sim (simulated),
    omega_i, dt, lambda. Same values as `impactfit impact-time --json`."""
    r = _run("impact_time", (eps, n, _opt(k), _opt(mass), _opt(v)),
             ("dtau", "e", "e_sim", "omega_i", "dt", "lambda"), {}, threads, on_error)
    return r if full else r["dtau"]


_IDHC_OUT = ("eps", "dtau", "omega_i", "k", "lambda", "e_sim", "dt_sim", "e_residual", "dt_residual")


def identify_hc(e: ArrayLike, dt: ArrayLike, v: ArrayLike, mass: ArrayLike, n: ArrayLike = 1.5, *, threads: int = 0,
                on_error: str = "raise") -> Dict[str, FloatOrArray]:
    """Stiffness and damping of a Hunt-Crossley contact (exponent n, m = n) from one measured impact: the
    coefficient of restitution e, the contact duration dt (s), the approach velocity v (m/s) and the
    effective mass (kg). Returns a dict: eps, dtau, omega_i (1/s), k (N/m^n), lambda (N*s/m^(n+1)), and the
    check by simulation: e_sim, dt_sim (s), e_residual, dt_residual (relative). Same values as
    `impactfit identify-hc --json`."""
    return _run("identify_hc", (e, dt, v, mass, n), _IDHC_OUT, {}, threads, on_error)


_SLOTS = {"n": 0, "m": 1, "k": 2, "c": 3, "lambda": 3}


def identify(v: ArrayLike, e: ArrayLike, dt: Optional[ArrayLike] = None, fmax: Optional[ArrayLike] = None,
             mass: Optional[ArrayLike] = None, *, model: str = "hc", fix: Optional[Dict[str, float]] = None,
             bounds: Optional[Dict[str, Tuple[float, float]]] = None, weights: Optional[Dict[str, float]] = None,
             transition: str = "C", global_method: str = "crs", maxeval: int = 0, seed: int = 1,
             box_factor: float = 30.0, per_row: Optional[float] = None) -> Dict[str, Any]:
    """Fits the contact element f = k d^n + c d^m d' to measured impacts (impactfit_identify_fit; the CLI's
    `impactfit identify`).

    v: approach velocities (m/s), e: restitutions (0 < e <= 1), optionally dt: contact durations (s), fmax:
    peak forces (N); one value per impact (sequences of one length). mass: effective mass in kg, a scalar
    or one per impact. model: "hc" (Hunt-Crossley, m = n: n, k, lambda), "linear" (m = 0: n, k, c),
    "zhang" (m free). fix: {"n": .., "m": .., "k": N/m^n, "c" or "lambda": N*s/m^(m+1)}; without dt or
    fmax, k must be fixed. bounds: {"n": (lo, hi), "m": (lo, hi)}; weights: {"e": .., "dt": .., "fmax": ..};
    global_method: "crs", "direct" or "none"; maxeval (0: default), seed, box_factor as in the CLI.
    per_row=M: also the damping of each law that reproduces each row's e exactly with the fitted n, k (the
    third law with exponent M).

    Returns a dict: n, m, k, c (fitted values; "lambda" too for hc and zhang), se (standard errors in the
    parameters' units, -1 when not identifiable), se_fit, free, identifiable, at_bound, corr (4x4, order
    n, m, ln k, ln c), cost, rms, sigma, warnings, rows (simulated e, dt, fmax and relative residuals), ...
    """
    import numpy as np
    v = np.atleast_1d(np.asarray(v, dtype=np.float64))
    rows = v.size
    cols = 0

    def col(x, bit):
        nonlocal cols
        if x is None:
            return np.zeros(rows)
        cols |= bit
        a = np.broadcast_to(np.asarray(x, dtype=np.float64), (rows,))
        return np.ascontiguousarray(a)

    e_ = np.ascontiguousarray(np.broadcast_to(np.asarray(e, dtype=np.float64), (rows,)))
    if mass is None:
        raise ValueError("mass: the effective mass is required (a scalar or one per impact)")
    data = (np.ascontiguousarray(v), e_, col(dt, 1), col(fmax, 2), col(mass, 4))
    params: Dict[str, Any] = {"model": model, "transition": transition, "global": global_method,
                              "seed": int(seed), "box_factor": float(box_factor)}
    if maxeval:
        params["maxeval"] = int(maxeval)
    if fix:
        fixed = {}
        for name, val in fix.items():
            if name not in _SLOTS:
                raise ValueError("fix: unknown parameter '%s' (n, m, k, c or lambda)" % name)
            fixed[_SLOTS[name]] = float(val)
        params["fixed"] = fixed
    for name, (lo, hi) in (bounds or {}).items():
        if name not in ("n", "m"):
            raise ValueError("bounds: only n and m have bounds (got '%s')" % name)
        params[name + "_lo"], params[name + "_hi"] = float(lo), float(hi)
    if weights:
        unknown = set(weights) - {"e", "dt", "fmax"}
        if unknown:
            raise ValueError("weights: unknown quantity %s (e, dt, fmax)" % sorted(unknown))
        params["weights"] = tuple(float(weights.get(q, 1.0)) for q in ("e", "dt", "fmax"))
    if per_row is not None:
        params["per_row"] = float(per_row)
    r = _c.identify(data, cols, params)
    names = ("n", "m", "k", "c")
    for i, name in enumerate(names):
        r[name] = r["value"][i]
    if r["model"] in ("hc", "zhang"):
        r["lambda"] = r["c"]
    for key in ("se", "se_fit", "free", "identifiable", "at_bound"):
        r[key] = dict(zip(names, r[key]))
    return r


# ---- committed surrogates (include/impactfit/generated/) -------------------------------------------

def copt_surrogate(n: ArrayLike, e: ArrayLike, k: Optional[ArrayLike] = None, mass: Optional[ArrayLike] = None,
                   v: Optional[ArrayLike] = None, *, full: bool = False, threads: int = 0,
                   on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """The committed surrogate of the c_opt problem (generated/copt_surrogate.h, box n in [1, 2],
    e in [1e-4, 1]): the scaled damping zeta(n, e), about 1e-9 accurate in e, ~100x faster than copt.
    With k (N/m^n), mass (kg), v (m/s) returns c_opt in N*s/m, else zeta; full=True: a dict with both."""
    r = _run("copt_surrogate", (n, e, _opt(k), _opt(mass), _opt(v)), ("zeta", "c"), {}, threads, on_error)
    return r if full else (r["zeta"] if k is None else r["c"])


def zhang_surrogate(n: ArrayLike, m: ArrayLike, e: ArrayLike, k: Optional[ArrayLike] = None,
                    mass: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, *, transition: str = "C",
                    full: bool = False, threads: int = 0,
                    on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """The committed Zhang surrogates (generated/zhang_c_surrogate.h for transition "C",
    zhang_a_surrogate.h for "A"; box n in [1, 2], m in [0, 2], e in [0.01, 1]): returns alpha (NaN at
    e = 1), or with full=True a dict with zeta, alpha and lambda in N*s/m^(m+1) (with k N/m^n, mass kg,
    v m/s; else NaN)."""
    r = _run("zhang_surrogate", (n, m, e, _opt(k), _opt(mass), _opt(v)), ("zeta", "alpha", "lambda"),
             {"transition": transition}, threads, on_error)
    return r if full else r["alpha"]


def dtau_surrogate(eps: ArrayLike, n: ArrayLike, k: Optional[ArrayLike] = None, mass: Optional[ArrayLike] = None,
                   v: Optional[ArrayLike] = None, *, full: bool = False, threads: int = 0,
                   on_error: str = "raise") -> Union[FloatOrArray, Dict[str, FloatOrArray]]:
    """The committed surrogate of the Hunt-Crossley contact duration (generated/ramaswamy_dtau_surrogate.h,
    box eps in [0, 100], n in [1, 2]): dtau(eps, n) (dimensionless), or with k (N/m^n), mass (kg) and
    v (m/s) the contact duration dt in s; full=True: a dict with dtau and dt."""
    r = _run("dtau_surrogate", (eps, n, _opt(k), _opt(mass), _opt(v)), ("dtau", "dt"), {}, threads, on_error)
    return r if full else (r["dtau"] if k is None else r["dt"])


def rh_eps_refit(e: ArrayLike, which: str = "minimax", *, threads: int = 0,
                 on_error: str = "raise") -> FloatOrArray:
    """Ramaswamy-Humbert's form eps(e) with the refitted constants of generated/ramaswamy_eps.h:
    which = "minimax" (0.79 % max relative error on [0.01, 1]) or "lsq". 0 < e <= 1; dimensionless."""
    return _run("rh_eps", (e,), ("eps",), {"which": which}, threads, on_error)["eps"]


# ---- the codes: DEM codes and multibody engines -------------------------------------------------------

# the kernel "code"'s inputs (bindings/kernels.h: e, v, value, dt, the bodies, then 8 one-value settings) and
# outputs (CODE_OUT)
_CODE_BODIES = ("radius", "r2", "density", "rho2", "mass", "m2", "meff", "reff")
_CODE_SLOTS = 8
_CODE_OUT = ("value", "e", "e_min", "e_max", "e_continuous", "e_speed_min", "e_speed_max", "e_naive",
             "e_naive_min", "e_naive_max", "naive_value", "reachable", "stable", "dt_stable", "e_reach_min",
             "e_reach_max", "zeta", "C", "K", "R", "mass", "dt", "speed_dependent", "stepped", "forward", "impacts")
_CODE_INTS = ("reachable", "stable", "speed_dependent", "stepped", "forward", "impacts")
# an array call's keys per kind (the numbers of the scalar call's JSON keys; e's name as in the JSON)
_CODE_ARRAY = {
    "power": (("value", "value"), ("e_naive", "e_naive"), ("reachable", "reachable"), ("zeta", "zeta"),
              ("C", "C"), ("K", "K"), ("R", "R"), ("M", "mass")),
    "forward": (("value", "value"), ("e_real", "e"), ("R", "R"), ("M", "mass")),
    "steps": (("value", "value"), ("e_mean", "e"), ("e_min", "e_min"), ("e_max", "e_max"),
              ("e_continuous", "e_continuous"), ("naive_value", "naive_value"), ("e_naive", "e_naive"),
              ("e_naive_min", "e_naive_min"), ("e_naive_max", "e_naive_max"), ("reachable", "reachable"),
              ("e_reach_min", "e_reach_min"), ("e_reach_max", "e_reach_max"), ("stable", "stable"),
              ("dt_stable", "dt_stable"), ("dt", "dt"), ("mass", "mass")),
}


def _one_of(what: str, a: Tuple[str, Any], b: Tuple[str, Any]) -> Any:
    if a[1] is not None and b[1] is not None:
        raise ValueError("%s: give %s or %s, not both" % (what, a[0], b[0]))
    return a[1] if a[1] is not None else b[1]



def _setting_text(what: str, name: str, text: str) -> Tuple[float, ...]:
    """The numbers of a setting typed as text: separated by commas or spaces ("0.02 1", "0.02,1")."""
    items = [t for t in text.replace(",", " ").split()]
    if not items or text.count(",") >= len(items):
        raise ValueError("%s: setting %s: expected numbers separated by commas or spaces (got %r)" % (what, name, text))
    try:
        return tuple(float(t) for t in items)
    except ValueError:
        raise ValueError("%s: setting %s: expected numbers separated by commas or spaces (got %r)"
                         % (what, name, text)) from None

def code(code: str, model: Optional[str] = None, e: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, *,
         option: Optional[str] = None, damping: Optional[str] = None, version: Optional[str] = None,
         integrator: Optional[str] = None, dt: Optional[ArrayLike] = None, value: Optional[ArrayLike] = None,
         limit: Optional[bool] = None, pair: Optional[bool] = None, wall: Optional[bool] = None,
         radius: Optional[ArrayLike] = None, r1: Optional[ArrayLike] = None, r2: Optional[ArrayLike] = None,
         density: Optional[ArrayLike] = None, rho1: Optional[ArrayLike] = None, rho2: Optional[ArrayLike] = None,
         mass: Optional[ArrayLike] = None, m1: Optional[ArrayLike] = None, m2: Optional[ArrayLike] = None,
         meff: Optional[ArrayLike] = None, reff: Optional[ArrayLike] = None,
         settings: Optional[Dict[str, Any]] = None, v_range: Optional[Tuple[float, float]] = None,
         radius_range: Optional[Tuple[float, float]] = None, r2_range: Optional[Tuple[float, float]] = None, points: int = 0, suggest: bool = True, threads: int = 0, on_error: str = "raise",
         gravity: Optional[float] = None, tangential: Optional[str] = None, e11: Optional[float] = None,
         e22: Optional[float] = None, **one_value_settings: ArrayLike) -> Dict[str, Any]:
    """The exact input that makes a real code give the restitution e, head-on (`impactfit dem` and
    `impactfit engine`: one registry of DEM codes and multibody engines; `impactfit dem --list`).

    impactfit knows, per code, version and model, the contact law the code's source computes and, for the
    engines, the code's own one-step map at the step dt you run. It solves for the model's free parameter
    that gives e (a DEM code's damping at the impact speed v; MuJoCo's solref dampratio, ...) and writes
    the text to paste into the code's input. With value instead of e: the forward problem, the e the code
    gives for a typed value (for an engine, value None and e None: the e of the settings as they are).

    code: "lammps", "liggghts", "yade", "chrono", "mujoco", "simbody", "ode", "bullet"; model: the code's
    model ("granular hertz/material", "gran/hertz/history", "hertz", "soft contact", ...; None: the code's
    default where it has one); option (or damping): the model's option where it has several ("tsuji",
    "en", "gn", ...); version: the code's version (None: the code's default); integrator, dt (s): the
    engine's integrator and step (None: the model's defaults; a DEM code's model is integrated in
    continuous time); limit: the code's force clamp (LAMMPS limit_damping, LIGGGHTS limitForce; None: the
    code's default). An unknown code, version, model, option, integrator or setting raises ValueError
    listing what is known (with a did-you-mean).

    Bodies (the one convention of every code): a sphere (radius or r1 (m); density or rho1 (kg/m^3) or mass
    or m1 (kg)) on a fixed wall/plane; pair=True: two equal spheres; any of r2, rho2, m2: two spheres (body 2
    the second sphere, its values defaulting to body 1's); wall=True says the wall explicitly; meff, reff
    (kg, m): the effective mass and radius directly.

    Settings: one-value settings by name as keywords (E (Pa), nu, kn (the code's stiffness, units in
    `impactfit dem --list`), tc (s, YADE's contact time), vchar (m/s, default v), ...: numbers or arrays,
    broadcast with e, v and the bodies; at most 8); settings of several values in settings={name: sequence}
    (e.g. {"solref": (0.02, 1.0), "solimp": (0.9, 0.95, 0.001, 0.5, 2)}; the same for every point).
    v_range=(v_min, v_max), points: the speeds to report over (scalar calls).
    radius_range=(r_min, r_max): a size range (m; scalar calls; `--radius-range`): the value is solved at the
    design radius (radius, r2), and the answer's "spread" gives the e it makes over every radius in the range
    (each sphere of a pair, the sphere on a wall) and every speed of v_range (a continuous-time answer gets it for
    v_range alone too): "r_range", "v_range", "points" per axis (points: 2..64, default 5), "evaluations",
    "e_min", "e_max", "where" (r1, r2, v of each), "corners" (r1, r2, v, e), "worst" (the largest |e - e asked|), "exact"
    (1: e_max - e_min <= 1e-9, measured); when not exact, "exact_model" (another model of the code whose one value
    is exact over the ranges, with its "input", or None) and, without one, "exact_other" (a model exact over them
    with its own inputs).
    r2_range=(r2_min, r2_max): two spheres: body 2's own size range (`--r2-range`; with radius_range for body 1,
    r_min = r_max holding it at one size); the spread then has "r2_range" (None: the one range for both).
    gravity (m/s^2, >= 0): along the normal, into the contact (a sphere over a plane), taken in every step of the
    engines whose step applies it (MuJoCo, ODE, Bullet); ValueError for any other model and in continuous time.
    tangential: the DEM code's own tangential clause, kept in the pasted line as typed (LAMMPS pair granular's
    words after `tangential`, "mindlin NULL 1.0 0.5"; LIGGGHTS's, "history"; `impactfit dem --tangential`).
    Two materials: per-body E and nu as settings={"E": (E1, E2), "nu": (nu1, nu2)} with r2/rho2 (two spheres);
    e is the 1-2 type pair's e, e11 and e22 the 1-1 and 2-2 pairs' (None: e; `--e11`, `--e22`); the input
    carries one line per type pair.

    Returns, when every number is scalar, a dict with the keys of `impactfit dem/engine ... --json` for the
    answer's kind (plus "kind": "power" (a continuous-time inverse answer), "forward", or "steps" (an
    engine's stepped answer)); for a power answer out of reach also "alternative" (None or another model of
    the same code that reaches e); for a stepped answer "range" (e at the speed rows). With arrays: a dict
    of NumPy arrays of the broadcast shape, per kind: power: value, e_naive, reachable, zeta, C, K, R, M;
    forward: value, e_real, R, M; steps: value, e_mean, e_min, e_max, e_continuous, naive_value, e_naive,
    e_naive_min, e_naive_max, reachable, e_reach_min, e_reach_max, stable, dt_stable, dt, mass.
    impactfit.dem and impactfit.engine are this function.

    >>> r = impactfit.code("mujoco", e=0.5, v=1.0, mass=0.001309, radius=0.005)
    >>> r["input"]   # <geom solref="0.02 0.24..." .../>"""
    what = "code"
    if model is not None and not isinstance(model, str):
        raise TypeError("%s: model must be a string (the code's model; give e and v as keywords or as the third "
                        "and fourth arguments)" % (what,))
    if e is not None and value is not None:
        raise ValueError("%s: give e (the restitution you want) or value (what you type), not both" % (what,))
    if v is None:
        raise ValueError("%s: v is required (the impact speed, m/s)" % (what,))
    if limit not in (None, True, False):
        raise ValueError("%s: limit: expected None (the code's default), True or False, got %r" % (what, limit))
    option = _one_of(what, ("option", option), ("damping", damping))
    r1 = _one_of(what, ("radius", radius), ("r1", r1))
    rho1 = _one_of(what, ("density", density), ("rho1", rho1))
    m1 = _one_of(what, ("mass", mass), ("m1", m1))
    if (m1 is not None or m2 is not None) and (rho1 is not None or rho2 is not None):
        raise ValueError("%s: give densities or masses, not both" % (what,))
    if pair is not None and wall is not None and bool(pair) == bool(wall):
        raise ValueError("%s: give pair=True or wall=True, not both" % (what,))
    body2 = pair if pair is not None else (None if wall is None else not wall)
    # a setting typed as the code writes it ("0.02 1", MuJoCo's solref) or as the CLI takes it ("0.02,1"): its numbers
    # (a str is not iterated as characters)
    settings = {k: _setting_text(what, k, x) if isinstance(x, str) else x for k, x in dict(settings or {}).items()}
    for k in [k for k, x in one_value_settings.items() if isinstance(x, str)]:
        settings[k] = _setting_text(what, k, one_value_settings.pop(k))
    if any(not isinstance(x, _numbers.Real) for x in one_value_settings.values()):
        # a setting of several values given by name (solref=(0.02, 1.0)): the same for every point
        counts = _c.code_inputs(code, version, model, option)
        for k in [k for k in one_value_settings if counts.get(k, 1) > 1]:
            settings[k] = tuple(float(x) for x in one_value_settings.pop(k))
    if len(one_value_settings) > _CODE_SLOTS:
        raise ValueError("%s: at most %d one-value settings as keywords (got %d); give the others in settings="
                         % (what, _CODE_SLOTS, len(one_value_settings)))
    options: Dict[str, Any] = {"code": code, "limit": -1 if limit is None else int(bool(limit)),
                               "pair": -1 if body2 is None else int(bool(body2)), "suggest": int(bool(suggest)),
                               "slots": tuple(one_value_settings), "settings": settings,
                               "points": int(points)}
    for k, x in (("model", model), ("option", option), ("version", version), ("integrator", integrator)):
        if x is not None:
            options[k] = x
    if v_range is not None:
        options["v_min"], options["v_max"] = (float(x) for x in v_range)
    if radius_range is not None:
        rr = tuple(float(x) for x in radius_range)
        if len(rr) != 2 or not (0 < rr[0] <= rr[1] < _math.inf):
            raise ValueError("%s: radius_range: expected (r_min, r_max) with 0 < r_min <= r_max (m), got %r"
                             % (what, radius_range))
        if meff is not None or reff is not None:
            raise ValueError("%s: radius_range varies the spheres' sizes: give radius and density (or mass), not meff "
                             "and reff" % (what,))
        options["r_min"], options["r_max"] = rr
    if r2_range is not None:
        rr2 = tuple(float(x) for x in r2_range)
        if len(rr2) != 2 or not (0 < rr2[0] <= rr2[1] < _math.inf):
            raise ValueError("%s: r2_range: expected (r2_min, r2_max) with 0 < r2_min <= r2_max (m), got %r"
                             % (what, r2_range))
        if radius_range is None:
            raise ValueError("%s: r2_range is body 2's own size range: give radius_range for body 1 as well "
                             "(r_min = r_max holds it at one size)" % (what,))
        options["r2_min"], options["r2_max"] = rr2
    if gravity is not None:
        if not (isinstance(gravity, _numbers.Real) and _math.isfinite(gravity) and gravity >= 0):
            raise ValueError("%s: gravity: the acceleration into the contact must be >= 0 (m/s^2), got %r"
                             % (what, gravity))
        options["gravity"] = float(gravity)
    if tangential is not None:
        if not isinstance(tangential, str):
            raise TypeError("%s: tangential must be a string (the code's own tangential clause)" % (what,))
        options["tangential"] = tangential
    for k, x in (("e11", e11), ("e22", e22)):
        if x is not None:
            if not (isinstance(x, _numbers.Real) and 0 < x < 1):
                raise ValueError("%s: %s: the %s pair's e must be in (0, 1), got %r" % (what, k, k[1] + "-" + k[2], x))
            options[k] = float(x)
    nums = [e, v, value, dt, r1, r2, rho1, rho2, m1, m2, meff, reff] + list(one_value_settings.values())
    nums += [None] * (len(_CODE_BODIES) + 4 + _CODE_SLOTS - len(nums))
    inputs = tuple(_opt(x) for x in nums)
    scalars = [_scalar(what, x) for x in inputs]
    if all(x is not None for x in scalars):
        try:
            return _c.code(tuple(scalars), options)
        except (ValueError, NumericalError):
            if on_error == "raise":
                raise
            nan = _run("code", inputs, _CODE_OUT, options, threads, "nan", ints=_CODE_INTS)
            return {k: nan[c] for k, c in _CODE_ARRAY["forward" if value is not None else "power"]}
    r = _run("code", inputs, _CODE_OUT, options, threads, on_error, ints=_CODE_INTS)
    stepped = bool((r["stepped"] == 1).any())
    kind = "steps" if stepped else "forward" if value is not None else "power"
    return {k: r[c] for k, c in _CODE_ARRAY[kind]}


def drop(code: str, model: Optional[str] = None, *, e: Optional[float] = None, value: Optional[float] = None,
         height: float = 1.0, bounces: int = 15, peak: float = 0.0, reading: str = "heights", releases: int = 16,
         t_max: float = 0.0, gravity: Optional[float] = None, option: Optional[str] = None,
         version: Optional[str] = None, integrator: Optional[str] = None, dt: Optional[float] = None,
         radius: Optional[float] = None, density: Optional[float] = None, mass: Optional[float] = None,
         meff: Optional[float] = None, reff: Optional[float] = None, settings: Optional[Dict[str, Any]] = None,
         **one_value_settings: float) -> Dict[str, Any]:
    """A drop test on one registry entry (`impactfit engine --drop HEIGHT`): the ball released from rest at
    `height` (m) above a plane under `gravity` (m/s^2; None: 9.81), stepped through every impact and flight with
    the code's own step map at dt (MuJoCo, ODE, Bullet; any other model raises ValueError).

    bounces: apexes to count (1..256); peak: an apex below it (m) ends the sequence uncounted; reading:
    "heights" (ln h_n on n fitted, h_0 the release height: e = exp(slope/2)) or "speeds" (the mean of
    v_out/v_in); releases: the fit's distribution over that many releases spread over one step of the first
    impact's travel; t_max: the simulated time (s; 0: no bound). e: the fitted e to solve for (on the release
    when its whole sequence is determined, else on the mean over the releases: "solved_on"); value: the free
    parameter's value instead (neither: the settings' own). The bodies, settings, model, option, version,
    integrator and dt as in impactfit.code (one sphere on the plane; scalars only).

    Returns a dict with the keys of `impactfit engine --drop H --json`: the sequence in "bounce" (n, apex,
    t_apex, v_in, v_out, phase, first_step, contact_steps, determined), "determined", "counted", "ends"
    (counted, low, rest, time), "e_fit" (this release's), "e_mean", "e_sd", "e_range" (over the releases),
    "value", "input" (the text to paste), "note".

    >>> d = impactfit.drop("mujoco", e=0.75, mass=0.5, radius=0.1, dt=1e-4, peak=0.002,
    ...                    settings={"solimp": (0.0001, 0.95, 0.001, 0.5, 2)})
    >>> d["solved_on"], d["e_fit"]   # ('release', 0.75...)"""
    what = "drop"
    if e is not None and value is not None:
        raise ValueError("%s: give e (the fitted e you want) or value (what you type), not both" % (what,))
    if reading not in ("heights", "speeds"):
        raise ValueError("%s: reading takes 'heights' or 'speeds', got %r" % (what, reading))
    if not (isinstance(height, _numbers.Real) and _math.isfinite(height) and height > 0):
        raise ValueError("%s: height: the release height must be > 0 (m), got %r" % (what, height))
    if not (isinstance(bounces, int) and 1 <= bounces <= 256):
        raise ValueError("%s: bounces must be an integer in [1, 256], got %r" % (what, bounces))
    if not (isinstance(releases, int) and 1 <= releases <= 4096):
        raise ValueError("%s: releases must be an integer in [1, 4096], got %r" % (what, releases))
    if not (isinstance(peak, _numbers.Real) and 0 <= peak < height):
        raise ValueError("%s: peak: the apex threshold must be >= 0 and below the height (m), got %r" % (what, peak))
    if not (isinstance(t_max, _numbers.Real) and _math.isfinite(t_max) and t_max >= 0):
        raise ValueError("%s: t_max must be >= 0 (s), got %r" % (what, t_max))
    if len(one_value_settings) > _CODE_SLOTS:
        raise ValueError("%s: at most %d one-value settings as keywords" % (what, _CODE_SLOTS))
    options: Dict[str, Any] = {"code": code, "pair": 0, "suggest": 0, "slots": tuple(one_value_settings),
                               "settings": dict(settings or {})}
    for k, x in (("model", model), ("option", option), ("version", version), ("integrator", integrator)):
        if x is not None:
            options[k] = x
    if gravity is not None:
        if not (isinstance(gravity, _numbers.Real) and _math.isfinite(gravity) and gravity >= 0):
            raise ValueError("%s: gravity: the acceleration into the contact must be >= 0 (m/s^2), got %r"
                             % (what, gravity))
        options["gravity"] = float(gravity)
    nums = [e, None, value, dt, radius, None, density, None, mass, None, meff, reff]
    nums += [float(x) for x in one_value_settings.values()]
    nums += [None] * (len(_CODE_BODIES) + 4 + _CODE_SLOTS - len(nums))
    inputs = tuple(float(_opt(x)) for x in nums)
    return _c.code_drop(inputs, options, (float(height), bounces, float(peak), float(t_max),
                                          1 if reading == "speeds" else 0, releases))


dem = code
engine = code


# ---- sweeps and fits on definition files ------------------------------------------------------------

def _table(text: str, name: str) -> Dict[str, Any]:
    import numpy as np
    cols, ok = _c.table(text, name)
    out = {k: np.frombuffer(b, dtype=np.float64).copy() for k, b in cols.items()}
    out["ok"] = np.frombuffer(ok, dtype=np.uint8).astype(bool)
    return out


def sweep(path: Union[str, "_os.PathLike[str]"], *, threads: int = 0) -> Dict[str, Any]:
    """Runs a sweep definition file (the CLI's `impactfit sweep FILE`; the README's "Sweeps and fits").

    Returns a dict: "columns" ({CSV column: NumPy array}, the table of `impactfit sweep FILE --out DIR`,
    with "ok" a bool array, False for failed points whose values are 0), "csv" (the CSV text, byte-identical
    to the CLI's for any thread count), "failures" ([(index, status, message)]) and "summary" (points,
    failed, rhs_evals, wall_seconds, threads, problem, hash)."""
    text, failures, summary = _c.sweep(_os.fspath(path), int(threads))
    return {"columns": _table(text, _os.fspath(path)), "csv": text, "failures": failures, "summary": summary}


def fit(path: Union[str, "_os.PathLike[str]"], data: Optional[Union[str, "_os.PathLike[str]"]] = None, *,
        threads: int = 0) -> List[Dict[str, Any]]:
    """Runs a fit definition file (the CLI's `impactfit fit FILE`) on the CSV of its sweep: `data` (a path),
    or, when None, the sweep named by the fit file run first. Returns one dict per stage: name, data, where,
    group, x, x2, y, rows_used, rows_failed and groups (each: group value or None, params {name: value},
    se {name: standard error}, n_points, chisq, rms, max_abs, max_rel, mean_abs, mean_rel, method)."""
    return _c.fit(_os.fspath(path), None if data is None else _os.fspath(data), int(threads))


# ---- the arguments every vectorised function shares, in each one's help text ------------------------

_SHARED_DOC = """

    Numbers: each numeric argument is a number (a Python or NumPy number) or an array-like of numbers (NumPy
    needed); strings raise TypeError. All numbers in: Python floats out; any array in: NumPy arrays of the
    broadcast shape.
    threads: OpenMP threads for an array call (0: OMP_NUM_THREADS or all cores).
    on_error: "raise" (default): invalid input raises ValueError, a numerical failure raises
    impactfit.NumericalError (an array call reports the lowest failing flat index); "nan": the failed points
    are NaN (counters too, as floats) and nothing is raised.
"""


def _add_shared_doc() -> None:
    import inspect
    for name in __all__:
        f = globals().get(name)
        if callable(f) and not isinstance(f, type) and f.__doc__ and "on_error" in inspect.signature(f).parameters \
                and not f.__doc__.endswith(_SHARED_DOC.rstrip()):
            f.__doc__ = f.__doc__.rstrip() + _SHARED_DOC


_add_shared_doc()
