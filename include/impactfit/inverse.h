/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — the inverse problem: the damping that gives a prescribed restitution.
 *
 * For the element f = k δ^n + c δ^m δ' (impact.h) and a target restitution e ∈ (0, 1], find the
 * damping with e_out = e to
 *     |e_out − e| ≤ tol·min(e, 1 − e).
 * For e > 1/2 that is |(1 − e_out) − (1 − e)| ≤ tol·(1 − e), met on 1 − e_out taken from the energy
 * balance (1 − e_out² = 2 × the energy dissipated and left in the spring, integrated without
 * cancellation): as e → 1, ζ ∝ 1 − e, and this keeps ζ (and c, λ, α) accurate to about tol relative
 * right up to e = 1, where a tolerance tol·e would leave ζ uncertain by tol·e/(1 − e). The reported
 * e_out is then 1 − (1 − e_out) rounded to double (within half a unit of 1's last place more).
 * e_out is the simulation of the returned damping at the engine's default tolerance (rtol 1e-13,
 * or finer), so it is what impactfit_impact_solve (`impactfit simulate`) gives for that damping
 * within the engine's stated accuracy. In the scaled variables of impact.h the problem
 * depends on (n, m, e, transition) only: find ζ with
 *     x'' + ζ x^m x' + ((n+1)/2) x^n = 0,  x(0) = 0, x'(0) = 1,  e_out(ζ) = e,
 * then c = ζ mass v / δ_m0^(m+1), δ_m0 = [(n+1) mass v²/(2k)]^(1/(n+1)) (docs/MODEL.md §2, §3).
 * e = 1 gives ζ = 0 without integrating.
 *
 * Two published parametrisations are thin wrappers:
 *  - c_opt (Poursina & Nikravesh 2020): m = 0, condition C; c_opt = ζ mass v / δ_m0, and
 *    c_opt ∝ mass^(n/(n+1)) v^((n−1)/(n+1)) k^(1/(n+1)) exactly.
 *  - α (Zhang et al. 2021): λ = 3 mass (m+1)(1−e) v/(4α) · [e mass (n+1) v²/(2k)]^(−(m+1)/(n+1))
 *    (their Eq. 53), i.e. λ* = 3(1−e)(m+1)/(4α) in their scaling and
 *    ζ = λ* e^(−(m+1)/(n+1)),  α = 3(1−e)(m+1) e^(−(m+1)/(n+1)) / (4ζ).
 *
 * e_out(ζ) decreases monotonically under C (measured over ζ ∈ [1e-3, 1e4] for m ∈ [0, 2]); under A
 * with m < n there is a critical damping beyond which the bodies never separate (e_out falls to 0
 * before it). While bracketing, "no separation" (no separation within 200 δ_m0/v, about 70
 * undamped contact durations, or a speed at δ = 0 below 1e-9 v) counts as too much damping; if the
 * target lies in a jump of e_out(ζ), or e_out is found not to be monotone, the solvers return
 * IMPACTFIT_ENOROOT with the reason instead of a number.
 *
 * Accuracy: the promise is about the exact restitution of the returned damping, not only about the
 * simulated e_out. A search stops at a simulation within 0.9 tol; the simulations run at an
 * integrator tolerance of tol/10 for e ≥ 0.05 (their e_out then within 0.05 tol of the exact
 * value), never looser than the engine's default 1e-13, and tighter below; where the integrator's error grows (e < 0.05, and conditions A and B
 * with m < n, near the critical damping), the accepted damping is simulated again at a tenth of
 * that tolerance and the search repeated at the finer one if the two differ by more than tol/5.
 * Measured (against the exact Kelvin–Voigt and Hunt–Crossley restitutions and simulations at
 * rtol 1e-15; n ∈ {1, 1.5, 2}, m ∈ {0, 1/4, n}, A and C, 40 values of e in [1e-4, 0.9999]): the
 * exact e of the returned ζ lies within 0.9 tol·min(e, 1 − e) of e for tol = 1e-6, 1e-8, 1e-10
 * and within 1.0 tol for 1e-11. Tighter tolerances (down to 1e-13) are accepted, but the
 * simulations' own accuracy (a few 1e-12 relative near e = 1e-4 or e = 1) then limits the result.
 *
 * Methods (constant type objects, looked up by name):
 *   bisect  bisection on ln ζ inside an expanding bracket: the papers' method, kept as the reference.
 *           It ignores every guess (the surrogate, the closed forms, zeta_guess, a continuation's)
 *           and brackets from ζ = 1 by growing steps, so its answer depends on the simulations only;
 *   fast    (default) a Newton step from a close initial guess, then secant steps until the root is
 *           bracketed and Brent's method (GSL) inside the bracket;
 *   nlopt   the papers' "minimise |e_out − e|" formulation: NLopt's BOBYQA on ln ζ minimising
 *           ((e_out − e)/e)² (((e_out − e)/(1 − e))² for e > 1/2) inside the bracket found as bisect
 *           finds it, stopped by the same test as the others; where BOBYQA stops short of it (on its
 *           step size, or rounding in its model), the tightest bracket of its own simulations is
 *           bisected, so that it returns the root the other methods find, or their diagnosis.
 * The three give the same root (within tol) or the same failure: tests/test_truth.c holds them to
 * that on a 490-point grid of zhang-alpha's box and a 98-point grid of copt's.
 * All three stop as soon as a simulated e_out is within 0.9 tol of e and return that simulation's
 * values (the finer one where the result was verified). With damping_only (fast, conditions C and D,
 * where no verification is needed) a simulation at the loose tolerance within 0.8 tol also stops it: the
 * tight simulation of the same damping would have stopped it (the error model above), so the
 * damping is the one returned without damping_only; tests/test_work.c holds them equal to the bit
 * on 2700 points (n, m, e, tol; C and D) and counts the work.
 */
#ifndef IMPACTFIT_INVERSE_H
#define IMPACTFIT_INVERSE_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct impactfit_root_method {
  const char *name;    /* "bisect", "fast", "nlopt" */
  const char *summary; /* one line */
} impactfit_root_method;

