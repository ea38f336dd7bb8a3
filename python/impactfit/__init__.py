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
    "rh_eps_refit", "dem", "engine", "sweep", "fit", "library_version", "__version__",
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
    """
    r = _run("copt", (n, e, _opt(k), _opt(mass), _opt(v)), _COPT_OUT,
             {"method": method, "tol": float(tol), "dimensional": int(bool(dimensional))}, threads, on_error,
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
    """
    r = _run("zhang_alpha", (n, m, e, _opt(k), _opt(mass), _opt(v)), _ZHANG_OUT,
             {"method": method, "tol": float(tol), "transition": transition}, threads, on_error,
             ints=("iterations", "rhs_evals"))
    return r if full else r["alpha"]


def zhang_lambda(n: ArrayLike, m: ArrayLike, e: ArrayLike, k: ArrayLike, mass: ArrayLike, v: ArrayLike, *,
                 transition: str = "C", method: str = "fast", tol: float = 1e-10, threads: int = 0,
                 on_error: str = "raise") -> FloatOrArray:
    """The damping lambda (N*s/m^(m+1)) of f = k d^n + lambda d^m d' that gives restitution e exactly:
    zhang_alpha(..., full=True)["lambda"]. k in N/m^n, mass in kg, v in m/s; see zhang_alpha."""
    return zhang_alpha(n, m, e, k, mass, v, transition=transition, method=method, tol=tol, full=True,
                       threads=threads, on_error=on_error)["lambda"]


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


# ---- DEM codes ---------------------------------------------------------------------------------------

_DEM_OUT = ("value", "e_naive", "reachable", "zeta", "C", "K", "R", "M", "e_real")


def dem(code: str, model: str, e: Optional[ArrayLike] = None, v: Optional[ArrayLike] = None, *,
        damping: Optional[str] = None, version: Optional[str] = None, limit: Optional[bool] = None,
        wall: bool = False, E: Optional[ArrayLike] = None, nu: Optional[ArrayLike] = None,
        radius: Optional[ArrayLike] = None, r1: Optional[ArrayLike] = None, r2: Optional[ArrayLike] = None,
        density: Optional[ArrayLike] = None, rho1: Optional[ArrayLike] = None, rho2: Optional[ArrayLike] = None,
        m1: Optional[ArrayLike] = None, m2: Optional[ArrayLike] = None, kn: Optional[ArrayLike] = None,
        vchar: Optional[ArrayLike] = None, tc: Optional[ArrayLike] = None, value: Optional[ArrayLike] = None,
        threads: int = 0, on_error: str = "raise") -> Dict[str, Any]:
    """The exact input that makes a real DEM code give the restitution e, head-on (`impactfit dem`).

    impactfit knows, per code, version and model, the normal force the code computes, F = K d^n + C d^m d',
    and whether it clamps the force at zero (the registry: `impactfit dem --list`). It solves for the damping
    C that gives e exactly at the impact speed v and converts it into the number the code takes.

    code: "lammps", "liggghts", "yade" or "chrono"; model: the code's model ("granular hertz/material",
    "gran/hertz/history", "hertz", "mindlin", ...); damping: the option where the model has several ("tsuji",
    "en", ...); version: the code's version (None: Debian 12's); limit: the code's force clamp (LAMMPS
    limit_damping, LIGGGHTS limitForce; None: the code's default); wall: a sphere against a fixed flat wall
    of the same material (r2, rho2, m2 are then ignored). An unknown code, version, model or damping raises
    ValueError listing what is known.

    Numbers (broadcast together): e (0 < e < 1, the restitution you want); v (m/s, the relative normal impact
    speed, or the sphere's speed at a wall); E (Pa), nu (models that take a material) or kn (the code's own
    stiffness, units in `impactfit dem --list`); radius or r1, r2 (m; r2 = r1 when not given); density or
    rho1, rho2 (kg/m^3; masses (4/3) pi r^3 rho) or masses m1, m2 (kg; m2 = m1); vchar (m/s, the
    characteristic velocity of LIGGGHTS/Chrono hooke; default v); tc (s, the contact time of YADE's
    ViscElMat(tc, en)). value instead of e: the forward problem, the real e the code gives for a typed value.

    Returns a dict of floats (scalar inputs) or arrays: value (the number to type; NaN when e is out of the
    model's reach), e_naive (the e the code gives when e itself is typed; NaN when the model takes no e),
    reachable (1/0), zeta (scaled damping), C (N*s/m^(m+1), the damping the code must compute), K (N/m^n),
    R (m, effective radius), M (kg, effective mass). With value= given: value, e_real, R, M. For scalar
    inputs also input (the exact text to paste into the code's input) and, when solving for e, note, and
    when e is out of reach alternative (None, or a dict: model, damping, value, input, note, end of another
    model of the same code that reaches e). Same values as `impactfit dem ... --json`."""
    if (e is None) == (value is None):
        raise ValueError("dem: give e (the restitution you want) or value (what you type), not both" if e is not None
                         else "dem: e is required (the restitution you want, 0 < e < 1), or value to see what a "
                         "typed value gives")
    if v is None:
        raise ValueError("dem: v is required (the impact speed, m/s)")
    if radius is not None and (r1 is not None or r2 is not None):
        raise ValueError("dem: give radius or r1/r2, not both")
    if density is not None and (rho1 is not None or rho2 is not None):
        raise ValueError("dem: give density or rho1/rho2, not both")
    if (m1 is not None or m2 is not None) and (density is not None or rho1 is not None or rho2 is not None):
        raise ValueError("dem: give densities or masses, not both")
    if limit not in (None, True, False):
        raise ValueError("dem: limit: expected None (the code's default), True or False, got %r" % (limit,))
    if radius is not None:
        r1 = r2 = radius
    if density is not None:
        rho1 = rho2 = density
    options: Dict[str, Any] = {"code": code, "model": model, "limit": -1 if limit is None else int(bool(limit)),
                               "wall": int(bool(wall))}
    if damping is not None:
        options["damping"] = damping
    if version is not None:
        options["version"] = version
    inputs = tuple(_opt(x) for x in (e, v, value, E, nu, r1, r2, rho1, rho2, m1, m2, kn, vchar, tc))
    r = _run("dem", inputs, _DEM_OUT, options, threads, on_error, ints=("reachable",) if value is None else ())
    if value is not None:
        r = {k: r[k] for k in ("value", "e_real", "R", "M")}
    else:
        del r["e_real"]
    if all(_is_scalar(x) for x in inputs) and r["R"] == r["R"]:  # a scalar call that succeeded
        t = _c.dem_text(tuple(float(x) for x in inputs), options)
        r["input"] = t["input"]
        if value is None:
            r["note"] = t["note"]
            if not r["reachable"]:
                r["alternative"] = t["alternative"]
    return r