IMPACTFIT_EXPORT extern const impactfit_root_method *const impactfit_root_bisect;
IMPACTFIT_EXPORT extern const impactfit_root_method *const impactfit_root_fast;
IMPACTFIT_EXPORT extern const impactfit_root_method *const impactfit_root_nlopt;
/* Looks a method up by name; NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_root_method *impactfit_root_method_from_name(const char *name);

typedef struct impactfit_inverse_params {
  double n;                               /* spring exponent, > 0 */
  double m;                               /* damping exponent, ≥ 0 */
  const impactfit_transition *transition; /* default C */
  const impactfit_root_method *method;    /* default fast */
  double tol;                             /* |e_out − e| ≤ tol·min(e, 1 − e); default 1e-10, ≥ 1e-13 */
  int max_iter;                           /* simulations allowed per point; default 200 */
  int surrogate_guess;                    /* fast, nlopt: 1 (default): start from the committed c_opt surrogate
                                             (impactfit_committed_copt_zeta) where it applies (m = 0,
                                             C); 0: from the closed forms only (results then do not
                                             depend on the committed header) */
  int damping_only;                       /* 0 (default): the result reports the accepted simulation (e_out
                                             at the engine's default tolerance, what `simulate` gives);
                                             1: the caller uses the damping only, and the result's e_out,
                                             x_sep, t_contact (copt: e_out, delta_sep, t_contact) are NaN.
                                             The damping is the same double as with 0; the search may
                                             accept a simulation at its loose tolerance (tol/10) that
                                             lies within 0.8 tol, where the error model shows that the
                                             tight one would be accepted too (inverse.c, DAMPING_ONLY_ACCEPT):
                                             about two thirds of the work per point of a copt grid.
                                             impactfit_inverse_solve_run ignores it (its continuation
                                             reads every point's e_out) */
} impactfit_inverse_params;

IMPACTFIT_EXPORT impactfit_inverse_params impactfit_inverse_default_params(void);

typedef struct impactfit_inverse_result {
  double e;         /* the target */
  double zeta;      /* scaled damping ζ */
  double e_out;     /* restitution of the simulation at ζ */
  double x_sep;     /* penetration at separation, in units of δ_m0 */
  double t_contact; /* contact duration, in units of δ_m0 / v */
  int iterations;   /* simulations run for this point */
  long rhs_evals;   /* right-hand-side evaluations of those simulations */
} impactfit_inverse_result;

typedef struct impactfit_inverse_workspace impactfit_inverse_workspace;

IMPACTFIT_EXPORT impactfit_inverse_workspace *impactfit_inverse_alloc(void);
IMPACTFIT_EXPORT void impactfit_inverse_free(impactfit_inverse_workspace *ws); /* NULL: no-op */

/* Solves for ζ at one target e ∈ (0, 1]. zeta_guess > 0 replaces the built-in initial guess (not
 * for bisect, which starts from its own bracket).
 * Returns 0, EINVAL (bad parameters), ENOROOT (no ζ gives e; or, where e_out is so steep in ζ that
 * no double ζ meets tol — under A near the critical damping — the message gives e_out at the two
 * neighbouring dampings and the tolerance that can be met), ENOCONV (not within tol after
 * max_iter simulations), or the engine's failure. The simulations use the engine's own time bound
 * (as impactfit_impact_solve does by default), so "no separation" means the same in both. */
IMPACTFIT_EXPORT int impactfit_inverse_solve(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p,
                                             double e, double zeta_guess, impactfit_inverse_result *res,
                                             impactfit_error *err);

/* Solves a run of targets e[0..count) in order, each from an initial guess extrapolated from the
 * previous solutions (continuation): neighbouring targets cost about one or two simulations each.
 * status[i] (may be NULL) receives each point's status; the function returns 0 when every point was
 * solved, else the first failure's status (err describes it); the other points are still solved. */
IMPACTFIT_EXPORT int impactfit_inverse_solve_run(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p,
                                                 const double *e, size_t count, impactfit_inverse_result *res,
                                                 int *status, impactfit_error *err);

/* ---- the scale-invariant family m = (n − 1)/2: exact ----
 * With y = x^((n+1)/2) and the time ds = x^((n−1)/2) dτ, the scaled equation
 * x'' + ζ x^((n−1)/2) x' + ((n+1)/2) x^n = 0 becomes the linear oscillator
 *     y_ss + ζ y_s + ((n+1)/2)² y = 0,   y_s = ((n+1)/2) x',
 * and its force vanishes exactly where the original one does. So e_out is the Kelvin–Voigt
 * restitution with damping ratio ξ = ζ/(n+1):
 *     A, B:  e = exp(−π ξ/√(1 − ξ²))  (ξ < 1; for ξ ≥ 1 the bodies never separate),
 *     C, D:  e = exp(−2ξ θ/sin θ), θ = acos ξ  (ξ < 1);  exp(−2ξ φ/sinh φ), φ = acosh ξ  (ξ ≥ 1).
 * This covers the Hertz spring with a δ^(1/4) damper (n = 3/2, Tsuji's and the DEM codes' element)
 * and the linear spring–dashpot (n = 1), and is an exact reference for the general solvers. The
 * mapping and the tensile-end (A) inverse ξ = −ln e/√(π² + ln² e) are Antypov & Elliott 2011's for
 * n = 3/2 and Feng 2026's for every n (docs/BIBLIOGRAPHY.md); the clamped (C) branch is the
 * Kelvin–Voigt result below. */

/* e_out for n ≥ 1, m = (n − 1)/2, scaled damping ζ ≥ 0 and transition tr; ENOSEP under A/B
 * when ξ ≥ 1 (no separation). */
IMPACTFIT_EXPORT int impactfit_scale_invariant_e(double n, double zeta, const impactfit_transition *tr, double *e,
                                                 impactfit_error *err);
/* ζ with e_out = e for the same family (inverse of the above, to a few units of rounding). */
IMPACTFIT_EXPORT int impactfit_scale_invariant_zeta(double n, double e, const impactfit_transition *tr, double *zeta,
                                                    impactfit_error *err);