def engine(code: str, e: Optional[float] = None, v: Optional[float] = None, *, mass: Optional[float] = None,
           density: Optional[float] = None, radius: float = 0.005, m2: Optional[float] = None,
           r2: Optional[float] = None, model: Optional[str] = None, version: Optional[str] = None,
           integrator: Optional[str] = None, dt: Optional[float] = None, value: Optional[float] = None,
           settings: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The exact contact input for a multibody or robotics engine at your time step (`impactfit engine`).

    impactfit knows, per engine (MuJoCo, Simbody, ODE, Bullet, Chrono), version and contact model, the
    contact law the engine's source computes and the engine's own one-step map, so it gives what the
    engine really returns at the step dt you run: e depends on where the first contact step falls, so
    the answer is the mean of e over that phase (an impact from a random height) with one impact's
    range. With e it solves for the model's free parameter (MuJoCo: solref's dampratio) whose mean e is
    e; with value (or neither) it gives the e of that value (or of the settings as they are).

    code: "mujoco", "simbody", "ode", "bullet", "chrono" (the registry: `impactfit engine --list`);
    model, version, integrator, dt (s): None for the engine's defaults; v: the impact speed (m/s,
    required); mass (kg) or density (kg/m^3) with radius (m) for the sphere; m2 and/or r2 for a second
    sphere (sphere-sphere; default: a sphere on a fixed plane); settings: the model's settings in the
    engine's own names, e.g. {"solref": (0.02, 1.0), "solimp": (0.9, 0.95, 0.001, 0.5, 2)}. An unknown
    code, version, model, integrator or setting raises ValueError listing what is known.

    Returns a dict with the keys of `impactfit engine --json`: value (the free parameter's value; NaN
    when unreachable), input (the text to paste), e_mean, e_min, e_max (e over the phase),
    e_continuous (dt -> 0), naive, naive_value, e_naive, e_naive_range (what the usual formula gives),
    reachable, e_reach_range, stable, dt_stable (the largest stable step when unstable), end, note,
    integrator, dt (NaN for an adaptive integrator, which has no time step: Simbody's), mass, run_here,
    source. Scalars only (one request per call).

    >>> r = impactfit.engine("mujoco", e=0.5, v=1.0, mass=0.001309)
    >>> r["input"]   # <geom solref="0.02 0.2470529..." .../>
    """
    if v is None:
        raise ValueError("engine: v (the impact speed, m/s) is required")
    if (mass is None) == (density is None):
        raise ValueError("engine: give the sphere's mass (kg) or its density (kg/m^3), one of them")
    for name, x in (("e", e), ("v", v), ("mass", mass), ("density", density), ("radius", radius), ("m2", m2),
                    ("r2", r2), ("dt", dt), ("value", value)):
        if x is not None and (isinstance(x, (str, bytes)) or not _is_scalar(x)):
            raise TypeError(f"engine: {name} must be a number (one request per call)")
    vol = 4.0 / 3.0 * 3.141592653589793
    m1 = float(mass) if mass is not None else vol * float(radius) ** 3 * float(density)
    plane = m2 is None and r2 is None
    rr2 = float(r2) if r2 is not None else float(radius)
    mm2 = float(m2) if m2 is not None else (m1 if density is None else vol * rr2 ** 3 * float(density))
    return _c.engine(code, version, model, integrator, _NAN if dt is None else float(dt),
                     _NAN if e is None else float(e), _NAN if value is None else float(value), float(v), plane,
                     float(radius), m1, _NAN if plane else rr2, _NAN if plane else mm2, dict(settings or {}))


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
        if callable(f) and not isinstance(f, type) and f.__doc__ and "on_error" in inspect.signature(f).parameters:
            f.__doc__ = f.__doc__.rstrip() + _SHARED_DOC


_add_shared_doc()