/* The Kelvin–Voigt restitution: the linear spring–dashpot f = k δ + c δ' (n = 1, m = 0), damping
 * ratio ξ = c/(2√(k mass)) (dimensionless), impact speed irrelevant. With ω = √(k/mass) the motion
 * is δ = v (e^(r1 t) − e^(r2 t))/(r1 − r2), r1,2 = ω(−ξ ± s), s = √(ξ² − 1):
 *     A, B:  contact ends where δ returns to 0, after half a damped period:
 *            e = exp(−π ξ/√(1 − ξ²))   (ξ < 1; for ξ ≥ 1 δ never returns to 0: ENOSEP);
 *     C, D:  contact ends where the force c δ' + k δ = −mass δ'' falls to 0, i.e. where
 *            r1² e^(r1 t) = r2² e^(r2 t): ω s t = 2 acosh ξ, and there −δ'/v = (r1/r2) e^(r1 t), so
 *            e = exp(−2ξ acosh ξ/√(ξ² − 1))   (ξ > 1),
 *            e = exp(−2ξ acos ξ/√(1 − ξ²))    (ξ < 1, by continuation to s = i√(1 − ξ²)),
 *            e(1) = e^−2, e(0) = 1.
 * The C branch with force-free separation is Butcher & Segalman 2000's and Schwager & Pöschel 2007's
 * (Poursina & Nikravesh 2020, Eq. (55), quote it; their over-damped branch is wrong, see docs/MODEL.md).
 * This is impactfit_scale_invariant_e at n = 1 (ζ = 2ξ), evaluated without cancellation through
 * ξ = 1 (θ = atan2(√((1 − ξ)(1 + ξ)), ξ), φ = log1p((ξ − 1) + √((ξ − 1)(ξ + 1))), and for ξ > 1e150
 * acosh ξ = ln 2ξ): a few units of rounding relative for every finite ξ ≥ 0. EINVAL for ξ not
 * finite or negative, or an unknown transition; ENOSEP under A/B for ξ ≥ 1.
 * tests/test_report_numerics.c: the closed forms above, and simulated impacts (impact.h). */
IMPACTFIT_EXPORT int impactfit_kv_e(double xi, const impactfit_transition *tr, double *e, impactfit_error *err);
/* Its inverse under A and B, in closed form: the damping ratio ξ = −ln e/√(π² + ln² e) of a linear
 * spring-damper whose contact ends at δ = 0 with restitution e ∈ (0, 1] (a zero at e = 1; NaN outside). The one
 * copy of the formula: the DEM codes' conversions (β = −ξ), the engines' naive inputs and the published
 * formulas call it. */
IMPACTFIT_EXPORT double impactfit_kv_damping_ratio(double e);

/* ---- c_opt (Poursina & Nikravesh 2020): m = 0, condition C ---- */

typedef struct impactfit_copt_result {
  double c_opt;     /* damping coefficient, N·s/m */
  double zeta;      /* its scaled value ζ = c_opt δ_m0 / (mass v) */
  double e_out;     /* restitution of the simulation with c_opt */
  double delta_sep; /* penetration at separation, m: δ_s = (v c_opt e_out / k)^(1/n) */
  double t_contact; /* contact duration, s */
  int iterations;
  long rhs_evals;
} impactfit_copt_result;

/* c_opt for spring exponent n, target e, stiffness k, mass and velocity v, through the scaled
 * problem (p->m and p->transition are ignored: m = 0, condition C). With dimensional != 0 the root
 * is searched on c itself with simulations in the user's units (for verification). */
IMPACTFIT_EXPORT int impactfit_copt_solve(impactfit_inverse_workspace *ws, const impactfit_inverse_params *p, double e,
                                          double k, double mass, double v, int dimensional, impactfit_copt_result *res,
                                          impactfit_error *err);

/* Converts a scaled solution to c_opt for given k, mass, v (no simulation). */
IMPACTFIT_EXPORT int impactfit_copt_from_zeta(double n, double zeta, double k, double mass, double v, double *c_opt,
                                              impactfit_error *err);

/* ---- α (Zhang et al. 2021) ---- */

/* α and λ* from a scaled solution ζ at target e < 1 (see the header comment). */
IMPACTFIT_EXPORT int impactfit_zhang_alpha_from_zeta(double n, double m, double e, double zeta, double *alpha,
                                                     double *lambda_star, impactfit_error *err);
/* λ = ζ mass v / δ_m0^(m+1) in the user's units (Zhang's Eq. 53 with the α found). */
IMPACTFIT_EXPORT int impactfit_lambda_from_zeta(double n, double m, double zeta, double k, double mass, double v,
                                                double *lambda, impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_INVERSE_H */
